package elastic

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
)

// maxInline is the deepest page whose products a constrained search
// returns with its candidates: the most hits a top_hits aggregation
// returns (index.max_inner_result_window).
const maxInline = 100

// Names of the aggregations that return the first matched and unverified
// products with the candidates.
const (
	inlineMatched    = "page_matched"
	inlineUnverified = "page_unverified"
)

// inlinePage adds to a constrained search's body the first products in
// sort order that match every constraint and the first that are
// unverified (top_hits within filters), as many as the page reaches: the
// page is then read from the same answer as the verdicts, and no _mget
// follows. Deeper pages are read with an _mget.
func (q *query) inlinePage(body obj, sort []any) {
	need := q.req.Offset + q.req.Limit
	if need > maxInline || len(q.cons) == 0 {
		return
	}
	var all, anyExcluded []any
	for _, c := range q.cons {
		matched, excluded := c.verdicts()
		all = append(all, obj{"bool": matched})
		anyExcluded = append(anyExcluded, obj{"bool": excluded})
	}
	matched := obj{"bool": obj{"filter": all}}
	unverified := obj{"bool": obj{"must_not": append([]any{matched}, anyExcluded...)}}
	top := func(filter any) obj {
		return obj{"filter": filter, "aggs": obj{"top": obj{"top_hits": productFields(obj{"size": need, "sort": sort}, q.req.Lite)}}}
	}
	body["aggs"] = obj{inlineMatched: top(matched), inlineUnverified: top(unverified)}
}

// inlineProducts reads the products of inlinePage's aggregations by id;
// nil when the search had none.
func (q *query) inlineProducts(aggs json.RawMessage) (map[string]*catalog.Product, error) {
	if len(aggs) == 0 {
		return nil, nil
	}
	type top struct {
		Top struct {
			Hits struct {
				Hits []hit `json:"hits"`
			} `json:"hits"`
		} `json:"top"`
	}
	var a map[string]top
	if err := json.Unmarshal(aggs, &a); err != nil {
		return nil, fmt.Errorf("decode the page's products: %w", err)
	}
	out := map[string]*catalog.Product{}
	for _, name := range []string{inlineMatched, inlineUnverified} {
		hits := a[name].Top.Hits.Hits
		if err := q.checkIndex(hits); err != nil {
			return nil, err
		}
		for i := range hits {
			h := &hits[i]
			p, err := decodeHit(h.Source, h.Fields.Lite, q.req.Lite)
			if err != nil {
				return nil, err
			}
			out[h.ID] = p
		}
	}
	return out, nil
}

// pageProducts returns the products of the page's hits: from known when
// it holds them all, else read with one _mget.
func (q *query) pageProducts(ctx context.Context, page []*hit, known map[string]*catalog.Product) ([]*catalog.Product, error) {
	out := make([]*catalog.Product, len(page))
	for i, h := range page {
		p, ok := known[h.ID]
		if !ok {
			return q.e.products(ctx, page, q.req.Lite)
		}
		out[i] = p
	}
	return out, nil
}
