package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/telemetry"
)

// now is 14:20 UTC: the window ends at 15:00, 2,400 s later.
var (
	testNow   = time.Date(2025, 3, 1, 14, 20, 0, 0, time.UTC)
	testReset = time.Date(2025, 3, 1, 15, 0, 0, 0, time.UTC)
)

func limitHeaders(r response) [3]string {
	return [3]string{r.header.Get("X-RateLimit-Limit"), r.header.Get("X-RateLimit-Remaining"), r.header.Get("X-RateLimit-Reset")}
}

func TestSearchResponse(t *testing.T) {
	eng := newFakeEngine()
	ts := startServer(t, Options{Engine: eng, Now: fixedClock(testNow)})
	for _, lite := range []bool{false, true} {
		t.Run(fmt.Sprintf("lite=%v", lite), func(t *testing.T) {
			r := ts.get(t, fmt.Sprintf("/api/search?limit=3&lite=%v", lite))
			if r.status != http.StatusOK {
				t.Fatalf("status %d, body %s", r.status, r.body)
			}
			req, err := search.ParseQuery(url.Values{"limit": {"3"}, "lite": {strconv.FormatBool(lite)}})
			if err != nil {
				t.Fatal(err)
			}
			res, _ := eng.Search(context.Background(), req)
			if diff := cmp.Diff(string(res.AppendJSON(nil)), string(r.body)); diff != "" {
				t.Errorf("body mismatch (-want +got):\n%s", diff)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			if st := r.header.Get("Server-Timing"); !strings.HasPrefix(st, "engine;dur=") {
				t.Errorf("Server-Timing = %q, want engine;dur=...", st)
			}
			if id := r.header.Get("X-Request-ID"); id == "" {
				t.Error("no X-Request-ID")
			}
		})
	}
}

func TestProductDetail(t *testing.T) {
	eng := newFakeEngine()
	ts := startServer(t, Options{Engine: eng})
	p := eng.products["samsung-qe55-4k"]
	want := string(search.AppendProduct(nil, p))
	for _, id := range []string{p.ID, p.Offers[1].ID, url.PathEscape(p.ID)} {
		t.Run(id, func(t *testing.T) {
			r := ts.get(t, "/api/product/"+id)
			if r.status != http.StatusOK {
				t.Fatalf("status %d, body %s", r.status, r.body)
			}
			if diff := cmp.Diff(want, string(r.body)); diff != "" {
				t.Errorf("body mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProductIDEncoding(t *testing.T) {
	eng := newFakeEngine()
	p := *eng.products["dell-xps-13"]
	p.ID = "odd id/with:chars"
	eng.products[p.ID] = &p
	ts := startServer(t, Options{Engine: eng})
	r := ts.get(t, "/api/product/"+url.PathEscape(p.ID))
	if r.status != http.StatusOK {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	r = ts.get(t, "/api/product/odd%20id%2Fwith%3Achars")
	if r.status != http.StatusOK {
		t.Errorf("fully encoded id: status %d, body %s", r.status, r.body)
	}
}

func TestAuth(t *testing.T) {
	const prodKey = "prod-key-0000000001"
	tests := []struct {
		name   string
		header []string
		want   int
	}{
		{"no header", nil, 401},
		{"empty bearer", []string{"Authorization", "Bearer"}, 401},
		{"bearer and spaces", []string{"Authorization", "Bearer    "}, 401},
		{"basic scheme", []string{"Authorization", "Basic " + testPublicKey}, 401},
		{"no scheme", []string{"Authorization", testPublicKey}, 401},
		{"unknown key", []string{"Authorization", "Bearer not-a-key-at-all"}, 401},
		{"prefix of the key", []string{"Authorization", "Bearer " + testPublicKey[:len(testPublicKey)-1]}, 401},
		{"key with a suffix", []string{"Authorization", "Bearer " + testPublicKey + "x"}, 401},
		{"two tokens", []string{"Authorization", "Bearer " + testPublicKey + " " + testPublicKey}, 401},
		{"public key", []string{"Authorization", "Bearer " + testPublicKey}, 200},
		{"scheme in lower case", []string{"Authorization", "bearer " + testPublicKey}, 200},
		{"production key", []string{"Authorization", "Bearer " + prodKey}, 200},
	}
	ts := startServer(t, Options{Keys: map[string]int{prodKey: 100}, Now: fixedClock(testNow)})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/api/search?limit=1", "/api/product/dell-xps-13"} {
				r := ts.do(t, http.MethodGet, path, nil, tc.header...)
				if r.status != tc.want {
					t.Fatalf("GET %s: status %d, want %d (body %s)", path, r.status, tc.want, r.body)
				}
				if lh := limitHeaders(r); lh[0] == "" || lh[1] == "" || lh[2] == "" {
					t.Errorf("GET %s: rate-limit headers missing: %v", path, lh)
				}
				if tc.want != 401 {
					continue
				}
				if msg := r.errorMessage(t); msg != "Unauthorized" {
					t.Errorf("GET %s: error %q, want Unauthorized", path, msg)
				}
				if got := r.header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
					t.Errorf("GET %s: WWW-Authenticate = %q", path, got)
				}
			}
		})
	}
	if logs := ts.logs.String(); strings.Contains(logs, prodKey) || strings.Contains(logs, testPublicKey) {
		t.Error("a key appears in the log")
	}
	if logs := ts.logs.String(); !strings.Contains(logs, KeyID(prodKey)) {
		t.Error("the production key's id does not appear in the log")
	}
}

func TestKeyringLookup(t *testing.T) {
	k := newKeyring("public-key-1", map[string]int{"p": 5, "production-key-long-" + strings.Repeat("x", 100): 7, "mid-key-2": 9})
	tests := []struct {
		token  string
		kind   keyKind
		budget int
	}{
		{"public-key-1", keyPublic, 0},
		{"p", keyProduction, 5},
		{"mid-key-2", keyProduction, 9},
		{"production-key-long-" + strings.Repeat("x", 100), keyProduction, 7},
		{"production-key-long-", keyNone, 0},
		{"public-key-", keyNone, 0},
		{"", keyNone, 0},
	}
	for _, tc := range tests {
		t.Run(tc.token, func(t *testing.T) {
			kind, budget, id := k.lookup([]byte(tc.token))
			if kind != tc.kind || budget != tc.budget {
				t.Errorf("lookup = %v, %d; want %v, %d", kind, budget, tc.kind, tc.budget)
			}
			if (kind == keyNone) != (id == "") {
				t.Errorf("id %q for kind %v", id, kind)
			}
			if id != "" && strings.Contains(tc.token, id) {
				t.Errorf("key id %q is part of the key", id)
			}
		})
	}
}

func TestBearerToken(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Bearer abc", "abc"},
		{"bearer abc", "abc"},
		{"BEARER\tabc", "abc"},
		{"  Bearer   abc  ", "abc"},
		{"Bearer", ""},
		{"Bearerabc", ""},
		{"Bearer a b", ""},
		{"Bearer ab\x7f", ""},
		{"Bearer " + strings.Repeat("k", maxTokenLen+1), ""},
		{"Token abc", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			tok, ok := bearerToken([]byte(tc.in))
			if ok != (tc.want != "") || string(tok) != tc.want {
				t.Errorf("bearerToken(%q) = %q, %v; want %q", tc.in, tok, ok, tc.want)
			}
		})
	}
}

