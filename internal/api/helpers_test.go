package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/telemetry"
)

const testPublicKey = "ps_public_demo_key"

// benchKey is a production key with a huge budget.
const benchKey = "bench-key-000000001"

// fakeEngine is a search engine with canned answers.
type fakeEngine struct {
	search    func(ctx context.Context, req search.Request) (*search.Result, error)
	products  map[string]*catalog.Product
	health    search.Health
	healthErr error
}

func newFakeEngine() *fakeEngine {
	snap := fixtureSnapshot()
	e := &fakeEngine{
		products: map[string]*catalog.Product{},
		health:   search.Health{Status: "ok", Items: len(snap.Products), LastUpdate: fixtureSync},
	}
	for i := range snap.Products {
		p := &snap.Products[i]
		e.products[p.ID] = p
		for _, o := range p.Offers {
			e.products[o.ID] = p
		}
	}
	e.search = func(_ context.Context, req search.Request) (*search.Result, error) {
		res := &search.Result{Lite: req.Lite}
		for i := range snap.Products {
			if len(res.Products) < req.Limit {
				res.Products = append(res.Products, search.Hit{Product: &snap.Products[i]})
			}
		}
		res.Total = len(snap.Products)
		return res, nil
	}
	return e
}

func (e *fakeEngine) Search(ctx context.Context, req search.Request) (*search.Result, error) {
	return e.search(ctx, req)
}

func (e *fakeEngine) Product(_ context.Context, id string) (*catalog.Product, error) {
	if p, ok := e.products[id]; ok {
		return p, nil
	}
	return nil, search.ErrNotFound
}

func (e *fakeEngine) Health(context.Context) (search.Health, error) { return e.health, e.healthErr }

// syncBuffer collects log output from concurrent requests.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testServer is a Server listening on a loopback port.
type testServer struct {
	URL    string
	srv    *Server
	logs   *syncBuffer
	client *http.Client
}

// startServer serves opt on 127.0.0.1 until the test ends. Defaults: a
// fake engine, the public test key, 1000 requests per hour.
func startServer(t testing.TB, opt Options, mounts ...func(*Server)) *testServer {
	t.Helper()
	logs := &syncBuffer{}
	if opt.Engine == nil {
		opt.Engine = newFakeEngine()
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(telemetry.LogHandler(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
	if opt.PublicKey == "" {
		opt.PublicKey = testPublicKey
	}
	if opt.RateLimitPerHour == 0 {
		opt.RateLimitPerHour = 1000
	}
	srv, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mounts {
		m(srv)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		srv.Close()
	})
	return &testServer{
		URL: "http://" + ln.Addr().String(), srv: srv, logs: logs,
		client: &http.Client{Timeout: 10 * time.Second},
	}
}

// response is a read HTTP response.
type response struct {
	status int
	header http.Header
	body   []byte
}

// errorMessage decodes a flat {"error": ...} body, failing the test on any
// other shape.
func (r response) errorMessage(t testing.TB) string {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("error body %q is not JSON: %v", r.body, err)
	}
	msg, ok := body["error"].(string)
	if !ok {
		t.Fatalf("error body %s has no string field error", r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("error Content-Type = %q, want application/json", ct)
	}
	return msg
}

// do sends a request; header holds name, value pairs.
func (ts *testServer) do(t testing.TB, method, path string, body io.Reader, header ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, body)
	if err != nil {
		// A path net/url refuses (bad percent-encoding) is sent verbatim.
		if req, err = http.NewRequest(method, ts.URL+"/", body); err != nil {
			t.Fatal(err)
		}
		req.URL.Opaque = path
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

// metrics sends a request to the operators' metrics server over this
// server's telemetry, as Run serves it on METRICS_ADDR.
func (ts *testServer) metrics(t testing.TB, method, path string) response {
	t.Helper()
	rec := httptest.NewRecorder()
	NewMetricsServer(ts.srv.Telemetry().MetricsHandler(), ts.srv.Logger()).Handler.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return response{status: rec.Code, header: rec.Result().Header, body: rec.Body.Bytes()}
}

// get sends GET path with the public key.
func (ts *testServer) get(t testing.TB, path string, header ...string) response {
	t.Helper()
	return ts.do(t, http.MethodGet, path, nil, append([]string{"Authorization", "Bearer " + testPublicKey}, header...)...)
}

// fixedClock returns a clock stopped at t.
func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// waitUntil polls cond for up to ten seconds.
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
