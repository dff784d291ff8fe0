package extract

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

// titleCase is one row of testdata/titles.tsv.
type titleCase struct {
	line  int
	ctx   Context
	title string
	want  Values
}

// readTitleCases reads testdata/titles.tsv: category, accessory (y/n),
// title and the expected values as "name=value" pairs or "-" for none.
func readTitleCases(t testing.TB) []titleCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "titles.tsv"))
	if err != nil {
		t.Fatalf("open testdata: %v", err)
	}
	defer f.Close()
	var cases []titleCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 4 {
			t.Fatalf("titles.tsv:%d: want 4 tab-separated columns, got %d", line, len(cols))
		}
		c := titleCase{line: line, ctx: Context{Category: cols[0], Accessory: cols[1] == "y"}, title: cols[2]}
		if cols[0] != "" && !catalog.IsCategory(cols[0]) {
			t.Fatalf("titles.tsv:%d: unknown category %q", line, cols[0])
		}
		if cols[3] != "-" {
			c.want = Values{}
			for _, kv := range strings.Fields(cols[3]) {
				name, val, ok := strings.Cut(kv, "=")
				v, err := strconv.ParseFloat(val, 64)
				if !ok || err != nil || !catalog.IsAttribute(name) {
					t.Fatalf("titles.tsv:%d: bad expected value %q", line, kv)
				}
				c.want[name] = v
			}
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read testdata: %v", err)
	}
	return cases
}

func TestTitle(t *testing.T) {
	cases := readTitleCases(t)
	if len(cases) < 200 {
		t.Fatalf("titles.tsv holds %d cases, want at least 200", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.ctx.Category] = true
		name := fmt.Sprintf("%d/%s", c.line, c.title)
		t.Run(name, func(t *testing.T) {
			got := Title(c.title, c.ctx)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("Title(%q, %+v) mismatch (-want +got):\n%s", c.title, c.ctx, diff)
			}
		})
	}
	for _, cat := range catalog.Categories() {
		if !seen[cat] {
			t.Errorf("titles.tsv has no case for category %q", cat)
		}
	}
}

// TestTitleAttributesAreValid checks what every case yields against the
// interface: known names, positive finite values, and only attributes the
// category can state.
func TestTitleAttributesAreValid(t *testing.T) {
	for _, c := range readTitleCases(t) {
		got := Title(c.title, c.ctx)
		if err := checkValues(got, c.ctx); err != nil {
			t.Errorf("titles.tsv:%d: %v", c.line, err)
		}
	}
}

func checkValues(v Values, ctx Context) error {
	r := rulesFor(ctx)
	bits := map[string]attrSet{
		catalog.MemoryGB: aMem, catalog.StorageGB: aSto, catalog.ScreenIn: aScr, catalog.ResolutionP: aRes,
		catalog.RefreshHz: aRef, catalog.PowerW: aPow, catalog.WifiGen: aWifi,
	}
	if v != nil && len(v) == 0 {
		return fmt.Errorf("empty non-nil Values")
	}
	for name, val := range v {
		bit, ok := bits[name]
		switch {
		case !ok:
			return fmt.Errorf("unknown attribute %q", name)
		case r.allow&bit == 0:
			return fmt.Errorf("%s stated for %+v, which cannot state it", name, ctx)
		case !(val > 0) || math.IsInf(val, 0):
			return fmt.Errorf("%s = %v, want a positive finite value", name, val)
		case name == catalog.WifiGen && !slices.Contains([]float64{4, 5, 6, 6.5, 7}, val):
			return fmt.Errorf("wifi_gen = %v, want 4, 5, 6, 6.5 or 7", val)
		}
	}
	return nil
}

func TestTitleCategoriesDiffer(t *testing.T) {
	// The same words mean different things in different categories.
	title := "Brand X 55 inch 4K 120Hz 16GB 512GB 65W Wi-Fi 6"
	tests := []struct {
		ctx  Context
		want Values
	}{
		{Context{Category: "TVs"}, Values{catalog.ScreenIn: 55, catalog.ResolutionP: 2160, catalog.RefreshHz: 120}},
		{Context{Category: "Cables & Chargers"}, Values{catalog.PowerW: 65, catalog.ResolutionP: 2160}},
		{Context{Category: "Networking"}, Values{catalog.WifiGen: 6}},
		{Context{Category: "Laptops"}, Values{catalog.MemoryGB: 16, catalog.StorageGB: 512, catalog.ResolutionP: 2160,
			catalog.RefreshHz: 120, catalog.WifiGen: 6}},
		{Context{Category: "Headphones"}, nil},
		{Context{Category: "TVs", Accessory: true}, Values{catalog.PowerW: 65, catalog.WifiGen: 6}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v", tt.ctx), func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Title(title, tt.ctx)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzTitle(f *testing.F) {
	for _, c := range readTitleCases(f) {
		f.Add(c.title, c.ctx.Category, c.ctx.Accessory)
	}
	f.Add("8/256GB 13.3-15.6\" 4k@60hz wi-fi 6e 2x16gb 3840x2160 802.11a/b/ax ax3000 65w x2", "Laptops", false)
	f.Add("\xff\xfe 1,000,000,000.5tb \u2033\u00d7\u2013", "", true)
	f.Fuzz(func(t *testing.T, title, category string, accessory bool) {
		ctx := Context{Category: category, Accessory: accessory}
		if err := checkValues(Title(title, ctx), ctx); err != nil {
			t.Errorf("Title(%q, %+v): %v", title, ctx, err)
		}
	})
}

func BenchmarkTitle(b *testing.B) {
	cases := readTitleCases(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := cases[i%len(cases)]
		Title(c.title, c.ctx)
		i++
	}
}