func FuzzBearerToken(f *testing.F) {
	f.Add("Bearer abc")
	f.Add("bearer\t\t x")
	f.Fuzz(func(t *testing.T, h string) {
		tok, ok := bearerToken([]byte(h))
		if !ok {
			return
		}
		if len(tok) == 0 || len(tok) > maxTokenLen || strings.ContainsAny(string(tok), " \t") {
			t.Errorf("bearerToken(%q) = %q", h, tok)
		}
	})
}

// BenchmarkKeyringLookup shows that a lookup costs the same whichever key
// matches, or none: every key is compared in constant time.
func BenchmarkKeyringLookup(b *testing.B) {
	keys := map[string]int{}
	for i := range 50 {
		keys[fmt.Sprintf("production-key-%04d", i)] = 100
	}
	k := newKeyring(testPublicKey, keys)
	for _, tok := range []string{testPublicKey, "production-key-0049", "unknown-key-00000000", "p"} {
		b.Run(tok, func(b *testing.B) {
			for b.Loop() {
				k.lookup([]byte(tok))
			}
		})
	}
}

func TestRateLimitPerIP(t *testing.T) {
	ts := startServer(t, Options{RateLimitPerHour: 3, Now: fixedClock(testNow)})
	reset := strconv.FormatInt(testReset.Unix(), 10)
	// The public key, the product endpoint and unauthenticated requests
	// all draw on the one per-IP budget.
	paths := []string{"/api/search", "/api/product/dell-xps-13", "/api/search"}
	for i, path := range paths {
		r := ts.get(t, path)
		if r.status != http.StatusOK {
			t.Fatalf("request %d: status %d", i+1, r.status)
		}
		want := [3]string{"3", strconv.Itoa(2 - i), reset}
		if diff := cmp.Diff(want, limitHeaders(r)); diff != "" {
			t.Errorf("request %d headers mismatch (-want +got):\n%s", i+1, diff)
		}
	}
	for _, r := range []response{ts.get(t, "/api/search"), ts.do(t, http.MethodGet, "/api/search", nil)} {
		if r.status != http.StatusTooManyRequests {
			t.Fatalf("over the limit: status %d, want 429", r.status)
		}
		var body map[string]any
		if err := json.Unmarshal(r.body, &body); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"error": "Rate limit exceeded", "resetAt": "2025-03-01T15:00:00Z"}
		if diff := cmp.Diff(want, body); diff != "" {
			t.Errorf("429 body mismatch (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([3]string{"3", "0", reset}, limitHeaders(r)); diff != "" {
			t.Errorf("429 headers mismatch (-want +got):\n%s", diff)
		}
		if got := r.header.Get("Retry-After"); got != "2400" {
			t.Errorf("Retry-After = %q, want 2400", got)
		}
	}
}

