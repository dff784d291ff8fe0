package ratelimit

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// flaky is a primary store that can be switched off.
type flaky struct {
	down  atomic.Bool
	calls atomic.Int64
	pings atomic.Int64
	mem   *Memory
}

var errDown = errors.New("connection refused")

func (f *flaky) Incr(ctx context.Context, key string, start time.Time, n int64) (int64, error) {
	f.calls.Add(1)
	if f.down.Load() {
		return 0, errDown
	}
	return f.mem.Incr(ctx, key, start, n)
}

func (f *flaky) Ping(context.Context) error {
	f.pings.Add(1)
	if f.down.Load() {
		return errDown
	}
	return nil
}

// syncBuffer is a log sink safe for the probe goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) count(sub string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.b.String(), sub)
}

func counterValue(t *testing.T, r *metric.ManualReader, name string) int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				var n int64
				for _, p := range d.DataPoints {
					n += p.Value
				}
				return n
			case metricdata.Gauge[int64]:
				var n int64
				for _, p := range d.DataPoints {
					n += p.Value
				}
				return n
			}
		}
	}
	return 0
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestFallback(t *testing.T) {
	ctx := context.Background()
	primary := &flaky{mem: NewMemory(0)}
	local := NewMemory(0)
	var logs syncBuffer
	reader := metric.NewManualReader()
	meter := metric.NewMeterProvider(metric.WithReader(reader)).Meter("test")
	f, err := NewFallback(primary, FallbackOptions{
		Local: local, Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Meter: meter,
		MinBackoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := time.Date(2025, 3, 1, 14, 0, 0, 0, time.UTC)

	// Up: counts go to the primary.
	for range 3 {
		if _, err := f.Incr(ctx, "k", start, 1); err != nil {
			t.Fatal(err)
		}
	}
	if local.Len() != 0 || primary.calls.Load() != 3 {
		t.Fatalf("while up: local keys %d, primary calls %d; want 0 and 3", local.Len(), primary.calls.Load())
	}
	if got := counterValue(t, reader, "productsearch.ratelimit.redis.up"); got != 1 {
		t.Errorf("up gauge = %d while up, want 1", got)
	}

	// Down: the first failing call switches to the local store; later
	// calls do not touch the primary; the outage is logged once.
	primary.down.Store(true)
	for i := range 100 {
		n, err := f.Incr(ctx, "k", start, 1)
		if err != nil {
			t.Fatal(err)
		}
		if n != int64(i+1) {
			t.Fatalf("local count %d, want %d", n, i+1)
		}
	}
	if calls := primary.calls.Load(); calls != 4 {
		t.Errorf("primary calls = %d after the outage began, want 4 (one failed call, then none)", calls)
	}
	if n := logs.count("redis unreachable"); n != 1 {
		t.Errorf("outage logged %d times, want once", n)
	}
	if got := counterValue(t, reader, "productsearch.ratelimit.redis.fallbacks"); got != 100 {
		t.Errorf("fallbacks counter = %d, want 100", got)
	}
	if got := counterValue(t, reader, "productsearch.ratelimit.redis.up"); got != 0 {
		t.Errorf("up gauge = %d while down, want 0", got)
	}
	waitFor(t, "probes with backoff", func() bool { return primary.pings.Load() >= 3 })

	// Recovery: a probe finds the primary and counting returns to it.
	primary.down.Store(false)
	waitFor(t, "recovery", f.Up)
	if n := logs.count("redis reachable again"); n != 1 {
		t.Errorf("recovery logged %d times, want once", n)
	}
	n, err := f.Incr(ctx, "k", start, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("count after recovery = %d, want 4 (the primary's count resumes)", n)
	}
}

func TestFallbackCheckAtStart(t *testing.T) {
	primary := &flaky{mem: NewMemory(0)}
	primary.down.Store(true)
	var logs syncBuffer
	f, err := NewFallback(primary, FallbackOptions{Logger: slog.New(slog.NewJSONHandler(&logs, nil)), MinBackoff: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Check(context.Background())
	if f.Up() {
		t.Error("Up after a failed start-up check")
	}
	if _, err := f.Incr(context.Background(), "k", time.Now(), 1); err != nil {
		t.Fatal(err)
	}
	if calls := primary.calls.Load(); calls != 0 {
		t.Errorf("primary called %d times while known down, want 0", calls)
	}
}
