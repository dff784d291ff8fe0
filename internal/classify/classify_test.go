package classify

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

// listingCase is one row of testdata/listings.tsv.
type listingCase struct {
	line int
	in   Input
	want Result
}

// readListingCases reads testdata/listings.tsv: title, category path,
// taxonomy, brand, expected category ("-" for outside the 19) and type;
// "-" marks an empty input field.
func readListingCases(t testing.TB) []listingCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "listings.tsv"))
	if err != nil {
		t.Fatalf("open testdata: %v", err)
	}
	defer f.Close()
	field := func(s string) string {
		if s == "-" {
			return ""
		}
		return s
	}
	var cases []listingCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 6 {
			t.Fatalf("listings.tsv:%d: want 6 tab-separated columns, got %d", line, len(cols))
		}
		c := listingCase{
			line: line,
			in:   Input{Title: field(cols[0]), CategoryPath: field(cols[1]), TaxonomyID: field(cols[2]), Brand: field(cols[3])},
			want: Result{Category: field(cols[4]), Type: catalog.ProductType(cols[5])},
		}
		if c.want.Category != "" && !catalog.IsCategory(c.want.Category) {
			t.Fatalf("listings.tsv:%d: unknown category %q", line, c.want.Category)
		}
		if c.want.Type != catalog.TypeProduct && c.want.Type != catalog.TypeAccessory {
			t.Fatalf("listings.tsv:%d: unknown type %q", line, c.want.Type)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read testdata: %v", err)
	}
	return cases
}

func TestListing(t *testing.T) {
	cases := readListingCases(t)
	if len(cases) < 100 {
		t.Fatalf("listings.tsv holds %d cases, want at least 100", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.want.Category] = true
		t.Run(fmt.Sprintf("%d/%s", c.line, c.in.Title), func(t *testing.T) {
			if diff := cmp.Diff(c.want, Listing(c.in)); diff != "" {
				t.Errorf("Listing(%+v) mismatch (-want +got):\n%s", c.in, diff)
			}
		})
	}
	for _, cat := range append(catalog.Categories(), "") {
		if !seen[cat] {
			t.Errorf("listings.tsv has no case for category %q", cat)
		}
	}
}

func TestCombine(t *testing.T) {
	phone := Result{Category: "Phones", Type: catalog.TypeProduct}
	phoneAcc := Result{Category: "Phones", Type: catalog.TypeAccessory}
	cables := Result{Category: "Cables & Chargers", Type: catalog.TypeProduct}
	outside := Result{Type: catalog.TypeProduct}
	tests := []struct {
		name string
		in   []Result
		want Result
	}{
		{"none", nil, outside},
		{"one", []Result{phone}, phone},
		{"majority category", []Result{phone, cables, phone}, phone},
		{"outside loses to any category", []Result{outside, outside, cables}, cables},
		{"all outside", []Result{outside, outside}, outside},
		{"tie goes to the earlier catalog category", []Result{cables, phone}, phone},
		{"tie is independent of order", []Result{phone, cables}, phone},
		{"accessory by majority", []Result{phoneAcc, phoneAcc, phone}, phoneAcc},
		{"accessory tie stays product", []Result{phoneAcc, phone}, phone},
		{"types of other categories do not count", []Result{phone, phone, {Category: "Gaming", Type: catalog.TypeAccessory}}, phone},
		{"unknown category names are ignored", []Result{{Category: "Smartphones"}, cables}, cables},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Combine(tt.in)); diff != "" {
				t.Errorf("Combine mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoogleCategories checks the id table against the catalog.
func TestGoogleCategories(t *testing.T) {
	for id, g := range googleCategories {
		if g.cat != "" && !catalog.IsCategory(g.cat) {
			t.Errorf("id %s maps to unknown category %q", id, g.cat)
		}
		if g.cat == "" && g.acc {
			t.Errorf("id %s is outside the catalog but marked accessory", id)
		}
	}
}

// TestNamesKind checks which words name a kind of product on their own:
// devices, accessories, chargers and parts, in the singular or plural; not
// a colour, a feature word or a phrase's first word alone.
func TestNamesKind(t *testing.T) {
	tests := []struct {
		word string
		want bool
	}{
		{"webcam", true},
		{"camera", true},
		{"cameras", true},
		{"case", true},
		{"charger", true},
		{"laptop", true},
		{"off", false},
		{"pale", false},
		{"graphite", false},
		{"streaming", false},
		{"s24", false}, // a model, filed under a pattern
		{"", false},
	}
	for _, tt := range tests {
		if got := NamesKind(tt.word); got != tt.want {
			t.Errorf("NamesKind(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

// TestCueTable checks the phrase table: categories exist and no phrase is
// listed twice.
func TestCueTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range cueTable {
		if seen[p.text] {
			t.Errorf("phrase %q listed twice", p.text)
		}
		seen[p.text] = true
		if p.cue.cat != "" && !catalog.IsCategory(p.cue.cat) {
			t.Errorf("phrase %q: unknown category %q", p.text, p.cue.cat)
		}
		if p.text != strings.ToLower(strings.TrimSpace(p.text)) {
			t.Errorf("phrase %q is not lower-case and trimmed", p.text)
		}
	}
}

func FuzzListing(f *testing.F) {
	for _, c := range readListingCases(f) {
		f.Add(c.in.Title, c.in.CategoryPath, c.in.TaxonomyID, c.in.Brand)
	}
	f.Add("for for with - , ( ) + & \u2014 case", "> > / |", "12345 - >", "")
	f.Fuzz(func(t *testing.T, title, path, taxonomy, brand string) {
		r := Listing(Input{Title: title, CategoryPath: path, TaxonomyID: taxonomy, Brand: brand})
		if r.Category != "" && !catalog.IsCategory(r.Category) {
			t.Errorf("category %q is not one of the 19", r.Category)
		}
		if r.Type != catalog.TypeProduct && r.Type != catalog.TypeAccessory {
			t.Errorf("type %q", r.Type)
		}
		if r.Category == "" && r.Type != catalog.TypeProduct {
			t.Errorf("outside the catalog but type %q", r.Type)
		}
	})
}

func BenchmarkListing(b *testing.B) {
	cases := readListingCases(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Listing(cases[i%len(cases)].in)
		i++
	}
}