func TestUnauthorizedIsCharged(t *testing.T) {
	ts := startServer(t, Options{RateLimitPerHour: 2, Now: fixedClock(testNow)})
	for i := range 2 {
		r := ts.do(t, http.MethodGet, "/api/search", nil, "Authorization", "Bearer guess-"+strconv.Itoa(i))
		if r.status != http.StatusUnauthorized {
			t.Fatalf("guess %d: status %d, want 401", i, r.status)
		}
		if got := r.header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(1-i) {
			t.Errorf("guess %d: remaining %q, want %d", i, got, 1-i)
		}
	}
	// Guessing spent the budget: a further guess and the public key alike
	// get 429, not 401.
	for _, r := range []response{
		ts.do(t, http.MethodGet, "/api/search", nil, "Authorization", "Bearer guess-3"),
		ts.get(t, "/api/search"),
	} {
		if r.status != http.StatusTooManyRequests {
			t.Errorf("status %d, want 429", r.status)
		}
	}
}

func TestProductionKeyBudget(t *testing.T) {
	const prodKey = "prod-key-0000000001"
	ts := startServer(t, Options{RateLimitPerHour: 1, Keys: map[string]int{prodKey: 3}, Now: fixedClock(testNow)})
	auth := []string{"Authorization", "Bearer " + prodKey}
	for i := range 3 {
		r := ts.do(t, http.MethodGet, "/api/search", nil, auth...)
		if r.status != 200 || r.header.Get("X-RateLimit-Limit") != "3" {
			t.Fatalf("production request %d: status %d, limit %q", i, r.status, r.header.Get("X-RateLimit-Limit"))
		}
	}
	if r := ts.do(t, http.MethodGet, "/api/search", nil, auth...); r.status != 429 {
		t.Errorf("4th production request: status %d, want 429", r.status)
	}
	// The key's budget is its own: the IP still has its single request.
	r := ts.get(t, "/api/search")
	if r.status != 200 || r.header.Get("X-RateLimit-Limit") != "1" {
		t.Errorf("public request: status %d, limit %q; want 200 and 1", r.status, r.header.Get("X-RateLimit-Limit"))
	}
}

