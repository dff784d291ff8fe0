package elastic

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"productsearch/internal/config"
	"productsearch/internal/search"
)

// Defaults of the health view (Options.HealthInterval, HealthStale).
const (
	DefaultHealthInterval = config.DefaultESHealthInterval
	DefaultHealthStale    = config.DefaultESHealthStale
)

// healthView is what one refresh of the cluster's state saw.
type healthView struct {
	health search.Health
	// at is when the cluster last answered; a refresh that cannot reach
	// it keeps the previous view and its time.
	at time.Time
}

// monitor keeps the engine's view of the cluster: a goroutine, started by
// the first Health call, refreshes it every interval, so that health
// checks never query the cluster themselves. A view older than stale
// (every refresh since has failed) is reported as degraded.
type monitor struct {
	e               *Engine
	interval, stale time.Duration
	now             func() time.Time

	view  atomic.Pointer[healthView]
	once  sync.Once
	ready chan struct{} // closed when the first refresh is done
	stop  context.CancelFunc
	done  chan struct{} // closed when the goroutine has returned
	mu    sync.Mutex    // guards stop and closed
	// closed is set by Close; a monitor closed before it started never
	// starts.
	closed bool
}

func newMonitor(e *Engine, interval, stale time.Duration) *monitor {
	return &monitor{e: e, interval: interval, stale: stale, now: time.Now,
		ready: make(chan struct{}), done: make(chan struct{})}
}

// start runs the refresh loop once.
func (m *monitor) start() {
	m.once.Do(func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.closed {
			close(m.ready)
			close(m.done)
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		m.stop = cancel
		go m.loop(ctx)
	})
}

func (m *monitor) loop(ctx context.Context) {
	defer close(m.done)
	m.refresh(ctx)
	close(m.ready)
	t := time.NewTicker(m.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.refresh(ctx)
		}
	}
}

// refresh reads the cluster's state once, within the engine's timeout.
func (m *monitor) refresh(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, m.e.timeout)
	defer cancel()
	h, err := m.e.readHealth(ctx)
	if err != nil {
		return
	}
	m.view.Store(&healthView{health: h, at: m.now()})
}

// health returns the current view, waiting for the first refresh (or the
// end of ctx).
func (m *monitor) health(ctx context.Context) search.Health {
	m.start()
	select {
	case <-m.ready:
	case <-ctx.Done():
		return search.Health{Status: "degraded"}
	}
	v := m.view.Load()
	if v == nil || m.now().Sub(v.at) > m.stale {
		return search.Health{Status: "degraded"}
	}
	return v.health
}

// close stops the refresh loop and waits for it.
func (m *monitor) close() {
	m.mu.Lock()
	m.closed = true
	stop := m.stop
	m.mu.Unlock()
	if stop == nil {
		return
	}
	stop()
	<-m.done
}

// readHealth asks the cluster for the product count and sync time recorded
// in the _meta of the index behind the alias, and proves with a count that
// the index's shards answer. An error means the cluster did not answer;
// an answer that shows a problem (no index under the alias, another schema
// version, a failed shard, a count that differs from the _meta) is a
// degraded health.
func (e *Engine) readHealth(ctx context.Context) (search.Health, error) {
	degraded := search.Health{Status: "degraded"}
	meta, index, err := e.meta(ctx)
	switch {
	case IsNotFound(err):
		return degraded, nil
	case errors.Is(err, errNoMeta):
		return degraded, nil
	case err != nil:
		return degraded, err
	case meta.Schema != SchemaVersion:
		return degraded, nil
	}
	e.stats.observe(index, meta.SyncTime)
	var count struct {
		Count  int `json:"count"`
		Shards struct {
			Failed int `json:"failed"`
		} `json:"_shards"`
	}
	err = e.client.Do(ctx, http.MethodGet, "/"+url.PathEscape(index)+"/_count", nil, nil, &count)
	switch {
	case IsNotFound(err):
		return degraded, nil
	case err != nil:
		return degraded, err
	case count.Shards.Failed > 0 || count.Count != meta.Products:
		return degraded, nil
	}
	return search.Health{Status: "ok", Items: meta.Products, LastUpdate: meta.SyncTime}, nil
}
