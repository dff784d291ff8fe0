package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"productsearch/internal/match"
)

// ClusterOffer is one offer of a clusters file.
type ClusterOffer struct {
	Line            int
	ID, Cluster     string
	Retailer, Title string
	Brand, GTIN     string
	MPN             string
	ModelNumber     string
	Colour          string
	Category        string // the retailer's category path
	TaxonomyID      string // Google product category
	Description     string
	// Group is the predicted group, in the Merged and Split lists of a
	// ClusterResult.
	Group int
	index int // place among the offers evaluated
}

const clusterColumns = "columns offer_id, retailer, title, truth_cluster and optionally brand, gtin, mpn, price, " +
	"category, model_number, colour, taxonomy, description"

// ReadClusters reads offers labelled with their true cluster.
func ReadClusters(r io.Reader) ([]ClusterOffer, error) {
	t, err := readTable(r, []string{"offer_id", "retailer", "title", "truth_cluster"}, clusterColumns)
	if err != nil {
		return nil, err
	}
	out := make([]ClusterOffer, 0, len(t.rows))
	ids := map[string]int{}
	for i := range t.rows {
		o := ClusterOffer{
			Line: t.line[i], ID: t.get(i, "offer_id"), Cluster: t.get(i, "truth_cluster"),
			Retailer: t.get(i, "retailer"), Title: t.get(i, "title"), Brand: t.get(i, "brand"),
			GTIN: t.get(i, "gtin"), MPN: t.get(i, "mpn"), Category: t.get(i, "category"),
			ModelNumber: t.get(i, "model_number"), Colour: t.get(i, "colour"), TaxonomyID: t.get(i, "taxonomy"),
			Description: t.get(i, "description"),
		}
		switch {
		case o.ID == "":
			return nil, fmt.Errorf("line %d: empty offer_id", o.Line)
		case o.Cluster == "":
			return nil, fmt.Errorf("line %d: empty truth_cluster", o.Line)
		}
		if prev, dup := ids[o.ID]; dup {
			return nil, fmt.Errorf("line %d: offer_id %q already on line %d", o.Line, o.ID, prev)
		}
		ids[o.ID] = o.Line
		out = append(out, o)
	}
	return out, nil
}

// ClusterResult scores a grouping over all pairs of offers.
type ClusterResult struct {
	Offers            int     `json:"offers"`
	TrueClusters      int     `json:"true_clusters"`
	PredictedClusters int     `json:"predicted_clusters"`
	TruePairs         int     `json:"true_pairs"`
	PredictedPairs    int     `json:"predicted_pairs"`
	CorrectPairs      int     `json:"correct_pairs"`
	Precision         float64 `json:"precision"`
	Recall            float64 `json:"recall"`
	F1                float64 `json:"f1"`
	// Categories scores the offers of each category on their own (pairs
	// within the category), ordered by name; empty when no offer states one.
	Categories []CategoryScore `json:"categories,omitempty"`
	// Merged lists predicted groups that join offers of different true
	// clusters, the group joining the most wrong pairs first; Split lists
	// true clusters spread over several groups, the one missing the most
	// pairs first. MergedPairs and SplitPairs give those counts.
	Merged      [][]ClusterOffer `json:"-"`
	Split       [][]ClusterOffer `json:"-"`
	MergedPairs []int            `json:"-"`
	SplitPairs  []int            `json:"-"`

	items []match.Item  // what the matcher read of each offer
	opt   match.Options // the options of the grouping
}

