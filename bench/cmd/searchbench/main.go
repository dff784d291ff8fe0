// Command searchbench compares the embedded search engine with Bleve and
// SQLite FTS5 on the demo catalog and checks how it scales to a 10x
// catalog; scripts/bench-search.sh runs it (make bench-search).
//
//	searchbench -catalog build/bench/search/catalog-x1.snapshot [-catalog10 ...] [-runs 3] [-engines memory,bleve,sqlite] [-cpuprofile file]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"productsearch/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "searchbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := bench.DefaultConfig()
	fs := flag.NewFlagSet("searchbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Catalog, "catalog", "", "the demo catalog `snapshot`")
	fs.StringVar(&cfg.Catalog10, "catalog10", "", "a 10x demo catalog `snapshot` for the scaling check (optional)")
	fs.IntVar(&cfg.Runs, "runs", cfg.Runs, "measurement `runs` per engine; the best is reported with the spread")
	fs.DurationVar(&cfg.Budget.MinTime, "time", cfg.Budget.MinTime, "minimum `duration` of a run of the memory engine")
	fs.DurationVar(&cfg.PeerBudget.MinTime, "peer-time", cfg.PeerBudget.MinTime, "minimum `duration` of a run of a peer")
	engines := fs.String("engines", strings.Join(bench.Engines(), ","), "comma-separated `engines` to compare, memory first")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the memory engine over the mix to `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.Catalog == "" {
		return fmt.Errorf("-catalog is required, e.g. -catalog build/bench/search/catalog-x1.snapshot")
	}
	cfg.Engines = strings.Split(*engines, ",")
	start := time.Now()
	if err := bench.Report(ctx, stdout, cfg); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\ntotal time %s\n", time.Since(start).Round(time.Second))
	return nil
}
