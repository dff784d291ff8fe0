package ingest

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"productsearch/internal/catalog"
	"productsearch/internal/demo"
	"productsearch/internal/extract"
	"productsearch/internal/normalize"
)

// demoCatalog generates the demo feed set, syncs it, and returns the
// snapshot, the report and the ground truth keyed by offer id.
func demoCatalog(t *testing.T) (*catalog.Snapshot, *Report, map[string]demo.TruthRow, []demo.TruthRow) {
	t.Helper()
	if testing.Short() {
		t.Skip("generates and indexes the full demo set; skipped in -short mode")
	}
	dir := t.TempDir()
	if _, err := demo.Generate(dir, demo.Options{Seed: 1, Scale: 1}); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(filepath.Join(dir, "retailers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "catalog.snapshot")
	rep, err := Sync(context.Background(), Options{Config: cfg, Out: out, Now: syncTime})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := catalog.ReadSnapshot(out)
	if err != nil {
		t.Fatal(err)
	}
	truth, err := demo.ReadTruth(filepath.Join(dir, "truth.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	slugs := map[string]string{}
	for _, r := range cfg.Retailers {
		slugs[r.Name] = r.Slug
	}
	byOffer := map[string]demo.TruthRow{}
	for _, row := range truth {
		if row.Reject == "" {
			byOffer[normalize.OfferID(slugs[row.Retailer], row.MerchantID)] = row
		}
	}
	return snap, rep, byOffer, truth
}

// TestDemoEndToEnd indexes the demo feed set and measures the catalog
// against the generator's ground truth.
func TestDemoEndToEnd(t *testing.T) {
	snap, rep, byOffer, truth := demoCatalog(t)

	// Counts: every row meant to be kept is an offer, no rejected row is.
	rejected, kept := 0, 0
	for _, row := range truth {
		if row.Reject != "" {
			rejected++
		} else {
			kept++
		}
	}
	offers := 0
	for _, p := range snap.Products {
		for _, o := range p.Offers {
			offers++
			if _, ok := byOffer[o.ID]; !ok {
				t.Errorf("offer %s (%q) is not a row the truth keeps", o.ID, o.Title)
			}
		}
	}
	reportRejected := 0
	for _, rr := range rep.Retailers {
		reportRejected += total(rr.Rejected)
	}
	t.Logf("rows %d, kept by truth %d, offers %d; rejected by truth %d, by report %d", len(truth), kept, offers, rejected, reportRejected)
	if offers != kept {
		t.Errorf("%d offers, truth keeps %d rows", offers, kept)
	}
	if reportRejected != rejected {
		t.Errorf("report rejects %d rows, truth %d", reportRejected, rejected)
	}
	trueProducts := map[string]bool{}
	for _, row := range byOffer {
		trueProducts[row.Product] = true
	}
	t.Logf("products: %d built, %d true", len(snap.Products), len(trueProducts))
	if len(snap.Products) < 26000 {
		t.Errorf("%d products, the demo catalog must hold at least 26,000", len(snap.Products))
	}

	// Grouping: pairwise precision and recall over offers.
	pred := map[string]string{}
	for _, p := range snap.Products {
		for _, o := range p.Offers {
			pred[o.ID] = p.ID
		}
	}
	pr, rc := pairwise(pred, byOffer)
	f1 := 2 * pr * rc / (pr + rc)
	t.Logf("grouping: pairwise precision %.4f recall %.4f F1 %.4f", pr, rc, f1)
	if f1 < 0.99 {
		t.Errorf("grouping pairwise F1 %.4f, want >= 0.99", f1)
	}

	// Category and product type of each product against its offers' truth.
	wrongCat, wrongType := 0, 0
	for _, p := range snap.Products {
		row := byOffer[p.Offers[0].ID]
		if p.Category != row.Category {
			wrongCat++
			if wrongCat <= 5 {
				t.Logf("category %q, truth %q: %s", p.Category, row.Category, p.Title)
			}
		}
		if p.ProductType != row.ProductType {
			wrongType++
		}
	}
	catAcc := 1 - float64(wrongCat)/float64(len(snap.Products))
	typeAcc := 1 - float64(wrongType)/float64(len(snap.Products))
	t.Logf("category accuracy %.4f, product type accuracy %.4f", catAcc, typeAcc)
	if catAcc < 0.99 || typeAcc < 0.99 {
		t.Errorf("category accuracy %.4f, product type accuracy %.4f; want >= 0.99", catAcc, typeAcc)
	}

	// Extraction: each offer's title against what the truth says it states.
	var ex extractScore
	for _, p := range snap.Products {
		for _, o := range p.Offers {
			row := byOffer[o.ID]
			got := extract.Title(o.Title, extract.Context{Category: row.Category, Accessory: row.ProductType == catalog.TypeAccessory})
			ex.add(t, o.Title, got, row.TitleAttributes)
		}
	}
	precision, recall := ex.rates()
	t.Logf("title extraction: precision %.4f recall %.4f (%d values stated, %d read, %d wrong)", precision, recall, ex.stated, ex.read, ex.wrong)
	if precision < 0.995 || recall < 0.95 {
		t.Errorf("title extraction precision %.4f recall %.4f; want >= 0.995 and >= 0.95", precision, recall)
	}

	// Product attributes: a confirmed value must be the true one.
	confirmedWrong, confirmed := 0, 0
	for _, p := range snap.Products {
		truthAttrs := byOffer[p.Offers[0].ID].Attributes
		for name, a := range p.Attributes {
			if a.Status != catalog.Confirmed {
				continue
			}
			confirmed++
			if v, ok := truthAttrs[name]; !ok || !same(v, a.Value) {
				confirmedWrong++
			}
		}
	}
	t.Logf("confirmed attributes: %d, wrong %d", confirmed, confirmedWrong)
	if confirmed == 0 || float64(confirmedWrong)/float64(confirmed) > 0.005 {
		t.Errorf("%d of %d confirmed attributes are wrong", confirmedWrong, confirmed)
	}
}

// pairwise returns the precision and recall of the predicted grouping over
// all pairs of offers, against the true products.
func pairwise(pred map[string]string, truth map[string]demo.TruthRow) (precision, recall float64) {
	count := func(keyOf func(id string) string) (pairs map[string]int) {
		pairs = map[string]int{}
		for id := range pred {
			pairs[keyOf(id)]++
		}
		return pairs
	}
	choose2 := func(m map[string]int) int {
		n := 0
		for _, c := range m {
			n += c * (c - 1) / 2
		}
		return n
	}
	predPairs := choose2(count(func(id string) string { return pred[id] }))
	truePairs := choose2(count(func(id string) string { return truth[id].Product }))
	bothPairs := choose2(count(func(id string) string { return pred[id] + "\x00" + truth[id].Product }))
	return float64(bothPairs) / float64(max(predPairs, 1)), float64(bothPairs) / float64(max(truePairs, 1))
}

type extractScore struct{ stated, read, right, wrong int }

func (s *extractScore) add(t *testing.T, title string, got extract.Values, want map[string]float64) {
	s.stated += len(want)
	for name, v := range got {
		s.read++
		if w, ok := want[name]; ok && same(w, v) {
			s.right++
			continue
		}
		s.wrong++
		if s.wrong <= 10 {
			t.Logf("extract %q: %s = %v, truth %v", title, name, v, fmt.Sprint(want))
		}
	}
}

func (s *extractScore) rates() (precision, recall float64) {
	return float64(s.right) / float64(max(s.read, 1)), float64(s.right) / float64(max(s.stated, 1))
}

func same(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
