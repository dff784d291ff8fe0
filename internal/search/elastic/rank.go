package elastic

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	json "github.com/goccy/go-json"

	"productsearch/internal/search"
)

// The relevance score of the embedded engine (see package memory): the
// same constants and weights; the node computes the score with them
// (ranking.scoreQuery) in the float32 arithmetic the embedded engine
// rounds to, so that both engines order products identically.
const (
	bm25K1         = 1.2
	bm25B          = 0.75
	modelWeight    = 1.5 // terms holding a digit
	rankOnlyWeight = 0.5 // ranking-only terms against required ones
	phraseWeight   = 0.3 // two query words side by side
	maxScored      = 32  // query words taking part in scoring
)

// termStats are the index statistics a query's score needs.
type termStats struct {
	index string         // the concrete index they were read from
	n     int            // products
	words int            // title words of all products
	df    map[string]int // document frequency of each term asked for
	// fit counts the candidates in the products' tier whose titles hold a
	// required word only after "for" (search.TitleFits); 0 unless the
	// ranking puts products first, -1 when not counted (statistics from
	// the engine's cache).
	fit int
}

// statTerms lists the terms whose document frequencies a query's score
// may use.
func statTerms(a *search.Analysis) []string {
	var terms []string
	add := func(t string) {
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	for _, t := range a.Required {
		add(t.Text)
	}
	n := min(len(a.Phrase), maxScored)
	for p := range n {
		add(a.Phrase[p])
		if p+1 < n {
			add(a.Phrase[p] + a.Phrase[p+1])
		}
	}
	for _, t := range a.RankOnly {
		for _, part := range t.Parts {
			add(part)
		}
	}
	return terms
}

// termStats reads the document frequencies of terms, the product count
// and the title word total, in one request (size 1: the hit names the
// concrete index, which the rest of the search then reads, so an alias
// swap in between cannot mix two catalogs).
func (q *query) termStats(ctx context.Context, terms []string) (*termStats, error) {
	a := &q.plan.Analysis
	filters := make(obj, len(terms))
	for i, t := range terms {
		filters[strconv.Itoa(i)] = term(fieldTerms, t)
	}
	body := obj{
		"size":             1,
		"track_total_hits": true,
		"timeout":          esDuration(ctx),
		"stored_fields":    "_none_",
		"query":            obj{"match_all": obj{}},
		"aggs": obj{
			"df":    obj{"filters": obj{"filters": filters}},
			"words": obj{"sum": obj{"field": fieldTitleWords}},
		},
	}
	fit := fitQuery(a)
	if fit != nil {
		f := append(slices.Clone(q.filters), fit, term(fieldTier, 0))
		body["aggs"].(obj)["fit"] = obj{"filter": obj{"bool": obj{"filter": f}}}
	}
	var r searchResponse
	if err := q.e.searchOnce(ctx, q.index, body, &r); err != nil {
		return nil, err
	}
	var aggs struct {
		DF struct {
			Buckets map[string]struct {
				DocCount int `json:"doc_count"`
			} `json:"buckets"`
		} `json:"df"`
		Words struct {
			Value float64 `json:"value"`
		} `json:"words"`
		Fit struct {
			DocCount int `json:"doc_count"`
		} `json:"fit"`
	}
	if err := json.Unmarshal(r.Aggregations, &aggs); err != nil {
		return nil, fmt.Errorf("decode term statistics: %w", err)
	}
	st := &termStats{n: r.total(), words: int(aggs.Words.Value), df: make(map[string]int, len(terms)), fit: aggs.Fit.DocCount}
	for i, t := range terms {
		st.df[t] = aggs.DF.Buckets[strconv.Itoa(i)].DocCount
	}
	if len(r.Hits.Hits) > 0 {
		st.index = r.Hits.Hits[0].Index
		q.index = st.index
	}
	return st, nil
}

// ranking is the scoring of one query, prepared from the index statistics
// as the embedded engine prepares it.
type ranking struct {
	st          *termStats
	a           *search.Analysis
	hasRequired bool
	useTier     bool
	reqWeight   float64
	pairBits    uint32
	termW       [maxScored]float64
	pairW       [maxScored]float64
	// markers: ranking-only words (by position) and joined pairs that
	// mark a candidate as holding a scoring word.
	wordClause map[int]any
	joinClause map[int]any
	adjClause  map[int]any
	// fitClause matches titles holding a required word only after "for"
	// (search.TitleFits): they rank in the accessories' tier.
	fitClause  any
	scoring    bool
	normStatic bool
}

func (st *termStats) has(t string) bool { return st.df[t] > 0 }

// weight is a term's IDF, raised for model-number-like terms; 0 when the
// index does not hold the term.
func (st *termStats) weight(t string) float64 {
	df, ok := st.df[t]
	if !ok || df == 0 {
		return 0
	}
	d := float64(df)
	w := math.Log(1 + (float64(st.n)-d+0.5)/(d+0.5))
	for i := 0; i < len(t); i++ {
		if t[i] >= '0' && t[i] <= '9' {
			return w * modelWeight
		}
	}
	return w
}

func newRanking(plan *search.Plan, st *termStats) *ranking {
	a := &plan.Analysis
	rk := &ranking{st: st, a: a, wordClause: map[int]any{}, joinClause: map[int]any{}, adjClause: map[int]any{}}
	rk.useTier = !a.Accessory
	rk.hasRequired = len(a.Required) > 0
	required := make(map[string]bool, len(a.Required))
	for _, t := range a.Required {
		required[t.Text] = true
		rk.reqWeight += st.weight(t.Text)
	}
	// Without a count the clause is kept: matched by no candidate, it
	// changes no rank.
	if st.fit != 0 {
		rk.fitClause = fitQuery(a)
	}
	rk.scoring = rk.hasRequired
	parts := map[string][]string{}
	for _, t := range a.RankOnly {
		if len(t.Parts) > 0 {
			parts[t.Text] = t.Parts
		}
	}
	n := min(len(a.Phrase), maxScored)
	weights := make([]float64, n)
	for p := range n {
		text := a.Phrase[p]
		weights[p] = st.weight(text)
		if required[text] {
			continue
		}
		weights[p] *= rankOnlyWeight
		rk.termW[p] = weights[p]
		switch ps := parts[text]; {
		case st.has(text):
			rk.wordClause[p] = term(fieldTerms, text)
			rk.scoring = true
		case len(ps) > 0 && allKnown(st, ps):
			rk.wordClause[p] = allTerms(ps)
			rk.scoring = true
		}
	}
	for p := 0; p+1 < n; p++ {
		x, y := a.Phrase[p], a.Phrase[p+1]
		okx, oky, okj := st.has(x), st.has(y), st.has(x+y)
		if !(okx && oky) && !okj {
			continue
		}
		rk.pairW[p] = phraseWeight * (weights[p] + weights[p+1])
		rk.scoring = true
		if okx && oky {
			rk.pairBits |= 1 << p
			rk.adjClause[p] = term(fieldPairs, x+" "+y)
		}
		if okj {
			rk.joinClause[p] = term(fieldTerms, x+y)
		}
	}
	rk.normStatic = rk.fitDecides() && rk.fitClause == nil
	return rk
}

// fitDecides reports whether the order is the static norm order (tier,
// title length, browse rank) when no candidate's title names a required
// word only after "for": required words alone, products first.
func (rk *ranking) fitDecides() bool {
	return rk.hasRequired && len(rk.wordClause) == 0 && len(rk.joinClause) == 0 && rk.pairBits == 0 && rk.useTier
}

// fitQuery matches titles holding a required word only after "for", when
// the ranking puts products first (no accessory word asked for); nil
// otherwise.
func fitQuery(a *search.Analysis) any {
	if a.Accessory || len(a.Required) == 0 {
		return nil
	}
	texts := make([]string, len(a.Required))
	for i, t := range a.Required {
		texts[i] = t.Text
	}
	return obj{"terms": obj{fieldFits: texts}}
}

func allKnown(st *termStats, terms []string) bool {
	for _, t := range terms {
		if !st.has(t) {
			return false
		}
	}
	return true
}

// lengthNorm is the BM25 length norm of a title of l words when titles
// hold avg words on average, as the embedded engine computes it.
func lengthNorm(l int, avg float64) float64 {
	return (bm25K1 + 1) / (1 + bm25K1*(1-bm25B+bm25B*float64(l)/avg))
}

// constantScore scores the documents matching filter with weight. The
// node keeps a boost in float32: it is sent as one, so that the value is
// the one the embedded engine rounds to.
func constantScore(filter any, weight float64) obj {
	return obj{"constant_score": obj{"filter": filter, "boost": float32(weight)}}
}

// scoreQuery returns the query whose score is the embedded engine's
// relevance score of a candidate: the required words' weight, plus the
// weight of each ranking-only word and of each query word pair the title
// holds (side by side or joined), times the title's BM25 length norm,
// which every document stores (fieldNorm). Every candidate matches it;
// without required words, a candidate holding no scoring word scores 0.
func (rk *ranking) scoreQuery() obj {
	base := 0.0
	if rk.hasRequired {
		base = rk.reqWeight
	}
	var should []any
	for p := range maxScored {
		if c, ok := rk.wordClause[p]; ok {
			should = append(should, constantScore(c, rk.termW[p]))
		}
	}
	for p := range maxScored {
		adj, okAdj := rk.adjClause[p]
		join, okJoin := rk.joinClause[p]
		var c any
		switch {
		case okAdj && okJoin:
			c = obj{"bool": obj{"should": []any{adj, join}, "minimum_should_match": 1}}
		case okAdj:
			c = adj
		case okJoin:
			c = join
		default:
			continue
		}
		should = append(should, constantScore(c, rk.pairW[p]))
	}
	sum := obj{"must": []any{constantScore(obj{"match_all": obj{}}, base)}}
	if len(should) > 0 {
		sum["should"] = should
	}
	return obj{"function_score": obj{
		"query":              obj{"bool": sum},
		"field_value_factor": obj{"field": fieldNorm},
		"boost_mode":         "multiply",
	}}
}

// scoreSort orders by score, highest first, then browse rank; with tier,
// products first.
func scoreSort(tier bool) []any {
	s := []any{obj{"_score": "desc"}, obj{fieldBrowseRank: "asc"}}
	if tier {
		s = append([]any{obj{fieldTier: "asc"}}, s...)
	}
	return s
}
