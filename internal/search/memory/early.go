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
// descending length norm (the flat order), and reading stops once the
// best score a document left could have, the total of bestOpt at its
// norm, cannot beat the k-th best found: norms only fall from there, and ties on the
// score go to the browse rank, so no later document could enter.
//
// The documents that may still enter are gathered unsorted; whenever they
// are twice k, the k best are selected (linear time) and the worst of
// them is the bar to beat.
func (q *query) bestK(docs []uint32, lo, hi uint32, k int) []ranked {
	rs := q.sc.ranked[:0]
	if k <= 0 {
		return rs
	}
	q.computeMasks()
	best := q.bestOpt()
	passes := []int{passAll}
	if q.useTier {
		passes = []int{passProducts, passAccessories}
	}
	ix := q.ix
	var bar ranked // the k-th best so far, once full
	full := false
	for _, pass := range passes {
		if full && bar.tier == 0 {
			break // k products fill the page
		}
		var tier uint8
		if pass == passAccessories {
			tier = 1
		}
		bits := q.markRanks(docs, lo, hi, false, pass, ix.flatRank)
	read:
		for w, x := range bits {
			for ; x != 0; x &= x - 1 {
				doc := ix.flatOrder[w<<6+mathbits.TrailingZeros64(x)]
				if !full {
					rs = append(rs, q.key(doc))
					if full = len(rs) == k; full {
						bar = worst(rs)
					}
					continue
				}
				bound := ranked{tier: tier, score: q.total(best, true, ix.info[doc].norm)}
				if !rankedLess(&bound, &bar) {
					break read
				}
				if r := q.key(doc); rankedLess(&r, &bar) {
					rs = append(rs, r)
					if len(rs) >= 2*k {
						selectTop(rs, k)
						rs = rs[:k]
						bar = worst(rs)
					}
				}
			}
		}
	}
	if len(rs) > k {
		selectTop(rs, k)
		rs = rs[:k]
	}
	q.sc.ranked = rs[:0]
	return rs
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
