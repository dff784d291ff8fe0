package match

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestTitleCodes(t *testing.T) {
	tests := []struct {
		title string
		want  []string // strong codes, in title order
	}{
		{"Sony WH-1000XM5 Wireless Headphones", []string{"WH1000XM5"}},
		{"Sony Bravia KD-55X80L 55 inch 4K TV", []string{"KD55X80L"}},
		{"Samsung Galaxy S24 SM-S921B 128GB", []string{"SMS921B"}},
		{"Lenovo IdeaPad Slim 3 82XF001UUK", []string{"82XF001UUK"}},
		{"Apple MacBook Air MXCR3B/A", []string{"MXCR3"}},
		// Specs, standards and components are no codes.
		{"Laptop 16GB 512GB 144Hz 1080p 65W 2x16GB 3840x2160", nil},
		{"Gaming PC RTX 4070 RTX4070 GTX1660 i7-13700H Ryzen 7 7840HS", nil},
		{"Cable USB3 DDR5 HDMI2 Cat6 Cat5e IP68 Wi-Fi 6E AX3000 802.11ax", nil},
		{"Intel Core Ultra 7 155H Core i5 1235U Celeron N4500", nil},
		// Measures written with a hyphen.
		{"6-outlet surge protector 3-foot cable 22-channel radio", nil},
		// Model-line names ("Book4", "Watch6") are weaker: not strong codes.
		{"Samsung Galaxy Book4 Pro Watch6", nil},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			p := profileOf(Item{Title: tt.title}, Options{})
			var got []string
			for _, c := range p.codes {
				if c.kind == codeStrong {
					got = append(got, c.s)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("codes of %q mismatch (-want +got):\n%s", tt.title, diff)
			}
		})
	}
}

func TestRelate(t *testing.T) {
	tests := []struct {
		a, b string
		want codeRelation
	}{
		{"WH1000XM5", "WH1000XM5", codesEqual},
		{"TXSR606", "TXSR606B", codesEqual},       // a colour letter
		{"5035B001", "5035B001AA", codesEqual},    // a region
		{"P6000", "COOLPIXP6000BK", codesEqual},   // a series name in front
		{"PLA401V3", "PLA401V3KIT", codesVariant}, // a kit is another product
		{"DVPFX820P", "DVPFX820W", codesVariant},  // colours
		{"BE750G", "BE450G", codesDiffer},         // another model
		{"D90", "D90BODY", codesWithin},           // a model name in a longer code
		{"SLRC202", "133827", codesUnrelated},     // a model and an item number
		{"KD55X80L", "KD65X85L", codesDiffer},     // another size
		{"RT-AX86U", "GT-AXE16000", codesUnrelated},
		{"RXV863BK", "RXV863BL", codesEqual},    // black, spelled two ways
		{"NXU10SIL", "NXU10SL", codesEqual},     // silver, spelled two ways
		{"SRSA212BK", "SRSA212BLK", codesEqual}, // black, spelled two ways
		{"KD55X80K", "KD55X80L", codesVariant},  // model years, no colours
		{"CVEM79PNK", "CVEM79WH", codesVariant}, // pink and white
		{"HT-Z410/XAA", "HTZ410T", codesEqual},  // a region and a letter
		{"YPS2ZW", "YP-S2ZG/XAA", codesVariant}, // white and green
	}
	for _, tt := range tests {
		a, b := NormalizePart(tt.a), NormalizePart(tt.b)
		if got := relate(a, b); got != tt.want {
			t.Errorf("relate(%q, %q) = %d, want %d", a, b, got, tt.want)
		}
		if got := relate(b, a); got != tt.want {
			t.Errorf("relate(%q, %q) = %d, want %d (not symmetric)", b, a, got, tt.want)
		}
	}
}

