package demo

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"productsearch/internal/catalog"
)

// generated is one generation run shared by the subtests of TestGenerate.
type generated struct {
	dir   string
	sum   Summary
	truth []TruthRow
	feeds map[string][]feedRow // by retailer name
	shops []*shop
	data  *data
}

func TestGenerate(t *testing.T) {
	g := generate(t, t.TempDir(), Options{})
	t.Run("config", func(t *testing.T) { testConfig(t, g) })
	t.Run("summary", func(t *testing.T) { testSummary(t, g) })
	t.Run("categories", func(t *testing.T) { testCategories(t, g) })
	t.Run("feeds line up with truth", func(t *testing.T) { testLineUp(t, g) })
	t.Run("identifiers", func(t *testing.T) { testIdentifiers(t, g) })
	t.Run("title attributes", func(t *testing.T) { testTitleAttributes(t, g) })
	t.Run("quirks", func(t *testing.T) { testQuirks(t, g) })
}

// TestGenerateDeterministic generates the same options twice and compares
// the files byte for byte.
func TestGenerateDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	opt := Options{Seed: 7, Now: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}
	for _, dir := range []string{a, b} {
		if _, err := Generate(dir, opt); err != nil {
			t.Fatal(err)
		}
	}
	ha, hb := hashTree(t, a), hashTree(t, b)
	if diff := cmp.Diff(ha, hb); diff != "" {
		t.Errorf("two runs with the same options differ (-first +second):\n%s", diff)
	}
	if len(ha) != 9 {
		t.Errorf("generated %d files, want 7 feeds, %s and %s", len(ha), TruthFile, ConfigFile)
	}
}

// TestSeed checks that the seed, and only the seed, changes the plan and
// the listings.
func TestSeed(t *testing.T) {
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
	samePlan := func(a, b [][]planRow) bool {
		return slices.EqualFunc(a, b, func(x, y []planRow) bool { return slices.Equal(x, y) })
	}
	p1, p1again, p2 := makePlan(d, products, 1), makePlan(d, products, 1), makePlan(d, products, 2)
	if !samePlan(p1, p1again) {
		t.Error("makePlan with the same seed gave different plans")
	}
	if samePlan(p1, p2) {
		t.Error("makePlan with seeds 1 and 2 gave the same plan")
	}
	build := func(seed int64) listing {
		g := newShopGen(d, 0, products, kinds, Options{Seed: seed}.withDefaults())
		return g.build(0, planRow{prod: 0})
	}
	a, b, c := build(1), build(1), build(2)
	if a.price != b.price || a.title != b.title || a.updated != b.updated {
		t.Errorf("the same row built twice differs: %v/%q vs %v/%q", a.price, a.title, b.price, b.title)
	}
	if a.price == c.price && a.updated == c.updated && a.qty == c.qty {
		t.Errorf("seeds 1 and 2 built the same row: price %v, updated %v", a.price, a.updated)
	}
}

// TestGenerateOptions checks option defaults and the scale bounds.
func TestGenerateOptions(t *testing.T) {
	got := Options{}.withDefaults()
	want := Options{Seed: 1, Scale: 1, Now: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults mismatch (-want +got):\n%s", diff)
	}
	for _, scale := range []int{-1, MaxScale + 1} {
		if _, err := Generate(t.TempDir(), Options{Scale: scale}); err == nil || !strings.Contains(err.Error(), "scale") {
			t.Errorf("Generate with scale %d: error %v, want a scale error", scale, err)
		}
	}
}

// TestExpandScale checks that scale N makes N times the products, every one
// with its own key, barcode and model number.
func TestExpandScale(t *testing.T) {
	one, three := expandOneAndThree(t)
	if len(three) != 3*len(one) {
		t.Fatalf("scale 3 has %d products, want 3 x %d", len(three), len(one))
	}
	for i := range one {
		if one[i].key != three[i].key || one[i].gtin != three[i].gtin {
			t.Fatalf("product %d differs between scales 1 and 3: %s/%s vs %s/%s", i, one[i].key, one[i].gtin, three[i].key, three[i].gtin)
		}
	}
	keys, gtins, mpns := map[string]bool{}, map[string]bool{}, map[string]string{}
	for _, p := range three {
		if keys[p.key] || gtins[p.gtin] {
			t.Fatalf("product %s: key or GTIN %s repeats", p.key, p.gtin)
		}
		keys[p.key], gtins[p.gtin] = true, true
		bm := p.line.Brand + "|" + p.mpn
		if other, ok := mpns[bm]; ok {
			t.Fatalf("brand and model number %s belong to %s and %s", bm, other, p.key)
		}
		mpns[bm] = p.key
		if !ValidGTIN(p.gtin) {
			t.Fatalf("product %s: GTIN %s is not valid", p.key, p.gtin)
		}
	}
	edition := three[2*len(one)]
	if !strings.Contains(edition.name(), " ") || edition.mpn == one[0].mpn {
		t.Errorf("edition product %s (%q, %s) does not read as another edition", edition.key, edition.name(), edition.mpn)
	}
}

