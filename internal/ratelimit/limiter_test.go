package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func TestLimiterWindow(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: time.Date(2025, 3, 1, 14, 20, 0, 0, time.UTC)}
	l := New(NewMemory(0), clk.Now)
	reset := time.Date(2025, 3, 1, 15, 0, 0, 0, time.UTC)
	var got []Decision
	for range 4 {
		d, err := l.Allow(ctx, "ip:192.0.2.1", 3)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, d)
	}
	want := []Decision{
		{Allowed: true, Limit: 3, Remaining: 2, Reset: reset},
		{Allowed: true, Limit: 3, Remaining: 1, Reset: reset},
		{Allowed: true, Limit: 3, Remaining: 0, Reset: reset},
		{Allowed: false, Limit: 3, Remaining: 0, Reset: reset},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decisions mismatch (-want +got):\n%s", diff)
	}

	// Another key has its own budget.
	d, _ := l.Allow(ctx, "ip:192.0.2.2", 3)
	if !d.Allowed || d.Remaining != 2 {
		t.Errorf("second key: got %+v, want allowed with 2 remaining", d)
	}

	// The window ends on the hour; the budget is refilled.
	clk.Set(reset)
	d, _ = l.Allow(ctx, "ip:192.0.2.1", 3)
	want2 := Decision{Allowed: true, Limit: 3, Remaining: 2, Reset: reset.Add(time.Hour)}
	if diff := cmp.Diff(want2, d); diff != "" {
		t.Errorf("next window mismatch (-want +got):\n%s", diff)
	}
}

func TestMemoryConcurrentExact(t *testing.T) {
	ctx := context.Background()
	l := New(NewMemory(0), nil)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() {
			d, err := l.Allow(ctx, "ip:198.51.100.1", 50)
			if err != nil {
				t.Error(err)
			}
			if d.Allowed {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	if got := allowed.Load(); got != 50 {
		t.Errorf("allowed %d of 200 concurrent requests, want exactly 50", got)
	}
}

func TestMemoryBounded(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(shardCount * 4)
	start := time.Date(2025, 3, 1, 14, 0, 0, 0, time.UTC)
	for i := range 10000 {
		if _, err := m.Incr(ctx, fmt.Sprintf("ip:10.0.%d.%d", i/256, i%256), start, 1); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.Len(); n > shardCount*4 {
		t.Errorf("store holds %d keys, want at most %d", n, shardCount*4)
	}
	if m.Evicted() == 0 {
		t.Error("no key was evicted although the store overflowed")
	}
}

// TestMemoryFloodKeepsSentinel floods a full store with distinct
// addresses, one or two requests each, beside sentinel clients that have
// spent part of their budget: their counters must survive the flood, so
// that their next request sees the budget they really have left.
func TestMemoryFloodKeepsSentinel(t *testing.T) {
	const limit = 50
	tests := []struct {
		name    string
		maxKeys int
		flood   int   // distinct flood addresses
		perAddr int   // requests sent from each flood address
		spent   []int // requests each sentinel made before the flood
	}{
		{name: "single requests", maxKeys: shardCount * 16, flood: 200_000, perAddr: 1, spent: []int{32}},
		{name: "two requests each", maxKeys: shardCount * 16, flood: 50_000, perAddr: 2, spent: []int{3, 10, 32, 49}},
		{name: "small store", maxKeys: shardCount * 4, flood: 20_000, perAddr: 1, spent: []int{2, 32}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{now: time.Date(2025, 3, 1, 14, 20, 0, 0, time.UTC)}
			m := NewMemory(tt.maxKeys)
			l := New(m, clk.Now)
			sentinel := func(i int) string { return fmt.Sprintf("ip:198.51.100.%d", i) }
			for i, spent := range tt.spent {
				for range spent {
					l.Allow(ctx, sentinel(i), limit)
				}
			}
			for i := range tt.flood {
				key := fmt.Sprintf("ip:10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
				for range tt.perAddr {
					l.Allow(ctx, key, limit)
				}
			}
			if n := m.Len(); n > tt.maxKeys {
				t.Errorf("store holds %d keys, want at most %d", n, tt.maxKeys)
			}
			var got, want []int
			for i, spent := range tt.spent {
				d, err := l.Allow(ctx, sentinel(i), limit)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, d.Remaining)
				want = append(want, limit-spent-1)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sentinels' remaining budget after the flood mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLimiterAllowN(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: time.Date(2025, 3, 1, 14, 20, 0, 0, time.UTC)}
	l := New(NewMemory(0), clk.Now)
	reset := time.Date(2025, 3, 1, 15, 0, 0, 0, time.UTC)
	var got []Decision
	for _, n := range []int{4, 0, 3, 3} {
		d, err := l.AllowN(ctx, "ip:192.0.2.1", 10, n)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, d)
	}
	want := []Decision{
		{Allowed: true, Limit: 10, Remaining: 6, Reset: reset},
		{Allowed: true, Limit: 10, Remaining: 5, Reset: reset}, // n < 1 charges one
		{Allowed: true, Limit: 10, Remaining: 2, Reset: reset},
		{Allowed: false, Limit: 10, Remaining: 0, Reset: reset}, // 11 > 10: all or none
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decisions mismatch (-want +got):\n%s", diff)
	}
}

func TestMemoryDropsFinishedWindows(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(0)
	start := time.Date(2025, 3, 1, 14, 0, 0, 0, time.UTC)
	for i := range 1000 {
		m.Incr(ctx, fmt.Sprintf("k%d", i), start, 1)
	}
	next := start.Add(Window)
	for i := range 1000 {
		m.Incr(ctx, fmt.Sprintf("k%d", i), next, 1)
	}
	// Every shard saw the new window, so only its counters remain and each
	// key starts again from one.
	if n := m.Len(); n != 1000 {
		t.Errorf("store holds %d keys, want 1000", n)
	}
	n, _ := m.Incr(ctx, "k7", next, 1)
	if n != 2 {
		t.Errorf("count in the new window = %d, want 2", n)
	}
	// A late request for the previous window counts in the current one.
	n, _ = m.Incr(ctx, "k7", start, 1)
	if n != 3 {
		t.Errorf("late request count = %d, want 3", n)
	}
}

func BenchmarkMemoryAllow(b *testing.B) {
	ctx := context.Background()
	l := New(NewMemory(0), nil)
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = fmt.Sprintf("ip:10.0.%d.%d", i/256, i%256)
	}
	i := 0
	for b.Loop() {
		l.Allow(ctx, keys[i%len(keys)], 1<<30)
		i++
	}
}
