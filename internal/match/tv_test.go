package match

import "testing"

func TestScreenOfCode(t *testing.T) {
	tests := []struct{ code, want string }{
		{"OLED55C46LA", "55"},
		{"QE65Q80CATXXU", "65"},
		{"KD55X85L", "55"},
		{"55A6KTUK", "55"},
		{"TX50MX800B", "50"},
		{"C2420SF", ""},  // a digit after the two: no size
		{"ZX12C100", ""}, // too small for a screen
		{"ZXQWE55C", ""}, // five letters first
		{"55", ""},       // no letter after
		{"OLED5C", ""},   // one digit
		{"PX19C", "19"},  // the smallest size
	}
	for _, tt := range tests {
		if got := screenOfCode(tt.code); got != tt.want {
			t.Errorf("screenOfCode(%q) = %q, want %q", tt.code, got, tt.want)
		}
	}
}

// TestCompareTelevisionSizes checks that a television's model code and a
// title's stated size agree, or keep two sizes of one model apart.
func TestCompareTelevisionSizes(t *testing.T) {
	tv := func(retailer, title string) Item {
		return Item{Retailer: retailer, Brand: "Zentor", Category: "TVs", Title: title}
	}
	runCompare(t, []compareCase{
		{
			name:       "the code's size against another size stated",
			a:          tv("A", "Zentor OLED55B36LA 55 smart 4k ultra hd oled tv"),
			b:          tv("B", "Zentor OLED B3 65 inch 4k uhd smart oled tv"),
			wantReason: "model-line",
		},
		{
			name:     "the code's size and the size stated agree",
			a:        tv("A", "Zentor OLED55B36LA smart 4k ultra hd oled tv"),
			b:        tv("B", "Zentor OLED55B36LA 55 inch 4k uhd smart oled tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "an accessory's code gives no screen size",
			a:        Item{Retailer: "A", Brand: "Zentor", Category: "TVs", Accessory: true, Title: "Zentor WB55A wall bracket for 32 inch tv"},
			b:        Item{Retailer: "B", Brand: "Zentor", Category: "TVs", Accessory: true, Title: "Zentor WB55A wall bracket"},
			wantSame: true, wantReason: "code",
		},
	})
}
