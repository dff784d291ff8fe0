package memory

import (
	"math"
	mathbits "math/bits"

	"github.com/RoaringBitmap/roaring/v2"

	"productsearch/internal/search"
)

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
		n := (q.ix.n + 63) / 64
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
// side, times the BM25 length norm of the title. It is computed as
// Elasticsearch computes the same sum (see package elastic): each weight
// in float32, the optional ones summed in float64 and added to the
// required weight in float32, the product with the norm rounded to
// float32, so that both engines order candidates identically, ties
// included.
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
	opt, held := 0.0, false
	for x := present &^ q.reqBits; x != 0; x &= x - 1 {
		opt += sc.termW[mathbits.TrailingZeros32(x)]
		held = true
	}
	for x := pairs; x != 0; x &= x - 1 {
		opt += sc.pairW[mathbits.TrailingZeros32(x)]
		held = true
	}
	return q.total(opt, held, norm)
}

// round32 rounds a weight to the float32 Elasticsearch keeps it as.
func round32(w float64) float64 { return float64(float32(w)) }

// total is a title's score from the sum of the optional weights it holds
// (each already rounded to float32), whether it holds any, and its length
// norm. Every step is monotone in opt and norm, so the total of the most a
// title could hold bounds every title's score (see bestK).
func (q *query) total(opt float64, held bool, norm float64) float64 {
	var sum float32
	if q.hasRequired {
		sum = float32(q.reqWeight)
	}
	if held {
		sum += float32(opt)
	}
	return float64(float32(float64(sum) * norm))
}

