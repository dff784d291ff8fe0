package bench

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/whitespace"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	blevesearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Field names of the Bleve index.
const (
	bleveTerms    = "terms"
	bleveCategory = "category"
	bleveBrand    = "brand"
	blevePrice    = "price"
	// Sort keys: keyword fields whose text sorts as the value does.
	bleveOrderPrice  = "order_price"
	bleveOrderOffers = "order_offers"
	bleveOrderTier   = "order_tier"
	termsAnalyzer    = "terms"
)

// bleveIndex is a Bleve scorch index held in memory, built in one batch
// (one segment, the fastest layout to search).
type bleveIndex struct {
	idx  bleve.Index
	docs map[string]int32 // product id -> document number
}

// NewBleve indexes the snapshot in Bleve: the title's search terms in an
// analysed text field ("terms", split on spaces and scored with BM25),
// category and brand (folded as catalog.NormalizeBrand) as keyword fields,
// price, offer count and product type as numeric fields with doc values
// for sorting, and each attribute as a numeric field named after it
// (every stated value of a conflicting one). Document ids are product ids,
// the last key of every sort order. (Sorting instead on a numeric field
// holding the id's rank is slower: every doc-value field sorted on costs a
// chunk decode per candidate.)
func NewBleve(s *catalog.Snapshot) (*Peer, error) {
	m, err := bleveMapping()
	if err != nil {
		return nil, err
	}
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("bleve: new index: %w", err)
	}
	b := &bleveIndex{idx: idx, docs: make(map[string]int32, len(s.Products))}
	batch := idx.NewBatch()
	for i := range s.Products {
		p := &s.Products[i]
		doc := map[string]any{
			bleveTerms:    titleText(p.Title),
			bleveCategory: p.Category,
			bleveBrand:    catalog.NormalizeBrand(p.Brand),
			blevePrice:    p.Price,
			// Sort keys as fixed-width text (prices are positive pounds
			// and pence; offer counts are small).
			bleveOrderPrice:  fmt.Sprintf("%015.4f", p.Price),
			bleveOrderOffers: fmt.Sprintf("%06d", p.OfferCount),
			bleveOrderTier:   strconv.Itoa(tier(p)),
		}
		for name, a := range p.Attributes {
			if catalog.IsAttribute(name) {
				doc[name] = a.Stated()
			}
		}
		if err := batch.Index(p.ID, doc); err != nil {
			idx.Close()
			return nil, fmt.Errorf("bleve: index %s: %w", p.ID, err)
		}
		b.docs[p.ID] = int32(i)
	}
	if err := idx.Batch(batch); err != nil {
		idx.Close()
		return nil, fmt.Errorf("bleve: index batch: %w", err)
	}
	n, err := idx.DocCount()
	if err != nil || int(n) != len(s.Products) {
		idx.Close()
		return nil, fmt.Errorf("bleve: index holds %d documents of %d (%v)", n, len(s.Products), err)
	}
	return &Peer{name: "bleve", products: s.Products, be: b, maxCand: search.DefaultMaxCandidates,
		attrs: catalog.DefaultAttributes()}, nil
}

func bleveMapping() (mapping.IndexMapping, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.IndexDynamic, im.StoreDynamic, im.DocValuesDynamic = false, false, false
	if err := im.AddCustomAnalyzer(termsAnalyzer, map[string]any{
		"type":      custom.Name,
		"tokenizer": whitespace.Name,
	}); err != nil {
		return nil, fmt.Errorf("bleve mapping: %w", err)
	}
	dm := bleve.NewDocumentStaticMapping()
	text := bleve.NewTextFieldMapping()
	text.Analyzer = termsAnalyzer
	text.Store, text.IncludeInAll, text.IncludeTermVectors, text.DocValues = false, false, false, false
	dm.AddFieldMappingsAt(bleveTerms, text)
	for _, name := range []string{bleveCategory, bleveBrand, bleveOrderPrice, bleveOrderOffers, bleveOrderTier} {
		kw := bleve.NewKeywordFieldMapping()
		kw.Analyzer = keyword.Name
		kw.Store, kw.IncludeInAll, kw.IncludeTermVectors = false, false, false
		kw.DocValues = name != bleveCategory && name != bleveBrand
		dm.AddFieldMappingsAt(name, kw)
	}
	for _, name := range append([]string{blevePrice}, catalog.AttributeNames()...) {
		num := bleve.NewNumericFieldMapping()
		num.Store, num.IncludeInAll, num.DocValues = false, false, false
		dm.AddFieldMappingsAt(name, num)
	}
	im.DefaultMapping = dm
	return im, nil
}

