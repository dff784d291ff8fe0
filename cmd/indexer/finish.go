package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"productsearch/internal/publish"
)

// runPublish publishes a snapshot already written, or finishes a
// partitioned run:
//
//	indexer publish [--es-url URL] [--es-index ALIAS] [--es-keep N] [--es-shards N] [--es-replicas N] [--partition i/N --run R] SNAPSHOT
//	indexer publish --finish --partitions N --run R [--es-url URL] [--es-index ALIAS] [--es-keep N] [--es-replicas N] [--force] [--max-shrink F]
//
// The first loads the snapshot into a new index (or a partition of it into
// the run's index) as `indexer sync --publish elasticsearch` does after
// writing it: to a new cluster, or again after a publish failed, without
// reading the feeds. The second needs every partition done and agreeing on
// the catalog; then the run's index is verified, its replicas raised and
// the alias moved to it. When a partition is missing it fails and the
// alias stays on the previous index.
func runPublish(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("indexer publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	finish := fs.Bool("finish", false, "move the alias to the index of a partitioned run once every partition is done (no snapshot argument)")
	force := fs.Bool("force", false, "publish even if the catalog shrinks by more than --max-shrink")
	shrink := fs.Float64("max-shrink", publish.DefaultMaxShrink, "refuse a catalog with fewer than (1 - `fraction`) times the published products")
	statusFile := fs.String("status-file", "", "also write a short JSON account to `path` (in Kubernetes: /dev/termination-log)")
	pf := addPublishFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var rep *publish.Report
	var err error
	if *finish || fs.NArg() != 1 {
		rep, err = finishRun(ctx, pf, *finish, *shrink, *force, fs.NArg(), stdout, stderr)
	} else {
		pf.target = "elasticsearch"
		rep, err = pf.run(ctx, fs.Arg(0), *shrink, *force, stdout, stderr)
	}
	if *statusFile != "" {
		if werr := os.WriteFile(*statusFile, syncSummary(nil, rep, err).Encode(), 0o644); werr != nil {
			fmt.Fprintf(stderr, "indexer: status file: %v\n", werr)
		}
	}
	return err
}

func finishRun(ctx context.Context, pf *publishFlags, finish bool, shrink float64, force bool, nargs int,
	stdout, stderr io.Writer) (*publish.Report, error) {
	switch {
	case finish && nargs > 0:
		return nil, errors.New("publish --finish takes no snapshot: the partitions have published theirs")
	case !finish:
		return nil, errors.New("publish needs one snapshot to publish, or --finish to finish a partitioned run")
	case pf.partition != "":
		return nil, errors.New("publish --finish takes --partitions N, the number of partitions, not --partition")
	case pf.partitions < 1:
		return nil, errors.New("publish --finish needs --partitions N")
	}
	run := cmp.Or(pf.runID, os.Getenv(envRun))
	if run == "" {
		return nil, fmt.Errorf("publish --finish needs --run or $%s", envRun)
	}
	opt, done, err := pf.connect(ctx, stderr)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	defer done()
	opt.MaxShrink, opt.Force = shrink, force
	rep, err := publish.Finish(ctx, run, pf.partitions, opt)
	if rep != nil {
		summarise(stdout, rep)
	}
	if err != nil {
		return rep, fmt.Errorf("finish run %s: %w", run, err)
	}
	return rep, nil
}
