package eval

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/match"
)

// TestLosses checks that the missed pairs of a clusters evaluation are
// counted by what split them: one retailer, a rule of the pair decision,
// the blocking.
func TestLosses(t *testing.T) {
	offers := []ClusterOffer{
		// One retailer's two listings never join.
		{ID: "r1", Cluster: "r", Retailer: "A", Brand: "Acme", Title: "Acme KX500 Kettle"},
		{ID: "r2", Cluster: "r", Retailer: "A", Brand: "Acme", Title: "Acme KX500 Kettle"},
		// Model-line numbers that differ: the pair decision refuses.
		{ID: "m1", Cluster: "m", Retailer: "A", Brand: "Zeta", Title: "Zeta Boom 3 Speaker"},
		{ID: "m2", Cluster: "m", Retailer: "B", Brand: "Zeta", Title: "Zeta Boom 4 Speaker"},
		// Different brands: never in one block.
		{ID: "b1", Cluster: "b", Retailer: "A", Brand: "Omni", Title: "Omni Q5 Tablet"},
		{ID: "b2", Cluster: "b", Retailer: "B", Brand: "Ultra", Title: "Ultra Q5 Tablet"},
	}
	r := Clusters(offers, match.Options{})
	got := losses(r, match.NewMatcher(r.items, r.opt))
	want := []Loss{{"rule: brand", 1}, {"rule: model-line", 1}, {lossRetailer, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("losses mismatch (-want +got):\n%s", diff)
	}
	var buf bytes.Buffer
	if err := (Output{W: &buf, Explain: true}).Clusters("c", r); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "missed pairs by what split them (3 in all)") || !strings.Contains(out, "33.3%  rule: model-line") {
		t.Errorf("output lacks the missed-pair classes:\n%s", out)
	}
}
