package memory

import (
	mathbits "math/bits"
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
	cbits      []uint64 // over documents: the candidates
	ranked     []ranked
	rankedM    []ranked
	rankedU    []ranked
	cons       []constraint
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
	termW   [maxScored]float64 // ranking weight by query position; 0 for required words
	pairW   [maxScored]float64 // weight of the pair of words p and p+1
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
	return &scratch{qmark: make([]uint8, len(ix.postings)), masks: make([]uint64, len(ix.products))}
}

func (ix *index) putScratch(s *scratch) {
	for _, id := range s.marked {
		s.qmark[id] = 0
	}
	for _, doc := range s.touched {
		s.masks[doc] = 0
	}
	s.marked, s.touched = s.marked[:0], s.touched[:0]
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
	reqBits     uint32 // query positions of required words
	pairBits    uint32 // query positions p where words p and p+1 are scored side by side
	scoring     bool   // any query word affects the ranking
	masked      bool   // masks are computed
	// static, when set, is a precomputed order equal to the relevance
	// order of this query (rank: doc -> position in order).
	static      bool
	order, rank []uint32
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
	res := &search.Result{Lite: req.Lite, Constraints: p.Constraints, Products: []search.Hit{}}
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
	for i, doc := range page {
		h := &res.Products[i]
		h.Product = &ix.products[doc]
		h.JSON = &ix.json[doc]
		if len(cons) > 0 {
			h.ConstraintStatus = shared.statuses(doc, cons)
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
	for _, t := range q.plan.Analysis.Required {
		bm := ix.termBitmap(t)
		if bm == nil || bm.IsEmpty() {
			return false
		}
		bms = append(bms, bm)
	}
	n := len(ix.products)
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
		joined = ix.postings[id]
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
			parts = ix.postings[id].Clone()
		} else {
			parts.And(ix.postings[id])
		}
	}
	if joined == nil {
		return parts
	}
	parts.Or(joined)
	return parts
}