func TestSlots(t *testing.T) {
	tests := []struct {
		title string
		want  []slot
	}{
		{"Lenovo Legion Pro 5 Gen 8", []slot{{"pro", "5"}, {"gen", "8"}}},
		{"Samsung Galaxy S23 Ultra", []slot{{"s", "23"}}},
		{"Apple AirPods (3rd generation)", []slot{{"gen", "3"}}},
		{"Laptop Core i7, RTX 4070 Ti", []slot{{"cpu", "i7"}, {"gpu", "rtx4070ti"}}},
		{"Screen 81 x 108 video format", []slot{{"#dim", "81x108"}}},
		{"Google Pixel 7a 128GB", []slot{{"pixel", "7a"}, {"#gb", "128"}}},
		{"Case for iPhone 15", []slot{{"@iphone", "15"}}},
		{"Apple Watch Sport Band - S/M", []slot{{"#band", "sm"}}},
		{"USB 3.0 Bluetooth 5.3 Windows 11", []slot{{"#os", "windows"}}},
		{"Weber Performer 22-1/2\" Charcoal Grill", []slot{{"#in", "22.5"}}},
		{"Weber Performer 22 1/2 inch Charcoal Grill", []slot{{"#in", "22.5"}}},
		{"Copy Paper 8-1/2 x 11 Letter", []slot{{"#dim", "8.5x11"}, {"#paper", "letter"}}},
		{"HDMI Cable 1.5m", []slot{{"#m", "1.5"}}},
		{"Fridge Freezer 4.0 cu ft", []slot{{"#cu", "4.0"}}},
		{"TomTom XL 330 S Sat Nav", []slot{{"xl", "330s"}}},
		{"Office Home and Student 79G-00007", nil},
		{"Canon EOS 5D Mark III", []slot{{"mark", "3"}}},
		{"Wallet File Legal", []slot{{"#paper", "legal"}}},
		{"Illustrator CS3 for Mac", []slot{{"cs", "3"}, {"@#os", "mac"}}},
		{"Office Paper 3-Hole Punched", nil},
		{"Accounting Book Black Burgundy 150 Green Pages", nil},
		{"Adapter A-1/2 Socket", nil},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			p := profileOf(Item{Title: tt.title}, Options{})
			if diff := cmp.Diff(tt.want, p.slots, cmp.AllowUnexported(slot{})); diff != "" {
				t.Errorf("slots of %q mismatch (-want +got):\n%s", tt.title, diff)
			}
		})
	}
}

func FuzzCompare(f *testing.F) {
	f.Add("Sony WH-1000XM5 Headphones - Black", "SONY WH1000XM5, Black", "Sony", "WH-1000XM5/B", "")
	f.Add("Case for iPhone 15 Pro Max 256GB", "iPhone 15 Pro Max Case", "Apple", "", "MXCR3B/A")
	f.Add("81 x 108 7x 14.5\" 2nd gen S23+ 6.1in", "dav-is50 / b rs 130 1eg0 .052.00 tmrbt10/tmrbt10a", "", "/A", "-UK")
	f.Add("\xff\xfe ++ -- // \u2033\u00d7", "", "\u00e9", "\u2013", "A/B")
	f.Add("Weber 22-1/2\" Grill 8 1/2 x 11 1/0 -1/2 22-/2", "lcs-csl/b HT-Z410 / XAA rxv863bl", "U.S. Brown Bear", "COM2BLACK", "ndsusgskb")
	f.Fuzz(func(t *testing.T, a, b, brand, mpn, model string) {
		x := Item{Title: a, Brand: brand, MPN: mpn, Description: b}
		y := Item{Title: b, Brand: brand, ModelNumber: model, Description: a}
		d := Compare(x, y)
		if back := Compare(y, x); back.Same != d.Same {
			t.Errorf("Compare(%q, %q) = %+v, reversed %+v", a, b, d, back)
		}
		if d.Score < 0 || d.Score > 1 {
			t.Errorf("score %v out of [0, 1]", d.Score)
		}
		if !Compare(x, x).Same && strings.TrimSpace(a) != "" && utf8.ValidString(a) {
			t.Logf("a listing differs from itself: %q %+v", a, Compare(x, x))
		}
		Group([]Item{x, y, x})
	})
}

func FuzzNormalizePart(f *testing.F) {
	for _, s := range []string{"WH-1000XM5", "MXCR3LL/A", "KD-55X80L-UK", "a/b", "", "\xff/A", "é-gb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizePart(s)
		if NormalizePart(n) != n && len(n) >= 4 {
			// Folding again may only strip what now reads as a region.
			if !strings.HasPrefix(n, NormalizePart(n)) {
				t.Errorf("NormalizePart(%q) = %q, again %q", s, n, NormalizePart(n))
			}
		}
		for _, r := range n {
			if r == '-' || r == '/' || r == ' ' {
				t.Errorf("NormalizePart(%q) = %q keeps a separator", s, n)
			}
		}
	})
}
