package bench

import (
	"github.com/RoaringBitmap/roaring/v2"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Oracle counts the candidates of a request, the products that pass its
// filters and hold its required words, before constraints: what an engine
// must at least look at. It is a plain bitmap index, kept apart from the
// engines it checks.
type Oracle struct {
	prices   []float64
	terms    map[string]*roaring.Bitmap
	category map[string]*roaring.Bitmap
	brand    map[string]*roaring.Bitmap
}

// NewOracle indexes a snapshot.
func NewOracle(s *catalog.Snapshot) *Oracle {
	o := &Oracle{
		prices:   make([]float64, len(s.Products)),
		terms:    map[string]*roaring.Bitmap{},
		category: map[string]*roaring.Bitmap{},
		brand:    map[string]*roaring.Bitmap{},
	}
	add := func(m map[string]*roaring.Bitmap, key string, doc uint32) {
		bm, ok := m[key]
		if !ok {
			bm = roaring.New()
			m[key] = bm
		}
		bm.Add(doc)
	}
	for i := range s.Products {
		p := &s.Products[i]
		o.prices[i] = p.Price
		_, terms := search.TitleTerms(p.Title)
		for _, t := range terms {
			add(o.terms, t, uint32(i))
		}
		add(o.category, p.Category, uint32(i))
		add(o.brand, catalog.NormalizeBrand(p.Brand), uint32(i))
	}
	return o
}

// Candidates returns how many products pass the request's filters and
// hold its required words; -1 when the request is invalid.
func (o *Oracle) Candidates(req search.Request) int {
	p, err := req.Plan()
	if err != nil {
		return -1
	}
	r := &p.Request
	var sets []*roaring.Bitmap
	if r.Category != "" {
		sets = append(sets, o.lookup(o.category, r.Category))
	}
	if r.Brand != "" {
		sets = append(sets, o.lookup(o.brand, catalog.NormalizeBrand(r.Brand)))
	}
	for _, t := range p.Analysis.Required {
		bm := o.lookup(o.terms, t.Text).Clone()
		if len(t.Parts) > 0 {
			parts := o.lookup(o.terms, t.Parts[0]).Clone()
			for _, part := range t.Parts[1:] {
				parts.And(o.lookup(o.terms, part))
			}
			bm.Or(parts)
		}
		sets = append(sets, bm)
	}
	inRange := func(doc uint32) bool {
		v := o.prices[doc]
		return (r.MinPrice == nil || v >= *r.MinPrice) && (r.MaxPrice == nil || v <= *r.MaxPrice)
	}
	n := 0
	if len(sets) == 0 {
		for doc := range o.prices {
			if inRange(uint32(doc)) {
				n++
			}
		}
		return n
	}
	all := roaring.FastAnd(sets...)
	for it := all.Iterator(); it.HasNext(); {
		if inRange(it.Next()) {
			n++
		}
	}
	return n
}

func (o *Oracle) lookup(m map[string]*roaring.Bitmap, key string) *roaring.Bitmap {
	if bm, ok := m[key]; ok {
		return bm
	}
	return roaring.New()
}
