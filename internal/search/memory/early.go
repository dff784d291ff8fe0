package memory

import (
	"cmp"
	"math"
	mathbits "math/bits"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// A relevance ranking reads its documents by descending length norm,
// stopping early (see bestK), when they are at least earlyMin and
// earlyRatio times the documents it keeps; fewer are all scored, which
// costs less than the bitmap operations that reading in order takes.
const (
	earlyMin   = 4096
	earlyRatio = 2
)

// early reports whether ranking n documents for the best k reads them by
// length norm bucket (bestK).
func (q *query) early(n, k int) bool {
	if q.ix.earlyMode != 0 {
		return q.ix.earlyMode > 0
	}
	return n >= earlyMin && n >= earlyRatio*k
}

// The documents one pass of a ranking reads.
const (
	passAll         = iota
	passProducts    // the products' tier
	passAccessories // the accessories' tier: accessories and the products q.fits
)

// normBucket is a run of the norm order: the documents of one tier (see
// docInfo) with one length norm, the norm of a title's number of words.
// An index has few of them: titles of maxBucketLen words or more share
// one, whose norm is the highest of theirs (a bucket's norm bounds its
// documents' norms).
type normBucket struct {
	tier uint8
	norm float64
}

const maxBucketLen = 1024

// buildBuckets lists the buckets of the norm order, by tier, then by
// title length ascending, which is norm descending, and the bucket of
// every document.
func (ix *index) buildBuckets() {
	var norms [2][maxBucketLen + 1]float64 // by tier and title length; 0 when no title has it
	lens := make([]uint16, ix.n)
	for doc := range ix.n {
		info := &ix.info[doc]
		l := min(ix.wordsOff[doc+1]-ix.wordsOff[doc], maxBucketLen)
		lens[doc] = uint16(l)
		norms[info.tier][l] = max(norms[info.tier][l], info.norm)
	}
	ix.buckets = nil
	var index [2][maxBucketLen + 1]uint16
	for t := range norms {
		for l, norm := range norms[t] {
			if norm != 0 {
				index[t][l] = uint16(len(ix.buckets))
				ix.buckets = append(ix.buckets, normBucket{tier: uint8(t), norm: norm})
			}
		}
	}
	for doc, l := range lens {
		lens[doc] = index[ix.info[doc].tier][l]
	}
	ix.bucketOf = lens
}

// bestOpt is the most a title can hold of the optional weights: every
// query word's with a posting list and every pair's it could hold, added
// in the order score adds them. Float addition of non-negative weights is
// monotone, so no title's sum exceeds it, and total(bestOpt(), true, norm)
// bounds the score of every title with that norm.
func (q *query) bestOpt() float64 { return q.bestOptWithout(0) }

// bestOptWithout is bestOpt for the titles that lack the query words of
// the positions in skip. A pair counts when it is held joined (a term of
// its own) or both its words may be held.
func (q *query) bestOptWithout(skip uint32) float64 {
	sc := q.sc
	var held, joined uint32
	for _, m := range sc.markers {
		if m.bit < 1<<32 {
			held |= uint32(m.bit)
		} else {
			joined |= uint32(m.bit >> 32)
		}
	}
	held &^= q.reqBits | skip
	avail := held | q.reqBits
	sum := 0.0
	for p := range q.nScored {
		if held&(1<<p) != 0 {
			sum += sc.termW[p]
		}
	}
	for p := range q.nScored {
		if joined&(1<<p) != 0 || q.pairBits&(1<<p) != 0 && avail&(3<<p) == 3<<p {
			sum += sc.pairW[p]
		}
	}
	return sum
}

// candidateSet returns the candidates as a bitmap, which the caller must
// not change.
func (q *query) candidateSet() *roaring.Bitmap {
	c := &q.c
	if c.bm == nil {
		bm := roaring.New()
		bm.AddRange(uint64(c.lo), uint64(c.hi))
		return bm
	}
	if c.bm.GetCardinality() == uint64(len(c.docs)) {
		return c.bm
	}
	bm := c.bm.Clone()
	bm.RemoveRange(0, uint64(c.lo))
	bm.RemoveRange(uint64(c.hi), math.MaxUint32+1)
	return bm
}

// setOf returns docs, candidates in document order, as a bitmap the
// caller must not change.
func (q *query) setOf(docs []uint32) *roaring.Bitmap {
	if len(docs) == q.c.len() {
		return q.candidateSet()
	}
	bm := roaring.New()
	bm.AddMany(docs)
	return bm
}

// bestK returns the k best of set (candidates) by relevance, in no particular order: the same documents
// as scoring every one and keeping the k best.
//
// The documents are split in cells by the query words they hold (see
// cells), each with a bound on its titles' optional weights; a cell is
// read bucket by bucket of the norm order (descending length norm), a
// bucket's documents taken from it by intersecting bitmaps. The reading
// always takes, of every cell's next bucket, the one whose bound, the
// total of the cell's bound at the bucket's norm, is highest, and stops
// once that bound cannot beat the k-th best found: bounds only fall from
// there, and ties on the score go to the browse rank, so no document left
// could enter.
//
// Tiers are read in turn: the products' buckets, then the accessories'
// buckets with, when products made for a query word move to the
// accessories' tier, the products' buckets again for those.
//
// The documents that may still enter are gathered unsorted; whenever they
// are twice k, the k best are selected (linear time) and the worst of
// them is the bar to beat.
func (q *query) bestK(set *roaring.Bitmap, k int) []ranked {
	if k <= 0 {
		return q.sc.ranked[:0]
	}
	b := bestReader{q: q, k: k, rs: q.sc.ranked[:0]}
	b.fits = q.fit && q.useTier
	b.set = set
	b.cells, b.words, b.split = q.cells()
	q.sc.cellDocs = q.sc.cellDocs[:0]
	passes := []int{passAll}
	if q.useTier {
		passes = []int{passProducts, passAccessories}
	}
	for _, pass := range passes {
		if b.full && b.bar.tier == 0 {
			break // k products fill the page
		}
		b.read(pass)
	}
	rs := b.rs
	if len(rs) > k {
		selectTop(rs, k)
		rs = rs[:k]
	}
	q.sc.ranked = rs[:0]
	return rs
}

// maxSplit caps the query words cells split on: at most 2^maxSplit cells.
const maxSplit = 4

// cell is the documents of a ranking holding the same query words of
// those the ranking splits on, with a bound on their titles' optional
// weights. Its documents are found when it is first read (see
// bestReader.partition).
type cell struct {
	held uint32 // the split words the documents hold, by query position
	best float64
	// Once read, the documents by bucket: those of bucket j are
	// scratch.cellDocs[at+start[j] : at+start[j+1]].
	read  bool
	at    int
	start []int32
}

// partition finds c's documents, sorts them by bucket (a counting sort)
// into the scratch buffers and marks in their masks the ranking-only words
// and joined pairs the cell does not tell.
func (b *bestReader) partition(c *cell) {
	q, ix, sc := b.q, b.q.ix, b.q.sc
	docs := b.cellDocs(c)
	c.read = true
	if !q.masked {
		for _, m := range sc.markers {
			if m.bit < 1<<32 && b.split&uint32(m.bit) != 0 {
				continue // the cell tells
			}
			it := roaring.And(m.bm, docs).Iterator()
			for it.HasNext() {
				doc := it.Next()
				if sc.masks[doc] == 0 {
					sc.touched = append(sc.touched, doc)
				}
				sc.masks[doc] |= m.bit
			}
		}
	}
	n := int(docs.GetCardinality())
	all := sc.cellAll[:0]
	if cap(all) < n {
		all = make([]uint32, n)
	}
	all = all[:n]
	docs.ToExistingArray(&all)
	sc.cellAll = all
	start := make([]int32, len(ix.buckets)+1)
	for _, doc := range all {
		start[ix.bucketOf[doc]+1]++
	}
	for j := range ix.buckets {
		start[j+1] += start[j]
	}
	c.at, c.start = len(sc.cellDocs), start
	sc.cellDocs = slices.Grow(sc.cellDocs, n)[:c.at+n]
	sorted := sc.cellDocs[c.at:]
	next := sc.cellNext[:0]
	next = append(next, start...)
	for _, doc := range all {
		j := ix.bucketOf[doc]
		sorted[next[j]] = doc
		next[j]++
	}
	sc.cellNext = next
}

// cellDocs returns the documents of b.set in c: holding the split words of
// c.held and lacking the others.
func (b *bestReader) cellDocs(c *cell) *roaring.Bitmap {
	var x *roaring.Bitmap
	for _, w := range b.words {
		if c.held&uint32(w.bit) != 0 {
			if x == nil {
				x = roaring.And(b.set, w.bm)
			} else {
				x.And(w.bm)
			}
		}
	}
	for _, w := range b.words {
		if c.held&uint32(w.bit) == 0 {
			if x == nil {
				x = roaring.AndNot(b.set, w.bm)
			} else {
				x.AndNot(w.bm)
			}
		}
	}
	if x == nil {
		return b.set
	}
	return x
}

// cells lists the cells of a ranking, one for each combination of the
// ranking-only words with posting lists it splits on (the maxSplit
// heaviest), and returns those words. A cell's bound is bestOptWithout
// the split words its documents lack.
func (q *query) cells() ([]cell, []marker, uint32) {
	sc := q.sc
	var words []marker
	for _, m := range sc.markers {
		if m.bit < 1<<32 {
			words = append(words, m)
		}
	}
	slices.SortStableFunc(words, func(a, b marker) int {
		return cmp.Compare(sc.termW[mathbits.TrailingZeros64(b.bit)], sc.termW[mathbits.TrailingZeros64(a.bit)])
	})
	words = words[:min(len(words), maxSplit)]
	split := uint32(0)
	for _, w := range words {
		split |= uint32(w.bit)
	}
	cells := make([]cell, 0, 1<<len(words))
	for combo := range 1 << len(words) {
		held := uint32(0)
		for i, w := range words {
			if combo&(1<<i) != 0 {
				held |= uint32(w.bit)
			}
		}
		cells = append(cells, cell{held: held, best: q.bestOptWithout(split &^ held)})
	}
	return cells, words, split
}

// bestReader gathers the best documents of a bestK.
type bestReader struct {
	q     *query
	set   *roaring.Bitmap // the documents ranked
	cells []cell
	words []marker // the words the cells split on
	split uint32   // their query positions
	fits  bool     // products made for a query word move to the accessories' tier
	k     int
	tier  uint8 // of the pass being read
	rs    []ranked
	bar   ranked // the k-th best so far, once full
	full  bool
}

// stream is one cell's buckets of one span (0 the products', 1 the
// accessories') as one pass reads them.
type stream struct {
	cell  int
	span  uint8
	next  int     // the next bucket
	bound float64 // its score bound
}

// read reads one pass's documents.
func (b *bestReader) read(pass int) {
	q, buckets := b.q, b.q.ix.buckets
	b.tier = 0
	if pass == passAccessories {
		b.tier = 1
	}
	var spans []uint8
	switch {
	case pass == passProducts:
		spans = []uint8{0}
	case pass == passAccessories && !b.fits:
		spans = []uint8{1}
	default:
		spans = []uint8{0, 1}
	}
	// advance moves s to its next bucket from i; false when none is left.
	// Before its cell is partitioned, empty buckets count too: the bound
	// holds all the same.
	advance := func(s *stream, i int) bool {
		c := &b.cells[s.cell]
		for ; i < len(buckets); i++ {
			if buckets[i].tier == s.span && (!c.read || c.start[i+1] > c.start[i]) {
				s.next = i
				s.bound = q.total(c.best, true, buckets[i].norm)
				return true
			}
		}
		return false
	}
	var streams []stream
	for c := range b.cells {
		for _, span := range spans {
			s := stream{cell: c, span: span}
			if advance(&s, 0) {
				streams = append(streams, s)
			}
		}
	}
	for len(streams) > 0 {
		top := 0
		for i := range streams {
			if streams[i].bound > streams[top].bound {
				top = i
			}
		}
		s := &streams[top]
		if b.full && !rankedLess(&ranked{tier: b.tier, score: s.bound}, &b.bar) {
			return
		}
		c := &b.cells[s.cell]
		if !c.read {
			b.partition(c)
		}
		// With products made for a query word, the products' pass leaves
		// them out and the accessories' pass reads only them of the
		// products.
		fit := -1
		switch {
		case pass == passProducts && q.fit:
			fit = 0
		case pass == passAccessories && s.span == 0:
			fit = 1
		}
		if c.start[s.next+1] > c.start[s.next] {
			b.score(q.sc.cellDocs[c.at+int(c.start[s.next]):c.at+int(c.start[s.next+1])], c.held, fit)
		}
		if !advance(s, s.next+1) {
			streams[top] = streams[len(streams)-1]
			streams = streams[:len(streams)-1]
		}
	}
}

// score ranks docs, which hold the split words of held and no other, and
// gathers those that may enter; fit 0 leaves out the products made for a
// query word, fit 1 keeps only those, -1 keeps all.
func (b *bestReader) score(docs []uint32, held uint32, fit int) {
	q, sc := b.q, b.q.sc
	for _, doc := range docs {
		if fit >= 0 && q.fits(doc) != (fit == 1) {
			continue
		}
		if !q.masked && held != 0 {
			if sc.masks[doc] == 0 {
				sc.touched = append(sc.touched, doc)
			}
			sc.masks[doc] |= uint64(held)
		}
		r := q.key(doc)
		if !b.full {
			b.rs = append(b.rs, r)
			if b.full = len(b.rs) == b.k; b.full {
				b.bar = worst(b.rs)
			}
			continue
		}
		if rankedLess(&r, &b.bar) {
			b.rs = append(b.rs, r)
			if len(b.rs) >= 2*b.k {
				b.raise()
			}
		}
	}
	// Raise the bar once a quarter of k more may enter: each selection
	// drops at least that many, so selecting costs linear time overall.
	if b.full && len(b.rs) >= b.k+b.k/4+1 {
		b.raise()
	}
}

// raise keeps the k best gathered and makes the worst of them the bar.
func (b *bestReader) raise() {
	selectTop(b.rs, b.k)
	b.rs = b.rs[:b.k]
	b.bar = worst(b.rs)
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
