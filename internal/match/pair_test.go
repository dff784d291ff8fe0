package match

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// compareCase is one pair for the pair decision and its expected verdict.
type compareCase struct {
	name       string
	a, b       Item
	wantSame   bool
	wantReason string
}

// runCompare checks each pair's verdict and reason, that the decision is
// symmetric, and that Same agrees with Compare.
func runCompare(t *testing.T, tests []compareCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.a, tt.b)
			if diff := cmp.Diff([2]any{tt.wantSame, tt.wantReason}, [2]any{got.Same, got.Reason}); diff != "" {
				t.Errorf("Compare(%q, %q) = %+v; mismatch (-want +got):\n%s", tt.a.Title, tt.b.Title, got, diff)
			}
			if back := Compare(tt.b, tt.a); back.Same != got.Same {
				t.Errorf("Compare is not symmetric: %+v one way, %+v the other", got, back)
			}
			if Same(tt.a, tt.b) != got.Same {
				t.Errorf("Same = %v, Compare.Same = %v", !got.Same, got.Same)
			}
			checkExplain(t, tt.a, tt.b, got)
		})
	}
}

// checkExplain checks that Explain decides as Compare did and that its
// trace ends with the rule that decided: its outcome is the verdict, and
// every rule before it passed.
func checkExplain(t *testing.T, a, b Item, want Decision) {
	t.Helper()
	m := Matcher{opt: Options{descriptions: true}}
	got := m.Explain(a, b)
	if got.Same != want.Same || got.Reason != want.Reason || got.Score != want.Score {
		t.Errorf("Explain = %+v, Compare = %+v", got, want)
	}
	if len(got.Trace) == 0 {
		t.Fatal("Explain gave no trace")
	}
	last := got.Trace[len(got.Trace)-1]
	if wantOutcome := map[bool]string{true: Merge, false: Split}[want.Same]; last.Outcome != wantOutcome {
		t.Errorf("last step %v, want outcome %s; trace:\n%s", last, wantOutcome, got.Trace)
	}
	for _, s := range got.Trace[:len(got.Trace)-1] {
		if s.Outcome != Pass {
			t.Errorf("step %v decided before the last; trace:\n%s", s, got.Trace)
		}
	}
	if want.Trace != nil {
		t.Errorf("Compare recorded a trace: %v", want.Trace)
	}
}

