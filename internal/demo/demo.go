// Package demo generates the demo catalog's retailer feeds: seven fictional
// UK retailers' product feeds in the formats real retailers publish (Awin
// CSV, Google Merchant Center XML and TSV, JSON Lines), listing one set of
// real-looking electronics products, each retailer with its own title style,
// prices, stock and coverage, and with the quirks real feeds have:
// duplicate listings, refurbished and foreign-currency rows, malformed
// records, titles that state a wrong spec. Beside the feeds it writes the
// indexer configuration for them and truth.jsonl, the ground truth of every
// row (which true product it lists, that product's specs, the specs its
// title states and whether it should be rejected).
//
// The product tables (brands, model lines, configurations, prices, colours,
// title styles, category paths) are data files in internal/demo/data;
// this package holds the generation logic. Output is deterministic: the same
// seed and scale give byte-identical files.
//
// Every feed record is one line (one item in the XML feeds), so truth row N
// of a retailer is record N of its feed, header not counted. Rows meant to be
// rejected read as follows:
//   - not_new: condition "refurbished", or "Refurbished", "Renewed - Grade
//     B", "Pre-owned" or "Open Box" in the title (condition may still say
//     new); often with the GTIN of the new product.
//   - non_gbp: currency EUR (ByteBarn mostly, a few at Voltline and
//     PixelPort).
//   - bad_price: "POA", "N/A", "TBC", "Call for price", "0.00" or an empty
//     price.
//   - malformed: in CSV an unquoted title with a stray quote and a comma, or a
//     line cut short; in TSV a line with too few columns or a tab in the
//     title; in JSON Lines an object cut off mid-line. Strict readers
//     (encoding/csv without LazyQuotes) report each as one bad record and go
//     on with the next line. The XML feeds carry none.
//   - missing_title: an empty title.
//   - bad_url: a product link without its scheme, a bare path, "htps://" or
//     "javascript:void(0)".
package demo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"productsearch/internal/catalog"
)

// Options control a generation run. Zero values take the defaults.
type Options struct {
	Seed  int64     // random seed; default 1
	Scale int       // N gives N times the distinct products; default 1
	Now   time.Time // the feeds' "now", fixed for determinism; default 2026-11-20T10:00:00Z
}

// defaultNow is the feeds' "now" when Options.Now is zero.
func defaultNow() time.Time { return time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC) }

// MaxScale bounds Options.Scale.
const MaxScale = 100

func (o Options) withDefaults() Options {
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Scale == 0 {
		o.Scale = 1
	}
	if o.Now.IsZero() {
		o.Now = defaultNow()
	}
	o.Now = o.Now.UTC()
	return o
}

// Summary counts what a run wrote.
type Summary struct {
	Products    int            // distinct true products with at least one row that is not meant to be rejected
	Offers      int            // rows not meant to be rejected
	Rows        int            // every feed row
	PerRetailer map[string]int // feed rows by retailer name
	Duration    time.Duration
}

// Files written under the output directory.
const (
	TruthFile  = "truth.jsonl"
	ConfigFile = "retailers.yaml"
	FeedsDir   = "feeds"
)

