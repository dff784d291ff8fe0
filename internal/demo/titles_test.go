package demo

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/titles.golden")

// TestTitlesGolden renders every retailer's title templates for the first
// product of each title family and department, and compares them with
// testdata/titles.golden, so changes to the data files show up in review.
// Run with -update to rewrite the file.
func TestTitlesGolden(t *testing.T) {
	d, err := loadData(tables())
	if err != nil {
		t.Fatal(err)
	}
	products, err := d.expand(1)
	if err != nil {
		t.Fatal(err)
	}
	kinds, err := parseKinds(d)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	seen := map[string]bool{}
	for i := range products {
		p := &products[i]
		group := p.line.Kind + "/" + p.line.Dept
		if seen[group] {
			continue
		}
		seen[group] = true
		fmt.Fprintf(&b, "== %s (%s)\n", p.key, group)
		k := kinds[p.line.Kind]
		for _, s := range d.Shops {
			for _, tpl := range k.titles[s.Slug] {
				ctx := titleCtx{p: p, st: &s.Style, brand: p.line.Brand, attrs: p.attrs, tag: k.tags[0]}
				fmt.Fprintf(&b, "%-9s %s\n", s.Slug, tpl.render(&ctx).text)
			}
		}
	}
	got := b.String()
	const golden = "testdata/titles.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestTitlesGolden -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("titles mismatch (-want +got), run with -update if the change is intended:\n%s", diff)
	}
}
