package memory

import "slices"

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