func (b *bleveIndex) close() error { return b.idx.Close() }

// fetch translates the plan to a Bleve query: a conjunction of the
// required title terms, the category and brand terms and the price range,
// with the ranking-only terms as optional scored clauses; sorted by the
// request's order, with scoring off when the order does not use it.
func (b *bleveIndex) fetch(ctx context.Context, p *search.Plan, from, size int) ([]int32, int, error) {
	sh := shapeOf(p)
	r := &p.Request
	var must []query.Query
	for _, t := range sh.required {
		must = append(must, bleveTerm(t))
	}
	if r.Category != "" {
		q := bleve.NewTermQuery(r.Category)
		q.SetField(bleveCategory)
		must = append(must, q)
	}
	if r.Brand != "" {
		q := bleve.NewTermQuery(catalog.NormalizeBrand(r.Brand))
		q.SetField(bleveBrand)
		must = append(must, q)
	}
	if r.MinPrice != nil || r.MaxPrice != nil {
		yes := true
		q := bleve.NewNumericRangeInclusiveQuery(r.MinPrice, r.MaxPrice, &yes, &yes)
		q.SetField(blevePrice)
		must = append(must, q)
	}
	var q query.Query
	switch {
	case len(must) == 0 && (!sh.scored || len(sh.rankOnly) == 0):
		q = bleve.NewMatchAllQuery()
	case !sh.scored || len(sh.rankOnly) == 0:
		q = bleve.NewConjunctionQuery(must...)
	default:
		var should []query.Query
		for _, t := range sh.rankOnly {
			should = append(should, bleveTerm(t))
		}
		if len(must) == 0 {
			must = append(must, bleve.NewMatchAllQuery())
		}
		q = query.NewBooleanQuery(must, should, nil)
	}
	req := bleve.NewSearchRequestOptions(q, size, from, false)
	var order blevesearch.SortOrder
	switch r.Sort {
	case search.SortPriceAsc:
		order = blevesearch.SortOrder{textSort(bleveOrderPrice, false)}
	case search.SortPriceDesc:
		order = blevesearch.SortOrder{textSort(bleveOrderPrice, true)}
	default:
		if sh.tier {
			order = append(order, textSort(bleveOrderTier, false))
		}
		if sh.scored {
			order = append(order, &blevesearch.SortScore{Desc: true})
		}
		order = append(order, textSort(bleveOrderOffers, true), textSort(bleveOrderPrice, false))
	}
	req.SortByCustom(append(order, &blevesearch.SortDocID{}))
	if !sh.scored {
		req.Score = bleve.ScoreNone
	}
	res, err := b.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, fmt.Errorf("bleve: %w", err)
	}
	docs := make([]int32, len(res.Hits))
	for i, h := range res.Hits {
		doc, ok := b.docs[h.ID]
		if !ok {
			return nil, 0, errors.New("bleve: hit " + h.ID + " is not a product")
		}
		docs[i] = doc
	}
	return docs, int(res.Total), nil
}

func textSort(field string, desc bool) *blevesearch.SortField {
	return &blevesearch.SortField{Field: field, Desc: desc, Type: blevesearch.SortFieldAsString}
}

// bleveTerm matches a query word in titles: its joined form, or every
// part of a hyphenated word.
func bleveTerm(t search.Term) query.Query {
	tq := bleve.NewTermQuery(t.Text)
	tq.SetField(bleveTerms)
	if len(t.Parts) == 0 {
		return tq
	}
	parts := make([]query.Query, len(t.Parts))
	for i, p := range t.Parts {
		pq := bleve.NewTermQuery(p)
		pq.SetField(bleveTerms)
		parts[i] = pq
	}
	return bleve.NewDisjunctionQuery(tq, bleve.NewConjunctionQuery(parts...))
}
