package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"
)

// Sample is the latency of one search of the mix.
type Sample struct {
	Query int           // index into the mix
	Wall  time.Duration // elapsed time
	CPU   time.Duration // CPU time of the searching thread (0 where unavailable)
}

// Budget bounds a measurement: passes over the whole mix continue until
// at least MinPasses passes and MinTime have gone by, or MaxPasses passes.
type Budget struct {
	MinPasses, MaxPasses int
	MinTime              time.Duration
}

// Measure runs the mix through s, one search at a time on one locked OS
// thread: one warm-up pass, then timed passes in a shuffled order (the
// same order for every engine). Every search must succeed.
func Measure(ctx context.Context, s Searcher, mix []Query, b Budget) ([]Sample, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	order := make([]int, len(mix))
	for i := range order {
		order[i] = i
	}
	rand.New(rand.NewPCG(7, 11)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, i := range order {
		if _, err := s.Search(ctx, mix[i].Req); err != nil {
			return nil, fmt.Errorf("query %d (%s): %w", i, mix[i], err)
		}
	}
	var samples []Sample
	start := time.Now()
	for pass := 0; pass < b.MaxPasses && (pass < b.MinPasses || time.Since(start) < b.MinTime); pass++ {
		for _, i := range order {
			req := mix[i].Req
			c0, t0 := threadCPU(), time.Now()
			_, err := s.Search(ctx, req)
			wall, cpu := time.Since(t0), threadCPU()-c0
			if err != nil {
				return nil, fmt.Errorf("query %d (%s): %w", i, mix[i], err)
			}
			samples = append(samples, Sample{Query: i, Wall: wall, CPU: cpu})
		}
	}
	return samples, nil
}

// Stats summarises samples.
type Stats struct {
	N                  int
	P50, P99, Mean     time.Duration // wall time
	CPUP50, CPUP99     time.Duration // thread CPU time
	Min, Max, CPUTotal time.Duration
}

// Summarize computes the stats of the samples that keep accepts (nil
// accepts all).
func Summarize(samples []Sample, keep func(s Sample) bool) Stats {
	var wall, cpu []time.Duration
	var sum time.Duration
	var st Stats
	for _, s := range samples {
		if keep != nil && !keep(s) {
			continue
		}
		wall = append(wall, s.Wall)
		cpu = append(cpu, s.CPU)
		sum += s.Wall
		st.CPUTotal += s.CPU
	}
	st.N = len(wall)
	if st.N == 0 {
		return st
	}
	slices.Sort(wall)
	slices.Sort(cpu)
	st.P50, st.P99 = percentile(wall, 0.50), percentile(wall, 0.99)
	st.CPUP50, st.CPUP99 = percentile(cpu, 0.50), percentile(cpu, 0.99)
	st.Mean = sum / time.Duration(st.N)
	st.Min, st.Max = wall[0], wall[len(wall)-1]
	return st
}

// percentile reads the p-th quantile of sorted durations (nearest rank).
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(p*float64(len(sorted)) + 0.5)
	return sorted[min(max(i-1, 0), len(sorted)-1)]
}
