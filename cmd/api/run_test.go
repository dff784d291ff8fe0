package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

const benchKey = "bench-key-000000001"

// runServer runs Run in the background with env (plus HOST, PORT, a free
// METRICS_ADDR and a huge production key) and returns its base URL and
// its metrics URL (empty when METRICS_ADDR is off); stop cancels it and
// returns Run's error.
type runServer struct {
	URL        string
	MetricsURL string
	stderr     *syncBuffer
	cancel     context.CancelFunc
	done       chan error
}

// option sets a test hook of the process.
type option func(*process)

func withEngine(e search.Engine) option    { return func(p *process) { p.engine = e } }
func withReload(ch <-chan struct{}) option { return func(p *process) { p.reload = ch } }
func withReady(f func(net.Addr)) option    { return func(p *process) { p.ready = f } }

// runProcess runs the server as run does, with env as the environment.
func runProcess(ctx context.Context, args []string, env func(string) (string, bool), stdout, stderr io.Writer, opts ...option) error {
	p := &process{env: env, stdout: stdout, stderr: stderr}
	for _, o := range opts {
		o(p)
	}
	return p.run(ctx, args)
}

func startRun(t *testing.T, env map[string]string, opts ...option) *runServer {
	t.Helper()
	full := map[string]string{"HOST": "127.0.0.1", "PORT": "0", "METRICS_ADDR": "127.0.0.1:0", "API_KEYS": benchKey + "=100000000", "LOG_LEVEL": "warn"}
	for k, v := range env {
		full[k] = v
	}
	lookup := func(k string) (string, bool) {
		v, ok := full[k]
		return v, ok
	}
	ctx, cancel := context.WithCancel(context.Background())
	rs := &runServer{stderr: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	ready := make(chan net.Addr, 1)
	opts = append(opts, withReady(func(a net.Addr) { ready <- a }),
		func(p *process) { p.metricsReady = func(a net.Addr) { rs.MetricsURL = "http://" + a.String() } })
	go func() { rs.done <- runProcess(ctx, nil, lookup, io.Discard, rs.stderr, opts...) }()
	select {
	case a := <-ready:
		rs.URL = "http://" + a.String()
	case err := <-rs.done:
		cancel()
		t.Fatalf("Run: %v\n%s", err, rs.stderr)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("Run did not start listening")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-rs.done:
		case <-time.After(15 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	return rs
}

func (rs *runServer) stop(t *testing.T) error {
	t.Helper()
	rs.cancel()
	select {
	case err := <-rs.done:
		rs.done <- err // for the cleanup
		return err
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after cancel")
		return nil
	}
}

func getJSON(url string, v any) (int, error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+benchKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			return resp.StatusCode, fmt.Errorf("decode %s: %w", b, err)
		}
	}
	return resp.StatusCode, nil
}

func healthItems(t *testing.T, base string) int {
	t.Helper()
	var h struct {
		Items int `json:"items"`
	}
	if _, err := getJSON(base+"/api/health", &h); err != nil {
		t.Fatal(err)
	}
	return h.Items
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// writeSnapshot writes the fixture with extra products to path,
// atomically, as the indexer does.
func writeSnapshot(t *testing.T, path string, extra int) {
	t.Helper()
	s := fixtureSnapshot(t)
	for i := range extra {
		p := s.Products[i%len(s.Products)]
		p.ID = fmt.Sprintf("%s-extra-%d", p.ID, i)
		s.Products = append(s.Products, p)
	}
	if err := catalog.WriteSnapshot(path, s); err != nil {
		t.Fatal(err)
	}
}

func TestHotReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	writeSnapshot(t, path, 0)
	rs := startRun(t, map[string]string{"CATALOG_PATH": path, "RELOAD_INTERVAL": "10ms"})
	if n := healthItems(t, rs.URL); n != 12 {
		t.Fatalf("items = %d, want 12", n)
	}

	// Hammer the server while catalogs are swapped: no request may fail.
	done := hammer(t, rs.URL, "/api/search?category=Laptops&limit=5", "/api/search?query=samsung&lite=true",
		"/api/product/dell-xps-13", "/api/health")
	for _, extra := range []int{30, 5, 60} {
		writeSnapshot(t, path, extra)
		waitUntil(t, fmt.Sprintf("reload to %d items", 12+extra), func() bool { return healthItems(t, rs.URL) == 12+extra })
	}
	done()

	// A broken snapshot is rejected; the loaded catalog stays.
	if err := os.WriteFile(path+".tmp", []byte("{\"format\":\"productsearch-snapshot\",\"version\":1,\"products\":5}\n{broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the failed reload to be logged", func() bool { return strings.Contains(rs.stderr.String(), "catalog reload failed") })
	if n := healthItems(t, rs.URL); n != 72 {
		t.Errorf("items = %d after a broken snapshot, want 72 (the old catalog)", n)
	}
	var metrics string
	waitUntil(t, "the reload metrics", func() bool {
		resp, err := http.Get(rs.MetricsURL + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		metrics = string(b)
		return strings.Contains(metrics, `productsearch_catalog_reloads_total{result="error"} 1`)
	})
	if !strings.Contains(metrics, `productsearch_catalog_reloads_total{result="ok"} 3`) {
		t.Errorf("metrics lack 3 successful reloads:\n%s", grepLines(metrics, "reloads"))
	}
	// The broken version is logged once, not on every poll.
	time.Sleep(50 * time.Millisecond)
	if n := strings.Count(rs.stderr.String(), "catalog reload failed"); n != 1 {
		t.Errorf("failed reload logged %d times, want once", n)
	}

	// A snapshot with a few bytes overwritten in the middle is well
	// formed, but does not match its checksum: rejected, logged, counted.
	writeSnapshot(t, path+".good", 20)
	data, err := os.ReadFile(path + ".good")
	if err != nil {
		t.Fatal(err)
	}
	mid := len(data) / 2
	for data[mid] < 'a' || data[mid] > 'z' {
		mid++
	}
	data[mid] ^= 0x20 // a lower-case letter becomes upper-case
	if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the corrupt snapshot to be logged", func() bool {
		return strings.Count(rs.stderr.String(), "catalog reload failed") == 2
	})
	if !strings.Contains(rs.stderr.String(), "checksum") {
		t.Errorf("the log does not name the checksum:\n%s", rs.stderr.String())
	}
	if n := healthItems(t, rs.URL); n != 72 {
		t.Errorf("items = %d after a corrupt snapshot, want 72 (the old catalog)", n)
	}
	waitUntil(t, "the corrupt reload metric", func() bool {
		resp, err := http.Get(rs.MetricsURL + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(b), `productsearch_catalog_reloads_total{result="corrupt"} 1`)
	})
}

func grepLines(s, sub string) string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestReloadOnSignal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	writeSnapshot(t, path, 0)
	hup := make(chan struct{})
	rs := startRun(t, map[string]string{"CATALOG_PATH": path, "RELOAD_INTERVAL": "0", "LOG_LEVEL": "info"}, withReload(hup))
	writeSnapshot(t, path, 8)
	time.Sleep(50 * time.Millisecond)
	if n := healthItems(t, rs.URL); n != 12 {
		t.Fatalf("items = %d with polling off and no signal, want 12", n)
	}
	hup <- struct{}{}
	waitUntil(t, "reload on signal", func() bool { return healthItems(t, rs.URL) == 20 })
	if !strings.Contains(rs.stderr.String(), "reload requested") {
		t.Error("the requested reload was not logged")
	}
}

