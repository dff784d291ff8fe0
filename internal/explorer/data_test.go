package explorer

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/search"
)

// parityCase is a request answered by both the REST API (with the public
// key) and the explorer's data endpoints, which share the REST handlers.
type parityCase struct {
	kind string // "search" or "product"
	arg  string // raw query string or raw escaped id
}

func (c parityCase) paths() (rest, explorer string) {
	if c.kind == "product" {
		return "/api/product/" + c.arg, PathProduct + c.arg
	}
	if c.arg == "" {
		return "/api/search", PathSearch
	}
	return "/api/search?" + c.arg, PathSearch + "?" + c.arg
}

// parityCases cover success, validation errors and missing products.
var parityCases = []parityCase{
	{"search", "category=Laptops&sort=price_asc&limit=2"},
	{"search", "category=Laptops&constraints=%7B%22memory_gb%22%3A%7B%22gte%22%3A16%7D%7D"},
	{"search", "query=laptop+24GB+RAM"},
	{"search", ""},
	{"search", "q=laptop"},
	{"search", "limit=abc"},
	{"search", "category=Laptops&constraints=not-json"},
	{"search", "query=%FF%FE"},
	{"search", "%C3%28=1"},
	{"product", "lenovo-thinkpad-e14"},
	{"product", "bytebarn-apple-macbook-pro-16"},
	{"product", "no-such-product"},
	{"product", "lenovo%2Dthinkpad%2De14"},
	{"product", "%FF"},
}

// TestParity checks that the explorer endpoints answer every parity case
// with the REST API's status, content type and bytes.
func TestParity(t *testing.T) {
	base := startServer(t, fixtureEngine(t), 100000, nil)
	statuses := map[int]int{}
	for _, c := range parityCases {
		restPath, explorerPath := c.paths()
		t.Run(explorerPath, func(t *testing.T) {
			want := fetch(t, http.MethodGet, base+restPath, "Authorization", "Bearer "+testKey)
			got := fetch(t, http.MethodGet, base+explorerPath)
			statuses[want.status]++
			if got.status != want.status {
				t.Errorf("%s: status %d, REST %s: %d (body %s)", explorerPath, got.status, restPath, want.status, got.body)
			}
			if g, w := got.header.Get("Content-Type"), want.header.Get("Content-Type"); g != w {
				t.Errorf("%s: Content-Type %q, REST %q", explorerPath, g, w)
			}
			if diff := cmp.Diff(string(want.body), string(got.body)); diff != "" {
				t.Errorf("%s: body mismatch (-want +got):\n%s", explorerPath, diff)
			}
			if got.header.Get("X-RateLimit-Limit") == "" {
				t.Errorf("%s: no X-RateLimit-Limit header", explorerPath)
			}
		})
	}
	// The cases must cover success, validation errors and missing products.
	for _, status := range []int{http.StatusOK, http.StatusBadRequest, http.StatusNotFound} {
		if statuses[status] == 0 {
			t.Errorf("no parity case answered %d; cases cover %v", status, statuses)
		}
	}
}

// TestParityEngineFailures checks the 503 and 500 answers against REST.
func TestParityEngineFailures(t *testing.T) {
	eng := &switchEngine{Engine: fixtureEngine(t)}
	base := startServer(t, eng, 100000, nil)
	tests := []struct {
		name   string
		err    error
		status int
	}{
		{"unavailable", fmt.Errorf("elasticsearch: %w", search.ErrUnavailable), http.StatusServiceUnavailable},
		{"internal", errors.New("index corrupted"), http.StatusInternalServerError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng.fail(tt.err)
			for _, c := range []parityCase{{"search", "category=Laptops"}, {"product", "lenovo-thinkpad-e14"}} {
				restPath, explorerPath := c.paths()
				want := fetch(t, http.MethodGet, base+restPath, "Authorization", "Bearer "+testKey)
				got := fetch(t, http.MethodGet, base+explorerPath)
				if want.status != tt.status || got.status != tt.status {
					t.Errorf("%s: status %d, REST %d, want %d", explorerPath, got.status, want.status, tt.status)
				}
				if diff := cmp.Diff(string(want.body), string(got.body)); diff != "" {
					t.Errorf("%s: body mismatch (-want +got):\n%s", explorerPath, diff)
				}
				if strings.Contains(string(got.body), tt.err.Error()) {
					t.Errorf("%s: body %s leaks the internal error", explorerPath, got.body)
				}
			}
		})
	}
}

