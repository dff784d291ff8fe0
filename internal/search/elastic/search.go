package elastic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"time"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// obj is a JSON object of a request body.
type obj = map[string]any

func term(field string, v any) obj { return obj{"term": obj{field: v}} }

// pageSize is the most hits one search returns; longer candidate lists
// are read with search_after.
const pageSize = 10000

// searchResponse is the part of a search answer the engine reads.
type searchResponse struct {
	TimedOut bool `json:"timed_out"`
	Shards   struct {
		Total  int `json:"total"`
		Failed int `json:"failed"`
	} `json:"_shards"`
	Hits struct {
		Total *struct {
			Value int `json:"value"`
		} `json:"total"`
		Hits []hit `json:"hits"`
	} `json:"hits"`
	Aggregations json.RawMessage `json:"aggregations"`
	// Status and Error are set on failed _msearch items.
	Status int             `json:"status"`
	Error  json.RawMessage `json:"error"`
}

// hit is one search hit.
type hit struct {
	Index string `json:"_index"`
	ID    string `json:"_id"`
	// Sort is the hit's array of sort values as the answer wrote it: a
	// search_after as it is, split only where one value is read (cut).
	Sort    json.RawMessage `json:"sort"`
	Matched []string        `json:"matched_queries"`
	Source  json.RawMessage `json:"_source"`
	Fields  storedFields    `json:"fields"`
}

// check turns a timed-out or partial answer into an error.
func (r *searchResponse) check() error {
	if len(r.Error) > 0 {
		return parseError(r.Status, []byte(`{"error":`+string(r.Error)+`}`))
	}
	if r.TimedOut {
		return fmt.Errorf("%w: search timed out", errPartial)
	}
	for i := range r.Hits.Hits {
		if h := &r.Hits.Hits[i]; h.ID == "" && len(h.Fields.ID) > 0 {
			h.ID = h.Fields.ID[0]
		}
	}
	if r.Shards.Failed > 0 {
		return fmt.Errorf("%w: %d of %d shards failed", errPartial, r.Shards.Failed, r.Shards.Total)
	}
	return nil
}

// clear forgets what an earlier answer said of its outcome, before the
// answer to a retry is decoded into r.
func (r *searchResponse) clear() {
	r.TimedOut, r.Status, r.Error = false, 0, nil
	r.Shards.Total, r.Shards.Failed = 0, 0
}

// errPartial marks an answer that did not cover every shard.
var errPartial = errors.New("partial answer")

// Searches the cluster could not answer in full are sent again: a shard
// copy lost with its node, a full queue or a node that cannot serve (an
// answer of an _msearch item, which the client does not retry) moves to
// another copy within moments. maxPartialRetries bounds the attempts, the
// first retry waiting partialWait and each later one twice as long, all
// within the request's context.
const (
	maxPartialRetries = 2
	partialWait       = 50 * time.Millisecond
)