// blockingEngine blocks searches until released, once armed (the
// explorer searches for its examples while the server starts).
type blockingEngine struct {
	search.Engine
	armed   atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func (e *blockingEngine) Search(ctx context.Context, req search.Request) (*search.Result, error) {
	if !e.armed.Load() {
		return e.Engine.Search(ctx, req)
	}
	e.entered <- struct{}{}
	<-e.release
	return e.Engine.Search(ctx, req)
}

func TestGracefulShutdown(t *testing.T) {
	eng := &blockingEngine{Engine: fixtureEngine(t), entered: make(chan struct{}, 1), release: make(chan struct{})}
	rs := startRun(t, map[string]string{"SHUTDOWN_TIMEOUT": "5s"}, withEngine(eng))
	eng.armed.Store(true)
	addr := strings.TrimPrefix(rs.URL, "http://")

	type result struct {
		status int
		err    error
	}
	inflight := make(chan result, 1)
	go func() {
		status, err := getJSON(rs.URL+"/api/search", nil)
		inflight <- result{status, err}
	}()
	<-eng.entered
	rs.cancel()

	// The listener closes: new connections are refused while the
	// in-flight request is still running.
	waitUntil(t, "the listener to close", func() bool {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil {
			return true
		}
		c.Close()
		return false
	})
	select {
	case r := <-inflight:
		t.Fatalf("in-flight request ended before release: %+v", r)
	case err := <-rs.done:
		t.Fatalf("Run returned before the in-flight request finished: %v", err)
	default:
	}
	// Metrics stay readable while the API drains.
	if status, err := getJSON(rs.MetricsURL+"/metrics", nil); err != nil || status != http.StatusOK {
		t.Errorf("metrics while draining: status %d, err %v; want 200", status, err)
	}
	close(eng.release)
	if r := <-inflight; r.err != nil || r.status != http.StatusOK {
		t.Errorf("in-flight request: status %d, err %v; want 200", r.status, r.err)
	}
	if err := rs.stop(t); err != nil {
		t.Errorf("Run returned %v, want nil", err)
	}
	// Run stopped the metrics listener before it returned.
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(rs.MetricsURL, "http://"), time.Second); err == nil {
		c.Close()
		t.Error("the metrics listener still accepts connections after Run returned")
	}
}

