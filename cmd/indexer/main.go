// Command indexer turns retailer feeds into a catalog snapshot and writes the
// demo feed set.
//
//	indexer sync --config indexer/retailers.yaml --out build/catalog.snapshot [--force]
//	indexer publish --finish --partitions N --run R
//	indexer index --snapshot build/catalog.snapshot
//	indexer demo --out build/demo [--scale N] [--seed N]
//	indexer train-matcher [--dir ../shared/datasets] [--out internal/match/scorer.json]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/term"

	"productsearch/internal/demo"
	"productsearch/internal/ingest"
	"productsearch/internal/memlimit"
	"productsearch/internal/publish"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "indexer:", err)
		}
		os.Exit(2)
	}
}

const usage = `usage: indexer <command> [flags]

commands:
  sync   read the retailer feeds and publish a catalog snapshot with its index file
  index  write the index file of an existing snapshot (the API maps it)
  publish SNAPSHOT
         publish a snapshot already written to Elasticsearch (as sync --publish does)
  publish --finish
         move the alias to the index of a partitioned run once every partition is done
  demo   write the demo feed set (7 fictional retailers) with its ground truth
  eval   measure matching, extraction and classification on labelled data
  train-matcher
         fit the matcher's learned scorer on the entity-matching train splits

Run "indexer <command> -h" for the flags of a command.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "sync":
		return runSync(ctx, args[1:], stdout, stderr)
	case "publish":
		return runPublish(ctx, args[1:], stdout, stderr)
	case "index":
		return runIndex(args[1:], stdout, stderr)
	case "demo":
		return runDemo(args[1:], stdout, stderr)
	case "eval":
		return runEval(ctx, args[1:], stdout, stderr)
	case "train-matcher":
		return runTrainMatcher(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}

func runSync(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("indexer sync", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "indexer/retailers.yaml", "retailer configuration `file`")
	out := fs.String("out", "build/catalog.snapshot", "snapshot `path` to publish; the previous snapshot is read from here")
	force := fs.Bool("force", false, "publish even if the catalog shrinks by more than max_shrink")
	quiet := fs.Bool("quiet", false, "print no progress")
	memLimit := fs.Int("memory-limit", 0, "soft memory limit in `MiB`; 0 takes 90% of the container's memory limit, none outside one (GOMEMLIMIT overrides)")
	statusFile := fs.String("status-file", "", "also write a short JSON account of the sync to `path` (in Kubernetes: /dev/termination-log)")
	incremental := fs.Bool("incremental", false, "keep unchanged offers with their products (state beside --out) and update the live index in place with the products that changed")
	pub := addPublishFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	// The heap may otherwise grow to twice the live data before a
	// collection; a soft limit keeps a large sync inside its pod.
	ml := memlimit.Apply(*memLimit)
	if !*quiet {
		fmt.Fprintf(stderr, "sync: soft memory limit %s\n", ml)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("sync takes no arguments, got %q", fs.Args())
	}
	cfg, err := ingest.LoadConfig(*config)
	if err != nil {
		return err
	}
	var progress ingest.Progress
	if !*quiet {
		progress = ingest.NewProgress(stderr, isTerminal(stderr))
	}
	pub.incremental = *incremental
	rep, err := ingest.Sync(ctx, ingest.Options{Config: cfg, Out: *out, Force: *force, Progress: progress, Incremental: *incremental})
	if rep != nil {
		rep.WriteSummary(stdout)
		fmt.Fprintf(stdout, "report: %s\n", ingest.ReportPath(*out))
	}
	if err == nil {
		err = writeIndex(*out, stdout)
	}
	var prep *publish.Report
	if err == nil {
		prep, err = pub.run(ctx, *out, cfg.Shrink(), *force, stdout, stderr)
	}
	if *statusFile != "" {
		if werr := os.WriteFile(*statusFile, syncSummary(rep, prep, err).Encode(), 0o644); werr != nil {
			fmt.Fprintf(stderr, "indexer: status file: %v\n", werr)
		}
	}
	return err
}

func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("indexer demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "build/demo", "output `directory` for feeds, truth.jsonl and retailers.yaml")
	scale := fs.Int("scale", 1, "`N` times the distinct products of the standard demo set (new lines, same proportions)")
	seed := fs.Int64("seed", 1, "random seed; the same seed writes the same bytes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *scale < 1 || *scale > 100 {
		return fmt.Errorf("--scale must be between 1 and 100, got %d", *scale)
	}
	sum, err := demo.Generate(*out, demo.Options{Seed: *seed, Scale: *scale})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "demo feeds in %s: %d products, %d offers, %d rows in %s\n",
		*out, sum.Products, sum.Offers, sum.Rows, sum.Duration.Round(time.Millisecond))
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
