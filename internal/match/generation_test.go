package match

import "testing"

// TestCompareCameraGenerations covers a line's generations as shops write
// them: a maker's "M" and digit, a Roman numeral, or none for the first.
func TestCompareCameraGenerations(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "a maker's M and digit glued on is the generation's numeral",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme a7m3 body only"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme alpha a7 iii compact system camera body only"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "and tells the generations apart",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme a7m3 body only"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme a7 ii body"},
			wantReason: "model-line",
		},
		{
			name:       "after a line's letter too",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme a7rm4 body"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme a7r iii body"},
			wantReason: "model-line",
		},
		{
			name: "a Mark and a card's storage shared by two models",
			a: Item{Brand: "Acme", Category: "Cameras", Title: "Acme EOS 6D Mk II DSLR Camera Body + Case + 32GB SDHC",
				Specs: map[string]float64{"storage_gb": 32}},
			b: Item{Brand: "Acme", Category: "Cameras", Title: "Acme G7X MkII Compact Camera black with 32GB Card",
				Specs: map[string]float64{"storage_gb": 32}},
			wantReason: "title",
		},
		{
			name:       "a numeral glued to a number after the line's letter",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Z 7 + Z 24-70mm f/4 S"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "BRAND NEW ACME Z 7II / Interchangeable Lens Camera / Z 24-70mm f/4 S / Black"},
			wantReason: "model-line",
		},
		{
			name:       "a resolution both state is no model's name",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "ACME D850 - BODY - 45.7MP, FULL FRAME, 4K VIDEO, BLACK"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Z 7 body only - 45.7MP, Full Frame, 4K Video, Black"},
			wantReason: "title",
		},
		{
			name:       "a short name without a generation is the first of its line",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme z6 ii body"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme z6 body"},
			wantReason: "model-line",
		},
		{
			name:       "written apart as well",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme z6 ii body"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme z 6 body"},
			wantReason: "model-line",
		},
		{
			name:       "against the maker's M and digit",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme lumix gh5m2 body"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme lumix gh5 body"},
			wantReason: "model-line",
		},
		{
			name:     "the numeral glued on is the numeral written apart",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme z6 ii body"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme z6ii mirrorless camera body"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a generation before a zoom makes the title a kit",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme alpha 7 iii body only black"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme ilce 7m3k alpha 7 iii 28 70mm oss lens"},
			wantReason: "edition",
		},
		{
			name:     "while a lens's comes after its range",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme ef 70-200mm f/2.8l is iii usm lens"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme 70-200mm f2.8 l is iii usm"},
			wantSame: true, wantReason: "model-name",
		},
	})
}
