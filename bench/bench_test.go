package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/demo"
	"productsearch/internal/ingest"
	"productsearch/internal/search"
)

// catalogEnv names a demo catalog snapshot to use instead of generating
// one (scripts/bench-search.sh sets it).
const catalogEnv = "BENCH_SEARCH_CATALOG"

// demoSnapshot returns the demo catalog: the snapshot named by
// BENCH_SEARCH_CATALOG, or the demo feeds generated and synced into a
// temporary directory (seed 1, scale 1).
func demoSnapshot(tb testing.TB) *catalog.Snapshot {
	tb.Helper()
	if path := os.Getenv(catalogEnv); path != "" {
		s, err := catalog.ReadSnapshot(path)
		if err != nil {
			tb.Fatal(err)
		}
		return s
	}
	if testing.Short() {
		tb.Skip("generates and indexes the demo catalog; skipped in -short mode (or set " + catalogEnv + ")")
	}
	dir := tb.TempDir()
	if _, err := demo.Generate(dir, demo.Options{Seed: 1, Scale: 1}); err != nil {
		tb.Fatal(err)
	}
	cfg, err := ingest.LoadConfig(filepath.Join(dir, demo.ConfigFile))
	if err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(dir, "catalog.snapshot")
	now := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	if _, err := ingest.Sync(context.Background(), ingest.Options{Config: cfg, Out: out, Now: now}); err != nil {
		tb.Fatal(err)
	}
	s, err := catalog.ReadSnapshot(out)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestDemoCatalog checks, on the demo catalog, that the mix is what the
// comparison needs and that the peers answer as our engine does.
func TestDemoCatalog(t *testing.T) {
	s := demoSnapshot(t)
	mix := Mix(s)
	ctx := context.Background()

	t.Run("mix", func(t *testing.T) {
		if len(mix) < 1000 {
			t.Errorf("%d queries, want at least 1,000", len(mix))
		}
		if diff := cmp.Diff(mix, Mix(s)); diff != "" {
			t.Errorf("Mix is not deterministic: mismatch (-want +got):\n%s", diff)
		}
		n := map[string]int{}
		lite := 0
		for _, q := range mix {
			n[q.Class]++
			if q.Req.Lite {
				lite++
			}
		}
		want := map[string]int{ClassBroad: mixBroad, ClassNarrow: mixNarrow, ClassFilters: mixFilters,
			ClassPriceSort: mixPriceSort, ClassConstraints: mixConstraints}
		for c, min := range want {
			if n[c] < min {
				t.Errorf("class %s has %d queries, want at least %d", c, n[c], min)
			}
		}
		if lite == 0 || lite == len(mix) {
			t.Errorf("%d of %d queries are lite, want both kinds", lite, len(mix))
		}
	})

	ours, _, err := Build(EngineMemory, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("work", func(t *testing.T) {
		// The mix must hold queries that judge 2,000 candidates and queries
		// that find nothing but a few products.
		truncated, few, empty := 0, 0, 0
		for _, q := range mix {
			res, err := ours.Search(ctx, q.Req)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			switch n := res.Total + res.UnverifiedTotal; {
			case res.CandidatesTruncated:
				truncated++
			case n == 0:
				empty++
			case n <= 20:
				few++
			}
		}
		t.Logf("%d queries judge 2,000 candidates, %d find 1 to 20 products, %d find none", truncated, few, empty)
		if truncated < 20 || few < 100 {
			t.Errorf("%d queries judge 2,000 candidates (want >= 20), %d find 1 to 20 products (want >= 100)", truncated, few)
		}
		if empty > len(mix)/20 {
			t.Errorf("%d queries find nothing, want at most %d", empty, len(mix)/20)
		}
	})

	t.Run("oracle", func(t *testing.T) {
		o := NewOracle(s)
		for _, q := range mix {
			if q.Class == ClassConstraints {
				continue
			}
			res, err := ours.Search(ctx, q.Req)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Constraints) > 0 {
				continue
			}
			if got := o.Candidates(q.Req); got != res.Total {
				t.Errorf("%s: oracle counts %d candidates, engine total %d", q, got, res.Total)
			}
		}
	})

	for _, name := range []string{EngineBleve, EngineSQLite} {
		t.Run(name, func(t *testing.T) {
			peer, closeFn, err := Build(name, s)
			if err != nil {
				t.Fatal(err)
			}
			defer closeFn()
			diffs, err := Agreement(ctx, ours, peer, mix)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diffs {
				t.Errorf("%s differs: %s", name, d)
			}
		})
	}
}

// TestCompare checks that compare notices what it must.
func TestCompare(t *testing.T) {
	p := func(id string) search.Hit { return search.Hit{Product: &catalog.Product{ID: id}} }
	res := func(total int, truncated bool, ids ...string) *search.Result {
		r := &search.Result{Total: total, CandidatesTruncated: truncated}
		for _, id := range ids {
			r.Products = append(r.Products, p(id))
		}
		return r
	}
	sixteen := 16.0
	cons := search.Constraints{catalog.MemoryGB: {Gte: &sixteen}}
	tests := []struct {
		name string
		req  search.Request
		a, b *search.Result
		want bool // differs
	}{
		{"same", search.Request{Category: "Laptops"}, res(2, false, "a", "b"), res(2, false, "a", "b"), false},
		{"total", search.Request{Category: "Laptops"}, res(2, false, "a", "b"), res(3, false, "a", "b"), true},
		{"browse order", search.Request{Category: "Laptops"}, res(2, false, "a", "b"), res(2, false, "b", "a"), true},
		{"price order", search.Request{Query: "laptop", Sort: search.SortPriceAsc}, res(2, false, "a", "b"), res(2, false, "b", "a"), true},
		{"relevance order", search.Request{Query: "laptop"}, res(2, false, "a", "b"), res(2, false, "b", "a"), false},
		{"page size", search.Request{Query: "laptop"}, res(2, false, "a", "b"), res(2, false, "a"), true},
		{"truncated ranking", search.Request{Query: "gaming", Category: "Laptops", Constraints: cons},
			&search.Result{Total: 1900, UnverifiedTotal: 100, CandidatesTruncated: true},
			&search.Result{Total: 1950, UnverifiedTotal: 50, CandidatesTruncated: true}, false},
		{"truncated browse", search.Request{Category: "Laptops", Constraints: cons},
			&search.Result{Total: 1900, UnverifiedTotal: 100, CandidatesTruncated: true},
			&search.Result{Total: 1950, UnverifiedTotal: 50, CandidatesTruncated: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compare(Query{Req: tt.req}, tt.a, tt.b)
			if (got != "") != tt.want {
				t.Errorf("compare = %q, want differs %v", got, tt.want)
			}
		})
	}
}

// TestSummarize checks the percentiles.
func TestSummarize(t *testing.T) {
	var samples []Sample
	for i := range 100 {
		samples = append(samples, Sample{Query: i % 2, Wall: time.Duration(i+1) * time.Microsecond, CPU: time.Duration(i+1) * time.Nanosecond})
	}
	got := Summarize(samples, nil)
	want := Stats{N: 100, P50: 50 * time.Microsecond, P99: 99 * time.Microsecond, Mean: 50500 * time.Nanosecond,
		CPUP50: 50, CPUP99: 99, Min: time.Microsecond, Max: 100 * time.Microsecond, CPUTotal: 5050}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Summarize mismatch (-want +got):\n%s", diff)
	}
	odd := Summarize(samples, func(s Sample) bool { return s.Query == 1 })
	if odd.N != 50 || odd.Min != 2*time.Microsecond {
		t.Errorf("filtered: N %d min %s, want 50 and 2µs", odd.N, odd.Min)
	}
}

