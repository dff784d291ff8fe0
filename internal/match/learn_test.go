package match

import (
	"slices"
	"strings"
	"testing"
)

func TestEmbeddedScorerLoads(t *testing.T) {
	s, err := loadScorer(scorerJSON)
	if err != nil {
		t.Fatalf("the shipped scorer does not load (run make train-matcher): %v", err)
	}
	if len(FeatureNames()) != featureCount {
		t.Errorf("%d feature names, %d features", len(FeatureNames()), featureCount)
	}
	if s.Threshold <= 0 || s.Threshold >= 1 {
		t.Errorf("threshold %v, want within (0, 1)", s.Threshold)
	}
}

func TestLoadScorerRefusesOtherFeatures(t *testing.T) {
	for _, in := range []string{
		`{"version":1,"features":["similarity"],"weights":[1],"bias":0,"threshold":0.5}`,
		`{"version":1,"features":[],"weights":[],"bias":0,"threshold":0.5}`,
		`not json`,
	} {
		if _, err := loadScorer([]byte(in)); err == nil {
			t.Errorf("loadScorer(%s) = nil error, want one", in)
		}
	}
}

// yes is a scorer that joins every pair the rules leave open.
func yes() *Scorer {
	n := len(FeatureNames())
	return &Scorer{Version: 1, Features: FeatureNames(), Weights: make([]float64, n), Bias: 10, Threshold: 0.5}
}

func TestScorerDecidesOnlyOpenPairs(t *testing.T) {
	tests := []struct {
		name   string
		a, b   Item
		open   bool
		reason string // the decision with a scorer that joins every open pair
	}{
		{
			name:   "a short title against a long one of the same model is open",
			a:      Item{Retailer: "A", Brand: "Acme", Title: "Acme Cinemax projector stand walnut"},
			b:      Item{Retailer: "B", Brand: "Acme", Title: "Acme Cinemax floor projector stand in walnut with cable tray and shelf"},
			open:   true,
			reason: "learned",
		},
		{
			name:   "model-line numbers that differ still veto",
			a:      Item{Retailer: "A", Brand: "Bosch", Title: "Bosch Serie 4 dishwasher"},
			b:      Item{Retailer: "B", Brand: "Bosch", Title: "Bosch Serie 6 dishwasher with cutlery drawer"},
			reason: "model-line",
		},
		{
			name:   "variant words that differ still veto",
			a:      Item{Retailer: "A", Brand: "Apple", Title: "Apple iPhone 15 Pro"},
			b:      Item{Retailer: "B", Brand: "Apple", Title: "Apple iPhone 15 Pro Max sim free"},
			reason: "variant",
		},
		{
			name:   "model codes that differ still veto",
			a:      Item{Retailer: "A", Brand: "Bosch", Title: "Bosch SMV50C10GB integrated dishwasher"},
			b:      Item{Retailer: "B", Brand: "Bosch", Title: "Bosch SMV68MD02G integrated dishwasher"},
			reason: "code",
		},
		{
			name:   "stated storage that differs still vetoes",
			a:      Item{Retailer: "A", Brand: "Apple", Title: "Apple iPhone 8 64GB", Specs: map[string]float64{"storage_gb": 64}},
			b:      Item{Retailer: "B", Brand: "Apple", Title: "Apple iPhone 8 256GB", Specs: map[string]float64{"storage_gb": 256}},
			reason: "specs",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Matcher{opt: Options{descriptions: true}, scorer: yes()}
			f, open := m.Features(tt.a, tt.b)
			if open != tt.open {
				t.Fatalf("Features open = %v, want %v", open, tt.open)
			}
			if open && len(f) != len(FeatureNames()) {
				t.Errorf("got %d features, want %d", len(f), len(FeatureNames()))
			}
			if d := m.Compare(tt.a, tt.b); d.Reason != tt.reason {
				t.Errorf("Compare reason = %q (same %v), want %q", d.Reason, d.Same, tt.reason)
			}
			rules := Matcher{opt: Options{descriptions: true}}
			if d := rules.Compare(tt.a, tt.b); d.Same {
				t.Errorf("the rules alone join the pair (%s); it is no test of the scorer", d.Reason)
			}
		})
	}
}

func TestFeaturesInRange(t *testing.T) {
	m := Matcher{opt: Options{descriptions: true}}
	f := m.features(ptr(profileOf(Item{Brand: "Acme", Title: "Acme Cinemax 200 stand 64GB"}, m.opt)),
		ptr(profileOf(Item{Title: "Cinemax 200 floor stand"}, m.opt)), codeEv{}, 0.4)
	if len(f) != len(FeatureNames()) {
		t.Fatalf("got %d features, want %d", len(f), len(FeatureNames()))
	}
	if i := slices.IndexFunc(f[:], func(v float64) bool { return v < 0 || v > 1 }); i >= 0 {
		t.Errorf("feature %s = %v, want within [0, 1]", FeatureNames()[i], f[i])
	}
}

