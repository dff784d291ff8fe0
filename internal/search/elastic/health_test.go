package elastic

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/search"
)

// cluster is a fake node whose health answers a test changes.
type cluster struct {
	mu       sync.Mutex
	state    string // "ok", "down" (503), "gone" (no alias), "hang"
	requests atomic.Int64
}

func (c *cluster) set(state string) {
	c.mu.Lock()
	c.state = state
	c.mu.Unlock()
}

func (c *cluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.requests.Add(1)
	c.mu.Lock()
	state := c.state
	c.mu.Unlock()
	w.Header().Set("X-Elastic-Product", "Elasticsearch")
	w.Header().Set("Content-Type", "application/json")
	switch {
	case state == "hang":
		<-r.Context().Done()
	case state == "down":
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":{"type":"master_not_discovered_exception","reason":"no master"},"status":503}`))
	case state == "gone":
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"type":"index_not_found_exception","reason":"no such index [products]"},"status":404}`))
	case r.URL.Path == "/products/_mapping":
		fmt.Fprintf(w, `{"products-1":{"mappings":{"_meta":{"schema":%d,"sync_time":"2025-06-01T08:00:00Z","products":7}}}}`, SchemaVersion)
	case r.URL.Path == "/products-1/_count":
		w.Write([]byte(`{"count":7,"_shards":{"total":1,"successful":1,"failed":0}}`))
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func fakeCluster(t *testing.T) (*cluster, string) {
	t.Helper()
	c := &cluster{state: "ok"}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return c, srv.URL
}

// TestHealthView steps a fake clock and the fake node's state through
// refreshes: the view follows every answer of the cluster, keeps the last
// answer while refreshes fail, and is degraded once that answer is older
// than the staleness limit.
func TestHealthView(t *testing.T) {
	ok := search.Health{Status: "ok", Items: 7, LastUpdate: time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)}
	degraded := search.Health{Status: "degraded"}
	type step struct {
		state   string        // the node's state at the refresh
		advance time.Duration // clock advance after the refresh
		want    search.Health
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"answers", []step{{"ok", 0, ok}, {"ok", 5 * time.Second, ok}}},
		{"never answered", []step{{"down", 0, degraded}}},
		{"failures within the limit keep the view", []step{
			{"ok", 5 * time.Second, ok}, {"down", 5 * time.Second, ok}, {"hang", 5 * time.Second, ok}}},
		{"failures beyond the limit", []step{
			{"ok", 5 * time.Second, ok}, {"down", 5 * time.Second, ok}, {"down", 5 * time.Second, ok},
			{"down", time.Second, degraded}}},
		{"recovery", []step{{"ok", 20 * time.Second, degraded}, {"down", 0, degraded}, {"ok", 0, ok}}},
		{"an answer without the index is degraded at once", []step{{"ok", 0, ok}, {"gone", 0, degraded}, {"ok", 0, ok}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node, addr := fakeCluster(t)
			opt := DefaultOptions()
			opt.Addresses = []string{addr}
			opt.Timeout = 100 * time.Millisecond
			e, err := New(opt)
			if err != nil {
				t.Fatal(err)
			}
			m := newMonitor(e, time.Hour, 15*time.Second)
			clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			m.now = func() time.Time { return clock }
			close(m.ready)
			m.once.Do(func() {}) // refreshed by the test, not by a goroutine
			for i, s := range tt.steps {
				node.set(s.state)
				m.refresh(context.Background())
				clock = clock.Add(s.advance)
				if diff := cmp.Diff(s.want, m.health(context.Background())); diff != "" {
					t.Errorf("step %d (%s, then +%s): health mismatch (-want +got):\n%s", i, s.state, s.advance, diff)
				}
			}
		})
	}
}

// TestHealthIsCached calls Health many times: the node sees only the
// background refreshes, and a closed engine stops refreshing.
func TestHealthIsCached(t *testing.T) {
	node, addr := fakeCluster(t)
	opt := DefaultOptions()
	opt.Addresses = []string{addr}
	opt.HealthInterval = time.Hour
	e, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if node.requests.Load() != 0 {
		t.Fatalf("New sent %d requests, want none", node.requests.Load())
	}
	for range 1000 {
		h, err := e.Health(context.Background())
		if err != nil || h.Status != "ok" {
			t.Fatalf("Health = %+v, %v; want ok", h, err)
		}
	}
	// One refresh: the mapping and a count.
	if n := node.requests.Load(); n != 2 {
		t.Errorf("1000 Health calls sent %d requests, want 2 (one refresh)", n)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestHealthCloseBeforeStart closes an engine that never reported health:
// no refresh ever runs and Health does not block.
func TestHealthCloseBeforeStart(t *testing.T) {
	node, addr := fakeCluster(t)
	opt := DefaultOptions()
	opt.Addresses = []string{addr}
	e, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	h, err := e.Health(context.Background())
	if err != nil || h.Status != "degraded" {
		t.Errorf("Health after Close = %+v, %v; want degraded", h, err)
	}
	if n := node.requests.Load(); n != 0 {
		t.Errorf("a closed engine sent %d requests", n)
	}
}

// TestHealthRefreshes lets the background loop run at a short interval:
// the view follows the node going down and coming back.
func TestHealthRefreshes(t *testing.T) {
	node, addr := fakeCluster(t)
	opt := DefaultOptions()
	opt.Addresses = []string{addr}
	opt.Timeout = 100 * time.Millisecond
	opt.HealthInterval, opt.HealthStale = 10*time.Millisecond, 50*time.Millisecond
	e, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	waitFor := func(status string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			h, err := e.Health(context.Background())
			if err == nil && h.Status == status {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("health still %+v, %v after 10s; want %s", h, err, status)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("ok")
	node.set("down")
	waitFor("degraded")
	node.set("ok")
	waitFor("ok")
}
