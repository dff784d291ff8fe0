package match

import (
	"slices"
	"strings"
	"testing"
)

// TestCameraReading checks the aperture read from a chunk and the numerals
// cut from a camera's name, and that appliance codes stay whole.
func TestCameraReading(t *testing.T) {
	apertures := []struct{ chunk, want string }{
		{"f/2.8", "2.8"}, {"f/4-5.6", "4-5.6"}, {"f4-5.6l", "4-5.6"}, {"f/1.8g", "1.8"}, {"f1.4", "1.4"},
		{"f/4", "4"}, {"f60", ""}, {"f4", ""}, {"f/45", ""}, {"fx100", ""},
	}
	for _, tt := range apertures {
		if got := aperture(tt.chunk); got != tt.want {
			t.Errorf("aperture(%q) = %q, want %q", tt.chunk, got, tt.want)
		}
	}
	ranges := []struct {
		a, b, want string
		ok         bool
	}{
		{"18", "55mm", "18-55mm", true}, {"70", "300mm", "70-300mm", true}, {"14", "24mm", "14-24mm", true},
		{"f/4", "5.6", "f/4-5.6", true}, {"f/3.5", "6.3", "f/3.5-6.3", true},
		{"2", "60mm", "", false}, {"50", "60mm", "", false}, {"f/5.6", "4", "", false}, {"f4", "5.6", "", false},
		{"f/4l", "5.6", "", false}, {"f/4-5.6", "6.3", "", false}, {"18", "55", "", false},
	}
	for _, tt := range ranges {
		if got, ok := joinedRange(tt.a, tt.b); ok != tt.ok || ok && got != tt.want {
			t.Errorf("joinedRange(%q, %q) = %q, %v, want %q, %v", tt.a, tt.b, got, ok, tt.want, tt.ok)
		}
	}
	for _, title := range []string{"Acme EF zoom lens - 24 mm 70 mm", "acme ef zoom lens 24 mm 70mm", "acme ef 24 70mm lens", "Acme EF 24-70mm Lens",
		"acme eos 1300d ef s 24 70 mm is ii"} { // the unit apart from a range without its hyphen
		cs := joinRanges(mergeFractions(chunks(foldTitle(title))))
		if n := lensCount(cs); n != 1 {
			t.Errorf("lensCount(%q) = %d, want the focal range 24-70mm", title, n)
		}
	}
	numerals := []struct{ chunk, name, num string }{
		{"a7rii", "a7r", "ii"}, {"a7iii", "a7", "iii"}, {"x100vi", "x100", "vi"}, {"rx100iv", "rx100", "iv"},
		{"mkii", "mk", "ii"}, {"g4263vi", "", ""}, {"g6660scvi", "", ""}, {"mo20dsii", "", ""}, {"hawaii", "", ""},
	}
	for _, tt := range numerals {
		if name, num := cutNumeral(tt.chunk); name != tt.name || num != tt.num {
			t.Errorf("cutNumeral(%q) = %q, %q, want %q, %q", tt.chunk, name, num, tt.name, tt.num)
		}
	}
	for _, tt := range []struct{ title, want string }{
		{"acme eos q6 rf 24 105mm f4 lens kit black", "Q6"}, // the aperture after the focal length is no name
		{"acme g9 f2 camera", "G9 F2"},
	} {
		p := profileOf(Item{Brand: "Acme", Category: cameras, Title: tt.title}, Options{})
		if got := strings.Join(shortModelWords(&p, nil), " "); got != tt.want {
			t.Errorf("shortModelWords(%q) = %q, want %q", tt.title, got, tt.want)
		}
		if _, ok := shortNames(&p)["f4"]; ok {
			t.Errorf("shortNames(%q) holds the aperture f4", tt.title)
		}
	}
	// A series' letter after the brand, also written short, is no name of
	// the model ("Fuji X-T200" and "Fuji X-A5" share no name "X").
	for _, title := range []string{"acmefilm x t200 xc 15 45 mm ois pz", "acme x t200 xc 15 45 mm ois pz"} {
		p := profileOf(Item{Brand: "Acmefilm", Category: cameras, Title: title}, Options{})
		if names := modelNames(&p); slices.Contains(names, "x") {
			t.Errorf("modelNames(%q) = %q, holds the series' letter", title, names)
		}
	}
	kits := []struct{ title, want string }{
		{"acme eos 2000d rebel t7 kit mit ef s 18 55mm is ii objektiv schwarz", ""}, // a kit its lens names, after "mit" and a mount's letters
		{"acme eos 2000 d kit ef s 18 55mm is ii", ""},
		{"acme a6000 kit", "kit"},
		{"acme hero9 creator kit", "creator"},
		{"acme eos 2000d kit mit tasche", "kit"},
	}
	for _, tt := range kits {
		if got := kitName(joinRanges(mergeFractions(chunks(foldTitle(tt.title))))); got != tt.want {
			t.Errorf("kitName(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
	editions := []struct{ chunk, name, word string }{
		{"d780body", "d780", "body"}, {"z6kit", "z6", "kit"}, {"eos80dbody", "eos80d", "body"},
		{"toolkit", "toolkit", ""}, {"4kit", "4kit", ""}, {"somebody", "somebody", ""}, {"x-t3kit", "x-t3kit", ""},
	}
	for _, tt := range editions {
		if name, word := cutEditionWord(tt.chunk); name != tt.name || word != tt.word {
			t.Errorf("cutEditionWord(%q) = %q, %q, want %q, %q", tt.chunk, name, word, tt.name, tt.word)
		}
	}
}

// FuzzCameraReading checks that a numeral cut from a chunk leaves the
// chunk whole when put back, and that an aperture is the chunk's own text.
func FuzzCameraReading(f *testing.F) {
	for _, s := range []string{"a7rii", "x100vi", "mkiii", "f/4-5.6l", "f2.8", "g4263vi", "24-70", "18 55mm", "18 55 mm", "f/4 5.6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if name, num := cutNumeral(s); num != "" && name+num != s {
			t.Errorf("cutNumeral(%q) = %q, %q", s, name, num)
		}
		if name, word := cutEditionWord(s); word != "" && name+word != s {
			t.Errorf("cutEditionWord(%q) = %q, %q", s, name, word)
		}
		if a := aperture(s); a != "" && !strings.Contains(s, a) {
			t.Errorf("aperture(%q) = %q, not in the chunk", s, a)
		}
		if a, b, ok := strings.Cut(s, " "); ok {
			if j, ok := joinedRange(a, b); ok && j != a+"-"+b {
				t.Errorf("joinedRange(%q, %q) = %q, not the two joined", a, b, j)
			}
		}
		profileOf(Item{Brand: "Acme", Title: "Acme " + s + " Lens"}, Options{})
		profileOf(Item{Brand: "Acme", Category: cameras, Title: "Acme Q10 " + s}, Options{})
	})
}

// TestDecimalCommas checks that a decimal comma reads as a point and a
// thousands comma or a list of numbers does not.
func TestDecimalCommas(t *testing.T) {
	tests := []struct{ in, want string }{
		{`acme 15,6-inch (39,62-cm) sleeve`, `acme 15.6-inch (39.62-cm) sleeve`},
		{`acme ssd 2,5" 800gb`, `acme ssd 2.5" 800gb`},
		{`acme 20,000mah power bank`, `acme 20,000mah power bank`},
		{`acme sizes 8,10,12`, `acme sizes 8,10,12`},
		{`acme 1,234,56`, `acme 1,234,56`},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		decimalCommas(b)
		if string(b) != tt.want {
			t.Errorf("decimalCommas(%q) = %q, want %q", tt.in, b, tt.want)
		}
	}
	runCompare(t, []compareCase{{
		name:     "a decimal comma",
		a:        Item{Brand: "Acme", Title: "Acme 15,6-inch (39,62-cm) Spectrum Sleeve"},
		b:        Item{Brand: "Acme", Title: "Acme 15.6-inch (39.62-cm) Spectrum Sleeve"},
		wantSame: true, wantReason: "title",
	}})
}
