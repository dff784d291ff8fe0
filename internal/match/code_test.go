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
		{"Action camera 4K60 5k30 1080p120 hypersmooth", nil}, // video modes
		{"Acme KFX33XW30G fridge freezer 287l 170litres 141ltr", []string{"KFX33XW30G"}},
		{"Acme ZWD8514 washer dryer 1400spin 1600upm 1200rpm 1250kwh", []string{"ZWD8514"}},
		{"Acme ZWD6125 washer dryer 6kg/5kg 8KG5KG freezer 20kg/24h", []string{"ZWD6125"}},
		// A lone letter before a number with letters that make no word.
		{"Acme R 28STM microwave 23 litres", []string{"R28STM"}},
		{"Acme kettle a 3cup x 12cm", nil},
		// A series' letters before a code that starts with a digit.
		{"Acme ZMT 84M451 microwave", []string{"84M451", "ZMT84M451"}},
		{"Acme microwave with 84M451", []string{"84M451"}},
		{"Gaming PC RTX 4070 RTX4070 GTX1660 i7-13700H Ryzen 7 7840HS", nil},
		{"Cable USB3 DDR5 HDMI2 Cat6 Cat5e IP68 Wi-Fi 6E AX3000 802.11ax", nil},
		{"Motherboard LGA1151 SKT1151 FCLGA2011 Socket2066", nil},
		{"Camera recording H264 H.265 X265 video", nil},
		// A letter and a number of other figures is a model's name.
		{"Acme Vista X100 compact camera", []string{"X100"}},
		// Three digits and letters that are no unit make a code; a count
		// and a unit do not.
		{"Acme 504PLONG long quick release plate", []string{"504PLONG"}},
		{"Acme 360degree 12channel 4gang adapter", nil},
		// A size glued to a model: no run of measures.
		{"Acme 65P635K smart tv 4K 1080P", []string{"65P635K"}},
		{"Acme 55A6G 55 inch 4K smart tv", []string{"55A6G"}},                   // no amps and grams
		{"Acme 55V5863DB 55 inch 4K smart tv", []string{"55V5863DB"}},           // no volts and decibels
		{"Acme power adapter 12V2A", nil},                                       // a run of measures
		{"Acme ZT9G2/64GB flash drive r100MB/s w15MB/s", []string{"ZT9G264GB"}}, // read and write speeds; a part number's storage
		{"Acme Vela 12 Pro 256G gold", nil},                                     // a phone's storage written short
		{"Acme Vela 20 Ultra ZM-N986B/DS 256GB white", []string{"ZMN986B"}},     // a dual-SIM market's letters
		// Processors in a device are components; sold on their own, their
		// numbers are the listing's codes.
		{"Laptop with Intel Core Ultra 7 155H Core i5 1235U Celeron N4500", nil},
		{"Intel Core Ultra 7 155H Core i5 1235U Celeron N4500", []string{"155H", "1235U", "N4500"}},
		// Measures written with a hyphen.
		{"4-gang surge protected extension lead 2-metre cable 12-channel mixer", nil},
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
		{"DHTS217", "DHTS217B", codesEqual},    // a colour letter
		{"5666C002", "5666C002AA", codesEqual}, // a region
		{"P950", "COOLPIXP950BK", codesEqual},  // a series name in front
		{"TZ90", "DCTZ90", codesEqual},         // a series' two letters in front
		{"55X85L", "KD55X85L", codesEqual},
		{"TLPA7017", "TLPA7017KIT", codesVariant}, // a kit is another product
		{"SRSXB100P", "SRSXB100W", codesVariant},  // colours
		{"BX750MI", "BX950MI", codesDiffer},       // another model
		{"Z50", "Z50BODY", codesWithin},           // a model name in a longer code
		{"HDRCX405", "475612", codesUnrelated},    // a model and an item number
		{"KD55X80L", "KD65X85L", codesDiffer},     // another size
		{"RT-AX86U", "GT-AXE16000", codesUnrelated},
		{"YAS209BK", "YAS209BL", codesEqual},          // black, spelled two ways
		{"AS301SIL", "AS301SL", codesEqual},           // silver, spelled two ways
		{"SRSXB13BK", "SRSXB13BLK", codesEqual},       // black, spelled two ways
		{"KD55X80K", "KD55X80L", codesVariant},        // model years, no colours
		{"JBLT510PNK", "JBLT510WH", codesVariant},     // pink and white
		{"HW-S60/XEU", "HWS60T", codesEqual},          // a region and a letter
		{"SMR177NZW", "SM-R177NZG/XEU", codesVariant}, // white and green
		{"A50", "GALAXYA50", codesEqual},              // a line's name glued before a short model name
		{"A50", "XA50", codesDiffer},                  // one letter in front is another model
		{"A50", "GALAXYA505", codesDiffer},
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
		{"TV Wall Bracket 400 x 400 VESA", []slot{{"#dim", "400x400"}}},
		{"Google Pixel 7a 128GB", []slot{{"pixel", "7a"}, {"#gb", "128"}}},
		{"Case for iPhone 15", []slot{{"@iphone", "15"}}},
		{"Apple Watch Sport Band - S/M", []slot{{"#band", "sm"}}},
		{"USB 3.0 Bluetooth 5.3 Windows 11", []slot{{"#os", "windows"}}},
		{"Internal Hard Drive 2-1/2\" SATA", []slot{{"#in", "2.5"}}},
		{"Hard Drive Enclosure 2 1/2 inch USB-C", []slot{{"#in", "2.5"}}},
		{"Inkjet Photo Paper 8-1/2 x 11 Letter", []slot{{"#dim", "8.5x11"}, {"#paper", "letter"}}},
		{"HDMI Cable 1.5m", []slot{{"#m", "1.5"}}},
		{"Stereo Soundbar 2.0 ch", []slot{{"#ch", "2.0"}}},
		{"Garmin Forerunner 255 S Smartwatch", []slot{{"forerunner", "255s"}}},
		{"HP Laptop 15s-fq5022na", nil},
		{"Canon PowerShot G7 X Mark III", []slot{{"mark", "3"}}},
		{"Glossy Photo Paper A3", []slot{{"#paper", "a3"}}},
		{"Logitech MX Master 3S for Mac", []slot{{"master", "3s"}, {"@#os", "mac"}}},
		{"Extension Lead 4-Gang Surge Protected", nil},
		{"Reusable Cable Ties Black 100 Straps", nil},
		{"Adapter A-1/2 Socket", nil},
		// A number before a unit word is a quantity; a measure is no
		// model-line word.
		{"Tall Freezer 211 litres Frost Free", nil},
		{"Garmin Venu 3 45mm Slate/Black", []slot{{"venu", "3"}}},
		{"Washing Machine 9kg 1400 spin", []slot{{"#kg", "9"}}},
		{"Dishwasher 13 place Serie 4", []slot{{"serie", "4"}}},
		{"Core i5 8400 2.8GHz", []slot{{"cpu", "i5"}, {"i5", "8400"}}},
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
	f.Add("400 x 400 7x 14.5\" 2nd gen S23+ 6.1in", "ht-s40r / b dt 770 010 02641 .12 sel50f18/sel50f18f", "", "/A", "-UK")
	f.Add("\xff\xfe ++ -- // \u2033\u00d7", "", "\u00e9", "\u2013", "A/B")
	f.Add("Drive 3-1/2\" Bay 8 1/2 x 11 1/0 -1/2 22-/2", "acc-trw/b HW-S60 / XEU yas209bl", "Black-Box", "NWE394BLACK", "hdhsbbzaa")
	f.Add("Leitz 5219 - WOW Tray, DSLR Camera with 16-50mm Lens - BL4471", "EPOS Adapt 260 MS SC660ANC", "Leitz", "HDH-S-GAZAA", "G29")
	f.Add("Tapo P304 Twin", "Acer N50-640 AC1200 TN2420", "TP-Link", "TAPOP304-2PK", "51MF1700AA001")
	// Titles as comparison sites print them, punctuation dropped.
	f.Add("canon eos 2000d twin lens kit 18 55 75 300 x t4 xf18 55mm", "huawei p 30 mate20pro 2020 40 hx700 a8f", "Canon", "", "")
	f.Add("lg oled55cx6la 55 g sync compatible 55a6g 4k60 hdr10+", "alpha 7 iii a7iii 24 2 megapixel fe 28 70mm", "LG_TV", "OLED55CX", "KD65AF8BU")
	f.Fuzz(func(t *testing.T, a, b, brand, mpn, model string) {
		// The brand's length picks a category, so the rules of each
		// category's listings are read too.
		category := [...]string{"", "Cameras", "TVs", "Phones"}[len(brand)%4]
		x := Item{Title: a, Brand: brand, MPN: mpn, Description: b, Category: category}
		y := Item{Title: b, Brand: brand, ModelNumber: model, Description: a, Category: category}
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

// FuzzIsSpecCode checks that isSpecCode, which tells most tokens apart
// without specCode, agrees with specCode on every token.
func FuzzIsSpecCode(f *testing.F) {
	for _, s := range []string{"16GB", "2X16GB", "3840X2160", "4K60", "8K120P", "1080P120", "1080P", "1080I",
		"50M", "1000M", "4X", "12XL", "55UN7400", "1400SPIN", "65", "", "X100", "720P6", "2160P2400", "4K", "10KFPS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := s != "" && isDigitByte(s[0]) && specCode.MatchString(s)
		if got := isSpecCode(s); got != want {
			t.Errorf("isSpecCode(%q) = %v, specCode says %v", s, got, want)
		}
	})
}

// TestIsSpecCodeAgreesWithSpecCode checks isSpecCode against specCode on
// numbers followed by every unit, dimension and video mode, and by what
// only starts like one.
func TestIsSpecCodeAgreesWithSpecCode(t *testing.T) {
	var tails []string
	for _, u := range append(specUnits, "", "K60", "K120P", "K60FPS", "K6", "P120", "P1200", "P", "I", "M", "XL", "X1",
		"X16GBS", "UN7400", "KD", "PX", "MM2", "IN1", "MAX", "PRO", "G", "A", "Z9") {
		tails = append(tails, u, "X16"+u, u+"S")
	}
	for _, num := range []string{"1", "12", "123", "720", "1080", "4320", "12345"} {
		for _, tail := range tails {
			s := num + tail
			if got, want := isSpecCode(s), specCode.MatchString(s); got != want {
				t.Errorf("isSpecCode(%q) = %v, specCode says %v", s, got, want)
			}
		}
	}
}
