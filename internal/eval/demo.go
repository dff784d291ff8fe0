package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"productsearch/internal/catalog"
	"productsearch/internal/demo"
	"productsearch/internal/feed"
	"productsearch/internal/ingest"
	"productsearch/internal/normalize"
)

// Demo is a demo feed set read with its ground truth, as cases of the
// clusters, classify and extract evaluations.
type Demo struct {
	Offers   []ClusterOffer
	Classify []ClassifyCase
	Extract  []ExtractCase
	truth    []demo.TruthRow // the truth row of each offer
}

// ReadDemo reads the feed set written by "indexer demo" in dir
// (retailers.yaml, the feeds and truth.jsonl) the way the indexer reads it,
// and pairs every listing with its truth row: the true product, category,
// product type and the attributes its title states. Rows the truth rejects
// are left out.
func ReadDemo(ctx context.Context, dir string) (*Demo, error) {
	cfg, err := ingest.LoadConfig(filepath.Join(dir, "retailers.yaml"))
	if err != nil {
		return nil, fmt.Errorf("demo feed set: %w", err)
	}
	rows, err := demo.ReadTruth(filepath.Join(dir, "truth.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("demo truth: %w", err)
	}
	truth := map[[2]string]demo.TruthRow{}
	for _, r := range rows {
		if r.Reject == "" {
			truth[[2]string{r.Retailer, r.MerchantID}] = r
		}
	}
	d := &Demo{}
	for _, r := range cfg.Retailers {
		if err := d.readFeed(ctx, r, truth); err != nil {
			return nil, err
		}
	}
	if len(d.Offers) == 0 {
		return nil, errors.New("demo feed set: no listing matches a truth row")
	}
	return d, nil
}

func (d *Demo) readFeed(ctx context.Context, r ingest.Retailer, truth map[[2]string]demo.TruthRow) error {
	rd, err := feed.Open(ctx, r.Source)
	if err != nil {
		return fmt.Errorf("demo feed %s: %w", r.Name, err)
	}
	defer rd.Close()
	nr := normalize.Retailer{Name: r.Name, Slug: r.Slug}
	seen := map[string]bool{}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		var rowErr *feed.RowError
		if errors.As(err, &rowErr) {
			continue
		}
		if err != nil {
			return fmt.Errorf("demo feed %s: %w", r.Name, err)
		}
		l, err := normalize.Listing(rec, nr, normalize.Options{})
		if err != nil || seen[l.OfferID] {
			continue
		}
		seen[l.OfferID] = true
		t, ok := truth[[2]string{l.Retailer, l.MerchantID}]
		if !ok {
			continue
		}
		d.Offers = append(d.Offers, ClusterOffer{
			Line: l.Row, ID: l.OfferID, Cluster: t.Product, Retailer: l.Retailer, Title: l.Title, Brand: l.Brand,
			GTIN: l.GTIN, MPN: l.MPN, ModelNumber: l.ModelNumber, Colour: l.Colour, Category: l.CategoryPath,
			TaxonomyID: l.TaxonomyID, Description: l.Description,
		})
		d.truth = append(d.truth, t)
		d.Classify = append(d.Classify, ClassifyCase{
			Line: l.Row, Title: l.Title, CategoryPath: l.CategoryPath, TaxonomyID: l.TaxonomyID, Brand: l.Brand,
			Want: t.Category, WantType: t.ProductType,
		})
		c := ExtractCase{Line: l.Row, Title: l.Title, Category: t.Category, Accessory: t.ProductType == "accessory",
			Scored: allAttributes()}
		for k, v := range t.TitleAttributes {
			if c.Truth == nil {
				c.Truth = map[string]float64{}
			}
			c.Truth[k] = v
		}
		d.Extract = append(d.Extract, c)
	}
}

// siteCategories are the demo categories the site view holds, by the names
// a price-comparison site files them under.
var siteCategories = map[string]string{"Phones": "Mobile Phones", "TVs": "TVs", "Cameras": "Digital Cameras"}

// SiteOffers returns the demo's phones, TVs and cameras as a
// price-comparison site lists its shops' offers, the way the clustering
// datasets give them: titles in lower case with their punctuation and
// letters outside ASCII dropped, no brand, barcode or part number, the
// site's category name, one offer per shop and model, and colours of one
// model in one cluster (score it with IgnoreColour). Accessories are left
// out. It measures grouping on titles alone.
func (d *Demo) SiteOffers() []ClusterOffer {
	var out []ClusterOffer
	seen := map[[2]string]bool{}
	for i, o := range d.Offers {
		t := d.truth[i]
		cat, ok := siteCategories[t.Category]
		if !ok || t.ProductType != catalog.TypeProduct {
			continue
		}
		model := t.Model
		if model == "" {
			model = t.Product
		}
		if k := [2]string{model, o.Retailer}; !seen[k] {
			seen[k] = true
			out = append(out, ClusterOffer{Line: o.Line, ID: o.ID, Cluster: model, Retailer: o.Retailer,
				Title: siteTitle(o.Title), Category: cat})
		}
	}
	return out
}

// siteTitle writes a title as the clustering datasets do: lower case,
// letters outside ASCII and every punctuation mark but "." and "/" as
// spaces ("+" and "&" too), one space between words ("Samsung Galaxy S24
// Ultra (256GB) - Titanium Grey" is "samsung galaxy s24 ultra 256gb titanium
// grey", "Galaxy S20+" is "galaxy s20").
func siteTitle(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		keep := r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '/')
		if !keep {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
