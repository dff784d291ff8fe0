package elastic

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// SchemaVersion is the version of the index layout (mapping and document
// fields) that this engine reads. The publisher records it in the index
// _meta; Health reports an index of another version as degraded. Version 2
// indexes titles with "generation" folded to "gen" and the card format of
// SD card classes; version 3 folds them by the search vocabulary
// (spellings, compounds, aliases and the words a product's name implies)
// and holds the terms a title names only after "for" (fits). Version 4
// stores the lite form of each product (fieldLite). Version 5 stores each
// title's BM25 length norm (fieldNorm), by which the node scores. Version 6
// holds each product's stated attribute values as numbers of its own
// (fieldAttrValues, with their least and greatest) instead of one nested
// document per value. Version 7 stores the lite object as a lite result
// shows it (search.AppendLiteProduct), served without decoding, and the
// attributes a lite result shows beside constraints in a field of their
// own (fieldLiteAttrs).
const SchemaVersion = 7

// Field names of an indexed product.
const (
	fieldID          = "id"
	fieldTitle       = "title"
	fieldTerms       = "terms"       // search.TitleTerms terms: the words a title is found by
	fieldPairs       = "pairs"       // adjacent title words "a b", for phrase scoring
	fieldFits        = "fits"        // search.TitleFits terms: what the product is made for
	fieldTitleWords  = "title_words" // number of title words, for the length norm
	fieldNorm        = "title_norm"  // BM25 length norm of the title (lengthNorm)
	fieldBrand       = "brand"       // catalog.NormalizeBrand of the brand
	fieldCategory    = "category"
	fieldPrice       = "price"
	fieldAvail       = "availability"
	fieldProductType = "product_type"
	fieldTier        = "tier" // 1 for accessories, 0 for products
	fieldOfferCount  = "offer_count"
	fieldBrowseRank  = "browse_rank" // position in browse order; unique
	fieldOfferIDs    = "offer_ids"
	// Stated attribute values by attribute name: all of them, the least
	// and the greatest ("attr_values.memory_gb", ...).
	fieldAttrValues = "attr_values"
	fieldAttrMin    = "attr_min"
	fieldAttrMax    = "attr_max"
	fieldProduct    = "product"    // the catalog product, stored and not indexed
	fieldLite       = "lite"       // the lite object of search.AppendLiteProduct, a stored field only
	fieldLiteAttrs  = "lite_attrs" // the attributes without their sources as JSON, a stored field only
)

// DefaultMaxResultWindow is the smallest max_result_window an index gets:
// enough for the deepest page the interface allows (offset 10,000 plus a
// page of 100).
const DefaultMaxResultWindow = search.MaxOffset + search.MaxLimit

// Meta is the _meta block of a published index: what /api/health reports,
// and the statistics relevance ranking needs.
type Meta struct {
	// Schema is the SchemaVersion the index was written with.
	Schema int `json:"schema"`
	// SyncTime is the sync time of the snapshot the index holds.
	SyncTime time.Time `json:"sync_time"`
	// Products and Offers count the snapshot's products and offers.
	Products int `json:"products"`
	Offers   int `json:"offers"`
	// TitleWords is the number of title words of all products.
	TitleWords int `json:"title_words"`
	// Categories counts products per category.
	Categories map[string]int `json:"categories,omitempty"`
}

// IndexSettings are the physical settings of a new index.
type IndexSettings struct {
	// Shards and Replicas; zero Shards means 1.
	Shards, Replicas int
	// MaxResultWindow is index.max_result_window; values below
	// DefaultMaxResultWindow are raised to it.
	MaxResultWindow int
}

// Catalog is a snapshot prepared for indexing: every product's browse rank
// and title statistics are computed, so documents can be written one at a
// time in any order.
type Catalog struct {
	snap  *catalog.Snapshot
	rank  []int32 // browse rank by product position
	words []int32 // title word count by product position
	avg   float64 // title words per product, for the length norm
	meta  Meta
	table *catalog.AttributeTable // the attributes documents hold
}