func TestCompare(t *testing.T) {
	tests := []compareCase{
		{
			name:     "one barcode",
			a:        Item{GTIN: "05012345678900", Title: "Sony WH-1000XM5"},
			b:        Item{GTIN: "05012345678900", Title: "Sony Headphones"},
			wantSame: true, wantReason: "gtin",
		},
		{
			name:       "two barcodes",
			a:          Item{GTIN: "05012345678900", Title: "Sony WH-1000XM5 Black"},
			b:          Item{GTIN: "05012345678917", Title: "Sony WH-1000XM5 Black"},
			wantReason: "barcode",
		},
		{
			name:     "model number in both titles, spelled differently",
			a:        Item{Brand: "Sony", Title: "Sony WH-1000XM5 Wireless Noise Cancelling Headphones"},
			b:        Item{Brand: "Sony", Title: "SONY WH1000XM5 Over-Ear Headphones"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "part number field against the title, with a region suffix",
			a:        Item{Brand: "Apple", MPN: "MXCR3B/A", Title: "Apple MacBook Air 13 M3 8GB 256GB Midnight"},
			b:        Item{Brand: "Apple", Title: "Apple MXCR3 MacBook Air 13-inch M3 Midnight"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a code spelled in pieces",
			a:        Item{Brand: "Beyerdynamic", Title: "Beyerdynamic DT 770 PRO 80 Ohm Studio Headphones"},
			b:        Item{Brand: "Beyerdynamic", Title: "Beyerdynamic Closed Studio Headphones DT770"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "different model numbers of one shape",
			a:          Item{Brand: "Sony", Title: "Sony KD-55X80L 55 inch 4K TV"},
			b:          Item{Brand: "Sony", Title: "Sony KD-65X85L 65 inch 4K TV"},
			wantReason: "code",
		},
		{
			name:       "different part numbers win over a shared model line code",
			a:          Item{Brand: "HP", MPN: "8019LEA#ABU", Title: "HP Victus 15-fa1 Gaming Laptop i5 8GB 512GB"},
			b:          Item{Brand: "HP", MPN: "8017NEA#ABU", Title: "HP Victus 15-fa1 Gaming Laptop i5 8GB 512GB"},
			wantReason: "code",
		},
		{
			name:       "a model line code does not join different processors",
			a:          Item{Brand: "HP", Title: "HP Victus 15-fa1 Gaming Laptop, Intel Core i5-12450H, 8GB RAM"},
			b:          Item{Brand: "HP", Title: "HP Victus 15-fa1 15.6in i7 8GB 1TB RTX 3050 Blue"},
			wantReason: "model-line",
		},
		{
			// Shops disagree on the series or the spin speed; a code this
			// long names one model.
			name:     "a long model code outranks a line's number a shop writes",
			a:        Item{Brand: "Acme", Title: "Acme WAT286H0GB Serie 6 9kg 1400 spin washing machine"},
			b:        Item{Brand: "Acme", Title: "Acme Serie 8 WAT286H0GB 9kg 1600rpm washing machine white"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "colour variants",
			a:          Item{Brand: "JBL", Title: "JBL Flip 6 Portable Bluetooth Speaker - Black"},
			b:          Item{Brand: "JBL", Title: "JBL Flip 6 Portable Bluetooth Speaker - Blue"},
			wantReason: "colour",
		},
		{
			name:       "stated storage",
			a:          Item{Brand: "Apple", Title: "Apple iPhone 15 128GB Black", Specs: map[string]float64{"storage_gb": 128}},
			b:          Item{Brand: "Apple", Title: "Apple iPhone 15 256GB Black", Specs: map[string]float64{"storage_gb": 256}},
			wantReason: "specs",
		},
		{
			name:       "Pro against Pro Max",
			a:          Item{Brand: "Apple", Title: "Apple iPhone 15 Pro 256GB Natural Titanium"},
			b:          Item{Brand: "Apple", Title: "Apple iPhone 15 Pro Max 256GB Natural Titanium"},
			wantReason: "variant",
		},
		{
			name:       "S23 against S23+",
			a:          Item{Brand: "Samsung", Title: "Samsung Galaxy S23 5G 128GB Phantom Black"},
			b:          Item{Brand: "Samsung", Title: "Samsung Galaxy S23+ 5G 128GB Phantom Black"},
			wantReason: "variant",
		},
		{
			name:       "S23 against S23 Ultra",
			a:          Item{Brand: "Samsung", Title: "Samsung Galaxy S23 5G 256GB Phantom Black"},
			b:          Item{Brand: "Samsung", Title: "Samsung Galaxy S23 Ultra 5G 256GB Phantom Black"},
			wantReason: "variant",
		},
		{
			name:       "Lite",
			a:          Item{Brand: "Nintendo", Title: "Nintendo Switch Console Turquoise"},
			b:          Item{Brand: "Nintendo", Title: "Nintendo Switch Lite Console Turquoise"},
			wantReason: "variant",
		},
		{
			name:       "Mini",
			a:          Item{Brand: "Apple", Title: "Apple iPad 64GB Wi-Fi Silver"},
			b:          Item{Brand: "Apple", Title: "Apple iPad mini 64GB Wi-Fi Silver"},
			wantReason: "variant",
		},
		{
			name:       "Pro 5 against Pro 6",
			a:          Item{Brand: "Lenovo", Title: "Lenovo Legion Pro 5 Gaming Laptop Grey"},
			b:          Item{Brand: "Lenovo", Title: "Lenovo Legion Pro 6 Gaming Laptop Grey"},
			wantReason: "model-line",
		},
		{
			name:       "Gen 2 against Gen 3",
			a:          Item{Brand: "Lenovo", Title: "Lenovo ThinkPad T14 Gen 2 Business Laptop"},
			b:          Item{Brand: "Lenovo", Title: "Lenovo ThinkPad T14 Gen 3 Business Laptop"},
			wantReason: "model-line",
		},
		{
			name:       "2nd generation against 3rd generation",
			a:          Item{Brand: "Apple", Title: "Apple AirPods (2nd generation) Wireless Earbuds"},
			b:          Item{Brand: "Apple", Title: "Apple AirPods (3rd generation) Wireless Earbuds"},
			wantReason: "model-line",
		},
		{
			name:       "graphics processors",
			a:          Item{Brand: "MSI", Title: "MSI Titan 18 HX Gaming Laptop RTX 4090 64GB RAM 2TB SSD"},
			b:          Item{Brand: "MSI", Title: "MSI Titan 18 HX Gaming Laptop RTX 4080 64GB RAM 2TB SSD"},
			wantReason: "model-line",
		},
		{
			name:       "measures",
			a:          Item{Brand: "Vogel's", Title: "Vogel's Comfort TV Wall Mount - 200 x 200 VESA"},
			b:          Item{Brand: "Vogel's", Title: "Vogel's Comfort TV Wall Mount - 400 x 400 VESA"},
			wantReason: "model-line",
		},
		{
			name:       "cases for different phones",
			a:          Item{Brand: "Olixar", Title: "Olixar Genuine Leather Wallet Case for iPhone 11 - Black"},
			b:          Item{Brand: "Olixar", Title: "Olixar Genuine Leather Wallet Case for Samsung Galaxy A35 5G - Black"},
			wantReason: "fit",
		},
		{
			name:     "a case with and without the word for",
			a:        Item{Brand: "tech21", Title: "tech21 EvoClear Case for iPhone 15 Pro Max"},
			b:        Item{Brand: "tech21", Title: "tech21 EvoClear Case iPhone 15 Pro Max", Category: "Phones", Accessory: true},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "different brands",
			a:          Item{Brand: "Sony", Title: "Sony Wireless Headphones Black"},
			b:          Item{Brand: "Bose", Title: "Bose Wireless Headphones Black"},
			wantReason: "brand",
		},
		{
			name:     "the same title words",
			a:        Item{Brand: "JBL", Title: "JBL Flip 6 Portable Bluetooth Speaker - Blue"},
			b:        Item{Brand: "JBL", Title: "JBL FLIP 6 Portable Speaker, Blue"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "few words in common",
			a:          Item{Brand: "Logitech", Title: "Logitech MX Master 3S Wireless Mouse"},
			b:          Item{Brand: "Logitech", Title: "Logitech Pebble Mouse 2 M350s"},
			wantReason: "title",
		},
		{
			name:       "an accessory is not its device",
			a:          Item{Brand: "Apple", Title: "Apple iPhone 15 Silicone Case with MagSafe", Category: "Phones", Accessory: true},
			b:          Item{Brand: "Apple", Title: "Apple iPhone 15 Silicone Black", Category: "Phones"},
			wantReason: "type",
		},
	}
	runCompare(t, tests)
}
