package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"productsearch/internal/eval"
	"productsearch/internal/match"
)

const evalUsage = `usage: indexer eval <kind> [flags] FILE

kinds:
  pairs FILE        labelled candidate pairs (Ditto / ER-Magellan format): precision, recall, F1
  clusters FILE     offers with their true cluster (CSV): pairwise precision, recall, F1 of grouping,
                    per category, and the ten largest wrong merges and splits by pairs affected
  extract FILE      titles with the attributes they state (CSV): per-attribute precision, recall, invented
  phonespecs FILE   the phone-specs smartphones.csv, scored as an extract evaluation
  classify FILE     titles with their expected category (CSV): accuracy and top confusions
  demo DIR          a demo feed set with its truth.jsonl ("indexer demo"): clusters, classify and extract
  all [--dir DIR] [--demo DIR]
                    every evaluation whose data is under DIR (default ../shared/datasets), and the
                    demo feed set in the --demo directory when it holds one

flags (after the kind):
  --json            print one JSON object instead of a table
  --show N          also print up to N wrong decisions (pairs, clusters, extract, classify)
  --explain         pairs: the decision trace (each rule applied, what it read, its outcome) of every
                    wrong pair, or of the first N with --show; clusters, demo: the traces of pairs
                    behind the wrong merges and splits listed (10 of each, or N with --show), and
                    the missed pairs counted by what split them (one retailer, the rule that
                    refused them, the blocking that never compared them, grouping);
                    with --json, in "explained" (pairs) or "explained_merges", "explained_splits"
                    and "missed_by_class"
  --ignore-colour   clusters: group colour variants together
`

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, evalUsage)
		return errors.New("eval: no kind given")
	}
	kind := args[0]
	if kind == "-h" || kind == "-help" || kind == "--help" || kind == "help" {
		fmt.Fprint(stdout, evalUsage)
		return nil
	}
	fs := flag.NewFlagSet("indexer eval "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage) }
	asJSON := fs.Bool("json", false, "print one JSON object")
	show := fs.Int("show", 0, "print up to `N` wrong decisions")
	ignoreColour := fs.Bool("ignore-colour", false, "group colour variants together (clusters)")
	explain := fs.Bool("explain", false, "print the decision trace of wrong pairs, merges and splits (pairs, clusters, demo)")
	dir := fs.String("dir", "../shared/datasets", "dataset `directory` (all)")
	demoDir := fs.String("demo", "", "demo feed set `directory` (all)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	out := eval.Output{W: stdout, JSON: *asJSON, Show: *show, Explain: *explain}
	if *explain && kind != "pairs" && kind != "clusters" && kind != "demo" {
		return fmt.Errorf("eval %s: --explain applies to pairs, clusters and demo", kind)
	}
	if kind == "all" {
		if fs.NArg() > 0 {
			return fmt.Errorf("eval all takes no file, got %q", fs.Args())
		}
		return eval.AllWithDemo(ctx, *dir, *demoDir, out)
	}
	if fs.NArg() != 1 {
		fmt.Fprint(stderr, evalUsage)
		return fmt.Errorf("eval %s needs exactly one FILE, got %d arguments", kind, fs.NArg())
	}
	file := fs.Arg(0)
	if kind == "demo" {
		d, err := eval.ReadDemo(ctx, file)
		if err != nil {
			return fmt.Errorf("eval demo: %w", err)
		}
		return out.Demo(file, d, match.Options{IgnoreColour: *ignoreColour})
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("eval %s: %w", kind, err)
	}
	defer f.Close()
	switch kind {
	case "pairs":
		pairs, err := eval.ReadPairs(f)
		if err != nil {
			return fmt.Errorf("eval pairs %s: %w", file, err)
		}
		return out.Pairs(file, eval.Pairs(pairs, match.Options{}))
	case "clusters":
		offers, err := eval.ReadClusters(f)
		if err != nil {
			return fmt.Errorf("eval clusters %s: %w", file, err)
		}
		return out.Clusters(file, eval.Clusters(offers, match.Options{IgnoreColour: *ignoreColour}))
	case "extract":
		cases, err := eval.ReadExtract(f)
		if err != nil {
			return fmt.Errorf("eval extract %s: %w", file, err)
		}
		return out.Extract(file, eval.Extract(cases))
	case "phonespecs":
		cases, err := eval.ReadPhoneSpecs(f)
		if err != nil {
			return fmt.Errorf("eval phonespecs %s: %w", file, err)
		}
		return out.Extract(file, eval.Extract(cases))
	case "classify":
		cases, err := eval.ReadClassify(f)
		if err != nil {
			return fmt.Errorf("eval classify %s: %w", file, err)
		}
		return out.Classify(file, eval.Classify(cases))
	}
	fmt.Fprint(stderr, evalUsage)
	return fmt.Errorf("eval: unknown kind %q", kind)
}