// TestModelLine checks the model lines the mix draws from titles.
func TestModelLine(t *testing.T) {
	tests := []struct {
		title, brand string
		n            int
		want         string
	}{
		{"Sony WH-1000XM5 Wireless Noise Cancelling Headphones", "Sony", 2, "WH-1000XM5 Wireless"},
		{"Apple MacBook Air 13\" M3 8GB 256GB", "Apple", 3, "MacBook Air"},
		{"Ultimate Ears BOOM 4 Portable Speaker", "Ultimate Ears", 2, "BOOM 4"},
		{"HP 15s-fq4 15.6in i5 16GB 512GB Black", "HP", 3, "15s-fq4"},
		{"Samsung | Galaxy S24", "Samsung", 2, ""},
		{"ASUS 65W USB-C Charger", "ASUS", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			got := modelLine(&catalog.Product{Title: tt.title, Brand: tt.brand}, tt.n)
			if got != tt.want {
				t.Errorf("modelLine = %q, want %q", got, tt.want)
			}
		})
	}
}

// BenchmarkSearch runs the mix through each engine, one query per
// iteration, and reports latency percentiles.
func BenchmarkSearch(b *testing.B) {
	s := demoSnapshot(b)
	mix := Mix(s)
	ctx := context.Background()
	for _, name := range Engines() {
		b.Run(name, func(b *testing.B) {
			e, closeFn, err := Build(name, s)
			if err != nil {
				b.Fatal(err)
			}
			defer closeFn()
			var lat []time.Duration
			i := 0
			for b.Loop() {
				q := mix[i%len(mix)]
				start := time.Now()
				if _, err := e.Search(ctx, q.Req); err != nil {
					b.Fatalf("%s: %v", q, err)
				}
				lat = append(lat, time.Since(start))
				i++
			}
			slices.Sort(lat)
			b.ReportMetric(float64(percentile(lat, 0.50).Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(percentile(lat, 0.99).Nanoseconds()), "p99-ns")
		})
	}
}

// BenchmarkBuild builds each engine's index over the demo catalog.
func BenchmarkBuild(b *testing.B) {
	s := demoSnapshot(b)
	for _, name := range Engines() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_, closeFn, err := Build(name, s)
				if err != nil {
					b.Fatal(err)
				}
				if err := closeFn(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// ExampleQuery_String shows how a query of the mix is written.
func ExampleQuery_String() {
	sixteen := 16.0
	q := Query{Class: ClassConstraints, Req: search.Request{Category: "Laptops", Sort: search.SortPriceAsc, Lite: true,
		Constraints: search.Constraints{catalog.MemoryGB: {Gte: &sixteen}}}}
	fmt.Println(q)
	// Output: category=Laptops&constraints=%7B%22memory_gb%22%3A%7B%22gte%22%3A16%7D%7D&lite=true&sort=price_asc
}
