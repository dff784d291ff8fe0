package elastic

import (
	"context"
	"fmt"
	"maps"
	"slices"

	json "github.com/goccy/go-json"

	"productsearch/internal/search"
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
// follows. Deeper pages are read with an _mget. With matchedOnly, the
// unverified candidates are only counted: the caller expects enough
// matches to fill the page.
func (q *query) inlinePage(body obj, sort []any, matchedOnly bool) {
	need := q.req.Offset + q.req.Limit
	if need > maxInline || len(q.cons) == 0 {
		return
	}
	matched, unverified, _ := q.verdictFilters()
	top := func(filter any) obj {
		return obj{"filter": filter, "aggs": obj{"top": obj{"top_hits": q.fields(obj{"size": need, "sort": sort})}}}
	}
	unverifiedAgg := obj{"filter": unverified}
	if !matchedOnly {
		unverifiedAgg = top(unverified)
	}
	body["aggs"] = obj{inlineMatched: top(matched), inlineUnverified: unverifiedAgg}
}

// verdictSet holds the filters of the candidates matching every
// constraint, of those unverified and of those excluded.
type verdictSet struct{ matched, unverified, excluded any }

// verdictFilters returns the filters of the candidates matching every
// constraint, of those unverified and of those excluded, made once per
// query.
func (q *query) verdictFilters() (matched, unverified, excluded any) {
	if v := q.verdicts; v != nil {
		return v.matched, v.unverified, v.excluded
	}
	var all, anyExcluded []any
	for _, c := range q.cons {
		matched, excluded := c.verdicts()
		all = append(all, obj{"bool": matched})
		anyExcluded = append(anyExcluded, obj{"bool": excluded})
	}
	v := &verdictSet{matched: obj{"bool": obj{"filter": all}}}
	v.unverified = obj{"bool": obj{"must_not": append([]any{v.matched}, anyExcluded...)}}
	v.excluded = obj{"bool": obj{"should": anyExcluded, "minimum_should_match": 1}}
	q.verdicts = v
	return v.matched, v.unverified, v.excluded
}

// countExcluded names the aggregation that counts the excluded candidates.
const countExcluded = "n_excluded"

// counted answers a constrained search whose candidates are all judged
// (no more of them than the candidate limit) in one search returning no
// hits: the counts of matched, unverified and excluded candidates are
// aggregations, the page the first matched then unverified products
// (inlinePage), each with its verdicts. A cut, when not nil, keeps the
// candidates up to the limit-th in sort order (see bounded). It reports
// false when the answer holds more candidates than the limit.
//
// The engine keeps the number of matches the last such search found
// (under its filters, constraints and cut): when it filled the page, the
// search reads no unverified products, only their count, and is run again
// with them in the rare answer whose matches no longer fill it.
func (q *query) counted(ctx context.Context, res *search.Result, sort []any, cut any) (bool, error) {
	key := q.matchedKey(cut)
	need := q.req.Offset + q.req.Limit
	if n, ok := q.e.stats.matched(key); ok && n >= need && q.useCache {
		done, again, err := q.countedOnce(ctx, res, sort, cut, key, true)
		if !again || err != nil {
			return done, err
		}
	}
	done, _, err := q.countedOnce(ctx, res, sort, cut, key, false)
	return done, err
}

// matchedKey names the count of a constrained search's matches: its
// filters, constraints and cut.
func (q *query) matchedKey(cut any) string {
	matched, _, _ := q.verdictFilters()
	return countKey("matched", append(slices.Clone(q.filters), matched, cut))
}

// countedOnce is one search of counted; with matchedOnly the unverified
// products are not read, and it reports again, with res untouched, when
// the matches did not fill the page: the search must run again with them.
func (q *query) countedOnce(ctx context.Context, res *search.Result, sort []any, cut any, key string, matchedOnly bool) (done, again bool, err error) {
	// The verdict queries name the page's matches; beside a clause that
	// matches every document, they decide nothing and are not evaluated
	// over the candidates.
	extra := []any{obj{"bool": obj{"should": append(q.verdictQueries(), obj{"match_all": obj{}})}}}
	if cut != nil {
		extra = append(extra, cut)
	}
	body := obj{
		"size":             0,
		"track_total_hits": true,
		"timeout":          esDuration(ctx),
		"query":            q.boolQuery(extra, nil),
	}
	q.inlinePage(body, sort, matchedOnly)
	_, _, excluded := q.verdictFilters()
	aggs := body["aggs"].(obj)
	aggs[countExcluded] = obj{"filter": excluded}
	if q.fitCheck != nil {
		aggs["fit"] = obj{"filter": q.fitCheck}
	}
	if q.cutIndex != "" {
		maps.Copy(aggs, indexAgg())
	}
	// The answer and its aggregations are read in one pass.
	type page struct {
		DocCount int     `json:"doc_count"`
		Top      topHits `json:"top"`
	}
	var r struct {
		searchResponse
		Aggregations struct {
			Matched   page         `json:"page_matched"`
			Unver     page         `json:"page_unverified"`
			NExcluded docCount     `json:"n_excluded"`
			Fit       *docCount    `json:"fit"`
			Index     indexBuckets `json:"index"`
		} `json:"aggregations"`
	}
	need := q.req.Offset + q.req.Limit
	r.Aggregations.Matched.Top.Hits.Hits = make([]hit, 0, need)
	if !matchedOnly {
		r.Aggregations.Unver.Top.Hits.Hits = make([]hit, 0, need)
	}
	if err := q.e.searchInto(ctx, q.index, body, &r, &r.searchResponse); err != nil {
		return false, false, err
	}
	a := &r.Aggregations
	if q.cutIndex != "" {
		// A cut kept from another index than the alias names now is
		// read again.
		if index := a.Index.name(); index != q.cutIndex {
			q.e.stats.dropCuts(q.cutIndex)
			return false, false, fmt.Errorf("%w: candidates in %q, cut of %s", errStale, index, q.cutIndex)
		}
	}
	if q.e.maxCand > 0 && r.total() > q.e.maxCand {
		return false, false, nil
	}
	if q.fitCheck != nil {
		if err := fitted(a.Fit); err != nil {
			return false, false, err
		}
	}
	q.e.stats.putMatched(key, a.Matched.DocCount)
	if matchedOnly && a.Matched.DocCount < need {
		return false, true, nil
	}
	res.Total, res.UnverifiedTotal, res.ExcludedByConstraints = a.Matched.DocCount, a.Unver.DocCount, a.NExcluded.DocCount
	hits := append(a.Matched.Top.Hits.Hits, a.Unver.Top.Hits.Hits...)
	if err := q.checkIndex(hits); err != nil {
		return false, false, err
	}
	if q.req.Lite && q.req.Offset < len(hits) {
		q.slab.reserve(hits[q.req.Offset:min(need, len(hits))])
		res.Products = make([]search.Hit, 0, min(need, len(hits))-q.req.Offset)
	}
	for i := q.req.Offset; i < need && i < len(hits); i++ {
		h := &hits[i]
		out, err := q.hit(h)
		if err != nil {
			return false, false, err
		}
		out.ConstraintStatus = q.statuses(q.judge(h))
		res.Products = append(res.Products, out)
	}
	return true, false, nil
}

// topHits is the answer of a top_hits aggregation.
type topHits struct {
	Hits struct {
		Hits []hit `json:"hits"`
	} `json:"hits"`
}

// inlineProducts reads the products of inlinePage's aggregations by id;
// nil when the search had none.
func (q *query) inlineProducts(aggs json.RawMessage) (map[string]search.Hit, error) {
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
	out := map[string]search.Hit{}
	for _, name := range []string{inlineMatched, inlineUnverified} {
		hits := a[name].Top.Hits.Hits
		if err := q.checkIndex(hits); err != nil {
			return nil, err
		}
		for i := range hits {
			h := &hits[i]
			p, err := q.hit(h)
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
func (q *query) pageProducts(ctx context.Context, page []*hit, known map[string]search.Hit) ([]search.Hit, error) {
	out := make([]search.Hit, len(page))
	for i, h := range page {
		p, ok := known[h.ID]
		if !ok {
			return q.products(ctx, page)
		}
		out[i] = p
	}
	return out, nil
}