// TestOnlyHealthIsUnlimited checks interface specification §8 Limits: the OpenAPI documents are
// charged to the client IP's budget like the API, with the rate-limit
// headers and the 429 of the interface, and need no key; health is never
// charged, not even once the budget is spent.
func TestOnlyHealthIsUnlimited(t *testing.T) {
	reset := strconv.FormatInt(testReset.Unix(), 10)
	for _, path := range []string{"/openapi.json", "/openapi.yaml"} {
		t.Run(path, func(t *testing.T) {
			ts := startServer(t, Options{RateLimitPerHour: 2, Now: fixedClock(testNow)})
			for i, remaining := range []string{"1", "0"} {
				r := ts.do(t, http.MethodGet, path, nil)
				if r.status != http.StatusOK {
					t.Fatalf("request %d: status %d, body %.200s", i, r.status, r.body)
				}
				if diff := cmp.Diff([3]string{"2", remaining, reset}, limitHeaders(r)); diff != "" {
					t.Errorf("request %d: limit headers mismatch (-want +got):\n%s", i, diff)
				}
			}
			r := ts.do(t, http.MethodGet, path, nil)
			if r.status != http.StatusTooManyRequests {
				t.Fatalf("over the budget: status %d, want 429", r.status)
			}
			var body map[string]any
			if err := json.Unmarshal(r.body, &body); err != nil {
				t.Fatalf("429 body %s: %v", r.body, err)
			}
			if diff := cmp.Diff(map[string]any{"error": "Rate limit exceeded", "resetAt": "2025-03-01T15:00:00Z"}, body); diff != "" {
				t.Errorf("429 body mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([3]string{"2", "0", reset}, limitHeaders(r)); diff != "" {
				t.Errorf("429 headers mismatch (-want +got):\n%s", diff)
			}
			if got := r.header.Get("Retry-After"); got != "2400" {
				t.Errorf("Retry-After = %q, want 2400", got)
			}
			// The documents spent the budget the API shares.
			if r := ts.get(t, "/api/search"); r.status != http.StatusTooManyRequests {
				t.Errorf("search after the documents spent the budget: status %d, want 429", r.status)
			}
			for range 5 {
				r := ts.do(t, http.MethodGet, "/api/health", nil)
				if r.status != http.StatusOK {
					t.Fatalf("health: status %d, body %.200s", r.status, r.body)
				}
				if lh := limitHeaders(r); lh != [3]string{} {
					t.Errorf("health carries rate-limit headers %v", lh)
				}
			}
		})
	}
}

// TestNoMetricsOnThePublicPort checks that /metrics is an unknown path of
// the API: Run serves metrics on the operators' listener only.
func TestNoMetricsOnThePublicPort(t *testing.T) {
	ts := startServer(t, Options{})
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		r := ts.do(t, method, "/metrics", nil)
		if r.status != http.StatusNotFound {
			t.Fatalf("%s /metrics: status %d, want 404 (body %.200s)", method, r.status, r.body)
		}
		if lh := limitHeaders(r); lh != [3]string{} {
			t.Errorf("%s /metrics: rate-limit headers %v on an unknown path", method, lh)
		}
	}
	got := ts.do(t, http.MethodGet, "/metrics", nil).errorMessage(t)
	if diff := cmp.Diff("Not found: /metrics", got); diff != "" {
		t.Errorf("404 message mismatch (-want +got):\n%s", diff)
	}
}

