package ratelimit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// Prober is a Store whose backend can be checked for reachability.
type Prober interface {
	Store
	Ping(ctx context.Context) error
}

// FallbackOptions tune a Fallback store.
type FallbackOptions struct {
	// Local counts while the primary is down (a new Memory when nil).
	Local Store
	// Logger receives one line when the primary fails and one when it
	// recovers (slog.Default when nil).
	Logger *slog.Logger
	// Meter records productsearch.ratelimit.redis.fallbacks and .up.
	Meter metric.Meter
	// MinBackoff and MaxBackoff bound the wait between probes of a down
	// primary (defaults 250ms and 15s).
	MinBackoff, MaxBackoff time.Duration
}

// Fallback is a Store that counts in a shared primary (Redis) and, while the
// primary fails, in a local store: the replica keeps enforcing the limit on
// its own (so N replicas allow up to N times the limit) until a background
// probe, retried with exponential backoff, finds the primary again.
type Fallback struct {
	primary    Prober
	local      Store
	log        *slog.Logger
	minBackoff time.Duration
	maxBackoff time.Duration

	up        atomic.Bool
	fallbacks metric.Int64Counter
	gauge     metric.Registration

	mu     sync.Mutex // guards closed and probe start
	closed bool
	done   chan struct{}
	wg     sync.WaitGroup
}

// NewFallback returns a store over primary, assumed reachable until a call
// fails. Close stops its probe.
func NewFallback(primary Prober, opt FallbackOptions) (*Fallback, error) {
	f := &Fallback{
		primary:    primary,
		local:      opt.Local,
		log:        opt.Logger,
		minBackoff: opt.MinBackoff,
		maxBackoff: opt.MaxBackoff,
		done:       make(chan struct{}),
	}
	if f.local == nil {
		f.local = NewMemory(0)
	}
	if f.log == nil {
		f.log = slog.Default()
	}
	if f.minBackoff <= 0 {
		f.minBackoff = 250 * time.Millisecond
	}
	if f.maxBackoff < f.minBackoff {
		f.maxBackoff = max(f.minBackoff, 15*time.Second)
	}
	meter := opt.Meter
	if meter == nil {
		meter = noop.NewMeterProvider().Meter("")
	}
	var err error
	f.fallbacks, err = meter.Int64Counter("productsearch.ratelimit.redis.fallbacks",
		metric.WithDescription("Requests counted in-process because Redis was unreachable"),
		metric.WithUnit("{request}"))
	if err != nil {
		return nil, err
	}
	upGauge, err := meter.Int64ObservableGauge("productsearch.ratelimit.redis.up",
		metric.WithDescription("1 while Redis answers rate-limit calls, 0 while the replica limits in-process"))
	if err != nil {
		return nil, err
	}
	f.gauge, err = meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		v := int64(0)
		if f.up.Load() {
			v = 1
		}
		o.ObserveInt64(upGauge, v)
		return nil
	}, upGauge)
	if err != nil {
		return nil, err
	}
	f.up.Store(true)
	return f, nil
}

// Up reports whether the primary is in use.
func (f *Fallback) Up() bool { return f.up.Load() }

// Incr implements Store.
func (f *Fallback) Incr(ctx context.Context, key string, start time.Time, n int64) (int64, error) {
	if f.up.Load() {
		count, err := f.primary.Incr(ctx, key, start, n)
		if err == nil {
			return count, nil
		}
		if ctx.Err() == nil {
			f.down(err)
		}
	}
	f.fallbacks.Add(ctx, n)
	return f.local.Incr(ctx, key, start, n)
}

// down switches to the local store and starts the probe, once per outage.
func (f *Fallback) down(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || !f.up.CompareAndSwap(true, false) {
		return
	}
	f.log.Warn("redis unreachable; rate limits are counted in-process until it returns", "err", err)
	f.wg.Go(f.probe)
}

func (f *Fallback) probe() {
	wait := f.minBackoff
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-f.done:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := f.primary.Ping(ctx)
		cancel()
		if err == nil {
			// Logged before the switch, so that whoever sees the primary
			// in use again also sees the line.
			f.log.Info("redis reachable again; rate limits are shared across replicas")
			f.up.Store(true)
			return
		}
		wait = min(2*wait, f.maxBackoff)
		t.Reset(wait)
	}
}

// Close stops the probe and unregisters the metrics callback.
func (f *Fallback) Close() error {
	f.mu.Lock()
	if !f.closed {
		f.closed = true
		close(f.done)
	}
	f.mu.Unlock()
	f.wg.Wait()
	return f.gauge.Unregister()
}

// Check pings the primary and, when it does not answer, switches to the
// local store at once rather than on the first request.
func (f *Fallback) Check(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := f.primary.Ping(ctx); err != nil {
		f.down(err)
	}
}
