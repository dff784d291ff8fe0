package elastic

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	json "github.com/goccy/go-json"
)

// maxCachedTerms bounds the document frequencies the engine keeps, and
// each of its maps of counts, cuts and matches.
const maxCachedTerms = 100_000

// putBounded sets m[key] to v, starting m afresh when it is full.
func putBounded[V any](m *map[string]V, key string, v V) {
	if *m == nil || len(*m) >= maxCachedTerms {
		*m = map[string]V{}
	}
	(*m)[key] = v
}

// statsCache keeps the statistics of the index last found behind the
// alias: a published index is written again only by an incremental
// publish, which records a new sync time in its _meta, so its product
// count, title word total and document frequencies hold until the alias
// moves or the health view sees that sync time change (observe). A
// relevance search whose terms are all known skips the statistics request
// and searches the alias; a hit from another index shows that the alias
// has moved, and the search runs again with fresh statistics (errStale).
type statsCache struct {
	mu sync.Mutex
	// seen and seenSync are the index behind the alias and the sync time
	// of its _meta when the health view last read them.
	seen     string
	seenSync time.Time

	index    string
	n, words int
	df       map[string]int
	// counts holds counts of the index's documents under a set of
	// filters (countKey): the titles made for a query's required words,
	// the candidates of a search.
	counts map[string]int
	// cuts holds the sort values of the limit-th candidate of a search in
	// an order of stored fields (see bounded), by countKey, with the
	// concrete index they were read from.
	cuts map[string]cutValues
	// matches holds the number of matches the last constrained search
	// judged by aggregations found, by matchedKey: a hint of whether the
	// next such search's matches fill its page, which its answer checks.
	matches map[string]int
}

// matched returns the number of matches recorded under key, if any.
func (c *statsCache) matched(key string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.matches[key]
	return n, ok
}

// putMatched records the number of matches of a search under key.
func (c *statsCache) putMatched(key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if key == "" {
		return
	}
	putBounded(&c.matches, key, n)
}

// cutValues are the sort values of a search's limit-th candidate in one
// concrete index.
type cutValues struct {
	index string
	vals  []json.RawMessage
}

// cut returns the cut recorded under key, if any.
func (c *statsCache) cut(key string) (cutValues, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.cuts[key]
	return v, ok
}

// putCut records a cut read from index.
func (c *statsCache) putCut(key string, v cutValues) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if key == "" || v.index == "" {
		return
	}
	putBounded(&c.cuts, key, v)
}

// dropCuts forgets the cuts read from index.
func (c *statsCache) dropCuts(index string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, v := range c.cuts {
		if v.index == index {
			delete(c.cuts, k)
		}
	}
}

// countKey names a count of documents: what is counted and the filters.
func countKey(what string, filters []any) string {
	b, err := json.Marshal(filters)
	if err != nil {
		return ""
	}
	return what + string(b)
}

// count returns the count of key in index (in the index last seen when
// index is empty), if known.
func (c *statsCache) count(index, key string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if key == "" || (index != "" && c.index != index) {
		return 0, false
	}
	n, ok := c.counts[key]
	return n, ok
}

// putCount records the count of key in index, the index behind the alias.
func (c *statsCache) putCount(index, key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if key == "" || index == "" || (c.index != "" && c.index != index) {
		return
	}
	putBounded(&c.counts, key, n)
}

// errStale is a search answered from another index than the cached
// statistics describe.
var errStale = errors.New("the alias names another index than the cached statistics describe")

// get returns the statistics of terms, or nil when one is not cached.
func (c *statsCache) get(terms []string) *termStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.index == "" {
		return nil
	}
	st := &termStats{index: c.index, n: c.n, words: c.words, df: make(map[string]int, len(terms)), fit: -1}
	for _, t := range terms {
		df, ok := c.df[t]
		if !ok {
			return nil
		}
		st.df[t] = df
	}
	return st
}

// put records fresh statistics of the index behind the alias. Statistics
// of an empty index are not kept: no hit would show that the alias moved.
func (c *statsCache) put(st *termStats) {
	if st.index == "" || st.n == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.index != st.index || len(c.df) >= maxCachedTerms {
		c.index, c.n, c.words, c.df, c.counts = st.index, st.n, st.words, make(map[string]int, len(st.df)), nil
	}
	for t, df := range st.df {
		c.df[t] = df
	}
}

// observe records what the health view read: the index behind the alias
// and the sync time of its _meta. An index updated in place since it was
// last read loses its statistics, counts and cuts; searches until then
// (at most one health interval) read the old ones.
func (c *statsCache) observe(index string, sync time.Time) {
	c.mu.Lock()
	updated := index == c.seen && !sync.Equal(c.seenSync)
	c.seen, c.seenSync = index, sync
	c.mu.Unlock()
	if updated {
		c.drop(index)
		c.dropCuts(index)
	}
}

// drop forgets the statistics of index.
func (c *statsCache) drop(index string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.index == index {
		c.index, c.df, c.counts = "", nil, nil
	}
}

// stats returns the statistics the query's score needs: from the cache
// when useCache and every term is known (the query then expects its hits
// from the cached index), else read from the index and cached.
func (q *query) stats(ctx context.Context, useCache bool) (*termStats, error) {
	terms := statTerms(&q.plan.Analysis)
	fitKey := ""
	if fitQuery(&q.plan.Analysis) != nil {
		fitKey = countKey("fit", q.filters)
	}
	if useCache {
		if st := q.e.stats.get(terms); st != nil {
			q.expect = st.index
			if n, ok := q.e.stats.count(st.index, fitKey); ok {
				st.fit = n
			}
			return st, nil
		}
	}
	st, err := q.termStats(ctx, terms)
	if err != nil {
		return nil, err
	}
	q.e.stats.put(st)
	if fitKey != "" {
		q.e.stats.putCount(st.index, fitKey, st.fit)
	}
	return st, nil
}

// checkIndex returns errStale when the query expects its hits from the
// cached statistics' index and one came from another.
func (q *query) checkIndex(hits []hit) error {
	if q.expect == "" {
		return nil
	}
	for i := range hits {
		if hits[i].Index != q.expect {
			q.e.stats.drop(q.expect)
			return fmt.Errorf("%w: hit from %s, statistics of %s", errStale, hits[i].Index, q.expect)
		}
	}
	return nil
}

// errFitted is a search run in the static norm order although some
// candidates' titles name a required word only after "for".
var errFitted = errors.New("titles made for the query's words change the order")

// checkFit reads the count of the fit aggregation (query.fitCheck).
func checkFit(aggs json.RawMessage) error {
	var a struct {
		Fit *docCount `json:"fit"`
	}
	if err := json.Unmarshal(aggs, &a); err != nil {
		return fmt.Errorf("decode the count of titles made for the query's words: %w", err)
	}
	return fitted(a.Fit)
}

// docCount is the answer of a filter aggregation.
type docCount struct {
	DocCount int `json:"doc_count"`
}

// fitted judges the fit aggregation's answer (nil when the answer lacks
// it): errFitted when some titles are made for the query's words.
func fitted(fit *docCount) error {
	switch {
	case fit == nil:
		return errors.New("the answer lacks the count of titles made for the query's words")
	case fit.DocCount > 0:
		return errFitted
	}
	return nil
}