func (q *query) key(doc uint32) ranked {
	info := &q.ix.info[doc]
	r := ranked{doc: doc, rank: info.rank}
	if q.useTier {
		r.tier = info.tier
		if r.tier == 0 && q.fits(doc) {
			r.tier = 1
		}
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
	var rs []ranked
	if q.early(len(docs), k) {
		rs = q.bestK(q.setOf(docs), k)
		sortRanked(rs)
	} else {
		q.computeMasks()
		rs = q.sc.ranked[:0]
		for _, doc := range docs {
			rs = append(rs, q.key(doc))
		}
		rs = topK(rs, k)
	}
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
	var rs []ranked
	if set := q.sparseSet(k); set != nil {
		rs = q.bestK(set, k)
		sortRanked(rs)
		q.scored = set
	} else {
		q.computeMasks()
		rs = q.sc.ranked[:0]
		for _, doc := range q.sc.touched {
			rs = append(rs, q.key(doc))
		}
		rs = topK(rs, k)
	}
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

// sparseSet returns the candidates holding a ranking-only word or pair
// when a sparse ranking reads them with bestK: when they are many and the
// rest is browsed by walking the browse order, which then tells the
// scored ones by this set rather than by their masks. Nil otherwise.
func (q *query) sparseSet(k int) *roaring.Bitmap {
	c, sc := &q.c, q.sc
	if c.bm != nil || int(c.hi-c.lo)*denseBrowse < q.ix.n || len(sc.markers) == 0 {
		return nil
	}
	bms := make([]*roaring.Bitmap, len(sc.markers))
	for i, m := range sc.markers {
		bms[i] = m.bm
	}
	set := roaring.FastOr(bms...)
	set.RemoveRange(0, uint64(c.lo))
	set.RemoveRange(uint64(c.hi), math.MaxUint32+1)
	if !q.early(int(set.GetCardinality()), k) {
		return nil
	}
	return set
}

// isScored reports whether doc holds a ranking-only word or pair: by
// q.scored when set, otherwise by its mask.
func (q *query) isScored(doc uint32) bool {
	if q.scored != nil {
		return q.scored.Contains(doc)
	}
	return q.sc.masks[doc] != 0
}

// browse appends the first k candidates in the query's static order (the
// browse order unless prepare chose another); with skipScored, the
// candidates holding a ranking-only word or pair (a mask) are left out.
func (q *query) browse(k int, skipScored bool, out []uint32) []uint32 {
	ix, c := q.ix, &q.c
	if c.bm != nil {
		if limit := q.walkLimit(k); limit > 0 {
			if walked, ok := q.walk(k, skipScored, limit, out); ok {
				return walked
			}
		}
		return q.markBrowse(c.docs, 0, 0, skipScored, k, out)
	}
	if q.tiered || int(c.hi-c.lo)*denseBrowse < ix.n {
		return q.markBrowse(nil, c.lo, c.hi, skipScored, k, out)
	}
	// Most documents are candidates: walk the browse order.
	out, _ = q.walk(k, skipScored, ix.n, out)
	return out
}

// walkLimit is how many documents of the static order a browse of k
// candidates of a bitmap walks before it gives up and marks them all
// instead (markBrowse); 0 when it does not walk. It walks when the
// candidates are dense enough that k of them are expected within an
// eighth of their number, and gives up after a quarter of it: a look-up
// in the bitmap costs several times a mark.
func (q *query) walkLimit(k int) int {
	n, cl := q.ix.n, q.c.len()
	switch {
	case q.tiered || q.ix.earlyMode < 0:
		return 0
	case q.ix.earlyMode > 0:
		return n
	case k*(n/cl+1)*8 > cl:
		return 0
	}
	return cl / 4
}

// walk appends the first k candidates in the static order by walking it;
// false, with out as it was, when k are not found within the first limit
// documents.
func (q *query) walk(k int, skipScored bool, limit int, out []uint32) ([]uint32, bool) {
	c := &q.c
	start, end := len(out), len(out)+k
	for i, doc := range q.order {
		if len(out) >= end {
			break
		}
		if i >= limit {
			return out[:start], false
		}
		if doc >= c.lo && doc < c.hi && (c.bm == nil || c.bm.Contains(doc)) && !(skipScored && q.isScored(doc)) {
			out = append(out, doc)
		}
	}
	return out, true
}

// markBrowse orders documents by the query's static order with a bitset
// over rank space: it marks the rank of every document in docs (or in lo..hi when
// docs is nil), leaving out scored ones with skipScored, then reads the
// first k marks. The cost is linear in the documents plus a pass over N/64
// words. When some products rank in the accessories' tier (q.tiered), the
// marks are read with readTiers.
func (q *query) markBrowse(docs []uint32, lo, hi uint32, skipScored bool, k int, out []uint32) []uint32 {
	if k <= 0 {
		return out
	}
	bits := q.markRanks(docs, lo, hi, skipScored)
	if q.tiered {
		return q.readTiers(bits, k, out)
	}
	return q.readMarks(bits, k, out)
}

// readMarks appends the documents of the first k marks of bits, a bitset
// over browse ranks, to out.
func (q *query) readMarks(bits []uint64, k int, out []uint32) []uint32 {
	end := len(out) + k
	for w, x := range bits {
		for ; x != 0; x &= x - 1 {
			if len(out) >= end {
				return out
			}
			out = append(out, q.order[w<<6+mathbits.TrailingZeros64(x)])
		}
	}
	return out
}

// readTiers appends the first k documents of bits, a bitset over ranks of
// the norm order, when some products rank in the accessories' tier for
// being made for a query word (q.fit). The products' ranks are read first,
// holding back the first k of those products; the accessories' ranks
// follow, merged with the held-back products by length norm, then browse
// rank: the order the tier has when read on its own. Only the documents
// read are judged.
func (q *query) readTiers(bits []uint64, k int, out []uint32) []uint32 {
	ix := q.ix
	end := len(out) + k
	held := q.sc.later[:0]
	defer func() { q.sc.later = held[:0] }()
	next := 0 // the first held-back product not yet appended
	for w, x := range bits {
		for ; x != 0; x &= x - 1 {
			r := uint32(w<<6 + mathbits.TrailingZeros64(x))
			doc := q.order[r]
			if r < ix.productRank {
				if !q.fits(doc) {
					if out = append(out, doc); len(out) >= end {
						return out
					}
				} else if len(held) < k {
					held = append(held, doc)
				}
				continue
			}
			for ; next < len(held) && ix.normBefore(held[next], doc); next++ {
				if out = append(out, held[next]); len(out) >= end {
					return out
				}
			}
			if out = append(out, doc); len(out) >= end {
				return out
			}
		}
	}
	return append(out, held[next:min(next+end-len(out), len(held))]...)
}

// normBefore reports whether document a comes before b by length norm
// (descending), then browse rank: the norm order within one tier.
func (ix *index) normBefore(a, b uint32) bool {
	ia, ib := &ix.info[a], &ix.info[b]
	return ia.norm > ib.norm || (ia.norm == ib.norm && ia.rank < ib.rank)
}

// markRanks sets in a bitset over the query's static rank space the rank
// of every document in docs (or in lo..hi when docs is nil), leaving out
// scored ones with skipScored.
func (q *query) markRanks(docs []uint32, lo, hi uint32, skipScored bool) []uint64 {
	ix, sc := q.ix, q.sc
	n := (ix.n + 63) / 64
	if cap(sc.bits) < n {
		sc.bits = make([]uint64, n)
	}
	bits := sc.bits[:n]
	clear(bits)
	mark := func(doc uint32) {
		if skipScored && q.isScored(doc) {
			return
		}
		r := q.rank[doc]
		bits[r>>6] |= 1 << (r & 63)
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
	return bits
}