// TestRateLimit checks that every explorer request (pages, assets and the
// keyless data endpoints) spends the client IP's hourly budget, shared with
// the REST API, with the rate-limit headers; and that once it is spent each
// answers 429 with the interface's body while health still answers.
func TestRateLimit(t *testing.T) {
	// A fixed clock in the middle of an hour: the window cannot roll over
	// during the test, and the reset time is known.
	now := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	e, err := New(Options{Engine: fixtureEngine(t)})
	if err != nil {
		t.Fatal(err)
	}
	appJS, _ := e.assets.url("app.js")
	icon, _ := e.assets.url("favicon.svg")
	auth := []string{"Authorization", "Bearer " + testKey}
	charged := []struct {
		path   string
		header []string
	}{
		{"/", nil},
		{PathDocs, nil},
		{appJS, nil},
		{icon, nil},
		{PathSearch + "?category=Laptops", nil},
		{PathProduct + "lenovo-thinkpad-e14", nil},
		{"/api/search?category=Laptops", auth},
	}
	limit := len(charged)
	base := startServer(t, fixtureEngine(t), limit, func() time.Time { return now })

	var remaining []string
	for _, c := range charged {
		r := fetch(t, http.MethodGet, base+c.path, c.header...)
		if r.status != http.StatusOK {
			t.Fatalf("GET %s: status %d, body %s", c.path, r.status, r.body)
		}
		if got := r.header.Get("X-RateLimit-Limit"); got != strconv.Itoa(limit) {
			t.Errorf("GET %s: X-RateLimit-Limit %q, want %d", c.path, got, limit)
		}
		if got, want := r.header.Get("X-RateLimit-Reset"), strconv.FormatInt(now.Truncate(time.Hour).Add(time.Hour).Unix(), 10); got != want {
			t.Errorf("GET %s: X-RateLimit-Reset %q, want %s", c.path, got, want)
		}
		remaining = append(remaining, r.header.Get("X-RateLimit-Remaining"))
	}
	var want []string
	for i := limit - 1; i >= 0; i-- {
		want = append(want, strconv.Itoa(i))
	}
	if diff := cmp.Diff(want, remaining); diff != "" {
		t.Errorf("X-RateLimit-Remaining mismatch (-want +got):\n%s", diff)
	}

	// The budget is spent: every path answers 429, a revalidation of a
	// cached page or asset included.
	for _, c := range charged {
		t.Run(c.path, func(t *testing.T) {
			r := fetch(t, http.MethodGet, base+c.path, append([]string{"If-None-Match", "*"}, c.header...)...)
			if r.status != http.StatusTooManyRequests {
				t.Fatalf("over the limit: status %d, want 429", r.status)
			}
			var body struct {
				Error   string `json:"error"`
				ResetAt string `json:"resetAt"`
			}
			if err := json.Unmarshal(r.body, &body); err != nil {
				t.Fatalf("429 body %s: %v", r.body, err)
			}
			if diff := cmp.Diff("Rate limit exceeded 2026-11-20T11:00:00Z", body.Error+" "+body.ResetAt); diff != "" {
				t.Errorf("429 body mismatch (-want +got):\n%s", diff)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("429 Content-Type %q", ct)
			}
			if got := r.header.Get("Retry-After"); got != "1800" {
				t.Errorf("429 Retry-After %q, want 1800", got)
			}
			if got := r.header.Get("X-RateLimit-Remaining"); got != "0" {
				t.Errorf("429 X-RateLimit-Remaining %q, want 0", got)
			}
			if cc := r.header.Get("Cache-Control"); cc != "" {
				t.Errorf("429 Cache-Control %q: a refusal must not be cached like the asset", cc)
			}
		})
	}
	if r := fetch(t, http.MethodGet, base+"/api/health"); r.status != http.StatusOK || r.header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("health over the limit: status %d, X-RateLimit-Limit %q; want 200 and none", r.status, r.header.Get("X-RateLimit-Limit"))
	}
}

// TestMethods checks that the data endpoints answer only GET and HEAD.
func TestMethods(t *testing.T) {
	base := startServer(t, fixtureEngine(t), 100000, nil)
	for _, p := range []string{PathSearch, PathProduct + "lenovo-thinkpad-e14", "/", PathDocs} {
		r := fetch(t, http.MethodPost, base+p)
		if r.status != http.StatusMethodNotAllowed {
			t.Errorf("POST %s: status %d, want 405", p, r.status)
		}
		r = fetch(t, http.MethodHead, base+p)
		if r.status != http.StatusOK || len(r.body) != 0 {
			t.Errorf("HEAD %s: status %d, %d body bytes; want 200 and none", p, r.status, len(r.body))
		}
	}
}

// TestProductPaths checks how the explorer's product route reads its id.
func TestProductPaths(t *testing.T) {
	base := startServer(t, fixtureEngine(t), 100000, nil)
	long := strings.Repeat("x", 513)
	tests := []struct {
		path    string
		status  int
		message string // for errors
	}{
		{path: PathProduct + "lenovo-thinkpad-e14", status: 200},
		{path: PathProduct + "lenovo-thinkpad-e14/", status: 200},
		{path: PathProduct + "lenovo%2Dthinkpad%2De14", status: 200},
		{path: PathProduct + "a%3Ab", status: 404, message: "Product not found: a:b"},
		{path: PathProduct + "a%2Fb", status: 404, message: "Product not found: a/b"},
		{path: PathProduct + "%C3%A9", status: 404, message: "Product not found: é"},
		{path: PathProduct, status: 404, message: "Not found: /api/explorer/product/"},
		{path: PathProduct + "a/b", status: 404, message: "Not found: /api/explorer/product/a/b"},
		{path: "/elsewhere/abc", status: 404, message: "Not found: /elsewhere/abc"},
		{path: PathProduct + "%FF", status: 404, message: "Product not found: \ufffd"},
		{path: PathProduct + long, status: 404, message: "Product not found: " + long[:120] + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r := fetch(t, http.MethodGet, base+tt.path)
			var body struct {
				Error string `json:"error"`
			}
			if tt.message != "" {
				if err := json.Unmarshal(r.body, &body); err != nil {
					t.Fatalf("body %s: %v", r.body, err)
				}
			}
			if diff := cmp.Diff(fmt.Sprint(tt.status, " ", tt.message), fmt.Sprint(r.status, " ", body.Error)); diff != "" {
				t.Errorf("GET %s mismatch (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}