// Clusters groups every offer with match.GroupWith and scores the groups
// against the true clusters, pair by pair.
func Clusters(offers []ClusterOffer, opt match.Options) ClusterResult {
	var titles []string
	for _, o := range offers {
		if o.Brand == "" {
			titles = append(titles, o.Title)
		}
	}
	lines := learnLineBrands(titles)
	items := make([]match.Item, len(offers))
	for i, o := range offers {
		items[i] = item(listing{
			Retailer: o.Retailer, Title: o.Title, Brand: o.Brand, GTIN: o.GTIN, MPN: o.MPN, ModelNumber: o.ModelNumber,
			Colour: o.Colour, CategoryPath: o.Category, TaxonomyID: o.TaxonomyID, Description: o.Description, lines: lines,
		})
	}
	groups := match.GroupWith(items, opt)
	pred := make([]int, len(offers))
	for g, members := range groups {
		for _, i := range members {
			pred[i] = g
		}
	}
	truth := map[string]int{}
	trueOf := make([]int, len(offers))
	for i, o := range offers {
		c, ok := truth[o.Cluster]
		if !ok {
			c = len(truth)
			truth[o.Cluster] = c
		}
		trueOf[i] = c
	}
	res := ClusterResult{Offers: len(offers), TrueClusters: len(truth), PredictedClusters: len(groups), items: items, opt: opt}
	res.PredictedPairs = pairCount(func(yield func(int)) {
		for i := range offers {
			yield(pred[i])
		}
	})
	res.TruePairs = pairCount(func(yield func(int)) {
		for i := range offers {
			yield(trueOf[i])
		}
	})
	res.CorrectPairs = pairCount(func(yield func(int)) {
		for i := range offers {
			yield(pred[i]*len(offers) + trueOf[i])
		}
	})
	fp := res.PredictedPairs - res.CorrectPairs
	fn := res.TruePairs - res.CorrectPairs
	res.Precision, res.Recall, res.F1 = prf(res.CorrectPairs, fp, fn)
	if res.PredictedPairs == 0 && res.TruePairs == 0 {
		res.Precision, res.Recall, res.F1 = 1, 1, 1
	}
	res.Categories = categoryScores(offers, pred, trueOf)
	var merged, split []wrongGroup
	for _, members := range groups {
		if n := wrongPairs(members, trueOf); n > 0 {
			merged = append(merged, wrongGroup{members, n})
		}
	}
	byTrue := make([][]int, len(truth))
	for i := range offers {
		byTrue[trueOf[i]] = append(byTrue[trueOf[i]], i)
	}
	for _, members := range byTrue {
		if n := wrongPairs(members, pred); n > 0 {
			split = append(split, wrongGroup{members, n})
		}
	}
	res.Merged, res.MergedPairs = ranked(offers, merged, pred)
	res.Split, res.SplitPairs = ranked(offers, split, pred)
	return res
}

// CategoryScore is the grouping score of the offers of one category.
type CategoryScore struct {
	Category  string  `json:"category"`
	Offers    int     `json:"offers"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// categoryScores scores each category's offers over the pairs within it.
func categoryScores(offers []ClusterOffer, pred, trueOf []int) []CategoryScore {
	byCat := map[string][]int{}
	for i, o := range offers {
		if o.Category != "" {
			byCat[o.Category] = append(byCat[o.Category], i)
		}
	}
	out := make([]CategoryScore, 0, len(byCat))
	for cat, idx := range byCat {
		key := func(k func(int) int) func(yield func(int)) {
			return func(yield func(int)) {
				for _, i := range idx {
					yield(k(i))
				}
			}
		}
		p := pairCount(key(func(i int) int { return pred[i] }))
		t := pairCount(key(func(i int) int { return trueOf[i] }))
		c := pairCount(key(func(i int) int { return pred[i]*len(offers) + trueOf[i] }))
		s := CategoryScore{Category: cat, Offers: len(idx)}
		s.Precision, s.Recall, s.F1 = prf(c, p-c, t-c)
		if p == 0 && t == 0 {
			s.Precision, s.Recall, s.F1 = 1, 1, 1
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b CategoryScore) int { return strings.Compare(a.Category, b.Category) })
	return out
}

// wrongGroup is a wrong merge or split: its offers and the pairs it gets wrong.
type wrongGroup struct {
	members []int
	pairs   int
}

// wrongPairs counts the pairs of members whose keys differ: for a predicted
// group keyed by true cluster, the wrong merges; for a true cluster keyed by
// predicted group, the missed pairs.
func wrongPairs(members, key []int) int {
	all := len(members) * (len(members) - 1) / 2
	return all - pairCount(func(yield func(int)) {
		for _, i := range members {
			yield(key[i])
		}
	})
}

// ranked orders wrong groups by the pairs they get wrong, most first (ties
// keep their order), and returns their offers and counts.
func ranked(offers []ClusterOffer, gs []wrongGroup, pred []int) ([][]ClusterOffer, []int) {
	slices.SortStableFunc(gs, func(a, b wrongGroup) int { return b.pairs - a.pairs })
	out, n := make([][]ClusterOffer, len(gs)), make([]int, len(gs))
	for k, g := range gs {
		out[k], n[k] = offersAt(offers, g.members, pred), g.pairs
	}
	return out, n
}

// pairCount counts the pairs of equal keys among those seq yields.
func pairCount(seq func(yield func(int))) int {
	counts := map[int]int{}
	seq(func(k int) { counts[k]++ })
	n := 0
	for _, c := range counts {
		n += c * (c - 1) / 2
	}
	return n
}

func offersAt(offers []ClusterOffer, idx, pred []int) []ClusterOffer {
	out := make([]ClusterOffer, len(idx))
	for k, i := range idx {
		out[k] = offers[i]
		out[k].Group, out[k].index = pred[i], i
	}
	return out
}
