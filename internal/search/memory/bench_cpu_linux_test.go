//go:build linux

package memory_test

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"productsearch/internal/search/memory"
)

// threadCPU is the CPU time of the calling thread.
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}

// BenchmarkSearchCPU is BenchmarkSearch measured in CPU time of the
// searching thread, so that other processes on the machine do not inflate
// the percentiles (garbage collection on other threads is not counted).
func BenchmarkSearchCPU(b *testing.B) {
	e, err := memory.New(syntheticSnapshot(benchSize), memory.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	reqs := benchRequests(b)
	ctx := context.Background()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var durations []time.Duration
	buf := make([]byte, 0, 1<<20)
	i := 0
	for b.Loop() {
		start := threadCPU(b)
		res, err := e.Search(ctx, reqs[i%len(reqs)])
		if err != nil {
			b.Fatal(err)
		}
		buf = res.AppendJSON(buf[:0])
		durations = append(durations, threadCPU(b)-start)
		i++
	}
	slices.Sort(durations)
	pct := func(p float64) float64 { return float64(durations[int(p*float64(len(durations)-1))].Nanoseconds()) }
	b.ReportMetric(pct(0.50), "p50-cpu-ns")
	b.ReportMetric(pct(0.99), "p99-cpu-ns")
}