// transient reports whether err is an answer worth sending the search
// again for (see maxPartialRetries).
func transient(err error) bool {
	var e *Error
	if errors.As(err, &e) {
		switch e.Status {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
	}
	return errors.Is(err, errPartial)
}

// retryPartial runs attempt until it succeeds, fails for good, or
// maxPartialRetries retries of transient failures are spent.
func retryPartial(ctx context.Context, attempt func() error) error {
	wait := partialWait
	for n := 0; ; n++ {
		err := attempt()
		if err == nil || n == maxPartialRetries || !transient(err) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait *= 2
	}
}

// expect makes room for the n hits an answer holds at most, so that they
// are read in place rather than into ever larger arrays.
func (r *searchResponse) expect(n int) {
	r.Hits.Hits = make([]hit, 0, max(n, 0))
}

func (r *searchResponse) total() int {
	if r.Hits.Total == nil {
		return 0
	}
	return r.Hits.Total.Value
}

// noPartial makes a search whose shards do not all answer an error of
// the cluster (retried on another node when it is a 503) instead of
// partial results; an answer that is partial nevertheless (timed out) is
// an error too (searchResponse.check).
func noPartial() url.Values { return url.Values{"allow_partial_search_results": {"false"}} }

// searchOnce runs one search on index.
func (e *Engine) searchOnce(ctx context.Context, index string, body obj, out *searchResponse) error {
	return e.searchInto(ctx, index, body, out, out)
}

// searchInto runs one search on index and decodes its answer into dst,
// a struct that embeds r (and may read its aggregations into fields of
// their own, in the same pass).
func (e *Engine) searchInto(ctx context.Context, index string, body obj, dst any, r *searchResponse) error {
	b, err := encodeBody(body)
	if err != nil {
		return fmt.Errorf("encode search: %w", err)
	}
	return retryPartial(ctx, func() error {
		r.clear()
		if err := e.client.Do(ctx, http.MethodPost, "/"+url.PathEscape(index)+"/_search", noPartial(), b, dst); err != nil {
			return err
		}
		return r.check()
	})
}

// encodeBody writes a request body. Its objects' keys keep no order, which
// Elasticsearch does not need; keys of the engine's caches are written
// sorted (countKey, sortKey).
func encodeBody(body obj) ([]byte, error) {
	return json.MarshalWithOption(body, json.UnorderedMap())
}

// msearch runs several searches on index in one request.
func (e *Engine) msearch(ctx context.Context, index string, bodies []obj) ([]searchResponse, error) {
	var buf bytes.Buffer
	head, err := json.Marshal(obj{"index": index, "allow_partial_search_results": false})
	if err != nil {
		return nil, err
	}
	for _, body := range bodies {
		b, err := encodeBody(body)
		if err != nil {
			return nil, fmt.Errorf("encode search: %w", err)
		}
		buf.Write(head)
		buf.WriteByte('\n')
		buf.Write(b)
		buf.WriteByte('\n')
	}
	var ans struct {
		Responses []searchResponse `json:"responses"`
	}
	err = retryPartial(ctx, func() error {
		ans.Responses = nil
		if err := e.client.Do(ctx, http.MethodPost, "/_msearch", nil, buf.Bytes(), &ans); err != nil {
			return err
		}
		if len(ans.Responses) != len(bodies) {
			return fmt.Errorf("_msearch answered %d searches of %d", len(ans.Responses), len(bodies))
		}
		for i := range ans.Responses {
			if err := ans.Responses[i].check(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ans.Responses, nil
}

// fetch is one list of hits to read in order: up to limit hits (all when
// limit is negative), paged with search_after.
type fetch struct {
	body  obj
	limit int
	hits  []hit
	total int
	done  bool
	index string          // concrete index of the first page, searched by later pages
	aggs  json.RawMessage // aggregations of the first page
}

// next prepares the body of the next page; it reports false when the
// fetch is complete.
func (f *fetch) next() bool {
	if f.done {
		return false
	}
	size := pageSize
	if f.limit >= 0 {
		size = min(size, f.limit-len(f.hits))
	}
	f.body["size"] = size
	if len(f.hits) == 0 {
		f.body["track_total_hits"] = true
		delete(f.body, "search_after")
	} else {
		f.body["track_total_hits"] = false
		f.body["search_after"] = f.hits[len(f.hits)-1].Sort
		delete(f.body, "aggs") // answered by the first page
	}
	return true
}

// take records a page.
func (f *fetch) take(r *searchResponse) {
	size := f.body["size"].(int)
	if len(f.hits) == 0 {
		f.total = r.total()
		f.aggs = r.Aggregations
		if len(r.Hits.Hits) > 0 {
			f.index = r.Hits.Hits[0].Index
		}
	}
	f.hits = append(f.hits, r.Hits.Hits...)
	if len(r.Hits.Hits) < size || size == 0 || (f.limit >= 0 && len(f.hits) >= f.limit) {
		f.done = true
	}
}

// run completes fetches: the first pages in one request (_msearch when
// there are several), later pages one search each.
func (e *Engine) run(ctx context.Context, index string, fs ...*fetch) error {
	var bodies []obj
	for _, f := range fs {
		f.next()
		bodies = append(bodies, f.body)
	}
	if len(fs) == 1 {
		var r searchResponse
		if err := e.searchOnce(ctx, index, bodies[0], &r); err != nil {
			return err
		}
		fs[0].take(&r)
	} else {
		rs, err := e.msearch(ctx, index, bodies)
		if err != nil {
			return err
		}
		for i, f := range fs {
			f.take(&rs[i])
		}
	}
	for _, f := range fs {
		for f.next() {
			target := index
			if f.index != "" {
				target = f.index
			}
			var r searchResponse
			if err := e.searchOnce(ctx, target, f.body, &r); err != nil {
				return err
			}
			f.take(&r)
		}
	}
	return nil
}

// query is one planned search against the index.
type query struct {
	e       *Engine
	plan    *search.Plan
	req     *search.Request
	filters []any
	cons    []constraint
	// verdicts holds the filters of the candidates' verdicts once
	// verdictFilters has made them.
	verdicts *verdictSet
	index    string // alias, or the concrete index once known
	// expect is the concrete index the hits must come from when the
	// statistics came from the engine's cache; empty otherwise.
	expect string
	// fitCheck, when set, counts the candidates in the products' tier
	// whose titles name a required word only after "for" beside a search
	// in the static norm order, which is right only when there are none
	// (errFitted otherwise).
	fitCheck any
	// score, when set, scores the candidates (ranking.scoreQuery).
	score any
	// useCache: counts kept by the engine may choose how to search.
	useCache bool
	// cutIndex is the index a kept cut was read from (see bounded);
	// empty unless the search judges its candidates up to one.
	cutIndex string
	// slab holds the lite hits of the page being read (see decode).
	slab liteSlab
}

// constraint is one applied constraint with its accepted range and the
// names of its verdict queries.
type constraint struct {
	name              string
	rng               search.Range
	matched, excluded string
}

// search answers a request, with cached index statistics when it can; a
// search that finds the alias moved runs again with fresh ones.
func (e *Engine) search(ctx context.Context, plan *search.Plan) (*search.Result, error) {
	q := e.newQuery(plan)
	q.useCache = true
	res, err := q.answer(ctx, true)
	if errors.Is(err, errStale) || errors.Is(err, errFitted) {
		res, err = e.newQuery(plan).answer(ctx, false)
	}
	return res, err
}

func (e *Engine) newQuery(plan *search.Plan) *query {
	q := &query{e: e, plan: plan, req: &plan.Request, index: e.index}
	q.filters = q.buildFilters()
	for i := range q.e.attrs.Len() {
		d := q.e.attrs.At(i)
		if b, ok := plan.Constraints[d.Name]; ok {
			q.cons = append(q.cons, constraint{name: d.Name, rng: b.Range(d.Tolerance),
				matched: matchedPrefix + d.Name, excluded: excludedPrefix + d.Name})
		}
	}
	return q
}

// answer runs the query; useCache lets relevance ranking take the index
// statistics from the engine's cache.
func (q *query) answer(ctx context.Context, useCache bool) (*search.Result, error) {
	plan := q.plan
	res := &search.Result{Lite: q.req.Lite, LiteType: q.req.ProductType != "", Constraints: plan.Constraints, Products: []search.Hit{}}
	var sort []any
	switch q.req.Sort {
	case search.SortPriceAsc:
		sort = []any{obj{fieldPrice: "asc"}, obj{fieldID: "asc"}}
	case search.SortPriceDesc:
		sort = []any{obj{fieldPrice: "desc"}, obj{fieldID: "asc"}}
	default:
		if len(plan.Analysis.Phrase) == 0 && len(plan.Analysis.Required) == 0 {
			sort = browseSort()
			break
		}
		st, err := q.stats(ctx, useCache)
		if err != nil {
			return nil, err
		}
		if st.n == 0 || st.index == "" {
			return res, nil
		}
		rk := newRanking(plan, st)
		if st.fit < 0 && rk.fitDecides() && len(q.cons) == 0 && useCache {
			// Whether the order is the static norm order depends on the
			// count of titles made for the query's words: counted beside
			// the search in that order.
			q.fitCheck = obj{"bool": obj{"filter": []any{fitQuery(&plan.Analysis), term(fieldTier, 0)}}}
			return q.plain(ctx, res, normSort(true))
		}
		if st.fit < 0 && rk.fitDecides() {
			q.expect = ""
			if st, err = q.stats(ctx, false); err != nil {
				return nil, err
			}
			if st.n == 0 || st.index == "" {
				return res, nil
			}
			rk = newRanking(plan, st)
		}
		switch {
		case !rk.scoring:
			sort = browseSort()
		case rk.normStatic:
			sort = normSort(true)
		default:
			return q.scored(ctx, res, rk)
		}
	}
	if len(q.cons) == 0 {
		return q.plain(ctx, res, sort)
	}
	return q.constrained(ctx, res, sort)
}

func browseSort() []any { return []any{obj{fieldBrowseRank: "asc"}} }

// normSort orders by title length (shortest first is the highest norm),
// then browse rank; with tier, products first.
func normSort(tier bool) []any {
	s := []any{obj{fieldTitleWords: "asc"}, obj{fieldBrowseRank: "asc"}}
	if tier {
		s = append([]any{obj{fieldTier: "asc"}}, s...)
	}
	return s
}

// buildFilters returns the filters every candidate passes: category,
// brand, product type, price range and the required title words.
func (q *query) buildFilters() []any {
	r := q.req
	var f []any
	if r.Category != "" {
		f = append(f, term(fieldCategory, r.Category))
	}
	if r.Brand != "" {
		f = append(f, term(fieldBrand, catalog.NormalizeBrand(r.Brand)))
	}
	if r.ProductType != "" {
		f = append(f, term(fieldProductType, string(r.ProductType)))
	}
	if r.MinPrice != nil || r.MaxPrice != nil {
		rng := obj{}
		if r.MinPrice != nil {
			rng["gte"] = *r.MinPrice
		}
		if r.MaxPrice != nil {
			rng["lte"] = *r.MaxPrice
		}
		f = append(f, obj{"range": obj{fieldPrice: rng}})
	}
	for _, t := range q.plan.Analysis.Required {
		f = append(f, termQuery(t))
	}
	return f
}

// termQuery matches titles holding a query word: its joined form, or every
// part of a hyphenated word.
func termQuery(t search.Term) any {
	if len(t.Parts) == 0 {
		return term(fieldTerms, t.Text)
	}
	return obj{"bool": obj{
		"should":               []any{term(fieldTerms, t.Text), allTerms(t.Parts)},
		"minimum_should_match": 1,
	}}
}

func allTerms(terms []string) any {
	clauses := make([]any, len(terms))
	for i, t := range terms {
		clauses[i] = term(fieldTerms, t)
	}
	return obj{"bool": obj{"filter": clauses}}
}

// Named-query prefixes of constraint verdicts.
const (
	matchedPrefix  = "m."
	excludedPrefix = "x."
)

// verdictQueries returns, per constraint, a query named "m.<name>" that
// matches products whose every stated value meets the constraint (at least
// one value), and one named "x.<name>" that matches products stating
// values none of which meets it. A product matching neither is unverified
// for the name.
func (q *query) verdictQueries() []any {
	var out []any
	for _, c := range q.cons {
		matched, excluded := c.verdicts()
		matched["_name"], excluded["_name"] = c.matched, c.excluded
		matched["boost"], excluded["boost"] = 0, 0
		out = append(out, obj{"bool": matched}, obj{"bool": excluded})
	}
	return out
}

// verdicts returns the bodies of the bool queries matching products whose
// every stated value meets the constraint (at least one value: the least
// and the greatest are in its range), and products stating values none of
// which meets it.
func (c constraint) verdicts() (matched, excluded obj) {
	field := func(prefix string) string { return prefix + "." + c.name }
	values := field(fieldAttrValues)
	stated := obj{"exists": obj{"field": values}}
	all := []any{stated}
	some := obj{}
	lo, hi := c.bounds()
	if lo != nil {
		all = append(all, obj{"range": obj{field(fieldAttrMin): lo}})
		maps.Copy(some, lo)
	}
	if hi != nil {
		all = append(all, obj{"range": obj{field(fieldAttrMax): hi}})
		maps.Copy(some, hi)
	}
	if len(some) == 0 {
		return obj{"filter": all}, obj{"must_not": []any{obj{"match_all": obj{}}}}
	}
	return obj{"filter": all}, obj{"filter": []any{stated}, "must_not": []any{obj{"range": obj{values: some}}}}
}

// bounds returns the range conditions of the constraint's lower and upper
// bound, nil where it has none.
func (c constraint) bounds() (lo, hi obj) {
	if !math.IsInf(c.rng.Lo, -1) {
		lo = obj{"gte": c.rng.Lo}
	}
	if !math.IsInf(c.rng.Hi, 1) {
		if c.rng.HiOpen {
			hi = obj{"lt": c.rng.Hi}
		} else {
			hi = obj{"lte": c.rng.Hi}
		}
	}
	return lo, hi
}

// judged is the verdict of one candidate.
type judged struct {
	verdict search.Verdict
	matched []bool // matched[i]: constraint i matched
}

// judge reads a hit's verdict from its named-query matches.
func (q *query) judge(h *hit) judged {
	j := judged{matched: make([]bool, len(q.cons))}
	excluded := false
	n := 0
	for _, name := range h.Matched {
		for i, c := range q.cons {
			switch name {
			case c.matched:
				if !j.matched[i] {
					j.matched[i] = true
					n++
				}
			case c.excluded:
				excluded = true
			}
		}
	}
	switch {
	case excluded:
		j.verdict = search.Excluded
	case n == len(q.cons):
		j.verdict = search.Matched
	default:
		j.verdict = search.Unverified
	}
	return j
}

// statuses returns the constraint_status of a candidate that is not
// excluded.
func (q *query) statuses(j judged) map[string]string {
	m := make(map[string]string, len(q.cons))
	for i, c := range q.cons {
		if j.matched[i] {
			m[c.name] = search.StatusMatched
		} else {
			m[c.name] = search.StatusUnverified
		}
	}
	return m
}

// plain runs an unconstrained search in a fixed order: one request that
// returns the page with its products.
func (q *query) plain(ctx context.Context, res *search.Result, sort []any) (*search.Result, error) {
	body := obj{
		"from":             q.req.Offset,
		"size":             q.req.Limit,
		"track_total_hits": true,
		"timeout":          esDuration(ctx),
		"query":            q.boolQuery(nil, nil),
		"sort":             sort,
	}
	q.fields(body)
	if q.fitCheck != nil {
		body["aggs"] = obj{"fit": obj{"filter": q.fitCheck}}
	}
	var r searchResponse
	r.expect(q.req.Limit)
	if err := q.e.searchOnce(ctx, q.index, body, &r); err != nil {
		return nil, err
	}
	if err := q.checkIndex(r.Hits.Hits); err != nil {
		return nil, err
	}
	if q.fitCheck != nil {
		if err := checkFit(r.Aggregations); err != nil {
			return nil, err
		}
	}
	res.Total = r.total()
	var err error
	res.Products, err = q.page(r.Hits.Hits)
	return res, err
}

// candidateLimit is how many candidates constraints are checked on: -1
// for all.
func (q *query) candidateLimit() int {
	if q.e.maxCand == 0 {
		return -1
	}
	return q.e.maxCand
}

// constrained runs a constrained search in a fixed order: the first
// candidates with their verdicts, then the page's products.
func (q *query) constrained(ctx context.Context, res *search.Result, sort []any) (*search.Result, error) {
	// A search known to have no more candidates than the limit judges
	// them all with aggregations.
	key := countKey("candidates", q.filters)
	if n, ok := q.e.stats.count(q.expect, key); ok && q.useCache && (q.e.maxCand == 0 || n <= q.e.maxCand) &&
		q.req.Offset+q.req.Limit <= maxInline {
		done, err := q.counted(ctx, res, sort, nil)
		if done || err != nil {
			return res, err
		}
	} else if done, err := q.bounded(ctx, res, sort); done || err != nil {
		return res, err
	}
	f := &fetch{limit: q.candidateLimit(), body: candidateFields(obj{
		"timeout": esDuration(ctx),
		"query":   q.boolQuery(nil, q.verdictQueries()),
		"sort":    sort,
	})}
	q.inlinePage(f.body, sort, false)
	if q.fitCheck != nil {
		aggs, _ := f.body["aggs"].(obj)
		if aggs == nil {
			aggs = obj{}
			f.body["aggs"] = aggs
		}
		aggs["fit"] = obj{"filter": q.fitCheck}
	}
	if err := q.e.run(ctx, q.index, f); err != nil {
		return nil, err
	}
	if err := q.checkIndex(f.hits); err != nil {
		return nil, err
	}
	if q.fitCheck != nil {
		if err := checkFit(f.aggs); err != nil {
			return nil, err
		}
	}
	q.e.stats.putCount(f.index, key, f.total)
	cands := make([]*hit, len(f.hits))
	for i := range f.hits {
		cands[i] = &f.hits[i]
	}
	known, err := q.inlineProducts(f.aggs)
	if err != nil {
		return nil, err
	}
	return q.finish(ctx, res, cands, f.total, known)
}

// finish judges the candidates (the first ones in sort order, of total),
// fills the counts and reads the page of matched-then-unverified products.
func (q *query) finish(ctx context.Context, res *search.Result, cands []*hit, total int, known map[string]search.Hit) (*search.Result, error) {
	res.CandidatesTruncated = q.e.maxCand > 0 && total > q.e.maxCand
	if res.CandidatesTruncated && len(cands) > q.e.maxCand {
		cands = cands[:q.e.maxCand]
	}
	need := q.req.Offset + q.req.Limit
	var matched, unverified []*hit
	var mj, uj []judged
	for _, h := range cands {
		j := q.judge(h)
		switch j.verdict {
		case search.Matched:
			res.Total++
			if len(matched) < need {
				matched, mj = append(matched, h), append(mj, j)
			}
		case search.Excluded:
			res.ExcludedByConstraints++
		default:
			res.UnverifiedTotal++
			if len(unverified) < need {
				unverified, uj = append(unverified, h), append(uj, j)
			}
		}
	}
	var page []*hit
	var pj []judged
	for i := q.req.Offset; i < need; i++ {
		switch {
		case i < len(matched):
			page, pj = append(page, matched[i]), append(pj, mj[i])
		case i-len(matched) < len(unverified):
			page, pj = append(page, unverified[i-len(matched)]), append(pj, uj[i-len(matched)])
		}
	}
	products, err := q.pageProducts(ctx, page, known)
	if err != nil {
		return nil, err
	}
	res.Products = products
	for i := range products {
		res.Products[i].ConstraintStatus = q.statuses(pj[i])
	}
	return res, nil
}

// scored runs a relevance search whose order depends on title scores:
// the node scores the candidates (ranking.scoreQuery) and orders them by
// tier, score and browse rank, in one search that returns the page (or
// the first candidates with their verdicts). A title naming a required
// word only after "for" ranks in the accessories' tier: when the fresh
// statistics count such products, the two tiers are read in one _msearch
// (split); with cached statistics, the search counts them beside and
// fails with errFitted when there are some.
func (q *query) scored(ctx context.Context, res *search.Result, rk *ranking) (*search.Result, error) {
	q.score = rk.scoreQuery()
	fit := fitQuery(rk.a)
	switch {
	case !rk.useTier || fit == nil || rk.st.fit == 0:
	case rk.st.fit > 0:
		return q.split(ctx, res, fit)
	default:
		q.fitCheck = obj{"bool": obj{"filter": []any{fit, term(fieldTier, 0)}}}
	}
	sort := scoreSort(rk.useTier)
	if len(q.cons) == 0 {
		return q.plain(ctx, res, sort)
	}
	return q.constrained(ctx, res, sort)
}

// boolQuery returns the query of the candidates: the filters and extra
// ones, scored by the query's score when it has one, with the verdict
// queries (which add nothing to the score).
func (q *query) boolQuery(extra, verdicts []any) obj {
	filter := q.filters
	if len(extra) > 0 {
		filter = append(slices.Clone(q.filters), extra...)
	}
	b := obj{"filter": filter}
	if q.score != nil {
		b["must"] = []any{q.score}
	}
	if len(verdicts) > 0 {
		b["should"] = verdicts
	}
	return obj{"bool": b}
}
