package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"productsearch/internal/match"
)

// Output prints evaluation results as tables or, with JSON, as one JSON
// object per command.
type Output struct {
	W    io.Writer
	JSON bool
	// Show is how many wrong decisions to list after a table (0: none).
	Show int
	// Explain adds the pair decision's trace to the wrong decisions of
	// pairs and clusters evaluations: every wrong pair, or with Show the
	// first Show; the wrong merges and splits, Show of each (ten without).
	Explain bool
}

// defaultExplained is how many wrong merges and splits Explain lists when
// Show does not say.
const defaultExplained = 10

func (o Output) json(v any) error {
	enc := json.NewEncoder(o.W)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// Pairs prints a pair evaluation.
func (o Output) Pairs(name string, r PairResult) error {
	var explained []PairError
	if o.Explain {
		explained = explainPairs(r)
	}
	if o.JSON {
		return o.json(struct {
			File string `json:"file"`
			PairResult
			Explained []PairError `json:"explained,omitempty"`
		}{name, r, explained})
	}
	tw := tabwriter.NewWriter(o.W, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "pairs\t%s\n", name)
	fmt.Fprintf(tw, "pairs judged\t%d (%d matches)\n", r.Pairs, r.Matches)
	fmt.Fprintf(tw, "decided same\t%d right, %d wrong\n", r.TruePositives, r.FalsePositives)
	fmt.Fprintf(tw, "matches missed\t%d\n", r.FalseNegatives)
	fmt.Fprintf(tw, "precision\t%.4f\n", r.Precision)
	fmt.Fprintf(tw, "recall\t%.4f\n", r.Recall)
	fmt.Fprintf(tw, "F1\t%.4f\n", r.F1)
	if err := tw.Flush(); err != nil {
		return err
	}
	if o.Show == 0 && !o.Explain {
		return nil
	}
	fmt.Fprintln(o.W, "\ndecisions by evidence (right / wrong):")
	for _, k := range slices.Sorted(maps.Keys(r.Reasons)) {
		fmt.Fprintf(o.W, "  %-22s %5d / %d\n", k, r.Reasons[k][0], r.Reasons[k][1])
	}
	fmt.Fprintln(o.W, "\nwrong decisions:")
	errs := r.Errors
	if o.Explain {
		errs = explained
	}
	for i, e := range errs {
		if i == o.Show && o.Show > 0 {
			break
		}
		truth := "different"
		if e.Match {
			truth = "same"
		}
		fmt.Fprintf(o.W, "line %d: truth %s, decided %s (%s, score %.2f)\n  A: %s\n  B: %s\n",
			e.Line, truth, sameWord(e.Decision), e.Decision.Reason, e.Decision.Score, describe(e.A), describe(e.B))
		printTrace(o.W, "    ", e.Decision)
	}
	return nil
}

func sameWord(d match.Decision) string {
	if d.Same {
		return "same"
	}
	return "different"
}

func describe(it match.Item) string {
	var b strings.Builder
	b.WriteString(it.Title)
	if it.Brand != "" {
		fmt.Fprintf(&b, " [brand %s]", it.Brand)
	}
	if it.ModelNumber != "" {
		fmt.Fprintf(&b, " [model %s]", it.ModelNumber)
	}
	if it.MPN != "" {
		fmt.Fprintf(&b, " [mpn %s]", it.MPN)
	}
	if it.Category != "" {
		acc := ""
		if it.Accessory {
			acc = " accessory"
		}
		fmt.Fprintf(&b, " [%s%s]", it.Category, acc)
	}
	if len(it.Specs) > 0 {
		fmt.Fprintf(&b, " %v", it.Specs)
	}
	return b.String()
}

// Clusters prints a clusters evaluation.
func (o Output) Clusters(name string, r ClusterResult) error {
	show := o.Show
	if show == 0 {
		show = defaultExplained
	}
	merged, split := r.Merged[:min(show, len(r.Merged))], r.Split[:min(show, len(r.Split))]
	var whyMerged, whySplit [][]Explanation
	var lost []Loss
	if o.Explain {
		m := match.NewMatcher(r.items, r.opt)
		whyMerged, whySplit = explainGroups(r, m, merged, true), explainGroups(r, m, split, false)
		lost = losses(r, m)
	}
	if o.JSON {
		return o.json(struct {
			File string `json:"file"`
			ClusterResult
			ExplainedMerges [][]Explanation `json:"explained_merges,omitempty"`
			ExplainedSplits [][]Explanation `json:"explained_splits,omitempty"`
			Missed          []Loss          `json:"missed_by_class,omitempty"`
		}{name, r, whyMerged, whySplit, lost})
	}
	tw := tabwriter.NewWriter(o.W, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "clusters\t%s\n", name)
	fmt.Fprintf(tw, "offers\t%d\n", r.Offers)
	fmt.Fprintf(tw, "clusters\t%d true, %d predicted\n", r.TrueClusters, r.PredictedClusters)
	fmt.Fprintf(tw, "pairs\t%d true, %d predicted, %d correct\n", r.TruePairs, r.PredictedPairs, r.CorrectPairs)
	fmt.Fprintf(tw, "pairwise precision\t%.4f\n", r.Precision)
	fmt.Fprintf(tw, "pairwise recall\t%.4f\n", r.Recall)
	fmt.Fprintf(tw, "pairwise F1\t%.4f\n", r.F1)
	if len(r.Categories) > 0 {
		fmt.Fprintf(tw, "\ncategory\toffers\tprecision\trecall\tF1\n")
		for _, c := range r.Categories {
			fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.4f\n", c.Category, c.Offers, c.Precision, c.Recall, c.F1)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	o.printLargest("largest wrong merges", "wrong pairs", r.Merged, r.MergedPairs, true)
	o.printLargest("largest splits", "missed pairs", r.Split, r.SplitPairs, false)
	if o.Show == 0 && !o.Explain {
		return nil
	}
	if o.Explain {
		printLosses(o.W, lost)
	}
	o.printGroups("groups that merge different clusters", len(r.Merged), merged, whyMerged)
	o.printGroups("clusters split over several groups", len(r.Split), split, whySplit)
	return nil
}

// largestListed is how many wrong merges and splits a clusters evaluation
// summarises, one line each.
const largestListed = 10

// printLargest summarises the largest wrong merges or splits, one line
// each: the pairs it gets wrong, its offers, the clusters or groups it
// spans, and a title of each of the first two clusters (a merge) or groups
// (a split).
func (o Output) printLargest(title, unit string, groups [][]ClusterOffer, pairs []int, merge bool) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(o.W, "\n%s (%d in all; %s, offers, clusters, groups, titles):\n", title, len(groups), unit)
	for k, g := range groups[:min(largestListed, len(groups))] {
		clusters, groupsOf := map[string]bool{}, map[int]bool{}
		var titles []string
		for _, of := range g {
			if seen := (merge && clusters[of.Cluster]) || (!merge && groupsOf[of.Group]); !seen && len(titles) < 2 {
				titles = append(titles, of.Title)
			}
			clusters[of.Cluster], groupsOf[of.Group] = true, true
		}
		fmt.Fprintf(o.W, "  %5d  %3d  %2d  %2d  %s\n", pairs[k], len(g), len(clusters), len(groupsOf), strings.Join(titles, " | "))
	}
}

// printGroups lists wrong merges or splits, of n in all, with the
// explanations of each when there are any.
func (o Output) printGroups(title string, n int, groups [][]ClusterOffer, why [][]Explanation) {
	fmt.Fprintf(o.W, "\n%s (%d):\n", title, n)
	for i, g := range groups {
		for _, of := range g {
			fmt.Fprintf(o.W, "  group %d  %s  %s  %s  gtin=%s mpn=%s  %s\n", of.Group, of.Cluster, of.Retailer, of.ID, of.GTIN,
				of.MPN, of.Title)
		}
		if why != nil {
			for _, e := range why[i] {
				fmt.Fprintf(o.W, "  pair %s ~ %s: decided %s (%s, score %.2f)\n", e.A.ID, e.B.ID, sameWord(e.Decision),
					e.Decision.Reason, e.Decision.Score)
				printTrace(o.W, "    ", e.Decision)
			}
		}
		fmt.Fprintln(o.W)
	}
}

// Extract prints an extraction evaluation.
func (o Output) Extract(name string, r ExtractResult) error {
	if o.JSON {
		return o.json(struct {
			File string `json:"file"`
			ExtractResult
		}{name, r})
	}
	fmt.Fprintf(o.W, "extract %s: %d titles\n", name, r.Titles)
	tw := tabwriter.NewWriter(o.W, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "attribute\tstated\tread\tcorrect\twrong\tinvented\tprecision\trecall\t")
	for _, a := range r.attributeOrder() {
		s := r.Attributes[a]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.4f\t%.4f\t\n", a, s.Stated, s.Read, s.Correct, s.Wrong, s.Invented,
			s.Precision, s.Recall)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if o.Show > 0 {
		fmt.Fprintln(o.W, "\nwrong, invented or missed values:")
		for i, e := range r.Errors {
			if i == o.Show {
				break
			}
			fmt.Fprintf(o.W, "line %d [%s] %s: got %s, want %s: %s\n", e.Line, label(e.Category), e.Attribute,
				value(e.Got), value(e.Want), e.Title)
		}
	}
	return nil
}

func value(v float64) string {
	if v == 0 {
		return "none"
	}
	return fmt.Sprint(v)
}

// Classify prints a classification evaluation.
func (o Output) Classify(name string, r ClassifyResult) error {
	if o.JSON {
		return o.json(struct {
			File string `json:"file"`
			ClassifyResult
		}{name, r})
	}
	tw := tabwriter.NewWriter(o.W, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "classify\t%s\n", name)
	fmt.Fprintf(tw, "titles\t%d\n", r.Titles)
	fmt.Fprintf(tw, "category accuracy\t%.4f (%d correct)\n", r.Accuracy, r.Correct)
	if r.TypeJudged > 0 {
		fmt.Fprintf(tw, "product type accuracy\t%.4f (%d of %d)\n", r.TypeAccuracy, r.TypeCorrect, r.TypeJudged)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Confusions) > 0 {
		fmt.Fprintln(o.W, "\ntop confusions (expected -> got):")
		for _, c := range r.Confusions {
			fmt.Fprintf(o.W, "  %5d  %s -> %s\n", c.Count, c.Want, c.Got)
		}
	}
	if o.Show > 0 {
		fmt.Fprintln(o.W, "\nwrong:")
		for i, e := range r.Errors {
			if i == o.Show {
				break
			}
			fmt.Fprintf(o.W, "line %d: %s/%s, got %s/%s: %s\n", e.Line, e.Want, e.WantT, e.Got, e.GotT, e.Title)
		}
	}
	return nil
}

// Demo prints the three evaluations of a demo feed set.
func (o Output) Demo(name string, d *Demo, opt match.Options) error {
	cl, cs, ex := Clusters(d.Offers, opt), Classify(d.Classify), Extract(d.Extract)
	if o.JSON {
		return o.json(struct {
			Dir      string         `json:"dir"`
			Clusters ClusterResult  `json:"clusters"`
			Classify ClassifyResult `json:"classify"`
			Extract  ExtractResult  `json:"extract"`
		}{name, cl, cs, ex})
	}
	if err := o.Clusters(name, cl); err != nil {
		return err
	}
	fmt.Fprintln(o.W)
	if err := o.Classify(name, cs); err != nil {
		return err
	}
	fmt.Fprintln(o.W)
	return o.Extract(name, ex)
}