// Prepare checks a snapshot (ids present and unique) and computes what its
// documents need. The snapshot must not change while the Catalog is used.
func Prepare(s *catalog.Snapshot) (*Catalog, error) {
	if s == nil {
		return nil, errors.New("prepare index: nil snapshot")
	}
	n := len(s.Products)
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("prepare index: %d products is more than an index holds", n)
	}
	c := &Catalog{snap: s, rank: make([]int32, n), words: make([]int32, n), table: catalog.DefaultAttributes()}
	c.meta = Meta{Schema: SchemaVersion, SyncTime: s.Manifest.SyncTime, Products: n, Categories: map[string]int{}}
	seen := make(map[string]struct{}, n)
	for i := range s.Products {
		p := &s.Products[i]
		if p.ID == "" {
			return nil, fmt.Errorf("prepare index: product at position %d has no id", i)
		}
		if _, dup := seen[p.ID]; dup {
			return nil, fmt.Errorf("prepare index: duplicate product id %q", p.ID)
		}
		seen[p.ID] = struct{}{}
		words, _ := search.TitleTerms(p.Title)
		c.words[i] = int32(len(words))
		c.meta.TitleWords += len(words)
		c.meta.Offers += len(p.Offers)
		c.meta.Categories[p.Category]++
	}
	c.avg = 1.0
	if n > 0 && c.meta.TitleWords > 0 {
		c.avg = float64(c.meta.TitleWords) / float64(n)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Browse order: products before accessories, then offer_count
	// descending, price ascending and id ascending.
	slices.SortFunc(order, func(a, b int) int {
		pa, pb := &s.Products[a], &s.Products[b]
		return cmp.Or(
			cmp.Compare(tier(pa), tier(pb)),
			cmp.Compare(pb.OfferCount, pa.OfferCount),
			cmp.Compare(pa.Price, pb.Price),
			cmp.Compare(pa.ID, pb.ID))
	})
	for r, i := range order {
		c.rank[i] = int32(r)
	}
	return c, nil
}

func tier(p *catalog.Product) int {
	if p.ProductType == catalog.TypeAccessory {
		return 1
	}
	return 0
}

// Len is the number of products.
func (c *Catalog) Len() int { return len(c.snap.Products) }

// Meta returns the _meta block of the index.
func (c *Catalog) Meta() Meta { return c.meta }

// DocID is the document id of product i: its canonical id.
func (c *Catalog) DocID(i int) string { return c.snap.Products[i].ID }

// document is a product as indexed.
type document struct {
	ID           string               `json:"id"`
	Title        string               `json:"title"`
	Terms        []string             `json:"terms"`
	Pairs        []string             `json:"pairs,omitempty"`
	Fits         []string             `json:"fits,omitempty"`
	TitleWords   int32                `json:"title_words"`
	TitleNorm    float64              `json:"title_norm"`
	Brand        string               `json:"brand,omitempty"`
	Category     string               `json:"category"`
	Price        float64              `json:"price"`
	Availability string               `json:"availability"`
	ProductType  string               `json:"product_type"`
	Tier         int                  `json:"tier"`
	OfferCount   int                  `json:"offer_count"`
	BrowseRank   int32                `json:"browse_rank"`
	OfferIDs     []string             `json:"offer_ids,omitempty"`
	AttrValues   map[string][]float64 `json:"attr_values,omitempty"`
	AttrMin      map[string]float64   `json:"attr_min,omitempty"`
	AttrMax      map[string]float64   `json:"attr_max,omitempty"`
	Product      *catalog.Product     `json:"product"`
	Lite         string               `json:"lite"`
	LiteAttrs    string               `json:"lite_attrs,omitempty"`
}

// liteAttributes returns p's attributes as a lite result shows them:
// without their sources.
func liteAttributes(p *catalog.Product) map[string]catalog.Attribute {
	if len(p.Attributes) == 0 {
		return nil
	}
	out := make(map[string]catalog.Attribute, len(p.Attributes))
	for name, a := range p.Attributes {
		a.Sources = nil
		if len(a.Values) > 0 {
			vs := make([]catalog.StatedValue, len(a.Values))
			for i, v := range a.Values {
				vs[i] = catalog.StatedValue{Value: v.Value}
			}
			a.Values = vs
		}
		out[name] = a
	}
	return out
}

// AppendSource appends the JSON source of product i's document to dst.
func (c *Catalog) AppendSource(dst []byte, i int) ([]byte, error) {
	p := c.snap.Products[i]
	if !slices.IsSortedFunc(p.Offers, compareOffers) {
		p.Offers = slices.Clone(p.Offers)
		slices.SortStableFunc(p.Offers, compareOffers)
	}
	words, terms, fits := search.TitleText(p.Title)
	d := document{
		ID: p.ID, Title: p.Title, Terms: terms, Pairs: pairs(words), Fits: fits, TitleWords: c.words[i],
		TitleNorm: lengthNorm(int(c.words[i]), c.avg),
		Brand:     catalog.NormalizeBrand(p.Brand), Category: p.Category, Price: p.Price,
		Availability: string(p.Availability), ProductType: string(p.ProductType), Tier: tier(&p),
		OfferCount: p.OfferCount, BrowseRank: c.rank[i], Product: &p,
	}
	d.AttrValues, d.AttrMin, d.AttrMax = attrFields(c.table, p.Attributes)
	for _, o := range p.Offers {
		if o.ID != "" && !slices.Contains(d.OfferIDs, o.ID) {
			d.OfferIDs = append(d.OfferIDs, o.ID)
		}
	}
	d.Lite = string(search.AppendLiteProduct(nil, &p))
	if attrs := liteAttributes(&p); attrs != nil {
		l, err := json.Marshal(attrs)
		if err != nil {
			return dst, fmt.Errorf("encode product %s: %w", p.ID, err)
		}
		d.LiteAttrs = string(l)
	}
	b, err := json.Marshal(&d)
	if err != nil {
		return dst, fmt.Errorf("encode product %s: %w", p.ID, err)
	}
	return append(dst, b...), nil
}

