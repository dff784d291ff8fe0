package demo

import (
	"strings"
	"testing"
)

// TestRenamerText checks what an edition renames in a name: proper words
// and model codes, not brands, specs, tier or joining words.
func TestRenamerText(t *testing.T) {
	d, err := loadData(tables())
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRenamer(d, tables())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in       string
		whole    bool
		kept     []string // words the new name still has
		replaced []string // words it no longer has
	}{
		{"iPhone 16 Pro Max", true, []string{"16", "Pro", "Max"}, []string{"iPhone"}},
		{"Samsung Galaxy S24 Ultra", true, []string{"Samsung", "Ultra"}, []string{"Galaxy", "S24"}},
		{"WH-1000XM5", false, nil, []string{"WH-1000XM5"}},
		{"IdeaPad Slim 5", true, []string{"Slim", "5"}, []string{"IdeaPad"}},
		{"USB-C to Lightning", false, []string{"USB-C", "to", "Lightning"}, nil},
		{"Fire TV Stick 4K", true, []string{"4K"}, []string{"Fire"}},
		{"Wireless Charger", true, []string{"Wireless", "Charger"}, nil},
	}
	for _, tt := range tests {
		got := r.text(tt.in, 2, tt.whole)
		if got == tt.in && tt.whole {
			t.Errorf("text(%q) is unchanged", tt.in)
		}
		words := strings.Fields(got)
		has := func(w string) bool {
			for _, g := range words {
				if g == w {
					return true
				}
			}
			return false
		}
		for _, w := range tt.kept {
			if !has(w) {
				t.Errorf("text(%q) = %q, lost %q", tt.in, got, w)
			}
		}
		for _, w := range tt.replaced {
			if has(w) {
				t.Errorf("text(%q) = %q, kept %q", tt.in, got, w)
			}
		}
		if again := r.text(tt.in, 2, tt.whole); again != got {
			t.Errorf("text(%q) gives %q, then %q", tt.in, got, again)
		}
		if other := r.text(tt.in, 3, tt.whole); other == got && got != tt.in {
			t.Errorf("text(%q) is %q in two editions", tt.in, got)
		}
	}
}

// TestScaleDistinct checks that later editions are new products: no brand
// and name of edition 0 comes back, and no word that names a line of the
// data ("ThinkPad", "Galaxy") appears in a later edition's names.
func TestScaleDistinct(t *testing.T) {
	one, three := expandOneAndThree(t)
	names := map[string]int{} // brand and name, to its edition
	for i, p := range three {
		e := i / len(one)
		k := p.line.Brand + "|" + p.name() + "|" + p.vals[axFit]
		if prev, ok := names[k]; ok && prev != e {
			t.Fatalf("%s %q is in editions %d and %d", p.line.Brand, p.name(), prev, e)
		}
		names[k] = e
	}
	for _, w := range []string{"iPhone", "Galaxy", "ThinkPad", "IdeaPad", "MacBook", "PlayStation", "WH-1000XM5", "UltraGear", "Archer"} {
		for _, p := range three[len(one):] {
			if strings.Contains(p.name(), w) || strings.Contains(p.vals[axFit], w) {
				t.Fatalf("edition product %s names %q: %q for %q", p.key, w, p.name(), p.vals[axFit])
			}
		}
	}
}
