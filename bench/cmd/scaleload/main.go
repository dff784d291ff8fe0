// Command scaleload measures a running API server with the query mix of a
// demo catalog: p50 and p99 per query class, one search at a time, then
// lite searches from closed-loop clients for the request rate. It prints
// one JSON object; scripts/bench-scale.sh runs it against catalogs of
// several scales with the mix of the 1x catalog, so every scale answers
// the same queries.
//
//	scaleload -mix build/bench/scale/catalog-x1.snapshot -base http://127.0.0.1:8080 -key KEY [-time 10s] [-lite-time 10s] [-workers 16] [-lite-only]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"time"

	"productsearch/bench"
	"productsearch/internal/catalog"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "scaleload:", err)
		os.Exit(1)
	}
}

// classStats is one query class's latency in milliseconds.
type classStats struct {
	Queries int     `json:"queries"`
	P50     float64 `json:"p50_ms"`
	P99     float64 `json:"p99_ms"`
}

// report is the printed result.
type report struct {
	Classes  map[string]classStats `json:"classes"`
	Searches int                   `json:"searches"` // timed, sent one at a time
	Requests int64                 `json:"requests"` // every request sent, warm-up included
	LiteRate float64               `json:"lite_per_s"`
	Failed   int64                 `json:"failed"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("scaleload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mixPath := fs.String("mix", "", "the catalog `snapshot` the query mix is drawn from")
	base := fs.String("base", "http://127.0.0.1:8080", "the server's base `URL`")
	key := fs.String("key", "", "API `key`")
	minTime := fs.Duration("time", 10*time.Second, "minimum `duration` of the one-at-a-time passes")
	liteTime := fs.Duration("lite-time", 10*time.Second, "`duration` of the lite request-rate run")
	workers := fs.Int("workers", 16, "closed-loop `clients` of the request-rate run")
	liteOnly := fs.Bool("lite-only", false, "only the request-rate run (as during a reload), no per-class passes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *mixPath == "" {
		return errors.New("-mix is required")
	}
	snap, err := catalog.ReadSnapshot(*mixPath)
	if err != nil {
		return err
	}
	mix := bench.Mix(snap)
	snap = nil
	tr := &http.Transport{MaxIdleConnsPerHost: *workers + 1}
	h := &bench.HTTPSearcher{Base: *base, Key: *key, Client: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
	rep := report{Classes: map[string]classStats{}}
	if !*liteOnly {
		if err := measureClasses(ctx, h, mix, *minTime, &rep); err != nil {
			return err
		}
	}
	t := h.Saturate(ctx, mix, *workers, *liteTime)
	rep.LiteRate, rep.Failed = t.Rate(), t.Failed
	rep.Requests = int64(len(mix)+rep.Searches) + t.Requests + t.Failed
	return json.NewEncoder(stdout).Encode(rep)
}

// measureClasses sends the mix one search at a time, for at least minTime,
// and records p50 and p99 per query class in rep.
func measureClasses(ctx context.Context, h *bench.HTTPSearcher, mix []bench.Query, minTime time.Duration, rep *report) error {
	samples, err := bench.Measure(ctx, h, mix, bench.Budget{MinPasses: 2, MaxPasses: 50, MinTime: minTime})
	if err != nil {
		return err
	}
	rep.Searches = len(samples)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for _, class := range bench.Classes() {
		st := bench.Summarize(samples, func(s bench.Sample) bool { return mix[s.Query].Class == class })
		n := 0
		for _, q := range mix {
			if q.Class == class {
				n++
			}
		}
		rep.Classes[class] = classStats{Queries: n, P50: ms(st.P50), P99: ms(st.P99)}
	}
	return nil
}