// prepare resolves the query words for scoring and the constraints.
func (q *query) prepare() {
	ix, a, sc := q.ix, &q.plan.Analysis, q.sc
	q.useTier = !a.Accessory
	q.hasRequired = len(a.Required) > 0
	required := make(map[string]bool, len(a.Required))
	for _, t := range a.Required {
		required[t.Text] = true
		q.reqWeight += q.termWeight(t.Text)
	}
	q.scoring = q.hasRequired
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
		sc.termW[p] = weights[p]
		if ok {
			sc.markers = append(sc.markers, marker{bm: ix.postings[id], bit: 1 << p})
			q.scoring = true
		} else if ids, ok := ix.lookupAll(parts[text]); ok && len(ids) > 0 {
			bm := ix.postings[ids[0]].Clone()
			for _, id := range ids[1:] {
				bm.And(ix.postings[id])
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
		sc.pairW[p] = phraseWeight * (weights[p] + weights[p+1])
		q.scoring = true
		if okx && oky {
			q.pairBits |= 1 << p
		}
		if okj {
			sc.markers = append(sc.markers, marker{bm: ix.postings[jid], bit: 1 << (32 + p)})
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
		q.static = true
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

// computeMasks walks the posting lists of the ranking-only words and joined
// pairs within the candidates, term at a time, and sets the words' bits in
// the masks of the candidates holding them. touched then lists exactly the
// candidates that hold a ranking-only word or a joined pair.
func (q *query) computeMasks() {
	if q.masked {
		return
	}
	q.masked = true
	sc, lo, hi := q.sc, q.c.lo, q.c.hi
	// With a candidate bitmap, a posting list much longer than the
	// candidates is intersected with them; a shorter one is walked and
	// checked against a bitset of the candidates.
	var cbits []uint64
	if q.c.bm != nil {
		n := (len(q.ix.products) + 63) / 64
		if cap(sc.cbits) < n {
			sc.cbits = make([]uint64, n)
		}
		cbits = sc.cbits[:n]
		clear(cbits)
		for _, doc := range q.c.docs {
			cbits[doc>>6] |= 1 << (doc & 63)
		}
	}
	for _, m := range sc.markers {
		bm := m.bm
		check := cbits != nil
		if check && bm.GetCardinality() > 4*uint64(len(q.c.docs)) {
			bm, check = roaring.And(bm, q.c.bm), false
		}
		it := bm.Iterator()
		it.AdvanceIfNeeded(lo)
		for it.HasNext() {
			doc := it.Next()
			if doc >= hi {
				break
			}
			if check && cbits[doc>>6]&(1<<(doc&63)) == 0 {
				continue
			}
			if sc.masks[doc] == 0 {
				sc.touched = append(sc.touched, doc)
			}
			sc.masks[doc] |= m.bit
		}
	}
}

// score is the relevance of doc's title: the weights of the query words it
// holds (required words always) and of query word pairs it holds side by
// side, times the BM25 length norm of the title.
func (q *query) score(doc uint32, norm float64) float64 {
	sc := q.sc
	m := sc.masks[doc]
	present, pairs := uint32(m)|q.reqBits, uint32(m>>32)
	// Pairs whose two words are both present but not found joined need a
	// look at the title's words.
	if look := present & (present >> 1) & q.pairBits &^ pairs; look != 0 {
		qmark := sc.qmark
		words := q.ix.docWords(doc)
		for i := 0; i+1 < len(words); i++ {
			if a := qmark[words[i]]; a != 0 && qmark[words[i+1]] == a+1 {
				pairs |= 1 << (a - 1)
			}
		}
	}
	sum := 0.0
	if q.hasRequired {
		sum = q.reqWeight
	}
	for x := present &^ q.reqBits; x != 0; x &= x - 1 {
		sum += sc.termW[mathbits.TrailingZeros32(x)]
	}
	for x := pairs; x != 0; x &= x - 1 {
		sum += sc.pairW[mathbits.TrailingZeros32(x)]
	}
	return sum * norm
}

func (q *query) key(doc uint32) ranked {
	info := &q.ix.info[doc]
	r := ranked{doc: doc, rank: info.rank}
	if q.useTier {
		r.tier = info.tier
	}
	if q.scoring {
		r.score = q.score(doc, info.norm)
	}
	return r
}

// ordered appends the first k candidates in the requested order to out.
func (q *query) ordered(k int, out []uint32) []uint32 {
	switch q.plan.Request.Sort {
	case search.SortPriceAsc:
		for i := range k {
			out = append(out, q.c.at(i))
		}
		return out
	case search.SortPriceDesc:
		return q.priceDesc(k, out)
	}
	return q.relevance(k, out)
}

// priceDesc appends the first k candidates by price descending, ties by id
// ascending: document order reversed, with each run of equal prices kept in
// document order.
func (q *query) priceDesc(k int, out []uint32) []uint32 {
	prices, end := q.ix.prices, len(out)+k
	for i := q.c.len() - 1; i >= 0 && len(out) < end; {
		p := prices[q.c.at(i)]
		j := i
		for j > 0 && prices[q.c.at(j-1)] == p {
			j--
		}
		for t := j; t <= i && len(out) < end; t++ {
			out = append(out, q.c.at(t))
		}
		i = j - 1
	}
	return out
}

// relevance appends the first k candidates by relevance to out.
func (q *query) relevance(k int, out []uint32) []uint32 {
	switch {
	case q.static:
		return q.browse(k, false, out)
	case q.hasRequired:
		return q.rankDocs(q.c.docs, k, out)
	}
	return q.rankSparse(k, out)
}

// rankDocs appends the first k of docs by relevance to out.
func (q *query) rankDocs(docs []uint32, k int, out []uint32) []uint32 {
	if q.static {
		return q.markBrowse(docs, 0, 0, false, k, out)
	}
	q.computeMasks()
	rs := q.sc.ranked[:0]
	for _, doc := range docs {
		rs = append(rs, q.key(doc))
	}
	rs = topK(rs, k)
	for i := range rs {
		out = append(out, rs[i].doc)
	}
	q.sc.ranked = rs[:0]
	return out
}

// rankSparse ranks candidates by ranking-only words when no word is
// required: the candidates holding one are scored and sorted, the rest
// follow in browse order (within each tier when products come before
// accessories).
func (q *query) rankSparse(k int, out []uint32) []uint32 {
	q.computeMasks()
	rs := q.sc.ranked[:0]
	for _, doc := range q.sc.touched {
		rs = append(rs, q.key(doc))
	}
	rs = topK(rs, k)
	q.sc.ranked = rs[:0]
	rest := q.browse(k, true, q.sc.rest[:0])
	q.sc.rest = rest[:0]
	i, j, end := 0, 0, len(out)+k
	for len(out) < end && (i < len(rs) || j < len(rest)) {
		takeScored := j >= len(rest) ||
			(i < len(rs) && (!q.useTier || rs[i].tier <= q.ix.info[rest[j]].tier))
		if takeScored {
			out = append(out, rs[i].doc)
			i++
		} else {
			out = append(out, rest[j])
			j++
		}
	}
	return out
}

// browse appends the first k candidates in the query's static order (the
// browse order unless prepare chose another); with skipScored, the
// candidates holding a ranking-only word or pair (a mask) are left out.
func (q *query) browse(k int, skipScored bool, out []uint32) []uint32 {
	ix, c := q.ix, &q.c
	if c.bm != nil {
		return q.markBrowse(c.docs, 0, 0, skipScored, k, out)
	}
	if int(c.hi-c.lo)*denseBrowse < len(ix.products) {
		return q.markBrowse(nil, c.lo, c.hi, skipScored, k, out)
	}
	// Most documents are candidates: walk the browse order.
	masks, end := q.sc.masks, len(out)+k
	for _, doc := range q.order {
		if len(out) >= end {
			break
		}
		if doc >= c.lo && doc < c.hi && !(skipScored && masks[doc] != 0) {
			out = append(out, doc)
		}
	}
	return out
}

// markBrowse orders documents by the query's static order with a bitset
// over rank space: it marks the rank of every document in docs (or in lo..hi when
// docs is nil), leaving out scored ones with skipScored, then reads the
// first k marks. The cost is linear in the documents plus a pass over N/64
// words.
func (q *query) markBrowse(docs []uint32, lo, hi uint32, skipScored bool, k int, out []uint32) []uint32 {
	if k <= 0 {
		return out
	}
	end := len(out) + k
	ix, sc := q.ix, q.sc
	n := (len(ix.products) + 63) / 64
	if cap(sc.bits) < n {
		sc.bits = make([]uint64, n)
	}
	bits := sc.bits[:n]
	clear(bits)
	rank, masks := q.rank, sc.masks
	mark := func(doc uint32) {
		if !skipScored || masks[doc] == 0 {
			r := rank[doc]
			bits[r>>6] |= 1 << (r & 63)
		}
	}
	if docs != nil {
		for _, doc := range docs {
			mark(doc)
		}
	} else {
		for doc := lo; doc < hi; doc++ {
			mark(doc)
		}
	}
	for w, x := range bits {
		for x != 0 {
			if len(out) >= end {
				return out
			}
			out = append(out, q.order[w<<6+mathbits.TrailingZeros64(x)])
			x &= x - 1
		}
	}
	return out
}

// judge applies the constraints: it fills the result's counts and returns
// the page of matched-then-unverified documents.
func (q *query) judge(res *search.Result, maxCand int) []uint32 {
	req, sc := &q.plan.Request, q.sc
	need := req.Offset + req.Limit
	n := q.c.len()
	matched, unverified := sc.matched[:0], sc.unverified[:0]
	defer func() { sc.matched, sc.unverified = matched[:0], unverified[:0] }()
	// tally counts doc's verdict; it reports the verdict and whether the
	// document may still be on the page (keep: collect every one).
	tally := func(doc uint32, keep bool) search.Verdict {
		v := q.ix.verdict(doc, sc.cons)
		switch v {
		case search.Matched:
			res.Total++
			if keep || len(matched) < need {
				matched = append(matched, doc)
			}
		case search.Excluded:
			res.ExcludedByConstraints++
		default:
			res.UnverifiedTotal++
			if keep || len(unverified) < need {
				unverified = append(unverified, doc)
			}
		}
		return v
	}
	truncated := maxCand > 0 && n > maxCand
	res.CandidatesTruncated = truncated
	switch {
	case req.Sort == search.SortRelevance && truncated && !q.static:
		// Score every candidate, cut the best maxCand without sorting
		// them, judge those, and sort only what the page needs.
		q.computeMasks()
		rs := sc.ranked[:0]
		for i := range n {
			rs = append(rs, q.key(q.c.at(i)))
		}
		selectTop(rs, maxCand)
		rm, ru := sc.rankedM[:0], sc.rankedU[:0]
		for _, r := range rs[:maxCand] {
			switch q.ix.verdict(r.doc, sc.cons) {
			case search.Matched:
				res.Total++
				rm = append(rm, r)
			case search.Excluded:
				res.ExcludedByConstraints++
			default:
				res.UnverifiedTotal++
				ru = append(ru, r)
			}
		}
		rm = topK(rm, need)
		ru = topK(ru, need-len(rm))
		for _, r := range rm {
			matched = append(matched, r.doc)
		}
		for _, r := range ru {
			unverified = append(unverified, r.doc)
		}
		sc.ranked, sc.rankedM, sc.rankedU = rs[:0], rm[:0], ru[:0]
	case truncated:
		sc.order = q.ordered(maxCand, sc.order[:0])
		for _, doc := range sc.order {
			tally(doc, false)
		}
	case req.Sort == search.SortRelevance:
		for i := range n {
			tally(q.c.at(i), true)
		}
		out := q.rankDocs(matched, need, sc.order[:0])
		m := len(out)
		out = q.rankDocs(unverified, need-m, out)
		sc.order = out[:0]
		return page(out[:m], out[m:], req)
	default:
		sc.order = q.ordered(n, sc.order[:0])
		for _, doc := range sc.order {
			tally(doc, false)
		}
	}
	return page(matched, unverified, req)
}

// page cuts offset..offset+limit from matched followed by unverified into a
// fresh slice.
func page(matched, unverified []uint32, req *search.Request) []uint32 {
	var out []uint32
	for i := req.Offset; i < req.Offset+req.Limit; i++ {
		switch {
		case i < len(matched):
			out = append(out, matched[i])
		case i-len(matched) < len(unverified):
			out = append(out, unverified[i-len(matched)])
		default:
			return out
		}
	}
	return out
}

// judgeOne decides one constraint for doc.
func (c *constraint) judgeOne(doc uint32) search.Verdict {
	switch x := c.col.value[doc]; {
	case x == noValue:
		return search.Unverified
	case x <= multiValue:
		return c.rng.Judge(c.col.values(x))
	case c.rng.Contains(x):
		return search.Matched
	}
	return search.Excluded
}

// verdict judges doc against the constraints.
func (ix *index) verdict(doc uint32, cons []constraint) search.Verdict {
	all := search.Matched
	for i := range cons {
		switch cons[i].judgeOne(doc) {
		case search.Excluded:
			return search.Excluded
		case search.Unverified:
			all = search.Unverified
		}
	}
	return all
}

// statusSet shares one constraint_status map among the hits of a page
// with the same matched constraints; any number of constraints is fine.
type statusSet struct {
	words int      // uint64 words per key
	keys  []uint64 // the key of entry e is keys[e*words : (e+1)*words]
	maps  []map[string]string
	key   []uint64 // the key being looked up
}

// statuses returns the constraint_status of a document that is not
// excluded: bit i of its key is set when constraint i is matched.
func (s *statusSet) statuses(doc uint32, cons []constraint) map[string]string {
	if s.words == 0 {
		s.words = (len(cons) + 63) / 64
		s.key = make([]uint64, s.words)
	}
	clear(s.key)
	for i := range cons {
		if cons[i].judgeOne(doc) == search.Matched {
			s.key[i/64] |= 1 << (i % 64)
		}
	}
	for e := range s.maps {
		if slices.Equal(s.keys[e*s.words:(e+1)*s.words], s.key) {
			return s.maps[e]
		}
	}
	m := make(map[string]string, len(cons))
	for i := range cons {
		if s.key[i/64]&(1<<(i%64)) != 0 {
			m[cons[i].name] = search.StatusMatched
		} else {
			m[cons[i].name] = search.StatusUnverified
		}
	}
	s.keys = append(s.keys, s.key...)
	s.maps = append(s.maps, m)
	return m
}

// topK sorts the k best of rs to its front and returns them.
func topK(rs []ranked, k int) []ranked {
	if k <= 0 {
		return rs[:0]
	}
	if k >= len(rs) {
		sortRanked(rs)
		return rs
	}
	if k > len(rs)/4 {
		selectTop(rs, k)
		rs = rs[:k]
		sortRanked(rs)
		return rs
	}
	// A max-heap (worst on top) of the best k seen so far.
	h := rs[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
	for i := k; i < len(rs); i++ {
		if rankedLess(&rs[i], &h[0]) {
			h[0] = rs[i]
			siftDown(h, 0)
		}
	}
	sortRanked(h)
	return h
}

func siftDown(h []ranked, i int) {
	for {
		worst := i
		l, r := 2*i+1, 2*i+2
		if l < len(h) && rankedLess(&h[worst], &h[l]) {
			worst = l
		}
		if r < len(h) && rankedLess(&h[worst], &h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// selectTop reorders rs so that its first k elements are the k best, in no
// particular order (quickselect; keys are distinct, so it is deterministic).
func selectTop(rs []ranked, k int) {
	lo, hi := 0, len(rs)-1
	for lo < hi {
		// Median of three as the pivot.
		mid := lo + (hi-lo)/2
		if rankedLess(&rs[mid], &rs[lo]) {
			rs[mid], rs[lo] = rs[lo], rs[mid]
		}
		if rankedLess(&rs[hi], &rs[lo]) {
			rs[hi], rs[lo] = rs[lo], rs[hi]
		}
		if rankedLess(&rs[hi], &rs[mid]) {
			rs[hi], rs[mid] = rs[mid], rs[hi]
		}
		pivot := rs[mid]
		i, j := lo, hi
		for i <= j {
			for rankedLess(&rs[i], &pivot) {
				i++
			}
			for rankedLess(&pivot, &rs[j]) {
				j--
			}
			if i <= j {
				rs[i], rs[j] = rs[j], rs[i]
				i++
				j--
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

func sortRanked(rs []ranked) {
	slices.SortFunc(rs, func(a, b ranked) int {
		switch {
		case rankedLess(&a, &b):
			return -1
		case rankedLess(&b, &a):
			return 1
		}
		return 0
	})
}