func TestHealth(t *testing.T) {
	tests := []struct {
		name       string
		health     search.Health
		err        error
		wantStatus int
		wantBody   string
	}{
		{"ok", search.Health{Status: "ok", Items: 12, LastUpdate: fixtureSync}, nil, 200,
			`{"status":"ok","items":12,"last_update":"2025-03-01T06:00:00Z"}`},
		{"degraded", search.Health{Status: "degraded", Items: 12, LastUpdate: fixtureSync}, nil, 503,
			`{"status":"degraded","items":12,"last_update":"2025-03-01T06:00:00Z"}`},
		{"error", search.Health{}, fmt.Errorf("cluster red: %w", search.ErrUnavailable), 503,
			`{"error":"Search backend unavailable; retry shortly"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine()
			eng.health, eng.healthErr = tc.health, tc.err
			ts := startServer(t, Options{Engine: eng})
			r := ts.do(t, http.MethodGet, "/api/health", nil)
			if r.status != tc.wantStatus {
				t.Errorf("status %d, want %d", r.status, tc.wantStatus)
			}
			if diff := cmp.Diff(tc.wantBody, string(r.body)); diff != "" {
				t.Errorf("body mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrorResponses(t *testing.T) {
	ts := startServer(t, Options{})
	long := "/api/search?query=" + strings.Repeat("a", maxURILen)
	tests := []struct {
		name    string
		method  string
		path    string
		body    string
		header  []string
		status  int
		message string
		allow   string
	}{
		{name: "unknown path", method: "GET", path: "/nope", status: 404, message: "Not found: /nope"},
		{name: "unknown api path", method: "GET", path: "/api/searches", status: 404, message: "Not found: /api/searches"},
		{name: "case matters", method: "GET", path: "/API/search", status: 404, message: "Not found: /API/search"},
		{name: "long unknown path is cut", method: "GET", path: "/" + strings.Repeat("x", 500), status: 404,
			message: "Not found: /" + strings.Repeat("x", maxEcho-1) + "…"},
		{name: "unknown product", method: "GET", path: "/api/product/no-such-id", status: 404, message: "Product not found: no-such-id"},
		{name: "unknown product, long id", method: "GET", path: "/api/product/" + strings.Repeat("z", 2000), status: 404,
			message: "Product not found: " + strings.Repeat("z", maxEcho) + "…"},
		{name: "bad percent-encoding in id", method: "GET", path: "/api/product/a%zzb", status: 400},
		{name: "POST search", method: "POST", path: "/api/search", status: 405, message: "Method not allowed", allow: "GET, HEAD"},
		{name: "DELETE product", method: "DELETE", path: "/api/product/x", status: 405, message: "Method not allowed", allow: "GET, HEAD"},
		{name: "PUT health", method: "PUT", path: "/api/health", status: 405, message: "Method not allowed", allow: "GET, HEAD"},
		{name: "unknown method", method: "QUERY", path: "/api/search", status: 405, message: "Method not allowed", allow: "GET, HEAD"},
		{name: "made-up method", method: "BREW", path: "/api/health", status: 405, message: "Method not allowed", allow: "GET, HEAD"},
		{name: "made-up method, unknown path", method: "BREW", path: "/nope", status: 404, message: "Not found: /nope"},
		{name: "TRACE", method: "TRACE", path: "/api/search", status: 405, message: "Method not allowed", allow: "GET, HEAD"},
		{name: "GET with a body", method: "GET", path: "/api/search", body: "{}", status: 413, message: "A GET request must not carry a body"},
		{name: "URI too long", method: "GET", path: long, status: 414, message: "Request URI too long (at most 8192 bytes)"},
		{name: "headers too large", method: "GET", path: "/api/search", header: []string{"X-Big", strings.Repeat("b", maxHeaderSize)},
			status: 431, message: "Request header fields too large"},
		{name: "invalid UTF-8 parameter", method: "GET", path: "/api/search?query=%ff%fe", status: 400,
			message: `parameter "query" is not valid UTF-8 text; URL-encode UTF-8 text`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			header := append([]string{"Authorization", "Bearer " + testPublicKey}, tc.header...)
			r := ts.do(t, tc.method, tc.path, body, header...)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d (body %.300s)", r.status, tc.status, r.body)
			}
			msg := r.errorMessage(t)
			if tc.message != "" && msg != tc.message {
				t.Errorf("message %q, want %q", msg, tc.message)
			}
			if got := r.header.Get("Allow"); got != tc.allow {
				t.Errorf("Allow = %q, want %q", got, tc.allow)
			}
		})
	}
}

func TestEngineFailures(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		status  int
		message string
	}{
		{"unavailable", fmt.Errorf("es: %w", search.ErrUnavailable), 503, "Search backend unavailable; retry shortly"},
		{"deadline", context.DeadlineExceeded, 503, "Search backend unavailable; retry shortly"},
		{"invalid from engine", &search.InvalidError{Message: "narrow the search"}, 400, "narrow the search"},
		{"bug", errors.New("index out of sync"), 500, "Internal server error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine()
			eng.search = func(context.Context, search.Request) (*search.Result, error) { return nil, tc.err }
			ts := startServer(t, Options{Engine: eng})
			r := ts.get(t, "/api/search?query=x")
			if r.status != tc.status {
				t.Fatalf("status %d, want %d", r.status, tc.status)
			}
			if msg := r.errorMessage(t); msg != tc.message {
				t.Errorf("message %q, want %q", msg, tc.message)
			}
			if lh := limitHeaders(r); lh[0] == "" {
				t.Error("rate-limit headers missing on an engine failure")
			}
			if strings.Contains(string(r.body), "index out of sync") {
				t.Error("internal error detail leaked to the client")
			}
		})
	}
}

func TestPanicRecovery(t *testing.T) {
	eng := newFakeEngine()
	var calls int
	var mu sync.Mutex
	normal := eng.search
	eng.search = func(ctx context.Context, req search.Request) (*search.Result, error) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 1 {
			panic("engine exploded")
		}
		return normal(ctx, req)
	}
	ts := startServer(t, Options{Engine: eng})
	r := ts.get(t, "/api/search")
	if r.status != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", r.status)
	}
	if msg := r.errorMessage(t); msg != "Internal server error" {
		t.Errorf("message %q", msg)
	}
	if r := ts.get(t, "/api/search"); r.status != http.StatusOK {
		t.Errorf("after the panic: status %d, want 200", r.status)
	}
	logs := ts.logs.String()
	if !strings.Contains(logs, "engine exploded") || !strings.Contains(logs, "goroutine") {
		t.Error("the panic and its stack were not logged")
	}
}

func TestRequestID(t *testing.T) {
	ts := startServer(t, Options{})
	tests := []struct {
		in   string
		keep bool
	}{
		{"abc-123", true},
		{"trace:7f/2=", true},
		{"has space", false},
		{strings.Repeat("a", maxRequestID+1), false},
		{"", false},
	}
	seen := map[string]bool{}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			var h []string
			if tc.in != "" {
				h = []string{"X-Request-ID", tc.in}
			}
			r := ts.get(t, "/api/health", h...)
			got := r.header.Get("X-Request-ID")
			if tc.keep && got != tc.in {
				t.Errorf("X-Request-ID = %q, want %q echoed", got, tc.in)
			}
			if !tc.keep && (got == "" || got == tc.in || seen[got]) {
				t.Errorf("X-Request-ID = %q, want a fresh id", got)
			}
			seen[got] = true
		})
	}
	if !strings.Contains(ts.logs.String(), `"request_id":"abc-123"`) {
		t.Error("request id not in the access log")
	}
}

func TestClientIPBehindProxy(t *testing.T) {
	tests := []struct {
		name    string
		trusted []netip.Prefix
		// Two clients' X-Forwarded-For values; each sends two requests
		// with a budget of 2.
		xff [2]string
	}{
		{"trusted proxy: separate budgets", []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")},
			[2]string{"198.51.100.1", "198.51.100.2"}},
		{"untrusted peer: forged headers share the peer's budget", nil,
			[2]string{"198.51.100.1", "198.51.100.2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, Options{RateLimitPerHour: 2, TrustedProxies: tc.trusted, Now: fixedClock(testNow)})
			var statuses []int
			for range 3 {
				for c := range 2 {
					r := ts.get(t, "/api/search", "X-Forwarded-For", "6.6.6.6, "+tc.xff[c])
					statuses = append(statuses, r.status)
				}
			}
			want := []int{200, 200, 200, 200, 429, 429}
			if tc.trusted == nil {
				want = []int{200, 200, 429, 429, 429, 429}
			}
			if diff := cmp.Diff(want, statuses); diff != "" {
				t.Errorf("statuses mismatch (-want +got):\n%s", diff)
			}
			client := "198.51.100.2"
			if tc.trusted == nil {
				client = "127.0.0.1"
			}
			if !strings.Contains(ts.logs.String(), `"client":"`+client+`"`) {
				t.Errorf("access log does not name client %s", client)
			}
		})
	}
}

func TestMount(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr, _ := ClientAddr(r.Context())
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Handler", "mcp")
		w.WriteHeader(http.StatusAccepted)
		fmt.Fprintf(w, `{"client":%q,"body":%q,"method":%q}`, addr, body, r.Method)
	})
	ts := startServer(t, Options{RateLimitPerHour: 2, Now: fixedClock(testNow)}, func(s *Server) {
		if err := s.Mount("/api/mcp", echo, Methods(http.MethodPost)); err != nil {
			t.Fatal(err)
		}
		if err := s.Mount("/explorer/*", echo, Methods(http.MethodGet)); err != nil {
			t.Fatal(err)
		}
		if err := s.Mount("relative", echo); err == nil {
			t.Error("Mount accepted a relative path")
		}
	})
	r := ts.do(t, http.MethodPost, "/api/mcp", strings.NewReader(`{"jsonrpc":"2.0"}`), "Content-Type", "application/json")
	if r.status != http.StatusAccepted {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	want := `{"client":"127.0.0.1","body":"{\"jsonrpc\":\"2.0\"}","method":"POST"}`
	if diff := cmp.Diff(want, string(r.body)); diff != "" {
		t.Errorf("body mismatch (-want +got):\n%s", diff)
	}
	if r.header.Get("X-Handler") != "mcp" || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("handler headers lost: %v", r.header)
	}
	if diff := cmp.Diff([3]string{"2", "1", strconv.FormatInt(testReset.Unix(), 10)}, limitHeaders(r)); diff != "" {
		t.Errorf("limit headers mismatch (-want +got):\n%s", diff)
	}
	if r := ts.do(t, http.MethodGet, "/api/mcp", nil); r.status != 405 || r.header.Get("Allow") != "POST" {
		t.Errorf("GET /api/mcp: status %d, Allow %q; want 405 and POST", r.status, r.header.Get("Allow"))
	}
	// MCP shares the per-IP budget with the public key.
	if r := ts.get(t, "/api/search"); r.status != 200 {
		t.Fatalf("search: status %d", r.status)
	}
	if r := ts.do(t, http.MethodPost, "/api/mcp", strings.NewReader(`{}`)); r.status != 429 {
		t.Errorf("third request of the IP: status %d, want 429", r.status)
	}
	// Every mount is charged: a subtree mount answers 429 with the
	// interface's body once the budget is spent.
	r = ts.do(t, http.MethodGet, "/explorer/app.js", nil)
	if r.status != http.StatusTooManyRequests {
		t.Errorf("GET /explorer/app.js over the budget: status %d, want 429", r.status)
	}
	if msg := r.errorMessage(t); msg != "Rate limit exceeded" {
		t.Errorf("429 message %q", msg)
	}
	if diff := cmp.Diff([3]string{"2", "0", strconv.FormatInt(testReset.Unix(), 10)}, limitHeaders(r)); diff != "" {
		t.Errorf("429 limit headers mismatch (-want +got):\n%s", diff)
	}
}

func TestMetrics(t *testing.T) {
	ts := startServer(t, Options{RateLimitPerHour: 2, Now: fixedClock(testNow)})
	for range 3 {
		ts.get(t, "/api/search")
	}
	ts.get(t, "/nope")
	ts.do(t, http.MethodGet, "/openapi.json", nil)
	r := ts.metrics(t, http.MethodGet, "/metrics")
	if r.status != 200 {
		t.Fatalf("status %d", r.status)
	}
	body := string(r.body)
	for _, want := range []string{
		`http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="200",http_route="/api/search"`,
		`http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="429",http_route="/api/search"`,
		// No route matched: no http.route, as the HTTP conventions say.
		`http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="404"}`,
		`http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="429",http_route="/openapi.json"`,
		`productsearch_engine_duration_seconds_count{operation="search"`,
		`productsearch_ratelimit_rejections_total{scope="ip"`,
		"\nproductsearch_catalog_items 12\n",
		"\nproductsearch_catalog_age_seconds ",
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("Content-Type = %q", ct)
	}
}

// TestMetricsServer checks the routes of the operators' listener: GET and
// HEAD /metrics, 405 for other methods, 404 for other paths.
func TestMetricsServer(t *testing.T) {
	ts := startServer(t, Options{})
	tests := []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/metrics", http.StatusOK},
		{http.MethodHead, "/metrics", http.StatusOK},
		{http.MethodPost, "/metrics", http.StatusMethodNotAllowed},
		{http.MethodGet, "/", http.StatusNotFound},
		{http.MethodGet, "/api/search", http.StatusNotFound},
		{http.MethodGet, "/metrics/extra", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			if r := ts.metrics(t, tt.method, tt.path); r.status != tt.status {
				t.Errorf("status %d, want %d", r.status, tt.status)
			}
		})
	}
}

func TestOpenAPIRenderings(t *testing.T) {
	ts := startServer(t, Options{})
	j := ts.do(t, http.MethodGet, "/openapi.json", nil)
	y := ts.do(t, http.MethodGet, "/openapi.yaml", nil)
	if j.header.Get("Content-Type") != "application/json" || y.header.Get("Content-Type") != "application/yaml" {
		t.Errorf("content types %q, %q", j.header.Get("Content-Type"), y.header.Get("Content-Type"))
	}
	var doc map[string]any
	if err := json.Unmarshal(j.body, &doc); err != nil {
		t.Fatal(err)
	}
	info, _ := doc["info"].(map[string]any)
	if doc["openapi"] != "3.1.1" || info["version"] != Version {
		t.Errorf("openapi %v, version %v", doc["openapi"], info["version"])
	}
	if string(y.body) != string(OpenAPI()) {
		t.Error("/openapi.yaml differs from the embedded document")
	}
	// Aliases are resolved in the JSON rendering.
	paths := doc["paths"].(map[string]any)
	ok200 := paths["/api/product/{id}"].(map[string]any)["get"].(map[string]any)["responses"].(map[string]any)["200"].(map[string]any)
	if _, ok := ok200["headers"].(map[string]any)["X-RateLimit-Limit"]; !ok {
		t.Error("YAML alias of the rate-limit headers not resolved in JSON")
	}
}

func TestNewValidation(t *testing.T) {
	if _, err := New(Options{RateLimitPerHour: 1}); err == nil {
		t.Error("New without an engine succeeded")
	}
	if _, err := New(Options{Engine: newFakeEngine()}); err == nil {
		t.Error("New without a rate limit succeeded")
	}
}

// TestProductWithoutAttributes checks that a product without attributes or offers
// still encodes as the schema requires ({} and []).
func TestProductWithoutAttributes(t *testing.T) {
	eng := newFakeEngine()
	eng.products["bare"] = &catalog.Product{ID: "bare", Title: "Bare", Price: 1, Currency: "GBP",
		Availability: catalog.InStock, PurchaseURL: "https://x.example/p", Category: "Audio", ProductType: catalog.TypeProduct}
	ts := startServer(t, Options{Engine: eng})
	r := ts.get(t, "/api/product/bare")
	var got map[string]any
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{}, got["attributes"]); diff != "" {
		t.Errorf("attributes mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{}, got["offers"]); diff != "" {
		t.Errorf("offers mismatch (-want +got):\n%s", diff)
	}
}

func TestTracing(t *testing.T) {
	tel, exp := tracedTelemetry(t, telemetry.DefaultSampler())
	ts := startServer(t, Options{Telemetry: tel})
	// The caller samples its trace: the server continues it.
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	r := ts.get(t, "/api/search?limit=1", "traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	if r.status != 200 {
		t.Fatalf("status %d", r.status)
	}
	if err := tel.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range exp.GetSpans() {
		if s.SpanContext.TraceID().String() != traceID {
			t.Errorf("span %s has trace %s, want the caller's %s", s.Name, s.SpanContext.TraceID(), traceID)
		}
		names = append(names, s.Name)
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"GET /api/search", "engine.search"}, names); diff != "" {
		t.Errorf("span names mismatch (-want +got):\n%s", diff)
	}
}

// TestSpanAttributesOutliveRequest checks that the attributes of exported
// spans still hold the values of their own request after the server has
// reused its buffers for the next requests on the same connection.
func TestSpanAttributesOutliveRequest(t *testing.T) {
	tel, exp := tracedTelemetry(t, telemetry.DefaultSampler())
	ts := startServer(t, Options{Telemetry: tel})
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	requests := []struct {
		method, path, rid, name string
	}{
		{http.MethodGet, "/api/search?limit=1", "first-request-0001", "GET /api/search"},
		{http.MethodHead, "/api/health", "second-request-02", "HEAD /api/health"},
		{http.MethodGet, "/api/product/dell-xps-13", "third-3", "GET /api/product/{id}"},
		{http.MethodDelete, "/openapi.json", "fourth-request-id-004", "DELETE"},
	}
	for _, rq := range requests {
		ts.do(t, rq.method, rq.path, nil, "traceparent", parent, "X-Request-ID", rq.rid)
	}
	if err := tel.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range exp.GetSpans() {
		if s.SpanKind != trace.SpanKindServer {
			continue
		}
		attrs := map[string]string{}
		for _, kv := range s.Attributes {
			attrs[string(kv.Key)] = kv.Value.String()
		}
		got[attrs["http.request_id"]] = s.Name + " " + attrs["http.request.method"] + " " + attrs["url.path"]
	}
	want := map[string]string{}
	for _, rq := range requests {
		path, _, _ := strings.Cut(rq.path, "?")
		want[rq.rid] = rq.name + " " + rq.method + " " + path
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("server spans mismatch (-want +got):\n%s", diff)
	}
}

// TestMountedHandlerSeesSpanAndClient checks what the request context of a
// mounted net/http handler carries: the server span of the request (so its
// own spans join the caller's trace) and the client address.
func TestMountedHandlerSeesSpanAndClient(t *testing.T) {
	tel, _ := tracedTelemetry(t, telemetry.DefaultSampler())
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr, _ := ClientAddr(r.Context())
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "%s %s", trace.SpanFromContext(r.Context()).SpanContext().TraceID(), addr)
	})
	ts := startServer(t, Options{Telemetry: tel}, func(s *Server) {
		if err := s.Mount("/api/mcp", h, Methods(http.MethodPost)); err != nil {
			t.Fatal(err)
		}
	})
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	tests := []struct {
		name   string
		header []string
		want   string
	}{
		{"sampled caller", []string{"traceparent", "00-" + traceID + "-00f067aa0ba902b7-01"}, traceID + " 127.0.0.1"},
		{"caller not sampled", []string{"traceparent", "00-" + traceID + "-00f067aa0ba902b7-00"}, traceID + " 127.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do(t, http.MethodPost, "/api/mcp", strings.NewReader("{}"), tt.header...)
			if diff := cmp.Diff(tt.want, string(r.body)); diff != "" {
				t.Errorf("body mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
