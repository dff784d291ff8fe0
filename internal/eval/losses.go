package eval

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"productsearch/internal/match"
)

// Loss is one class of missed pairs of a clusters evaluation: true pairs
// that grouping left in different groups, by what kept them apart.
type Loss struct {
	Class string `json:"class"`
	Pairs int    `json:"pairs"`
}

// Classes of missed pairs besides a rule of the pair decision.
const (
	lossRetailer = "same retailer"
	lossGrouping = "pair decision merges, grouping keeps apart"
)

// losses counts the missed pairs of a clusters evaluation by what split
// them: one retailer's two listings (never joined); a rule of the pair
// decision that refuses the pair ("rule: specs", "rule: title-refused");
// the blocking, when the pair decision would merge them but grouping never
// weighs one against the other ("unmet: brand", "unmet: category",
// "unmet: rare-words"); and, when it does, grouping itself (a group's
// veto, an ambiguous key, the order groups met in). Most pairs first.
func losses(r ClusterResult, m *match.Matcher) []Loss {
	counts := map[string]int{}
	for _, offers := range r.Split {
		for x, a := range offers {
			for _, b := range offers[x+1:] {
				if a.Group != b.Group {
					counts[lossOf(r, m, a, b)]++
				}
			}
		}
	}
	out := make([]Loss, 0, len(counts))
	for c, n := range counts {
		out = append(out, Loss{c, n})
	}
	slices.SortFunc(out, func(a, b Loss) int { return cmp.Or(b.Pairs-a.Pairs, cmp.Compare(a.Class, b.Class)) })
	return out
}

// lossOf names what split one missed pair.
func lossOf(r ClusterResult, m *match.Matcher, a, b ClusterOffer) string {
	ia, ib := r.items[a.index], r.items[b.index]
	if ia.Retailer != "" && ia.Retailer == ib.Retailer {
		return lossRetailer
	}
	d := m.Explain(ia, ib)
	if !d.Same {
		rule := d.Reason
		for _, s := range d.Trace {
			if s.Outcome == match.Split {
				rule = s.Rule
			}
		}
		if rule == "title-refused" && (!m.NamesModel(ia) || !m.NamesModel(ib)) {
			rule += ", one title names no model"
		}
		return "rule: " + rule
	}
	if u := m.Unmet(ia, ib); u != "" {
		return "unmet: " + u
	}
	return lossGrouping
}

// printLosses writes the missed-pair classes, with each one's share of the
// missed pairs.
func printLosses(w io.Writer, ls []Loss) {
	total := 0
	for _, l := range ls {
		total += l.Pairs
	}
	fmt.Fprintf(w, "\nmissed pairs by what split them (%d in all):\n", total)
	for _, l := range ls {
		fmt.Fprintf(w, "  %7d  %5.1f%%  %s\n", l.Pairs, 100*float64(l.Pairs)/float64(max(total, 1)), l.Class)
	}
}