func TestShutdownClosesUnusedConnections(t *testing.T) {
	rs := startRun(t, map[string]string{"SHUTDOWN_TIMEOUT": "8s"}, withEngine(fixtureEngine(t)))
	// A connection that never sends a request (browsers and HTTP clients
	// open spare ones) must not hold shutdown until the read timeout.
	c, err := net.Dial("tcp", strings.TrimPrefix(rs.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	if err := rs.stop(t); err != nil {
		t.Errorf("Run returned %v, want nil", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("shutdown took %v with an unused connection open", d)
	}
}

func TestShutdownIsBounded(t *testing.T) {
	eng := &blockingEngine{Engine: fixtureEngine(t), entered: make(chan struct{}, 1), release: make(chan struct{})}
	defer close(eng.release)
	rs := startRun(t, map[string]string{"SHUTDOWN_TIMEOUT": "200ms"}, withEngine(eng))
	eng.armed.Store(true)
	go getJSON(rs.URL+"/api/search", nil)
	<-eng.entered
	start := time.Now()
	err := rs.stop(t)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run returned %v, want a deadline error for the stuck request", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("shutdown took %v with a 200ms timeout", d)
	}
}

func TestRunConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"bad variable", map[string]string{"RATE_LIMIT_PER_HOUR": "lots"}, nil, "RATE_LIMIT_PER_HOUR"},
		{"missing catalog", map[string]string{"CATALOG_PATH": "/nonexistent/catalog.snapshot"}, nil, "CATALOG_PATH"},
		{"stray argument", nil, []string{"serve"}, "unexpected arguments"},
		{"unknown flag", nil, []string{"-port=1"}, "flag provided but not defined"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			err := runProcess(context.Background(), tc.args, lookup, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run error %v, want one mentioning %s", err, tc.want)
			}
		})
	}
}

func TestRunCheckAndHelp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	writeSnapshot(t, path, 0)
	lookup := func(k string) (string, bool) {
		if k == "CATALOG_PATH" {
			return path, true
		}
		return "", false
	}
	var stderr strings.Builder
	if err := runProcess(context.Background(), []string{"-check"}, lookup, io.Discard, &stderr); err != nil {
		t.Fatalf("-check: %v", err)
	}
	if !strings.Contains(stderr.String(), "configuration ok") {
		t.Errorf("-check log: %s", stderr.String())
	}
	var stdout strings.Builder
	if err := runProcess(context.Background(), []string{"-h"}, lookup, &stdout, io.Discard); err != nil {
		t.Fatalf("-h: %v", err)
	}
	for _, v := range []string{"CATALOG_PATH", "RATE_LIMIT_PER_HOUR", "TRUSTED_PROXIES", "METRICS_ADDR", "-check"} {
		if !strings.Contains(stdout.String(), v) {
			t.Errorf("usage lacks %s", v)
		}
	}
}

