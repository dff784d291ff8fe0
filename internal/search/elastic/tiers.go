package elastic

import (
	"context"
	"fmt"
	"maps"

	json "github.com/goccy/go-json"

	"productsearch/internal/search"
)

// split reads the products' tier without the titles made for what the
// query names, then the accessories' tier with them, each by score: the
// page (or the candidates) is the first list followed by the second. A
// page within maxInline of an unconstrained search is read by tieredPage;
// otherwise both lists are read in one _msearch.
func (q *query) split(ctx context.Context, res *search.Result, fit any) (*search.Result, error) {
	limit := q.req.Offset + q.req.Limit
	if len(q.cons) > 0 {
		limit = q.candidateLimit()
	}
	tiers := [][]any{
		{term(fieldTier, 0), obj{"bool": obj{"must_not": []any{fit}}}},
		{obj{"bool": obj{"should": []any{term(fieldTier, 1), fit}, "minimum_should_match": 1}}},
	}
	if len(q.cons) == 0 && limit <= maxInline {
		return q.tieredPage(ctx, res, tiers)
	}
	verdicts := q.verdictQueries()
	fs := make([]*fetch, len(tiers))
	for i, extra := range tiers {
		body := obj{
			"timeout": esDuration(ctx),
			"query":   q.boolQuery(extra, verdicts),
			"sort":    scoreSort(false),
		}
		fs[i] = &fetch{limit: limit, body: candidateFields(body)}
	}
	if err := q.e.run(ctx, q.index, fs...); err != nil {
		return nil, err
	}
	var cands []*hit
	total := 0
	for _, f := range fs {
		if err := q.checkIndex(f.hits); err != nil {
			return nil, err
		}
		total += f.total
		for i := range f.hits {
			cands = append(cands, &f.hits[i])
		}
	}
	if len(q.cons) > 0 {
		return q.finish(ctx, res, cands, total, nil)
	}
	res.Total = total
	var page []*hit
	for i := q.req.Offset; i < limit && i < len(cands); i++ {
		page = append(page, cands[i])
	}
	var err error
	res.Products, err = q.products(ctx, page)
	return res, err
}

// tieredPage reads the page of an unconstrained search whose products'
// tier leaves out the titles made for what the query names (tiers: the
// filters of the products' tier, then of the accessories'). One search
// scores every candidate and returns the products' tier's part of the
// page (a post_filter), with the count of the accessories' tier beside;
// only a page reaching past the products' tier reads the accessories'
// tier's part with a second search, from the same concrete index.
func (q *query) tieredPage(ctx context.Context, res *search.Result, tiers [][]any) (*search.Result, error) {
	aggs := obj{"rest": obj{"filter": obj{"bool": obj{"filter": tiers[1]}}}}
	maps.Copy(aggs, indexAgg())
	body := q.fields(obj{
		"from":             q.req.Offset,
		"size":             q.req.Limit,
		"track_total_hits": true,
		"timeout":          esDuration(ctx),
		"query":            q.boolQuery(nil, nil),
		"post_filter":      obj{"bool": obj{"filter": tiers[0]}},
		"sort":             scoreSort(false),
		"aggs":             aggs,
	})
	var r searchResponse
	r.expect(q.req.Limit)
	if err := q.e.searchOnce(ctx, q.index, body, &r); err != nil {
		return nil, err
	}
	if err := q.checkIndex(r.Hits.Hits); err != nil {
		return nil, err
	}
	var counts struct {
		Rest struct {
			DocCount int `json:"doc_count"`
		} `json:"rest"`
	}
	if err := json.Unmarshal(r.Aggregations, &counts); err != nil {
		return nil, fmt.Errorf("decode the accessories' tier count: %w", err)
	}
	index, err := indexOf(r.Aggregations)
	if err != nil {
		return nil, err
	}
	products := r.total()
	res.Total = products + counts.Rest.DocCount
	hits := r.Hits.Hits
	end := q.req.Offset + q.req.Limit
	if end > products && counts.Rest.DocCount > 0 {
		from := max(q.req.Offset-products, 0)
		more := q.fields(obj{
			"from":    from,
			"size":    end - products - from,
			"timeout": esDuration(ctx),
			"query":   q.boolQuery(tiers[1], nil),
			"sort":    scoreSort(false),
		})
		var r2 searchResponse
		r2.expect(end - products - from)
		if err := q.e.searchOnce(ctx, index, more, &r2); err != nil {
			return nil, err
		}
		hits = append(hits, r2.Hits.Hits...)
	}
	res.Products, err = q.page(hits)
	return res, err
}
