package ingest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/match"
)

// TestItemRoundTrip checks that what a sync spills of a listing for
// grouping reads back as the matcher's item.
func TestItemRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		l     catalog.Listing
		specs map[string]float64
	}{
		{"every field", catalog.Listing{Brand: "Acme", MPN: "AC-100/B", ModelNumber: "AC100", Colour: "Grau", Title: "Acme AC100 16GB Laptop (Grau)"},
			map[string]float64{"ram_gb": 16, "screen_in": 15.6}},
		{"no specs", catalog.Listing{Title: "Acme kettle"}, nil},
		{"empty", catalog.Listing{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var it match.Item
			if err := readItem(string(appendItem(nil, &tt.l, tt.specs)), &it); err != nil {
				t.Fatal(err)
			}
			want := match.Item{Brand: tt.l.Brand, MPN: tt.l.MPN, ModelNumber: tt.l.ModelNumber, Colour: tt.l.Colour, Title: tt.l.Title, Specs: tt.specs}
			if diff := cmp.Diff(want, it); diff != "" {
				t.Errorf("item read back mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzReadItem checks that readItem reads any record without panicking
// and that what appendItem writes reads back unchanged.
func FuzzReadItem(f *testing.F) {
	f.Add("Acme", "Acme AC100 16GB", "ram_gb", 16.0)
	f.Add("", "", "", 0.0)
	f.Fuzz(func(t *testing.T, brand, title, spec string, v float64) {
		var it match.Item
		_ = readItem(brand+title, &it)
		_ = readRest(title, &catalog.Listing{})
		l := catalog.Listing{Brand: brand, Title: title}
		specs := map[string]float64{spec: v}
		if err := readItem(string(appendItem(nil, &l, specs)), &it); err != nil {
			t.Fatal(err)
		}
		if it.Brand != brand || it.Title != title || len(it.Specs) != 1 || !sameFloat(it.Specs[spec], v) {
			t.Errorf("read back %+v, want brand %q title %q %s=%v", it, brand, title, spec, v)
		}
	})
}

func sameFloat(a, b float64) bool { return a == b || a != a && b != b }
