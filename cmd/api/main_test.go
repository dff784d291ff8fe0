package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/api"
	"productsearch/internal/catalog"
	"productsearch/internal/config"
	"productsearch/internal/search/memory"
)

// TestEveryRouteButHealthIsLimited walks every route of the server as
// cmd/api builds it (REST, OpenAPI documents, MCP, explorer pages, assets
// and data) and checks that each is charged to the client IP's budget,
// except GET /api/health (interface specification §8 Limits), and that nothing answers /metrics on the
// public port. A route added later without the limit fails here.
func TestEveryRouteButHealthIsLimited(t *testing.T) {
	base, srv := serveAll(t, 1000)
	// Concrete requests for the parameters of route patterns.
	concrete := strings.NewReplacer(":id", "p1", "*", "app.js")
	var seen []string
	for _, r := range srv.App().GetRoutes(true) {
		if r.Method == http.MethodHead || r.Method == http.MethodConnect || r.Method == http.MethodTrace || r.Method == http.MethodOptions {
			continue
		}
		route := r.Method + " " + r.Path
		if slices.Contains(seen, route) {
			continue
		}
		seen = append(seen, route)
		t.Run(route, func(t *testing.T) {
			body := ""
			if r.Method == http.MethodPost {
				body = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
			}
			resp, _ := send(t, r.Method, base+concrete.Replace(r.Path), body,
				"Content-Type", "application/json", "Authorization", "Bearer public")
			if resp.StatusCode >= 500 || resp.StatusCode == http.StatusRequestEntityTooLarge {
				t.Fatalf("status %d", resp.StatusCode)
			}
			limited := resp.Header.Get("X-RateLimit-Limit") != ""
			if want := route != "GET /api/health"; limited != want {
				t.Errorf("status %d, X-RateLimit-Limit %q; want limited %v", resp.StatusCode, resp.Header.Get("X-RateLimit-Limit"), want)
			}
		})
	}
	slices.Sort(seen)
	want := []string{
		"GET /", "GET /api/explorer/product/:id", "GET /api/explorer/search", "GET /api/health", "GET /api/product/:id",
		"GET /api/search", "GET /assets/*", "GET /docs", "GET /openapi.json", "GET /openapi.yaml", "POST /api/mcp",
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("routes mismatch (-want +got):\n%s", diff)
	}
	if resp, _ := send(t, http.MethodGet, base+"/metrics", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the public port: status %d, want 404", resp.StatusCode)
	}
}

// serveAll starts the server as cmd/api builds it, MCP and explorer mounted,
// over a one-product catalog with the public key "public" and a per-IP
// budget of limit, its clock stopped at 06:00 UTC.
func serveAll(t *testing.T, limit int) (string, *api.Server) {
	t.Helper()
	when := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	snap := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: when}, Products: []catalog.Product{{
		ID: "p1", Title: "Lenovo IdeaPad Slim 5 14\" 16GB RAM 512GB SSD", Brand: "Lenovo", Price: 649, Currency: catalog.Currency,
		Availability: catalog.InStock, Category: "Laptops", ProductType: catalog.TypeProduct, PurchaseURL: "https://shop.example/p1",
		Provenance: catalog.Provenance{Source: "Voltline", LastUpdated: when}, OfferCount: 1,
		Offers: []catalog.Offer{{ID: "voltline-1", Source: "Voltline", Title: "t", Price: 649, Currency: catalog.Currency,
			Availability: catalog.InStock, PurchaseURL: "https://shop.example/p1", LastUpdated: when}},
	}}}
	engine, err := memory.New(snap, memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return serveWith(t, api.Options{Engine: engine, PublicKey: "public", RateLimitPerHour: limit, Now: func() time.Time { return when }})
}

// serveWith starts a server built from opt as cmd/api builds it, MCP and
// explorer mounted, on a loopback port, and returns its base URL.
func serveWith(t *testing.T, opt api.Options) (string, *api.Server) {
	t.Helper()
	srv, err := api.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := mountAll(srv, config.Config{PublicAPIKey: opt.PublicKey}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		srv.Close()
	})
	return "http://" + ln.Addr().String(), srv
}