func compareOffers(a, b catalog.Offer) int { return cmp.Compare(a.Price, b.Price) }

// pairs returns the distinct pairs of adjacent title words, "a b".
func pairs(words []string) []string {
	var out []string
	for i := 0; i+1 < len(words); i++ {
		pair := words[i] + " " + words[i+1]
		if !slices.Contains(out, pair) {
			out = append(out, pair)
		}
	}
	return out
}

// attrFields returns the stated values of the table's attributes in
// attrs, by name (every value of a conflicting one), with the least and
// greatest of each: a constraint's range holds every value when it holds
// those two.
func attrFields(table *catalog.AttributeTable, attrs map[string]catalog.Attribute) (values map[string][]float64, lo, hi map[string]float64) {
	for _, name := range table.Names() {
		a, ok := attrs[name]
		if !ok {
			continue
		}
		var vs []float64
		switch {
		case a.Status == catalog.Conflicting:
			for _, v := range a.Values {
				vs = append(vs, v.Value)
			}
		case a.Value > 0:
			vs = []float64{a.Value}
		}
		if len(vs) == 0 {
			continue
		}
		if values == nil {
			values, lo, hi = map[string][]float64{}, map[string]float64{}, map[string]float64{}
		}
		values[name], lo[name], hi[name] = vs, slices.Min(vs), slices.Max(vs)
	}
	return values, lo, hi
}

// IndexBody returns the body that creates an index for the catalog:
// settings (refresh disabled for the bulk load; the publisher restores it),
// the explicit mapping and the _meta block.
func (c *Catalog) IndexBody(s IndexSettings) ([]byte, error) {
	shards := max(s.Shards, 1)
	window := max(s.MaxResultWindow, DefaultMaxResultWindow)
	keyword := map[string]any{"type": "keyword"}
	storedOnly := map[string]any{"type": "keyword", "index": false, "doc_values": false, "store": true}
	attrs := map[string]any{}
	for _, name := range c.table.Names() {
		attrs[name] = map[string]any{"type": "double"}
	}
	attrMapping := map[string]any{"type": "object", "properties": attrs}
	body := map[string]any{
		"settings": map[string]any{
			"index": map[string]any{
				"number_of_shards":   shards,
				"number_of_replicas": max(s.Replicas, 0),
				"refresh_interval":   "-1",
				"max_result_window":  window,
			},
			"analysis": map[string]any{
				"normalizer": map[string]any{
					"brand_lowercase": map[string]any{"type": "custom", "filter": []string{"lowercase"}},
				},
			},
		},
		"mappings": map[string]any{
			"dynamic": "strict",
			// Responses need only the product; the indexed fields are
			// derived from it and stay out of the stored source, which
			// keeps it small and is returned without filtering.
			"_source": map[string]any{"includes": []string{fieldProduct}},
			"_meta":   c.meta,
			"properties": map[string]any{
				fieldID:          keyword,
				fieldTitle:       map[string]any{"type": "text"},
				fieldTerms:       keyword,
				fieldPairs:       keyword,
				fieldFits:        keyword,
				fieldTitleWords:  map[string]any{"type": "integer"},
				fieldNorm:        map[string]any{"type": "double", "index": false},
				fieldBrand:       map[string]any{"type": "keyword", "normalizer": "brand_lowercase"},
				fieldCategory:    keyword,
				fieldPrice:       map[string]any{"type": "double"},
				fieldAvail:       keyword,
				fieldProductType: keyword,
				fieldTier:        map[string]any{"type": "byte"},
				fieldOfferCount:  map[string]any{"type": "integer"},
				fieldBrowseRank:  map[string]any{"type": "integer"},
				fieldOfferIDs:    keyword,
				fieldAttrValues:  attrMapping,
				fieldAttrMin:     attrMapping,
				fieldAttrMax:     attrMapping,
				fieldProduct:     map[string]any{"type": "object", "enabled": false},
				fieldLite:        storedOnly,
				fieldLiteAttrs:   storedOnly,
			},
		},
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode index definition: %w", err)
	}
	return b, nil
}