func ptr(p profile) *profile { return &p }

// TestSharedModelWord checks which shared words of letters and digits the
// scorer reads as a model's name: not measures.
func TestSharedModelWord(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"Acme Lumix GH4 Camera Body", "Used Acme GH4 Body - Excellent", true},
		{"Acme EOS Rebel T5i Camera", "Acme Rebel T5i Kit", true},
		{"Acme Card 16GB Class 10", "Acme Flash 16GB Card", false},
		{"Acme Microwave 800W", "Acme Oven 800W", false},
		{"Acme Tripod 2.5kg", "Acme Tripod Head 2.5kg", false},
	}
	for _, tt := range tests {
		p := profileOf(Item{Brand: "Acme", Title: tt.a}, Options{})
		q := profileOf(Item{Brand: "Acme", Title: tt.b}, Options{})
		if got := sharedModelWord(&p, &q); got != tt.want {
			t.Errorf("sharedModelWord(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestModelsApart covers two phones named by short names that share
// nothing but specs: the learned scorer does not judge them.
func TestModelsApart(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"MOB/ Acme Vela M3 64G Cool Blue", "MOB/ ACME VELA X3 NFC 64G SHADOW GRAY", true}, // a storage written short
		{"Acme D850 Body 4K Video", "Acme Z 7 Body 4K Video", true},                        // a resolution
		{"Acme Vela M3 64G Cool Blue", "Acme Vela M3 64GB Blue", false},
		{"Acme EOS-M100 System Camera with 15-45mm IS STM Lens", "Acme EOS M5 Mirrorless Camera with 15-45mm IS STM", true}, // a name after a series' letters
	}
	for _, tt := range tests {
		cat := "Phones"
		if strings.Contains(tt.a, "Camera") || strings.Contains(tt.a, "Body") {
			cat = "Cameras"
		}
		p := profileOf(Item{Brand: "Acme", Category: cat, Title: tt.a}, Options{})
		q := profileOf(Item{Brand: "Acme", Category: cat, Title: tt.b}, Options{})
		if got := modelsApart(&p, &q, codeEvidence(&p, &q)); got != tt.want {
			t.Errorf("modelsApart(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestBrandFeatures checks the scorer's inputs that ask for one brand: a
// zoom's focal range, a model word, a short title within a long one.
func TestBrandFeatures(t *testing.T) {
	tests := []struct {
		name       string
		a, b       Item
		want, zero []string
	}{
		{
			name: "one zoom's range, one aperture missing",
			a:    Item{Brand: "Acme", Title: "Acme EF-S 10-22mm f/3.5-4.5 USM Lens"},
			b:    Item{Brand: "Acme", Title: "Acme EF-S wide-angle zoom lens 10-22mm 9518A002"},
			want: []string{"focal-range"}, zero: []string{"lens", "short-in-long"},
		},
		{
			name: "one range from two makers",
			a:    Item{Brand: "Acme", Title: "Acme EF 70-300mm f/4-5.6 Lens"},
			b:    Item{Brand: "Optix", Title: "Optix 70-300mm f/4-5.6 DG Macro for Acme"},
			zero: []string{"focal-range", "brand-model-word"},
		},
		{
			name: "one camera's model word",
			a:    Item{Brand: "Acme", Title: "Acme EOS 6D digital camera 8035B002"},
			b:    Item{Brand: "Acme", Title: "Used Acme 6D DSLR D - Good"},
			want: []string{"brand-model-word"}, zero: []string{"focal-range"},
		},
		{
			name: "a short title within a long one",
			a:    Item{Brand: "Acme", Title: "Acme Composite Cable"},
			b:    Item{Brand: "Acme", Title: "Acme HERO3 Composite Cable - ACMPS-301"},
			want: []string{"short-in-long"},
		},
	}
	names := FeatureNames()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Matcher{opt: Options{descriptions: true}}
			p, q := profileOf(tt.a, m.opt), profileOf(tt.b, m.opt)
			f := m.features(&p, &q, codeEvidence(&p, &q), m.similarity(&p, &q))
			for _, n := range tt.want {
				if f[slices.Index(names, n)] != 1 {
					t.Errorf("%s = %v, want 1", n, f[slices.Index(names, n)])
				}
			}
			for _, n := range tt.zero {
				if f[slices.Index(names, n)] != 0 {
					t.Errorf("%s = %v, want 0", n, f[slices.Index(names, n)])
				}
			}
		})
	}
}
