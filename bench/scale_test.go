package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/search/memory"
)

// Environment of the scale benchmark: the catalog snapshot to serve
// (opened as the API opens it, from its index file when there is one) and
// the snapshot the query mix is drawn from (scripts/bench-scale.sh draws
// it from the 1x catalog); BENCH_SCALE_DUMP names a file to write every
// answer to, one line per query, for comparing two builds.
const (
	scaleCatalogEnv = "BENCH_SCALE_CATALOG"
	scaleMixEnv     = "BENCH_SCALE_MIX"
	scaleDumpEnv    = "BENCH_SCALE_DUMP"
)

// scaleEngine opens the catalog and draws the mix, or skips.
func scaleEngine(tb testing.TB) (*memory.Engine, []Query) {
	tb.Helper()
	path, mixPath := os.Getenv(scaleCatalogEnv), os.Getenv(scaleMixEnv)
	if path == "" || mixPath == "" {
		tb.Skip("set " + scaleCatalogEnv + " and " + scaleMixEnv + " to catalog snapshots")
	}
	s, err := catalog.ReadSnapshot(mixPath)
	if err != nil {
		tb.Fatal(err)
	}
	mix := Mix(s)
	e, fl, err := memory.Open(path, memory.DefaultOptions())
	if err != nil {
		tb.Fatal(err)
	}
	if !fl.Mapped {
		tb.Logf("index file not mapped (%v): the snapshot was indexed", fl.NotMapped)
	}
	return e, mix
}

// BenchmarkScale runs the mix over the catalog named by
// BENCH_SCALE_CATALOG, one query per iteration, and reports the p50 and
// p99 of each query class in CPU time of the searching thread, so that
// other processes on the machine inflate them less; with -v it logs the
// slowest queries.
func BenchmarkScale(b *testing.B) {
	e, mix := scaleEngine(b)
	ctx := context.Background()
	buf := make([]byte, 0, 1<<20)
	lat := make([][]time.Duration, len(mix))
	for _, q := range mix { // warm the mapped pages
		if _, err := e.Search(ctx, q.Req); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	i := 0
	for b.Loop() {
		q := mix[i%len(mix)]
		start := threadCPU()
		res, err := e.Search(ctx, q.Req)
		if err != nil {
			b.Fatalf("%s: %v", q, err)
		}
		buf = res.AppendJSON(buf[:0])
		lat[i%len(mix)] = append(lat[i%len(mix)], threadCPU()-start)
		i++
	}
	type slow struct {
		q   int
		med time.Duration
	}
	var slowest []slow
	for _, class := range Classes() {
		var all []time.Duration
		for j, ls := range lat {
			if mix[j].Class != class || len(ls) == 0 {
				continue
			}
			all = append(all, ls...)
			slices.Sort(ls)
			slowest = append(slowest, slow{j, ls[len(ls)/2]})
		}
		if len(all) == 0 {
			continue
		}
		slices.Sort(all)
		b.ReportMetric(float64(percentile(all, 0.50).Nanoseconds()), class+"-p50-ns")
		b.ReportMetric(float64(percentile(all, 0.99).Nanoseconds()), class+"-p99-ns")
	}
	slices.SortFunc(slowest, func(x, y slow) int { return int(y.med - x.med) })
	for _, s := range slowest[:min(20, len(slowest))] {
		b.Logf("%8.3f ms  %s  %s", float64(s.med.Microseconds())/1000, mix[s.q].Class, mix[s.q])
	}
}

// TestScaleDump writes every answer of the mix over the catalog named by
// BENCH_SCALE_CATALOG to the file named by BENCH_SCALE_DUMP.
func TestScaleDump(t *testing.T) {
	out := os.Getenv(scaleDumpEnv)
	if out == "" {
		t.Skip("set " + scaleDumpEnv + " to the file to write")
	}
	e, mix := scaleEngine(t)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, q := range mix {
		res, err := e.Search(context.Background(), q.Req)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		fmt.Fprintf(w, "%s\t%s\n", q, res.AppendJSON(nil))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
