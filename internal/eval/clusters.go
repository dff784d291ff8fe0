package eval

import (
	"fmt"
	"io"

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
	// Merged lists predicted groups that join offers of different true
	// clusters; Split lists true clusters spread over several groups.
	Merged [][]ClusterOffer `json:"-"`
	Split  [][]ClusterOffer `json:"-"`

	items []match.Item  // what the matcher read of each offer
	opt   match.Options // the options of the grouping
}

// Clusters groups every offer with match.GroupWith and scores the groups
// against the true clusters, pair by pair.
func Clusters(offers []ClusterOffer, opt match.Options) ClusterResult {
	items := make([]match.Item, len(offers))
	for i, o := range offers {
		items[i] = item(listing{
			Retailer: o.Retailer, Title: o.Title, Brand: o.Brand, GTIN: o.GTIN, MPN: o.MPN, ModelNumber: o.ModelNumber,
			Colour: o.Colour, CategoryPath: o.Category, TaxonomyID: o.TaxonomyID, Description: o.Description,
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
	for _, members := range groups {
		first := trueOf[members[0]]
		for _, i := range members[1:] {
			if trueOf[i] != first {
				res.Merged = append(res.Merged, offersAt(offers, members, pred))
				break
			}
		}
	}
	byTrue := map[int][]int{}
	for i := range offers {
		byTrue[trueOf[i]] = append(byTrue[trueOf[i]], i)
	}
	for c := 0; c < len(truth); c++ {
		members := byTrue[c]
		for _, i := range members[1:] {
			if pred[i] != pred[members[0]] {
				res.Split = append(res.Split, offersAt(offers, members, pred))
				break
			}
		}
	}
	return res
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
