package ingest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
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

// TestOffersRead checks that listings read back in blocks are the ones
// added, whether their records lie together in the spill, apart (a long
// description between them), or out of order (two feeds read at once).
func TestOffersRead(t *testing.T) {
	sp := testSpill(t)
	st := newStore(sp)
	feeds := []*offers{newOffers(st), newOffers(st)}
	var want []match.Item
	var buf []byte
	for i := range 40 {
		f := feeds[i%2]
		l := catalog.Listing{Retailer: fmt.Sprint("R", i%2), OfferID: fmt.Sprint("o", i), Title: fmt.Sprintf("Acme X%d 16GB", i), Brand: "Acme", GTIN: fmt.Sprintf("%014d", i)}
		if i%5 == 0 {
			l.Description = strings.Repeat("d", maxGap+1)
		}
		specs := map[string]float64{"memory_gb": float64(i)}
		var err error
		if buf, err = f.add(&l, classify.Result{Category: "Laptops"}, specs, origin{}, buf); err != nil {
			t.Fatal(err)
		}
		want = append(want, match.Item{Retailer: l.Retailer, GTIN: l.GTIN, Brand: "Acme", Title: l.Title, Specs: specs, Category: "Laptops"})
	}
	if err := sp.flush(); err != nil {
		t.Fatal(err)
	}
	o := concat(st, feeds)
	order := make([]match.Item, len(want)) // want in the order concat gives
	for k := range o.sides {
		order[k] = want[2*(k%20)+k/20]
	}
	for _, idx := range [][]int{{0}, {0, 1, 2, 3, 4, 5}, {3, 7, 19, 20, 21, 39}, {1, 22}} {
		got := make([]match.Item, len(idx))
		if err := o.Read(idx, func(k int, it *match.Item) { got[k] = *it }); err != nil {
			t.Fatal(err)
		}
		for k, i := range idx {
			if diff := cmp.Diff(order[i], got[k]); diff != "" {
				t.Errorf("listing %d read back mismatch (-want +got):\n%s", i, diff)
			}
		}
	}
}

// TestTexts checks that strings kept in texts read back whole, whether
// they share a block, fill one, or are larger than one.
func TestTexts(t *testing.T) {
	var tx texts
	in := []string{"alpha-1", "", strings.Repeat("a", textBlock/2+1), strings.Repeat("b", textBlock/2+1), strings.Repeat("c", 2*textBlock), "gtin:0194253401230", "x"}
	refs := make([]text, len(in))
	for i, s := range in {
		refs[i] = tx.put(s)
	}
	for i, s := range in {
		if got := tx.get(refs[i]); got != s {
			t.Errorf("text %d read back %d bytes starting %.10q, want %d bytes starting %.10q", i, len(got), got, len(s), s)
		}
	}
	if len(tx.sealed) < 2 {
		t.Errorf("%d sealed blocks, want the strings spread over several", len(tx.sealed))
	}
}

// TestUpdatedRoundTrip checks that a listing's time reads back as it was
// given, the zero time included.
func TestUpdatedRoundTrip(t *testing.T) {
	o := newOffers(newStore(testSpill(t)))
	o.sides = make([]side, 1)
	for _, tm := range []time.Time{{}, time.Date(2026, 11, 1, 9, 30, 15, 123456789, time.UTC), time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2999, 12, 31, 23, 59, 59, 999999999, time.UTC)} {
		o.setUpdated(0, tm)
		if got := o.updated(0); got != tm {
			t.Errorf("updated %v (%#v), want %v", got, got, tm)
		}
	}
}
