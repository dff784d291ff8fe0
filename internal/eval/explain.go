package eval

import (
	"fmt"
	"io"

	"productsearch/internal/match"
)

// maxExplained bounds the listing pairs tried for each two clusters of a
// wrong merge or two groups of a split, and maxExplainedPairs the pairs
// explained for one merge or split.
const (
	maxExplained      = 24
	maxExplainedPairs = 3
)

// Explanation is the pair decision on two offers of a wrong merge or split,
// with its trace.
type Explanation struct {
	A        ClusterOffer   `json:"a"`
	B        ClusterOffer   `json:"b"`
	Decision match.Decision `json:"decision"`
}

// explainPairs gives the trace of every wrong pair decision: the decision
// is taken again with Matcher.Explain, so judging the pairs records nothing.
func explainPairs(r PairResult) []PairError {
	out := make([]PairError, len(r.Errors))
	for i, e := range r.Errors {
		e.Decision = r.matcher.Explain(e.A, e.B)
		out[i] = e
	}
	return out
}

// explainGroups explains the wrong merges or splits of a clusters
// evaluation, one entry per listed group. For a merge, between each two
// true clusters the group joins, it explains the first pair of their offers
// the pair decision calls the same product, or the first pair when none;
// for a split, between each two groups holding the cluster, the first pair
// it calls different. Grouping applies the pair decision's rules within
// blocks of listings and to groups as a whole, so the trace shows the
// evidence of the rules, not the order the grouping met the listings in.
func explainGroups(r ClusterResult, m *match.Matcher, groups [][]ClusterOffer, merged bool) [][]Explanation {
	out := make([][]Explanation, len(groups))
	for g, offers := range groups {
		side := func(o ClusterOffer) string { return o.Cluster }
		if !merged {
			side = func(o ClusterOffer) string { return fmt.Sprint(o.Group) }
		}
		var sides []string
		bySide := map[string][]ClusterOffer{}
		for _, o := range offers {
			k := side(o)
			if _, ok := bySide[k]; !ok {
				sides = append(sides, k)
			}
			bySide[k] = append(bySide[k], o)
		}
		for x := 0; x < len(sides) && len(out[g]) < maxExplainedPairs; x++ {
			for y := x + 1; y < len(sides) && len(out[g]) < maxExplainedPairs; y++ {
				out[g] = append(out[g], r.explainBetween(m, bySide[sides[x]], bySide[sides[y]], merged))
			}
		}
	}
	return out
}

// explainBetween explains the first pair of an offer of as and one of bs
// whose decision is want (same for a merge, different for a split), or the
// first pair when no pair tried is.
func (r ClusterResult) explainBetween(m *match.Matcher, as, bs []ClusterOffer, want bool) Explanation {
	var first *Explanation
	tried := 0
	for _, a := range as {
		for _, b := range bs {
			if tried == maxExplained {
				return *first
			}
			tried++
			e := Explanation{A: a, B: b, Decision: m.Explain(r.items[a.index], r.items[b.index])}
			if e.Decision.Same == want {
				return e
			}
			if first == nil {
				first = &e
			}
		}
	}
	return *first
}

// printTrace writes a decision's steps, one a line, after indent.
func printTrace(w io.Writer, indent string, d match.Decision) {
	for _, s := range d.Trace {
		fmt.Fprintf(w, "%s%s\n", indent, s)
	}
}