// send sends a request with header pairs and returns the response and its
// body.
func send(t *testing.T, method, url, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestMCPIsRateLimitedPerIP checks the MCP endpoint as cmd/api mounts it:
// no key, the per-IP budget shared with REST, the rate-limit headers on
// every answer, and the 429 body of the interface once the budget is spent.
func TestMCPIsRateLimitedPerIP(t *testing.T) {
	base, _ := serveAll(t, 3)
	call := func(method, path, body string, header ...string) (*http.Response, []byte) {
		t.Helper()
		return send(t, method, base+path, body, header...)
	}
	const list = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for i, want := range []string{"2", "1"} {
		resp, body := call(http.MethodPost, "/api/mcp", list, "Content-Type", "application/json")
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "search_products") {
			t.Fatalf("call %d: status %d body %.200s", i, resp.StatusCode, body)
		}
		if resp.Header.Get("X-RateLimit-Limit") != "3" || resp.Header.Get("X-RateLimit-Remaining") != want || resp.Header.Get("X-RateLimit-Reset") == "" {
			t.Errorf("call %d: rate-limit headers %v, want limit 3 remaining %s", i, resp.Header, want)
		}
	}
	// REST with the public key spends the same per-IP budget.
	if resp, _ := call(http.MethodGet, "/api/search?category=Laptops", "", "Authorization", "Bearer public"); resp.StatusCode != http.StatusOK {
		t.Fatalf("search: status %d", resp.StatusCode)
	}
	resp, body := call(http.MethodPost, "/api/mcp", list, "Content-Type", "application/json")
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("over the budget: status %d, want 429", resp.StatusCode)
	}
	var rl struct {
		Error   string `json:"error"`
		ResetAt string `json:"resetAt"`
	}
	if err := json.Unmarshal(body, &rl); err != nil || rl.Error != "Rate limit exceeded" {
		t.Fatalf("429 body %s: %v", body, err)
	}
	if _, err := time.Parse(time.RFC3339, rl.ResetAt); err != nil {
		t.Errorf("resetAt %q is not RFC 3339: %v", rl.ResetAt, err)
	}
	if resp.Header.Get("Retry-After") == "" || resp.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("429 headers %v, want Retry-After and remaining 0", resp.Header)
	}
}

// TestMCPBatchChargesEveryCall checks that a JSON-RPC batch costs one
// request of the per-IP budget per call, as cmd/api mounts the endpoint: a
// batch the budget cannot cover is answered 429 and not run.
func TestMCPBatchChargesEveryCall(t *testing.T) {
	base, _ := serveAll(t, 6)
	batch := func(n int) string {
		calls := make([]string, n)
		for i := range calls {
			calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_products","arguments":{"category":"Laptops"}}}`, i+1)
		}
		return "[" + strings.Join(calls, ",") + "]"
	}
	tests := []struct {
		calls         int
		wantStatus    int
		wantRemaining string
	}{
		{calls: 4, wantStatus: http.StatusOK, wantRemaining: "2"},
		{calls: 3, wantStatus: http.StatusTooManyRequests, wantRemaining: "0"},
	}
	for _, tt := range tests {
		resp, body := send(t, http.MethodPost, base+"/api/mcp", batch(tt.calls), "Content-Type", "application/json")
		if resp.StatusCode != tt.wantStatus || resp.Header.Get("X-RateLimit-Remaining") != tt.wantRemaining {
			t.Fatalf("batch of %d: status %d, remaining %q, body %.200s; want %d and %s",
				tt.calls, resp.StatusCode, resp.Header.Get("X-RateLimit-Remaining"), body, tt.wantStatus, tt.wantRemaining)
		}
		if tt.wantStatus == http.StatusOK {
			var resps []json.RawMessage
			if err := json.Unmarshal(body, &resps); err != nil || len(resps) != tt.calls {
				t.Errorf("batch of %d answered %d responses (%v)", tt.calls, len(resps), err)
			}
		} else if !strings.Contains(string(body), "Rate limit exceeded") {
			t.Errorf("429 body %s", body)
		}
	}
}
