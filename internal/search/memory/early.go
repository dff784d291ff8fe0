package memory

import mathbits "math/bits"

// A relevance ranking reads its documents in length norm order, stopping
// early (see bestK), when they are at least earlyMin and earlyRatio times
// the documents it keeps; fewer are all scored, which costs less than the
// passes over rank space that reading in order takes.
const (
	earlyMin   = 4096
	earlyRatio = 8
)

// early reports whether ranking n documents for the best k reads them in
// length norm order.
func early(n, k int) bool { return n >= earlyMin && n >= earlyRatio*k }

// bestOpt is the most a title can hold of the optional weights: every
// query word's and every pair's, added in the order score
// adds them. Float addition of non-negative weights is monotone, so no
// title's sum exceeds it, and total(bestOpt(), true, norm) bounds the
// score of every title with that norm.
func (q *query) bestOpt() float64 {
	sc := q.sc
	sum := 0.0
	for p := range q.nScored {
		if q.reqBits&(1<<p) == 0 {
			sum += sc.termW[p]
		}
	}
	for p := range q.nScored {
		sum += sc.pairW[p]
	}
	return sum
}

// bestK returns the k best of docs (of lo..hi when docs is nil) by
// relevance, in no particular order: the same documents as scoring every
// one and keeping the k best. Documents are read tier by tier, each by
// descending length norm, and reading stops once the best score a
// document left could have, the total of bestOpt at its norm, cannot beat
// the k-th best found: norms only fall from there, and ties on the score
// go to the browse rank, so no later document could enter.
//
// The reading follows the norm order, whose products' ranks come before
// its accessories' and fall in norm within each: a pass reads the two
// spans in turn, each stopping on its own (the products made for a query
// word are read, in the accessories' pass, from the products' span).
//
// The documents that may still enter are gathered unsorted; whenever they
// are twice k, the k best are selected (linear time) and the worst of
// them is the bar to beat.
func (q *query) bestK(docs []uint32, lo, hi uint32, k int) []ranked {
	if k <= 0 {
		return q.sc.ranked[:0]
	}
	q.computeMasks()
	b := bestReader{q: q, best: q.bestOpt(), k: k, rs: q.sc.ranked[:0]}
	passes := []int{passAll}
	if q.useTier {
		passes = []int{passProducts, passAccessories}
	}
	ix := q.ix
	spans := [2][2]uint32{{0, ix.productRank}, {ix.productRank, uint32(ix.n)}}
	for _, pass := range passes {
		if b.full && b.bar.tier == 0 {
			break // k products fill the page
		}
		b.tier = 0
		if pass == passAccessories {
			b.tier = 1
		}
		bits := q.markRanks(docs, lo, hi, false, pass, ix.normRank)
		for i, sp := range spans {
			if pass == passProducts && i > 0 {
				break // no accessory is marked
			}
			b.read(bits, sp[0], sp[1])
		}
	}
	rs := b.rs
	if len(rs) > k {
		selectTop(rs, k)
		rs = rs[:k]
	}
	q.sc.ranked = rs[:0]
	return rs
}

// bestReader gathers the best documents of a bestK.
type bestReader struct {
	q    *query
	best float64 // bestOpt
	k    int
	tier uint8 // of the pass being read
	rs   []ranked
	bar  ranked // the k-th best so far, once full
	full bool
}

// read reads the marks of bits over norm ranks lo..hi-1 in order, until
// the bound of the next document cannot beat the bar.
func (b *bestReader) read(bits []uint64, lo, hi uint32) {
	if lo >= hi {
		return
	}
	q, ix := b.q, b.q.ix
	last := (hi - 1) >> 6
	for w := lo >> 6; w <= last; w++ {
		x := bits[w]
		if w == lo>>6 {
			x &= ^uint64(0) << (lo & 63)
		}
		if w == last {
			x &= ^uint64(0) >> (63 - (hi-1)&63)
		}
		for ; x != 0; x &= x - 1 {
			doc := ix.normOrder[w<<6+uint32(mathbits.TrailingZeros64(x))]
			if !b.full {
				b.rs = append(b.rs, q.key(doc))
				if b.full = len(b.rs) == b.k; b.full {
					b.bar = worst(b.rs)
				}
				continue
			}
			bound := ranked{tier: b.tier, score: q.total(b.best, true, ix.info[doc].norm)}
			if !rankedLess(&bound, &b.bar) {
				return
			}
			if r := q.key(doc); rankedLess(&r, &b.bar) {
				b.rs = append(b.rs, r)
				if len(b.rs) >= 2*b.k {
					selectTop(b.rs, b.k)
					b.rs = b.rs[:b.k]
					b.bar = worst(b.rs)
				}
			}
		}
	}
}

// worst returns the last of rs in relevance order.
func worst(rs []ranked) ranked {
	w := rs[0]
	for i := range rs {
		if rankedLess(&w, &rs[i]) {
			w = rs[i]
		}
	}
	return w
}
