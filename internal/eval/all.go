package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"productsearch/internal/catalog"
	"productsearch/internal/match"
)

// Benchmarks are the pair benchmarks All runs, relative to the dataset
// directory: the test splits only.
var pairBenchmarks = []string{
	"entity-matching/abt-buy/test.txt",
	"entity-matching/walmart-amazon/test.txt",
	"entity-matching/amazon-google/test.txt",
	"entity-matching/wdc-computers/test.txt",
	"entity-matching/wdc-cameras/test.txt",
}

// clusterBenchmarks are the clusters files All runs, relative to the
// dataset directory, each scored with colour variants grouped together
// (the files put a model's colours in one cluster).
var clusterBenchmarks = []string{
	"clustering/pricerunner-dev.csv",
}

const phoneSpecsFile = "phone-specs/smartphones.csv"

// Summary is one line of the All table.
type Summary struct {
	Evaluation string  `json:"evaluation"`
	N          int     `json:"n"`
	Precision  float64 `json:"precision"`
	Recall     float64 `json:"recall"`
	F1         float64 `json:"f1,omitempty"`
	Invented   *int    `json:"invented,omitempty"`
}

// ErrNoDatasets is returned by All when the dataset directory is absent.
var ErrNoDatasets = errors.New("dataset directory not found")

// All runs every evaluation whose data is under dir and prints one table:
// the pair benchmarks' test splits, the clusters files, and the phone-specs
// extraction; with
// demoDir set, also the demo feed set written there by "indexer demo".
func All(dir string, o Output) error {
	return AllWithDemo(context.Background(), dir, "", o)
}

// AllWithDemo is All with the demo feed set in demoDir ("" for none).
func AllWithDemo(ctx context.Context, dir, demoDir string, o Output) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s (the evaluation data lives outside the repository)", ErrNoDatasets, dir)
	}
	var rows []Summary
	var skipped []string
	for _, rel := range pairBenchmarks {
		pairs, found, err := readDataset(filepath.Join(dir, rel), ReadPairs)
		if err != nil {
			return err
		}
		if !found {
			skipped = append(skipped, rel)
			continue
		}
		r := Pairs(pairs, match.Options{})
		rows = append(rows, Summary{Evaluation: "pairs " + rel, N: r.Pairs, Precision: r.Precision, Recall: r.Recall, F1: r.F1})
	}
	for _, rel := range clusterBenchmarks {
		offers, found, err := readDataset(filepath.Join(dir, rel), ReadClusters)
		if err != nil {
			return err
		}
		if !found {
			skipped = append(skipped, rel)
			continue
		}
		r := Clusters(offers, match.Options{IgnoreColour: true})
		rows = append(rows, Summary{Evaluation: "clusters " + rel + " (colours together)", N: r.Offers, Precision: r.Precision,
			Recall: r.Recall, F1: r.F1})
		for _, c := range r.Categories {
			rows = append(rows, Summary{Evaluation: "  " + c.Category, N: c.Offers, Precision: c.Precision, Recall: c.Recall, F1: c.F1})
		}
	}
	phones, found, err := readDataset(filepath.Join(dir, phoneSpecsFile), readPhoneSpecsFile)
	if err != nil {
		return err
	}
	if !found {
		skipped = append(skipped, phoneSpecsFile)
	} else {
		cl := Clusters(phones.offers, match.Options{IgnoreColour: true})
		rows = append(rows, Summary{Evaluation: "clusters " + phoneSpecsFile + " (a listing per phone and configuration)",
			N: cl.Offers, Precision: cl.Precision, Recall: cl.Recall, F1: cl.F1})
		r := Extract(phones.cases)
		for _, name := range []string{catalog.MemoryGB, catalog.StorageGB} {
			s := r.Attributes[name]
			inv := s.Invented
			rows = append(rows, Summary{Evaluation: "extract " + phoneSpecsFile + " " + name, N: s.Stated,
				Precision: s.Precision, Recall: s.Recall, Invented: &inv})
		}
	}
	if demoDir != "" {
		if _, err := os.Stat(filepath.Join(demoDir, "truth.jsonl")); err != nil {
			skipped = append(skipped, filepath.Join(demoDir, "truth.jsonl"))
		} else {
			d, err := ReadDemo(ctx, demoDir)
			if err != nil {
				return err
			}
			cl, cs, ex := Clusters(d.Offers, match.Options{}), Classify(d.Classify), Extract(d.Extract)
			rows = append(rows, Summary{Evaluation: "clusters demo", N: cl.Offers, Precision: cl.Precision, Recall: cl.Recall, F1: cl.F1})
			// Phones, TVs and cameras on their titles alone, as the
			// clustering datasets give a site's offers.
			site := Clusters(d.SiteOffers(), match.Options{IgnoreColour: true})
			rows = append(rows, Summary{Evaluation: "clusters demo as a site lists it (titles only, colours together)",
				N: site.Offers, Precision: site.Precision, Recall: site.Recall, F1: site.F1})
			for _, c := range site.Categories {
				rows = append(rows, Summary{Evaluation: "  " + c.Category, N: c.Offers, Precision: c.Precision, Recall: c.Recall, F1: c.F1})
			}
			rows = append(rows,
				Summary{Evaluation: "classify demo category (accuracy)", N: cs.Titles, Precision: cs.Accuracy, Recall: cs.Accuracy, F1: cs.Accuracy},
				Summary{Evaluation: "classify demo product type (accuracy)", N: cs.TypeJudged, Precision: cs.TypeAccuracy,
					Recall: cs.TypeAccuracy, F1: cs.TypeAccuracy})
			var st, rd, ok, inv int
			for _, a := range ex.Attributes {
				st, rd, ok, inv = st+a.Stated, rd+a.Read, ok+a.Correct, inv+a.Invented
			}
			p, r, _ := prf(ok, rd-ok, st-ok)
			rows = append(rows, Summary{Evaluation: "extract demo (all attributes)", N: st, Precision: p, Recall: r, Invented: &inv})
		}
	}
	if o.JSON {
		return o.json(struct {
			Dir         string    `json:"dir"`
			Evaluations []Summary `json:"evaluations"`
			Skipped     []string  `json:"skipped"`
		}{dir, rows, slices.Clip(append([]string{}, skipped...))})
	}
	tw := tabwriter.NewWriter(o.W, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "evaluation\tn\tprecision\trecall\tF1\tinvented")
	for _, r := range rows {
		f1, inv := "-", "-"
		if r.Invented == nil {
			f1 = fmt.Sprintf("%.4f", r.F1)
		} else {
			inv = fmt.Sprint(*r.Invented)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%s\t%s\n", r.Evaluation, r.N, r.Precision, r.Recall, f1, inv)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range skipped {
		fmt.Fprintf(o.W, "skipped %s: not found under %s\n", s, dir)
	}
	return nil
}

// readDataset reads the file at path with read; found is false when there
// is no such file (a dataset not present is skipped, not an error).
func readDataset[T any](path string, read func(io.Reader) (T, error)) (data T, found bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return data, false, nil
	}
	if err != nil {
		return data, false, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	if data, err = read(f); err != nil {
		return data, true, fmt.Errorf("%s: %w", path, err)
	}
	return data, true, nil
}
