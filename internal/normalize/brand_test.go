package normalize

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestBrandTable checks every known brand key against testdata/brands.tsv,
// and that Brand gives each brand's own spelling for the key, the spelling
// and the spelling in capitals.
func TestBrandTable(t *testing.T) {
	f, err := os.Open("testdata/brands.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("brands.tsv: %q has no tab", line)
		}
		rows++
		if got := canonicalBrand(key); got != want {
			t.Errorf("canonicalBrand(%q) = %q, want %q", key, got, want)
		}
		for _, in := range []string{key, want, strings.ToUpper(want), want + " Ltd"} {
			if got := Brand(in); got != want {
				t.Errorf("Brand(%q) = %q, want %q", in, got, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != len(brandTable) {
		t.Errorf("brands.tsv has %d keys, the table %d", rows, len(brandTable))
	}
	if !slices.IsSortedFunc(brandTable[:], func(a, b brandName) int { return strings.Compare(a.key, b.key) }) {
		t.Error("brandTable is not sorted by key")
	}
	for i := 1; i < len(brandTable); i++ {
		if brandTable[i].key == brandTable[i-1].key {
			t.Errorf("brand key %q is listed twice", brandTable[i].key)
		}
	}
	for _, key := range []string{"", "unknownbrand", "zzz", "aaa"} {
		if got := canonicalBrand(key); got != "" {
			t.Errorf("canonicalBrand(%q) = %q, want none", key, got)
		}
	}
}

// TestKnownBrand checks that only known brands and their aliases are named.
func TestKnownBrand(t *testing.T) {
	tests := []struct{ in, want string }{
		{"NIKON", "Nikon"}, {"hewlett packard", "HP"}, {"Bateria", ""}, {"Used", ""}, {"", ""},
	}
	for _, tt := range tests {
		if got := KnownBrand(tt.in); got != tt.want {
			t.Errorf("KnownBrand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSlipOf(t *testing.T) {
	tests := []struct {
		word, brand string
		want        bool
	}{
		{"somy", "Sony", true}, {"hnor", "Honor", true}, {"aple", "Apple", true}, {"opo", "Oppo", true},
		{"sony", "Sony", false},  // the brand itself
		{"tony", "Sony", false},  // a slip in the first letter
		{"sonos", "Sony", false}, // a known brand of its own
		{"so", "Sony", false},    // too short
		{"somy", "Nikon", false},
	}
	for _, tt := range tests {
		if got := SlipOf(tt.word, tt.brand); got != tt.want {
			t.Errorf("SlipOf(%q, %q) = %v, want %v", tt.word, tt.brand, got, tt.want)
		}
	}
}

func TestMisspeltBrand(t *testing.T) {
	tests := []struct{ word, want string }{
		{"panassonic", "Panasonic"}, // a letter added
		{"cnaon", "Canon"},          // neighbours swapped
		{"samsuung", "Samsung"},
		{"fuifilm", "Fujifilm"}, // a letter changed
		{"Canon", ""},           // a known brand is not misspelt
		{"zanker", ""},          // a letter in front makes another name
		{"rich", ""},            // too short to tell from Ricoh
		{"aple", ""},
		{"fridge", ""},  // no brand one slip away
		{"sams0ng", ""}, // not a word of letters
		{"", ""},
	}
	for _, tt := range tests {
		if got := MisspeltBrand(tt.word); got != tt.want {
			t.Errorf("MisspeltBrand(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
