package explorer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"productsearch/internal/api"
	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
)

const testKey = "ps_public_demo_key"

// fixtureEngine is the memory engine over testdata/catalog.snapshot.
func fixtureEngine(t testing.TB) *memory.Engine {
	t.Helper()
	snap, err := catalog.ReadSnapshot(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := memory.New(snap, memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// switchEngine answers from an engine, or fails every call with err once
// set.
type switchEngine struct {
	search.Engine
	err atomic.Pointer[error]
}

func (e *switchEngine) fail(err error) { e.err.Store(&err) }

func (e *switchEngine) failure() error {
	if p := e.err.Load(); p != nil {
		return *p
	}
	return nil
}

func (e *switchEngine) Search(ctx context.Context, req search.Request) (*search.Result, error) {
	if err := e.failure(); err != nil {
		return nil, err
	}
	return e.Engine.Search(ctx, req)
}

func (e *switchEngine) Product(ctx context.Context, id string) (*catalog.Product, error) {
	if err := e.failure(); err != nil {
		return nil, err
	}
	return e.Engine.Product(ctx, id)
}

// startServer serves the real API server with the explorer mounted on a
// loopback port and returns its base URL. now is the server's clock (the
// real one when nil).
func startServer(t testing.TB, eng search.Engine, limit int, now func() time.Time) string {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := api.New(api.Options{Engine: eng, Logger: log, PublicKey: testKey, RateLimitPerHour: limit, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := Mount(s, Options{PublicKey: testKey}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-done; err != nil && !errors.Is(err, net.ErrClosed) {
			t.Errorf("serve: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// response is what the tests compare of an HTTP response.
type response struct {
	status int
	header http.Header
	body   []byte
}

// fetch sends a request with the given headers (pairs of name, value).
// The transport does not add Accept-Encoding, so bodies arrive as sent.
func fetch(t testing.TB, method, url string, headers ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, DisableKeepAlives: true}, Timeout: 10 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: body}
}