// TestMetricsListener checks the operators' listener as Run serves it:
// Prometheus text with no key and no rate limit, announced on stderr, while
// the public port answers /metrics with 404.
func TestMetricsListener(t *testing.T) {
	rs := startRun(t, map[string]string{"RATE_LIMIT_PER_HOUR": "1", "LOG_LEVEL": "info"}, withEngine(fixtureEngine(t)))
	if rs.MetricsURL == "" {
		t.Fatal("the metrics listener was not started")
	}
	for i := range 3 { // more than the per-IP budget
		resp, err := http.Get(rs.MetricsURL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "productsearch_catalog_items 12") {
			t.Fatalf("scrape %d: status %d, body %.300s", i, resp.StatusCode, b)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("scrape %d: Content-Type %q", i, ct)
		}
		if h := resp.Header.Get("X-RateLimit-Limit"); h != "" {
			t.Errorf("scrape %d: X-RateLimit-Limit %q on the metrics listener", i, h)
		}
	}
	if status, err := getJSON(rs.URL+"/metrics", nil); err != nil || status != http.StatusNotFound {
		t.Errorf("GET /metrics on the public port: status %d, err %v; want 404", status, err)
	}
	stderr := rs.stderr.String()
	if want := "  metrics         " + rs.MetricsURL + "/metrics"; !strings.Contains(stderr, want) {
		t.Errorf("start-up lines lack %q:\n%s", want, stderr)
	}
	if want := `"metrics_addr":"` + strings.TrimPrefix(rs.MetricsURL, "http://") + `"`; !strings.Contains(stderr, want) {
		t.Errorf("listening log lacks %s:\n%s", want, stderr)
	}
}

func TestMetricsOff(t *testing.T) {
	for _, v := range []string{"off", ""} {
		t.Run(fmt.Sprintf("METRICS_ADDR=%q", v), func(t *testing.T) {
			rs := startRun(t, map[string]string{"METRICS_ADDR": v, "LOG_LEVEL": "info"}, withEngine(fixtureEngine(t)))
			if rs.MetricsURL != "" {
				t.Errorf("metrics listener started on %s", rs.MetricsURL)
			}
			stderr := rs.stderr.String()
			if !strings.Contains(stderr, "  metrics         off (METRICS_ADDR)") || !strings.Contains(stderr, `"metrics_addr":"off"`) {
				t.Errorf("start-up output does not say metrics are off:\n%s", stderr)
			}
			if err := rs.stop(t); err != nil {
				t.Errorf("Run returned %v, want nil", err)
			}
		})
	}
}

func TestMetricsAddrTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	env := map[string]string{"HOST": "127.0.0.1", "PORT": "0", "METRICS_ADDR": taken.Addr().String()}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	started := false
	err = runProcess(context.Background(), nil, lookup, io.Discard, io.Discard, withEngine(fixtureEngine(t)),
		withReady(func(net.Addr) { started = true }))
	if err == nil || !strings.Contains(err.Error(), "METRICS_ADDR") {
		t.Errorf("Run error %v, want one naming METRICS_ADDR", err)
	}
	if started {
		t.Error("the API started although its metrics address is taken")
	}
}

// TestShutdownDrain shuts down with a keep-alive request in flight and a
// connection holding a half-sent request: the in-flight response carries
// Connection: close, so its client does not reuse a connection about to
// close; the half-sent request gets SHUTDOWN_READ_WAIT, not
// SHUTDOWN_TIMEOUT; and Run returns nil once the drain completes.
func TestShutdownDrain(t *testing.T) {
	eng := &blockingEngine{Engine: fixtureEngine(t), entered: make(chan struct{}, 1), release: make(chan struct{})}
	rs := startRun(t, map[string]string{"SHUTDOWN_TIMEOUT": "8s", "SHUTDOWN_READ_WAIT": "300ms"}, withEngine(eng))
	addr := strings.TrimPrefix(rs.URL, "http://")

	half, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if _, err := io.WriteString(half, "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Half: "); err != nil {
		t.Fatal(err)
	}
	keep, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer keep.Close()
	eng.armed.Store(true)
	if _, err := io.WriteString(keep, "GET /api/search?category=Laptops HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+benchKey+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	<-eng.entered

	start := time.Now()
	rs.cancel()
	time.Sleep(100 * time.Millisecond) // shutdown has begun
	close(eng.release)
	_ = keep.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(keep), nil)
	if err != nil {
		t.Fatalf("in-flight request: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !resp.Close {
		t.Errorf("in-flight response: status %d, Connection %q; want 200 and close", resp.StatusCode, resp.Header.Get("Connection"))
	}
	select {
	case err := <-rs.done:
		rs.done <- err
		if err != nil {
			t.Errorf("Run returned %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return with a half-sent request open")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("shutdown took %v with a half-sent request open; want about SHUTDOWN_READ_WAIT", d)
	}
	// The half-sent request's connection was closed (after a 408 or not;
	// closing it with its request unread may send a reset).
	_ = half.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.ReadAll(half); err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("half-sent connection: %v; want it closed", err)
	}
}
