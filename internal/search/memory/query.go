package memory

import (
	"slices"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Ranking weights, applied on top of IDF and the BM25 length norm.
const (
	// modelWeight multiplies terms holding a digit ("wh1000xm5", "4070").
	modelWeight = 1.5
	// rankOnlyWeight multiplies ranking-only terms against required ones.
	rankOnlyWeight = 0.5
	// phraseWeight multiplies the summed weights of two query words found
	// side by side in a title.
	phraseWeight = 0.3
	// maxScored caps how many query words take part in scoring: a word's
	// position in the query is a bit in a 32-bit mask.
	maxScored = 32
	// denseBrowse: a price range holding at least 1/denseBrowse of the
	// catalog is browsed by walking the browse order.
	denseBrowse = 4
)

// scratch holds per-query buffers, reused through the index's pool.
type scratch struct {
	docs       []uint32
	order      []uint32
	matched    []uint32
	unverified []uint32
	rest       []uint32
	bits       []uint64 // over browse ranks
	later      []uint32 // the accessories' tier of a browse, held back
	fit        []uint64 // over documents: the products in the accessories' tier for being made for a query word
	fitWords   []uint32 // the words of fit set, to reset
	cbits      []uint64 // over documents: the candidates
	ranked     []ranked
	rankedM    []ranked
	rankedU    []ranked
	cons       []constraint
	cellDocs   []uint32 // the documents of a ranking's cells, by cell and bucket (see bestReader.partition)
	cellAll    []uint32
	cellNext   []int32
	bitmaps    []*roaring.Bitmap
	// qmark[term id] is the term's position in the query + 1, for finding
	// query words side by side in titles; marked lists the ids to reset.
	qmark  []uint8
	marked []uint32
	// masks[doc] has bit p set when ranking-only query word p is in doc's
	// title and bit 32+p when the joined pair of words p and p+1 is;
	// touched lists the documents with a mask, to reset.
	masks   []uint64
	touched []uint32
	markers []marker
	termW   [maxScored]float64 // ranking weight by query position, rounded to float32; 0 for required words
	pairW   [maxScored]float64 // weight of the pair of words p and p+1, rounded to float32
}

// marker is a posting list whose documents get a bit in their mask.
type marker struct {
	bm  *roaring.Bitmap
	bit uint64
}

func (ix *index) getScratch() *scratch {
	if s, ok := ix.pool.Get().(*scratch); ok {
		return s
	}
	return &scratch{
		qmark: make([]uint8, ix.nTerms),
		masks: make([]uint64, ix.n),
		fit:   make([]uint64, (ix.n+63)/64),
	}
}

func (ix *index) putScratch(s *scratch) {
	for _, id := range s.marked {
		s.qmark[id] = 0
	}
	for _, doc := range s.touched {
		s.masks[doc] = 0
	}
	for _, w := range s.fitWords {
		s.fit[w] = 0
	}
	s.marked, s.touched, s.fitWords = s.marked[:0], s.touched[:0], s.fitWords[:0]
	clear(s.bitmaps)
	clear(s.markers)
	s.bitmaps, s.markers = s.bitmaps[:0], s.markers[:0]
	ix.pool.Put(s)
}

// cands is the set of documents passing the filters and required words,
// within the price range [lo, hi). bm nil means every document in range.
type cands struct {
	bm     *roaring.Bitmap
	docs   []uint32 // sorted; set when bm != nil
	lo, hi uint32
}

func (c *cands) len() int {
	if c.bm == nil {
		return int(c.hi - c.lo)
	}
	return len(c.docs)
}

// at returns the i-th candidate in document (price ascending) order.
func (c *cands) at(i int) uint32 {
	if c.bm == nil {
		return c.lo + uint32(i)
	}
	return c.docs[i]
}

// query is one search being executed.
type query struct {
	ix   *index
	plan *search.Plan
	sc   *scratch
	c    cands
	// scoring
	hasRequired bool
	reqWeight   float64
	useTier     bool
	fit         bool   // some candidate is a product made for what a required word names (sc.fit)
	reqBits     uint32 // query positions of required words
	pairBits    uint32 // query positions p where words p and p+1 are scored side by side
	scoring     bool   // any query word affects the ranking
	nScored     int    // query words taking part in scoring (sc.termW, sc.pairW)
	masked      bool   // masks are computed
	// static, when set, is a precomputed order equal to the relevance
	// order of this query (rank: doc -> position in order).
	static      bool
	tiered      bool // the static order's products' tier holds products of the accessories' tier (q.fit): see readTiers
	order, rank []uint32
	// scored, when set, holds the candidates with a ranking-only word or
	// pair, whose masks are not all computed (see sparseSet).
	scored *roaring.Bitmap
}

// constraint is one applied constraint with its attribute column.
type constraint struct {
	name string
	rng  search.Range
	col  *attrColumn
}

// ranked is a document with its relevance sort key.
type ranked struct {
	score float64
	rank  uint32
	tier  uint8
	doc   uint32
}

func rankedLess(a, b *ranked) bool {
	if a.tier != b.tier {
		return a.tier < b.tier
	}
	if a.score != b.score {
		return a.score > b.score
	}
	return a.rank < b.rank
}

// search runs a planned request.
func (ix *index) search(p *search.Plan, maxCand int) *search.Result {
	req := &p.Request
	res := &search.Result{Lite: req.Lite, LiteType: req.ProductType != "", Constraints: p.Constraints, Products: []search.Hit{}}
	sc := ix.getScratch()
	defer ix.putScratch(sc)
	q := &query{ix: ix, plan: p, sc: sc}
	if !q.candidates() {
		return res
	}
	q.prepare()
	need := req.Offset + req.Limit
	var page []uint32
	if len(p.Constraints) == 0 {
		res.Total = q.c.len()
		sc.order = q.ordered(min(need, q.c.len()), sc.order[:0])
		if req.Offset < len(sc.order) {
			page = sc.order[req.Offset:]
		}
	} else {
		page = q.judge(res, maxCand)
	}
	cons := sc.cons
	var shared statusSet
	res.Products = make([]search.Hit, len(page))
	ix.hits(res.Products, page)
	if len(cons) > 0 {
		for i, doc := range page {
			res.Products[i].ConstraintStatus = shared.statuses(doc, cons)
		}
	}
	return res
}

// candidates resolves filters and required words; it reports false when no
// document can match.
func (q *query) candidates() bool {
	ix, req := q.ix, &q.plan.Request
	bms := q.sc.bitmaps[:0]
	defer func() { clear(bms); q.sc.bitmaps = bms[:0] }()
	if req.Category != "" {
		bm := ix.category[req.Category]
		if bm == nil {
			return false
		}
		bms = append(bms, bm)
	}
	if req.Brand != "" {
		bm := ix.brand[catalog.NormalizeBrand(req.Brand)]
		if bm == nil {
			return false
		}
		bms = append(bms, bm)
	}
	if req.ProductType != "" {
		bm := ix.types[string(req.ProductType)]
		if bm == nil {
			return false
		}
		bms = append(bms, bm)
	}
	for _, t := range q.plan.Analysis.Required {
		bm := ix.termBitmap(t)
		if bm == nil || bm.IsEmpty() {
			return false
		}
		bms = append(bms, bm)
	}
	n := ix.n
	lo, hi := 0, n
	if req.MinPrice != nil {
		lo = sort.Search(n, func(i int) bool { return ix.prices[i] >= *req.MinPrice })
	}
	if req.MaxPrice != nil {
		hi = sort.Search(n, func(i int) bool { return ix.prices[i] > *req.MaxPrice })
	}
	if lo >= hi {
		return false
	}
	q.c = cands{lo: uint32(lo), hi: uint32(hi)}
	if len(bms) == 0 {
		return true
	}
	var bm *roaring.Bitmap
	if len(bms) == 1 {
		bm = bms[0]
	} else {
		// Intersect the smallest first.
		slices.SortFunc(bms, func(a, b *roaring.Bitmap) int {
			ca, cb := a.GetCardinality(), b.GetCardinality()
			switch {
			case ca < cb:
				return -1
			case ca > cb:
				return 1
			}
			return 0
		})
		bm = roaring.And(bms[0], bms[1])
		for _, b := range bms[2:] {
			if bm.IsEmpty() {
				break
			}
			bm.And(b)
		}
	}
	card := int(bm.GetCardinality())
	if card == 0 {
		return false
	}
	docs := q.sc.docs[:0]
	if cap(docs) < card {
		docs = make([]uint32, card)
	}
	docs = docs[:card]
	bm.ToExistingArray(&docs)
	q.sc.docs = docs
	from, _ := slices.BinarySearch(docs, uint32(lo))
	to, _ := slices.BinarySearch(docs, uint32(hi))
	if from >= to {
		return false
	}
	q.c.bm, q.c.docs = bm, docs[from:to]
	return true
}

// termBitmap returns the documents matching a required term: its joined
// form, or every part of a hyphenated word. Nil when none.
func (ix *index) termBitmap(t search.Term) *roaring.Bitmap {
	var joined *roaring.Bitmap
	if id, ok := ix.lookup(t.Text); ok {
		joined = ix.posting(id)
	}
	if len(t.Parts) == 0 {
		return joined
	}
	var parts *roaring.Bitmap
	for _, p := range t.Parts {
		id, ok := ix.lookup(p)
		if !ok {
			return joined
		}
		if parts == nil {
			parts = ix.posting(id).Clone()
		} else {
			parts.And(ix.posting(id))
		}
	}
	if joined == nil {
		return parts
	}
	parts.Or(joined)
	return parts
}

// markFits marks in sc.fit the products made for a required word (bm,
// which holds no accessory: see index.fits) once one of them is a
// candidate. fits is asked only of candidates, so the word's products are
// marked whole: no intersection with the candidates is built.
func (q *query) markFits(bm *roaring.Bitmap) {
	c := &q.c
	switch {
	case c.bm != nil:
		if !bm.Intersects(c.bm) {
			return
		}
	case c.hi <= c.lo || countIn(bm, c.lo, c.hi) == 0:
		return
	}
	q.fit = true
	sc := q.sc
	bm.Iterate(func(doc uint32) bool {
		w := doc >> 6
		if sc.fit[w] == 0 {
			sc.fitWords = append(sc.fitWords, w)
		}
		sc.fit[w] |= 1 << (doc & 63)
		return true
	})
}

// countIn is the number of bm's documents in lo..hi-1, lo < hi.
func countIn(bm *roaring.Bitmap, lo, hi uint32) uint64 {
	n := bm.Rank(hi - 1)
	if lo > 0 {
		n -= bm.Rank(lo - 1)
	}
	return n
}

// fits reports whether doc is in the accessories' tier for being made for
// a query word.
func (q *query) fits(doc uint32) bool { return q.fit && q.sc.fit[doc>>6]&(1<<(doc&63)) != 0 }

// prepare resolves the query words for scoring and the constraints.
func (q *query) prepare() {
	ix, a, sc := q.ix, &q.plan.Analysis, q.sc
	q.useTier = !a.Accessory
	q.hasRequired = len(a.Required) > 0
	// Only a relevance ranking reads the tiers.
	byRelevance := q.plan.Request.Sort == search.SortRelevance
	required := make(map[string]bool, len(a.Required))
	for _, t := range a.Required {
		required[t.Text] = true
		q.reqWeight += q.termWeight(t.Text)
		if bm := ix.fits[t.Text]; bm != nil && q.useTier && byRelevance {
			q.markFits(bm)
		}
	}
	q.scoring = q.hasRequired
	parts := map[string][]string{}
	for _, t := range a.RankOnly {
		if len(t.Parts) > 0 {
			parts[t.Text] = t.Parts
		}
	}
	n := min(len(a.Phrase), maxScored)
	q.nScored = n
	weights := make([]float64, n)
	for p := range n {
		text := a.Phrase[p]
		weights[p] = q.termWeight(text)
		sc.termW[p], sc.pairW[p] = 0, 0
		id, ok := ix.lookup(text)
		if ok {
			q.mark(id, uint8(p+1))
		}
		if required[text] {
			q.reqBits |= 1 << p
			continue
		}
		weights[p] *= rankOnlyWeight
		sc.termW[p] = round32(weights[p])
		if ok {
			sc.markers = append(sc.markers, marker{bm: ix.posting(id), bit: 1 << p})
			q.scoring = true
		} else if ids, ok := ix.lookupAll(parts[text]); ok && len(ids) > 0 {
			bm := ix.posting(ids[0]).Clone()
			for _, id := range ids[1:] {
				bm.And(ix.posting(id))
			}
			sc.markers = append(sc.markers, marker{bm: bm, bit: 1 << p})
			q.scoring = true
		}
	}
	for p := 0; p+1 < n; p++ {
		x, y := a.Phrase[p], a.Phrase[p+1]
		_, okx := ix.lookup(x)
		_, oky := ix.lookup(y)
		jid, okj := ix.lookup(x + y)
		if !(okx && oky) && !okj {
			continue
		}
		sc.pairW[p] = round32(phraseWeight * (weights[p] + weights[p+1]))
		q.scoring = true
		if okx && oky {
			q.pairBits |= 1 << p
		}
		if okj {
			sc.markers = append(sc.markers, marker{bm: ix.posting(jid), bit: 1 << (32 + p)})
		}
	}
	sc.cons = sc.cons[:0]
	for i := range ix.table.Len() {
		d := ix.table.At(i)
		if b, ok := q.plan.Constraints[d.Name]; ok {
			sc.cons = append(sc.cons, constraint{name: d.Name, rng: b.Range(d.Tolerance), col: ix.attrs[d.Name]})
		}
	}
	// Browsing follows the browse order; required words alone score every
	// candidate by title length, which the norm order holds (for the
	// ranking-only words of a sparse ranking, the rest is browsed).
	q.order, q.rank = ix.browseOrder, ix.browseRank
	switch {
	case !q.scoring:
		q.static = true
	case q.hasRequired && len(sc.markers) == 0 && q.pairBits == 0 && q.useTier:
		// With products made for a query word, those move to the
		// accessories' tier as the norm order is read (see readTiers).
		q.static, q.tiered = true, q.fit
		q.order, q.rank = ix.normOrder, ix.normRank
	}
}

func (q *query) mark(id uint32, pos uint8) {
	if q.sc.qmark[id] == 0 {
		q.sc.marked = append(q.sc.marked, id)
		q.sc.qmark[id] = pos
	}
}

func (ix *index) lookupAll(terms []string) ([]uint32, bool) {
	ids := make([]uint32, len(terms))
	for i, t := range terms {
		id, ok := ix.lookup(t)
		if !ok {
			return nil, false
		}
		ids[i] = id
	}
	return ids, true
}

// termWeight is a term's IDF, raised for model-number-like terms.
func (q *query) termWeight(t string) float64 {
	id, ok := q.ix.lookup(t)
	if !ok {
		return 0
	}
	w := q.ix.idf[id]
	for i := 0; i < len(t); i++ {
		if t[i] >= '0' && t[i] <= '9' {
			return w * modelWeight
		}
	}
	return w
}