// Generate writes the demo feeds into dir: feeds/<slug>.<ext> for each
// retailer, truth.jsonl and retailers.yaml (the indexer configuration for
// these feeds, with locations relative to dir). Existing files are replaced.
func Generate(dir string, opt Options) (Summary, error) {
	start := time.Now()
	opt = opt.withDefaults()
	if opt.Scale < 1 || opt.Scale > MaxScale {
		return Summary{}, fmt.Errorf("generate demo: scale %d is out of range: use 1 to %d", opt.Scale, MaxScale)
	}
	d, err := loadData(tables())
	if err != nil {
		return Summary{}, fmt.Errorf("generate demo: %w", err)
	}
	products, err := d.expand(opt.Scale)
	if err != nil {
		return Summary{}, fmt.Errorf("generate demo: %w", err)
	}
	kinds, err := parseKinds(d)
	if err != nil {
		return Summary{}, fmt.Errorf("generate demo: %w", err)
	}
	plan := makePlan(d, products, opt.Seed)
	if err := os.MkdirAll(filepath.Join(dir, FeedsDir), 0o755); err != nil {
		return Summary{}, fmt.Errorf("generate demo: %w", err)
	}

	results := make([]shopResult, len(d.Shops))
	errs := make([]error, len(d.Shops))
	var wg sync.WaitGroup
	for i := range d.Shops {
		wg.Go(func() {
			g := newShopGen(d, i, products, kinds, opt)
			results[i], errs[i] = g.run(dir, plan[i])
		})
	}
	wg.Wait()
	defer func() {
		for _, r := range results {
			if r.truth != "" {
				os.Remove(r.truth)
			}
		}
	}()
	if err := errors.Join(errs...); err != nil {
		return Summary{}, fmt.Errorf("generate demo: %w", err)
	}

	sum := Summary{PerRetailer: map[string]int{}}
	listed := make([]bool, len(products))
	parts := make([]string, len(results))
	for i, r := range results {
		sum.Rows += r.rows
		sum.Offers += r.offers
		sum.PerRetailer[d.Shops[i].Name] = r.rows
		for _, p := range r.listed {
			if !listed[p] {
				listed[p] = true
				sum.Products++
			}
		}
		parts[i] = r.truth
	}
	if err := concatFiles(filepath.Join(dir, TruthFile), parts); err != nil {
		return Summary{}, fmt.Errorf("generate demo: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, ConfigFile), configYAML(d.Shops)); err != nil {
		return Summary{}, fmt.Errorf("generate demo: %w", err)
	}
	sum.Duration = time.Since(start)
	return sum, nil
}

// shopResult is what one retailer's run produced.
type shopResult struct {
	truth        string // temporary file holding the retailer's truth.jsonl lines
	rows, offers int
	listed       []int32 // products of the rows not meant to be rejected
}

// feedName is a retailer's feed path relative to the output directory.
func feedName(s *shop) string {
	ext := map[string]string{fmtAwinCSV: ".csv", fmtGoogleXML: ".xml", fmtGoogleTSV: ".tsv", fmtJSONL: ".jsonl"}[s.Format]
	if s.Gzip {
		ext += ".gz"
	}
	return FeedsDir + "/" + s.Slug + ext
}

// run writes the retailer's feed, and its truth rows to a temporary file.
func (g *shopGen) run(dir string, rows []planRow) (res shopResult, err error) {
	ff, err := createFeed(filepath.Join(dir, filepath.FromSlash(feedName(g.s))), g.s.Gzip)
	if err != nil {
		return res, fmt.Errorf("%s feed: %w", g.s.Name, err)
	}
	tf, err := os.CreateTemp(dir, TruthFile+"."+g.s.Slug+".*.tmp")
	if err != nil {
		ff.abort()
		return res, fmt.Errorf("%s truth: %w", g.s.Name, err)
	}
	res.truth = tf.Name()
	defer func() {
		if cerr := tf.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("%s truth: %w", g.s.Name, cerr)
		}
		if err != nil {
			ff.abort()
		}
	}()
	tw := bufio.NewWriterSize(tf, 256<<10)
	fw := newFeedWriter(g.s.Format, ff.w, g.s)
	if err := fw.begin(); err != nil {
		return res, fmt.Errorf("%s feed: %w", g.s.Name, err)
	}
	var line []byte
	for i, pr := range rows {
		l := g.build(i, pr)
		if err := fw.row(&l); err != nil {
			return res, fmt.Errorf("%s feed row %d: %w", g.s.Name, l.row, err)
		}
		t := g.truthRow(&l)
		if line, err = t.appendJSON(line[:0]); err != nil {
			return res, fmt.Errorf("%s truth: %w", g.s.Name, err)
		}
		if _, err := tw.Write(line); err != nil {
			return res, fmt.Errorf("%s truth: %w", g.s.Name, err)
		}
		res.rows++
		if l.reject == "" {
			res.offers++
			res.listed = append(res.listed, pr.prod)
		}
	}
	if err := fw.end(); err != nil {
		return res, fmt.Errorf("%s feed: %w", g.s.Name, err)
	}
	if err := tw.Flush(); err != nil {
		return res, fmt.Errorf("%s truth: %w", g.s.Name, err)
	}
	if err := ff.commit(); err != nil {
		return res, fmt.Errorf("%s feed: %w", g.s.Name, err)
	}
	return res, nil
}

// truthRow is the ground truth of a listing.
func (g *shopGen) truthRow(l *listing) TruthRow {
	p := l.p
	t := TruthRow{
		Retailer:        g.s.Name,
		MerchantID:      l.merchantID,
		Row:             l.row,
		Product:         p.key,
		Model:           p.model,
		Category:        p.dept.Category,
		ProductType:     catalog.ProductType(p.dept.Type),
		Title:           l.title,
		Attributes:      map[string]float64{},
		TitleAttributes: map[string]float64{},
		Duplicate:       l.dup,
		Reject:          l.reject,
	}
	for a := range numAttrs {
		if p.attrs[a] > 0 {
			t.Attributes[attrNames[a]] = p.attrs[a]
		}
		if l.stated[a] > 0 {
			t.TitleAttributes[attrNames[a]] = l.stated[a]
		}
	}
	if l.wrong >= 0 {
		t.WrongSpec = attrNames[l.wrong]
	}
	return t
}

// configYAML is the indexer configuration for the generated feeds.
func configYAML(shops []*shop) []byte {
	var b strings.Builder
	b.WriteString("# Indexer configuration for the generated demo feeds; locations are\n")
	b.WriteString("# relative to this file.\n")
	b.WriteString("low_stock_threshold: 5\nmax_shrink: 0.30\nretailers:\n")
	for _, s := range shops {
		fmt.Fprintf(&b, "  - name: %s\n    slug: %s\n    format: %s\n    location: %s\n", s.Name, s.Slug, s.Format, feedName(s))
		if s.Format == fmtJSONL {
			b.WriteString("    fields:\n")
			for _, kv := range pixelFields {
				fmt.Fprintf(&b, "      %s: %s\n", kv[0], kv[1])
			}
		}
	}
	return []byte(b.String())
}

// pixelFields maps record fields to the keys of the JSON Lines feed.
var pixelFields = [...][2]string{
	{"id", "sku"}, {"title", "name"}, {"brand", "brand.name"}, {"price", "pricing.now"},
	{"rrp", "pricing.was"}, {"currency", "pricing.currency"}, {"availability", "stock.status"},
	{"stock", "stock.qty"}, {"delivery_time", "stock.delivery"}, {"link", "links.product"},
	{"image_link", "links.image"}, {"gtin", "ids.ean"}, {"mpn", "ids.mpn"},
	{"category_path", "category"}, {"colour", "colour"}, {"last_updated", "updated"},
	{"description", "description"},
}

// concatFiles writes the files parts, one after another, to path: to a
// temporary file beside it first, renamed into place when complete.
func concatFiles(path string, parts []string) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	for _, p := range parts {
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, src)
		src.Close()
		if err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// writeFileAtomic writes data beside path under a temporary name and
// renames it into place.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