// expandOneAndThree lists the products of scales 1 and 3.
func expandOneAndThree(t *testing.T) (one, three []product) {
	t.Helper()
	d, err := loadData(tables())
	if err != nil {
		t.Fatal(err)
	}
	if one, err = d.expand(1); err != nil {
		t.Fatal(err)
	}
	if three, err = d.expand(3); err != nil {
		t.Fatal(err)
	}
	return one, three
}

func generate(t *testing.T, dir string, opt Options) *generated {
	t.Helper()
	sum, err := Generate(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	truth, err := ReadTruth(filepath.Join(dir, TruthFile))
	if err != nil {
		t.Fatal(err)
	}
	d, err := loadData(tables())
	if err != nil {
		t.Fatal(err)
	}
	g := &generated{dir: dir, sum: sum, truth: truth, feeds: map[string][]feedRow{}, shops: d.Shops, data: d}
	for _, s := range d.Shops {
		g.feeds[s.Name] = readFeed(t, filepath.Join(dir, filepath.FromSlash(feedName(s))), s.Format)
	}
	return g
}

func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func testConfig(t *testing.T, g *generated) {
	type retailer struct {
		Name     string            `yaml:"name"`
		Slug     string            `yaml:"slug"`
		Format   string            `yaml:"format"`
		Location string            `yaml:"location"`
		Fields   map[string]string `yaml:"fields"`
	}
	type config struct {
		LowStockThreshold int        `yaml:"low_stock_threshold"`
		MaxShrink         float64    `yaml:"max_shrink"`
		Retailers         []retailer `yaml:"retailers"`
	}
	b, err := os.ReadFile(filepath.Join(g.dir, ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	var got config
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := config{LowStockThreshold: 5, MaxShrink: 0.30, Retailers: []retailer{
		{Name: "Voltline", Slug: "voltline", Format: "awin_csv", Location: "feeds/voltline.csv.gz"},
		{Name: "Brightbox", Slug: "brightbox", Format: "google_xml", Location: "feeds/brightbox.xml"},
		{Name: "Harbour Electronics", Slug: "harbour", Format: "google_tsv", Location: "feeds/harbour.tsv"},
		{Name: "PixelPort", Slug: "pixelport", Format: "jsonl", Location: "feeds/pixelport.jsonl", Fields: map[string]string{
			"id": "sku", "title": "name", "brand": "brand.name", "price": "pricing.now", "rrp": "pricing.was",
			"currency": "pricing.currency", "availability": "stock.status", "stock": "stock.qty",
			"delivery_time": "stock.delivery", "link": "links.product", "image_link": "links.image",
			"gtin": "ids.ean", "mpn": "ids.mpn", "category_path": "category", "colour": "colour",
			"last_updated": "updated", "description": "description",
		}},
		{Name: "Northgate Tech", Slug: "northgate", Format: "awin_csv", Location: "feeds/northgate.csv"},
		{Name: "Kestrel Digital", Slug: "kestrel", Format: "google_xml", Location: "feeds/kestrel.xml.gz"},
		{Name: "ByteBarn", Slug: "bytebarn", Format: "google_tsv", Location: "feeds/bytebarn.tsv.gz"},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("retailers.yaml mismatch (-want +got):\n%s", diff)
	}
	for _, r := range got.Retailers {
		if _, err := os.Stat(filepath.Join(g.dir, filepath.FromSlash(r.Location))); err != nil {
			t.Errorf("retailer %s: location %s: %v", r.Name, r.Location, err)
		}
	}
}

func testSummary(t *testing.T, g *generated) {
	products := map[string]bool{}
	offers := 0
	perRetailer := map[string]int{}
	for _, r := range g.truth {
		perRetailer[r.Retailer]++
		if r.Reject == "" {
			offers++
			products[r.Product] = true
		}
	}
	want := Summary{Products: len(products), Offers: offers, Rows: len(g.truth), PerRetailer: perRetailer}
	got := g.sum
	got.Duration = 0
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summary does not match truth.jsonl (-truth +summary):\n%s", diff)
	}
	if len(products) < 26000 {
		t.Errorf("%d distinct products among rows not meant to be rejected, want at least 26,000", len(products))
	}
	if ratio := float64(offers) / float64(len(products)); ratio < 2.2 || ratio > 2.8 {
		t.Errorf("%.3f offers per product, want 2.2 to 2.8", ratio)
	}
	for _, s := range g.shops {
		if perRetailer[s.Name] < 5000 {
			t.Errorf("retailer %s has %d rows, want at least 5,000", s.Name, perRetailer[s.Name])
		}
	}
}

func testCategories(t *testing.T, g *generated) {
	minimum := map[string]int{
		"Laptops": 3000, "Phones": 3000, "Desktops": 1000, "Tablets": 500, "Cables & Chargers": 1000,
		"TVs": 300, "Monitors": 150, "Storage": 400, "Wearables": 500, "Headphones": 300,
	}
	products := map[string]map[string]bool{}
	types := map[catalog.ProductType]int{}
	for _, r := range g.truth {
		if r.Reject != "" {
			continue
		}
		if products[r.Category] == nil {
			products[r.Category] = map[string]bool{}
		}
		if !products[r.Category][r.Product] {
			types[r.ProductType]++
		}
		products[r.Category][r.Product] = true
	}
	for _, c := range catalog.Categories() {
		want := max(minimum[c], 100)
		if n := len(products[c]); n < want {
			t.Errorf("category %s has %d products, want at least %d", c, n, want)
		}
	}
	if share := float64(types[catalog.TypeAccessory]) / float64(types[catalog.TypeAccessory]+types[catalog.TypeProduct]); share < 0.15 || share > 0.45 {
		t.Errorf("accessories are %.1f%% of products, want 15%% to 45%%", 100*share)
	}
}

// Title patterns the quirk checks look for.
var (
	refurbWords   = regexp.MustCompile(`(?i)refurbished|renewed|pre-owned|open box`)
	bracketSpecs  = regexp.MustCompile(`\((Intel|AMD|Apple) [^)]*\d+GB RAM, \d+(GB|TB) SSD`)
	inchIn        = regexp.MustCompile(`\d+(\.\d)?in `)
	inchQuote     = regexp.MustCompile(`\d"`)
	fitWithMemory = regexp.MustCompile(`iPhone [0-9A-Za-z ()]+ \d+GB`)
)

// priceOf reads a feed price: "699.00" or "699.00 GBP".
func priceOf(price, currency string) (float64, string, bool) {
	p, cur, found := strings.Cut(strings.TrimSpace(price), " ")
	if found {
		currency = cur
	}
	v, err := strconv.ParseFloat(p, 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, currency, false
	}
	return v, currency, true
}

func absoluteHTTP(link string) bool {
	u, err := url.Parse(link)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

func testLineUp(t *testing.T, g *generated) {
	byRetailer := map[string][]TruthRow{}
	for _, r := range g.truth {
		byRetailer[r.Retailer] = append(byRetailer[r.Retailer], r)
	}
	for _, s := range g.shops {
		t.Run(s.Slug, func(t *testing.T) {
			rows, truth := g.feeds[s.Name], byRetailer[s.Name]
			if len(rows) != len(truth) {
				t.Fatalf("feed has %d records, truth has %d rows", len(rows), len(truth))
			}
			errs := 0
			fail := func(format string, args ...any) {
				if errs++; errs <= 10 {
					t.Errorf(format, args...)
				}
			}
			for i, tr := range truth {
				f := rows[i]
				if tr.Row != i+1 {
					fail("truth row %d has row number %d", i+1, tr.Row)
				}
				if f.malformed != (tr.Reject == RejectMalformed) {
					fail("row %d: malformed %v, truth reject %q", tr.Row, f.malformed, tr.Reject)
					continue
				}
				if f.malformed {
					continue
				}
				if f.id != tr.MerchantID {
					fail("row %d: id %q, truth %q", tr.Row, f.id, tr.MerchantID)
				}
				if f.gtin != "" && !ValidGTIN(f.gtin) {
					fail("row %d: GTIN %q has a wrong check digit", tr.Row, f.gtin)
				}
				price, currency, priceOK := priceOf(f.price, f.currency)
				refurb := f.condition == "refurbished" || refurbWords.MatchString(f.title)
				switch tr.Reject {
				case "":
					if f.title != tr.Title || f.title == "" {
						fail("row %d: title %q, truth %q", tr.Row, f.title, tr.Title)
					}
					if !priceOK || currency != "GBP" || price <= 0 {
						fail("row %d: price %q %q is not a GBP price", tr.Row, f.price, currency)
					}
					if !strings.HasPrefix(f.link, "https://") || !absoluteHTTP(f.link) {
						fail("row %d: link %q is not an absolute https URL", tr.Row, f.link)
					}
					if refurb {
						fail("row %d: an offer reads as refurbished: %q (%s)", tr.Row, f.title, f.condition)
					}
				case RejectNotNew:
					if !refurb {
						fail("row %d: not_new row %q (%s) says nothing of its condition", tr.Row, f.title, f.condition)
					}
				case RejectNonGBP:
					if !priceOK || currency != "EUR" {
						fail("row %d: non_gbp row has price %q %q", tr.Row, f.price, currency)
					}
				case RejectBadPrice:
					if priceOK {
						fail("row %d: bad_price row has a valid price %q", tr.Row, f.price)
					}
				case RejectMissingTitle:
					if f.title != "" {
						fail("row %d: missing_title row has title %q", tr.Row, f.title)
					}
				case RejectBadURL:
					if absoluteHTTP(f.link) {
						fail("row %d: bad_url row has a good link %q", tr.Row, f.link)
					}
				}
			}
		})
	}
}

func testIdentifiers(t *testing.T, g *generated) {
	canonical := map[string]string{}
	for brand, alias := range g.data.Brands {
		canonical[alias] = brand
	}
	byGTIN, byMPN := map[string]string{}, map[string]string{}
	for _, s := range g.shops {
		truth := rowsOf(g, s.Name)
		for i, f := range g.feeds[s.Name] {
			tr := truth[i]
			if f.malformed || (tr.Reject != "" && tr.Reject != RejectNotNew) {
				continue
			}
			if f.gtin != "" {
				gtin := strings.TrimPrefix(f.gtin, "0")
				if len(f.gtin) == 14 && s.GTIN != "gtin14" {
					t.Errorf("%s row %d: 14-digit GTIN from a retailer that writes EAN-13", s.Name, tr.Row)
				}
				if other, ok := byGTIN[gtin]; ok && other != tr.Product {
					t.Errorf("GTIN %s is on %s and %s", gtin, other, tr.Product)
				}
				byGTIN[gtin] = tr.Product
			}
			if f.mpn != "" && tr.Reject == "" {
				brand := f.brand
				if c, ok := canonical[brand]; ok {
					brand = c
				}
				key := catalog.NormalizeBrand(brand) + "|" + f.mpn
				if other, ok := byMPN[key]; ok && other != tr.Product {
					t.Errorf("brand and MPN %s are on %s and %s", key, other, tr.Product)
				}
				byMPN[key] = tr.Product
			}
		}
	}
	if products := len(uniqueProducts(g)); len(byGTIN) < products*9/10 {
		t.Errorf("%d distinct GTINs for %d products, want one for nearly every product", len(byGTIN), products)
	}
}

func uniqueProducts(g *generated) map[string]bool {
	out := map[string]bool{}
	for _, r := range g.truth {
		if r.Reject == "" {
			out[r.Product] = true
		}
	}
	return out
}

func rowsOf(g *generated, retailer string) []TruthRow {
	var out []TruthRow
	for _, r := range g.truth {
		if r.Retailer == retailer {
			out = append(out, r)
		}
	}
	return out
}

func testTitleAttributes(t *testing.T, g *generated) {
	listings, wrong, stating := 0, 0, 0
	for _, r := range g.truth {
		if r.Reject != "" {
			continue
		}
		listings++
		if r.ProductType == catalog.TypeAccessory && (len(r.Attributes) > 0 || len(r.TitleAttributes) > 0) {
			t.Errorf("accessory %s has attributes %v / %v", r.Product, r.Attributes, r.TitleAttributes)
		}
		if len(r.TitleAttributes) > 0 {
			stating++
		}
		differ := []string{}
		for name, v := range r.TitleAttributes {
			if r.Attributes[name] != v {
				differ = append(differ, name)
			}
		}
		switch {
		case r.WrongSpec == "" && len(differ) > 0:
			t.Errorf("%s row %d: title states %v against true %v with no wrong spec", r.Retailer, r.Row, r.TitleAttributes, r.Attributes)
		case r.WrongSpec != "" && (len(differ) != 1 || differ[0] != r.WrongSpec):
			t.Errorf("%s row %d: wrong spec %s but %v differ", r.Retailer, r.Row, r.WrongSpec, differ)
		case r.WrongSpec != "":
			wrong++
		}
	}
	if share := float64(wrong) / float64(listings); share < 0.01 || share > 0.025 {
		t.Errorf("%.2f%% of listings state a wrong spec, want about 1-2%%", 100*share)
	}
	if share := float64(stating) / float64(listings); share < 0.3 {
		t.Errorf("only %.1f%% of listings state a spec in the title", 100*share)
	}
}

func testQuirks(t *testing.T, g *generated) {
	count := map[string]int{}
	add := func(name string, ok bool) {
		if ok {
			count[name]++
		}
	}
	stated := map[string]map[string]map[float64]bool{} // product -> attribute -> values stated
	for _, s := range g.shops {
		truth := rowsOf(g, s.Name)
		for i, f := range g.feeds[s.Name] {
			tr := truth[i]
			add("reject "+tr.Reject, true)
			add("malformed "+s.Format, tr.Reject == RejectMalformed)
			add("refurbished by condition", tr.Reject == RejectNotNew && f.condition == "refurbished" && !refurbWords.MatchString(f.title))
			add("refurbished by title", tr.Reject == RejectNotNew && refurbWords.MatchString(f.title))
			add("non_gbp "+s.Slug, tr.Reject == RejectNonGBP)
			if tr.Reject != "" {
				continue
			}
			add("duplicate "+s.Slug, tr.Duplicate)
			add("gtin "+s.Slug, f.gtin != "")
			add("sale "+s.Slug, f.sale != "")
			add("rows "+s.Slug, true)
			add("out of stock", f.availability == "0" || f.availability == "out of stock" || f.availability == "out_of_stock")
			add("low stock", f.qty != "" && f.qty != "0" && len(f.qty) == 1 && f.qty <= "5")
			add("16GB RAM", strings.Contains(f.title, "GB RAM, "))
			add("brackets", s.Slug == "brightbox" && bracketSpecs.MatchString(f.title))
			add("16 GB", strings.Contains(f.title, " GB RAM") && s.Slug == "pixelport")
			add("inch", strings.Contains(f.title, " inch ") && s.Slug == "bytebarn")
			add("in", s.Slug == "bytebarn" && inchIn.MatchString(f.title))
			add("Full HD", strings.Contains(f.title, "Full HD") && s.Slug == "bytebarn")
			add("4K UHD", strings.Contains(f.title, "4K UHD"))
			add("2160p", strings.Contains(f.title, "2160p"))
			add("quote", inchQuote.MatchString(f.title))
			add("Notebook", strings.Contains(f.title, "Notebook"))
			add("accessory for a phone with storage", tr.ProductType == catalog.TypeAccessory && fitWithMemory.MatchString(f.title))
			add("accessory", tr.ProductType == catalog.TypeAccessory)
			for name, v := range tr.TitleAttributes {
				if stated[tr.Product] == nil {
					stated[tr.Product] = map[string]map[float64]bool{}
				}
				if stated[tr.Product][name] == nil {
					stated[tr.Product][name] = map[float64]bool{}
				}
				stated[tr.Product][name][v] = true
			}
		}
	}
	for _, p := range stated {
		for _, values := range p {
			add("conflicting", len(values) > 1)
		}
	}
	for _, want := range []string{
		"reject " + RejectNotNew, "reject " + RejectNonGBP, "reject " + RejectBadPrice,
		"reject " + RejectMalformed, "reject " + RejectMissingTitle, "reject " + RejectBadURL,
		"malformed awin_csv", "malformed google_tsv", "malformed jsonl", "refurbished by condition",
		"refurbished by title", "non_gbp bytebarn", "duplicate northgate", "out of stock", "low stock",
		"16GB RAM", "brackets", "16 GB", "inch", "in", "Full HD", "4K UHD", "2160p", "quote", "Notebook",
		"accessory for a phone with storage", "accessory", "conflicting",
	} {
		if count[want] == 0 {
			t.Errorf("no row shows %q", want)
		}
	}
	if count["gtin harbour"] > 0 {
		t.Errorf("Harbour Electronics gives %d GTINs, want none", count["gtin harbour"])
	}
	for _, s := range g.shops {
		if s.Slug != "northgate" && count["duplicate "+s.Slug] > 0 {
			t.Errorf("%s lists products twice", s.Name)
		}
	}
	if share := float64(count["non_gbp bytebarn"]) / float64(count["rows bytebarn"]); share < 0.01 {
		t.Errorf("ByteBarn has %.1f%% EUR rows, want a noticeable share", 100*share)
	}
	if share := float64(count["sale kestrel"]) / float64(count["rows kestrel"]); share < 0.4 {
		t.Errorf("Kestrel Digital has sale prices on %.1f%% of rows, want many", 100*share)
	}
}

func BenchmarkGenerate(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if _, err := Generate(dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpand(b *testing.B) {
	d, err := loadData(tables())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := d.expand(1); err != nil {
			b.Fatal(err)
		}
	}
}
