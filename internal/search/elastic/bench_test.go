package elastic_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"productsearch/internal/publish"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
	"productsearch/internal/search/searchtest"
)

// BenchmarkPublish publishes the demo catalog (build/catalog.snapshot)
// into a fresh alias per iteration and reports the bulk throughput.
func BenchmarkPublish(b *testing.B) {
	nodeURL(b)
	s := demoCatalog(b)
	var docs int
	var bulk, total time.Duration
	for b.Loop() {
		alias := uniqueAlias(b, "bench-publish")
		rep, err := publish.Publish(context.Background(), s, publish.DefaultOptions(connection(b), alias))
		if err != nil {
			b.Fatal(err)
		}
		docs += rep.Indexed
		bulk += rep.BulkDuration
		total += rep.Duration
	}
	b.ReportMetric(float64(docs)/bulk.Seconds(), "docs/s")
	b.ReportMetric(float64(docs)/total.Seconds(), "published-docs/s")
}

// BenchmarkSearch runs the query mix of the embedded engine's benchmark on
// the demo catalog through both engines and reports the latency
// percentiles of single queries, for comparison side by side.
func BenchmarkSearch(b *testing.B) {
	nodeURL(b)
	s := demoCatalog(b)
	reqs := make([]search.Request, 0, len(searchtest.BenchQueries()))
	for _, q := range searchtest.BenchQueries() {
		reqs = append(reqs, searchtest.MustParse(b, q))
	}
	mem, err := memory.New(s, memory.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	alias := uniqueAlias(b, "bench-search")
	publishSnapshot(b, alias, s)
	es := newEngine(b, alias, search.DefaultMaxCandidates)
	engines := []struct {
		name string
		e    search.Engine
	}{{"memory", mem}, {"elastic", es}}
	for _, eng := range engines {
		b.Run(eng.name, func(b *testing.B) {
			ctx := context.Background()
			// One pass first: caches warm, as in steady service.
			for _, req := range reqs {
				if _, err := eng.e.Search(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			var durations []time.Duration
			i := 0
			for b.Loop() {
				start := time.Now()
				if _, err := eng.e.Search(ctx, reqs[i%len(reqs)]); err != nil {
					b.Fatal(err)
				}
				durations = append(durations, time.Since(start))
				i++
			}
			slices.Sort(durations)
			pct := func(p float64) float64 { return float64(durations[int(p*float64(len(durations)-1))].Nanoseconds()) }
			b.ReportMetric(pct(0.50), "p50-ns")
			b.ReportMetric(pct(0.99), "p99-ns")
		})
	}
}

// BenchmarkQuery runs each query of the mix on its own through the
// Elasticsearch engine.
func BenchmarkQuery(b *testing.B) {
	nodeURL(b)
	s := demoCatalog(b)
	alias := uniqueAlias(b, "bench-query")
	publishSnapshot(b, alias, s)
	es := newEngine(b, alias, search.DefaultMaxCandidates)
	ctx := context.Background()
	for i, q := range searchtest.BenchQueries() {
		req := searchtest.MustParse(b, q)
		b.Run(fmt.Sprintf("%02d", i), func(b *testing.B) {
			for b.Loop() {
				if _, err := es.Search(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
