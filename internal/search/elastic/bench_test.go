package elastic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"productsearch/internal/publish"
	"productsearch/internal/search"
	"productsearch/internal/search/elastic"
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

// warmUp is how long BenchmarkSearch searches the node before it measures.
const warmUp = 30 * time.Second

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
	raw, err := elastic.NewClient(connection(b))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	// Passes first, for at least d in all: caches warm and, for the node,
	// its code compiled, as in steady service (a node just started answers
	// its first thousands of searches slower, the more so the larger the
	// request).
	warm := func(b *testing.B, d time.Duration, searches ...func(context.Context, search.Request) error) {
		for start := time.Now(); ; {
			for _, search := range searches {
				for _, req := range reqs {
					if err := search(ctx, req); err != nil {
						b.Fatal(err)
					}
				}
			}
			if time.Since(start) >= d {
				return
			}
		}
	}
	esSearch := func(ctx context.Context, req search.Request) error { _, err := es.Search(ctx, req); return err }
	// The node alone: the equivalent query as one plain search.
	rawOne := func(ctx context.Context, req search.Request) error { return rawSearch(ctx, raw, alias, req) }
	b.Run("memory", func(b *testing.B) {
		warm(b, 0, func(ctx context.Context, req search.Request) error { _, err := mem.Search(ctx, req); return err })
		var durations []time.Duration
		i := 0
		for b.Loop() {
			start := time.Now()
			if _, err := mem.Search(ctx, reqs[i%len(reqs)]); err != nil {
				b.Fatal(err)
			}
			durations = append(durations, time.Since(start))
			i++
		}
		reportLatency(b, "", durations)
	})
	// The engine and the node alone take turns on each query (which goes
	// first alternates), so that both see the same load on the machine.
	b.Run("elastic-vs-raw", func(b *testing.B) {
		warm(b, warmUp, esSearch, rawOne)
		var engine, node []time.Duration
		i := 0
		for b.Loop() {
			req := reqs[i%len(reqs)]
			first, second, d1, d2 := esSearch, rawOne, &engine, &node
			if i%2 == 1 {
				first, second, d1, d2 = rawOne, esSearch, &node, &engine
			}
			for _, run := range []struct {
				search func(context.Context, search.Request) error
				into   *[]time.Duration
			}{{first, d1}, {second, d2}} {
				start := time.Now()
				if err := run.search(ctx, req); err != nil {
					b.Fatal(err)
				}
				*run.into = append(*run.into, time.Since(start))
			}
			i++
		}
		reportLatency(b, "elastic-", engine)
		reportLatency(b, "raw-", node)
	})
}

// reportLatency reports the mean, p50 and p99 of durations as metrics
// named with prefix.
func reportLatency(b *testing.B, prefix string, durations []time.Duration) {
	slices.Sort(durations)
	pct := func(p float64) float64 { return float64(durations[int(p*float64(len(durations)-1))].Nanoseconds()) }
	var sum time.Duration
	for _, d := range durations {
		sum += d
	}
	b.ReportMetric(float64(sum.Nanoseconds())/float64(len(durations)), prefix+"mean-ns")
	b.ReportMetric(pct(0.50), prefix+"p50-ns")
	b.ReportMetric(pct(0.99), prefix+"p99-ns")
}

// rawSearch sends the node the query a client of Elasticsearch alone
// would send for req: the query words matched in the title, the filters
// (category, brand, product type, price range) and the sort, the page of
// lite products from their stored field; constraints are left out.
func rawSearch(ctx context.Context, c *elastic.Client, alias string, req search.Request) error {
	var filter []any
	for field, v := range map[string]string{"category": req.Category, "brand": req.Brand, "product_type": string(req.ProductType)} {
		if v != "" {
			filter = append(filter, map[string]any{"term": map[string]any{field: v}})
		}
	}
	if req.MinPrice != nil || req.MaxPrice != nil {
		r := map[string]any{}
		if req.MinPrice != nil {
			r["gte"] = *req.MinPrice
		}
		if req.MaxPrice != nil {
			r["lte"] = *req.MaxPrice
		}
		filter = append(filter, map[string]any{"range": map[string]any{"price": r}})
	}
	q := map[string]any{"filter": filter}
	if req.Query != "" {
		q["must"] = map[string]any{"match": map[string]any{"title": req.Query}}
	}
	body := map[string]any{"from": req.Offset, "size": req.Limit, "track_total_hits": true, "query": map[string]any{"bool": q},
		"_source": false, "stored_fields": []string{"lite"}}
	switch req.Sort {
	case search.SortPriceAsc:
		body["sort"] = []any{map[string]any{"price": "asc"}, map[string]any{"id": "asc"}}
	case search.SortPriceDesc:
		body["sort"] = []any{map[string]any{"price": "desc"}, map[string]any{"id": "asc"}}
	default:
		body["sort"] = []any{"_score", map[string]any{"browse_rank": "asc"}}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	var ans struct {
		Hits struct {
			Hits []struct {
				Fields struct {
					Lite []string `json:"lite"`
				} `json:"fields"`
			} `json:"hits"`
		} `json:"hits"`
	}
	return c.Do(ctx, http.MethodPost, "/"+alias+"/_search", nil, data, &ans)
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
