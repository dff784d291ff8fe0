package match

import "testing"

// TestSimilarityBrandSpellings checks that two shops' spellings of one
// brand share its word, and only that brand's.
func TestSimilarityBrandSpellings(t *testing.T) {
	tests := []struct {
		name   string
		a, b   Item
		shared bool // the titles share every word
	}{
		{
			name:   "a brand's name cut short",
			a:      Item{Brand: "Fujifilm", Category: "Cameras", Title: "fuji xt4 camera body"},
			b:      Item{Brand: "Fujifilm", Category: "Cameras", Title: "fujifilm xt4 camera body"},
			shared: true,
		},
		{
			name: "a word that starts another brand's name",
			a:    Item{Brand: "Fujifilm", Category: "Cameras", Title: "fuji xt4 camera body"},
			b:    Item{Brand: "Fujitsu", Category: "Cameras", Title: "fujitsu xt4 camera body"},
		},
		{
			name: "the brand against a title that leaves it out",
			a:    Item{Brand: "Fujifilm", Category: "Cameras", Title: "fuji xt4 camera body"},
			b:    Item{Brand: "Fujifilm", Category: "Cameras", Title: "xt4 camera body"},
		},
		{
			name: "a word shorter than a brand's stem",
			a:    Item{Brand: "Fujifilm", Category: "Cameras", Title: "fuj xt4 camera body"},
			b:    Item{Brand: "Fujifilm", Category: "Cameras", Title: "fujifilm xt4 camera body"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Matcher{}
			p, q := profileOf(tt.a, m.opt), profileOf(tt.b, m.opt)
			if got := m.similarity(&p, &q) == 1; got != tt.shared {
				t.Errorf("similarity %v, want every word shared: %v", m.similarity(&p, &q), tt.shared)
			}
		})
	}
}
