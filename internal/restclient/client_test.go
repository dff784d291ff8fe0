package restclient

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/search"
)

func f(v float64) *float64 { return &v }

func TestSearchQuery(t *testing.T) {
	tests := []struct {
		name string
		req  search.Request
		want string
	}{
		{"defaults", search.Request{Limit: 50, Sort: search.SortRelevance, Lite: true}, "limit=50&lite=true&sort=relevance"},
		{"everything", search.Request{
			Query: "RTX 4070", MinPrice: f(500), MaxPrice: f(1999.99), Brand: "ASUS", Category: "Cables & Chargers",
			Constraints: search.Constraints{"memory_gb": {Gte: f(16)}, "screen_in": {Gte: f(15), Lte: f(16)}},
			Limit:       20, Offset: 40, Sort: search.SortPriceAsc,
		}, "brand=ASUS&category=Cables+%26+Chargers" +
			"&constraints=%7B%22memory_gb%22%3A%7B%22gte%22%3A16%7D%2C%22screen_in%22%3A%7B%22gte%22%3A15%2C%22lte%22%3A16%7D%7D" +
			"&limit=20&lite=false&max_price=1999.99&min_price=500&offset=40&query=RTX+4070&sort=price_asc"},
		{"zero prices left out", search.Request{MinPrice: f(0), MaxPrice: f(0), Lite: true}, "lite=true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, SearchQuery(tt.req).Encode()); diff != "" {
				t.Errorf("query mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSearchQueryRoundTrip checks that the API parses the encoded query
// back into the same request.
func TestSearchQueryRoundTrip(t *testing.T) {
	req := search.Request{
		Query: "Galaxy S24", MinPrice: f(99.5), MaxPrice: f(700), Brand: "Samsung", Category: "Phones",
		Constraints: search.Constraints{"storage_gb": {Gte: f(256)}}, Limit: 10, Offset: 10, Sort: search.SortPriceDesc, Lite: true,
	}
	got, err := search.ParseQuery(SearchQuery(req))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(req, got); diff != "" {
		t.Errorf("request mismatch (-sent +parsed):\n%s", diff)
	}
}

func newClient(t *testing.T, base string, opt Options) *Client {
	t.Helper()
	opt.BaseURL = base
	if opt.APIKey == "" {
		opt.APIKey = "key-123456"
	}
	c, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRequests(t *testing.T) {
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.EscapedPath()+"?"+r.URL.RawQuery+" "+r.Header.Get("Authorization")+" "+r.Header.Get("User-Agent"))
		io.WriteString(w, `{"products":[],"total":0}`)
	}))
	defer ts.Close()
	c := newClient(t, ts.URL+"/prefix/", Options{UserAgent: "test/1"})
	ctx := context.Background()
	if _, err := c.Search(ctx, search.Request{Category: "TVs", Limit: 5, Lite: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Product(ctx, "a b/c?d"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GET /prefix/api/search?category=TVs&limit=5&lite=true Bearer key-123456 test/1",
		"GET /prefix/api/product/a%20b%2Fc%3Fd? Bearer key-123456 test/1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	now := time.Date(2030, 1, 1, 11, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		status  int
		header  map[string]string
		body    string
		product bool
		check   func(error) bool
		want    string
	}{
		{"ok", 200, nil, `{"products":[],"total":0}`, false, func(err error) bool { return err == nil }, ""},
		{"not JSON", 200, nil, `<html>`, false, isClientError(200), "answered with something that is not JSON: is PRODUCT_SEARCH_BASE_URL the base address"},
		{"invalid", 400, nil, `{"error":"limit 500 is above the maximum of 100"}`, false, isInvalid, "limit 500 is above the maximum of 100"},
		{"invalid without message", 400, nil, `oops`, false, isClientError(400), "rejected the request as invalid (400)"},
		{"key rejected", 401, nil, `{"error":"Unauthorized"}`, false, isClientError(401), "rejected the API key (401 Unauthorized): set PRODUCT_SEARCH_API_KEY"},
		{"unknown product", 404, nil, `{"error":"Product not found: x"}`, true, func(err error) bool { return errors.Is(err, search.ErrNotFound) }, `product "x": product not found`},
		{"no search route", 404, nil, `{"error":"Not found: /api/search"}`, false, isClientError(404), "has no /api/search"},
		{"rate limited", 429, map[string]string{"X-RateLimit-Reset": "1893499200"}, `{"error":"Rate limit exceeded","resetAt":"2030-01-01T12:00:00Z"}`, false,
			isClientError(429), "rate limit is exceeded until 2030-01-01T12:00:00Z; retry after 3600 s"},
		{"rate limited, header only", 429, map[string]string{"X-RateLimit-Reset": "1893499200"}, ``, false,
			isClientError(429), "until 2030-01-01T12:00:00Z; retry after 3600 s"},
		{"rate limited, Retry-After", 429, map[string]string{"Retry-After": "42"}, `{}`, false, isClientError(429), "exceeded; retry after 42 s"},
		{"server error", 503, nil, `{"error":"Search backend unavailable; retry shortly"}`, false, isClientError(503), "failed (503: Search backend unavailable; retry shortly); retry in a little while"},
		{"teapot", 418, nil, ``, false, isClientError(418), "answered 418: I'm a teapot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			defer ts.Close()
			c := newClient(t, ts.URL, Options{Now: func() time.Time { return now }})
			var err error
			if tt.product {
				_, err = c.Product(context.Background(), "x")
			} else {
				_, err = c.Search(context.Background(), search.Request{})
			}
			if !tt.check(err) {
				t.Fatalf("err = %#v (%v): wrong kind", err, err)
			}
			if err != nil && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("message %q does not contain %q", err, tt.want)
			}
		})
	}
}

func isInvalid(err error) bool {
	var invalid *search.InvalidError
	return errors.As(err, &invalid)
}

func isClientError(status int) func(error) bool {
	return func(err error) bool {
		var e *Error
		return errors.As(err, &e) && e.Status == status
	}
}

func TestUnreachable(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	base := ts.URL
	ts.Close()
	c := newClient(t, base, Options{})
	_, err := c.Search(context.Background(), search.Request{})
	if !isClientError(0)(err) {
		t.Fatalf("err = %v, want *Error without a status", err)
	}
	for _, want := range []string{"cannot reach the product search API at " + base + ": ", "connection refused",
		"Is the server running? Set PRODUCT_SEARCH_BASE_URL to its address"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q does not contain %q", err, want)
		}
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer ts.Close()
	defer close(release)
	c := newClient(t, ts.URL, Options{Timeout: 50 * time.Millisecond})
	_, err := c.Product(context.Background(), "x")
	if !isClientError(0)(err) || !strings.Contains(err.Error(), "did not answer within 50ms") {
		t.Errorf("err = %v, want a timeout message", err)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		opt  Options
		base string
		err  string
	}{
		{Options{APIKey: "k-12345678"}, DefaultBaseURL, ""},
		{Options{BaseURL: " https://search.example.com/api-root/ ", APIKey: "k"}, "https://search.example.com/api-root", ""},
		{Options{BaseURL: "localhost:8080", APIKey: "k"}, "", `PRODUCT_SEARCH_BASE_URL "localhost:8080" is not an http(s) base address; use e.g. http://127.0.0.1:8080`},
		{Options{BaseURL: "http://h/?x=1", APIKey: "k"}, "", `is not an http(s) base address`},
		{Options{}, "", "PRODUCT_SEARCH_API_KEY is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.opt.BaseURL, func(t *testing.T) {
			c, err := New(tt.opt)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.BaseURL() != tt.base {
				t.Errorf("base %q, want %q", c.BaseURL(), tt.base)
			}
		})
	}
}

// roundTripper answers every request with one canned response.
type roundTripper struct {
	status int
	header http.Header
	body   []byte
}

func (rt roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: rt.status, Header: rt.header, Body: io.NopCloser(strings.NewReader(string(rt.body))), Request: r}, nil
}

// FuzzResponse checks that any API answer gives a body or an error of a
// known kind with a message, and never a panic.
func FuzzResponse(f *testing.F) {
	f.Add(200, "", []byte(`{"products":[]}`))
	f.Add(429, "1893499200", []byte(`{"resetAt":"not a time"}`))
	f.Add(429, "x", []byte(`{"resetAt":"2030-01-01T12:00:00+01:00"}`))
	f.Add(400, "", []byte(`{"error":5}`))
	f.Add(503, "", []byte{0xff})
	f.Fuzz(func(t *testing.T, status int, reset string, body []byte) {
		if status < 100 || status > 999 {
			return
		}
		h := http.Header{}
		h.Set("X-RateLimit-Reset", reset)
		h.Set("Retry-After", reset)
		c := newClient(t, DefaultBaseURL, Options{Transport: roundTripper{status, h, body}})
		got, err := c.Product(context.Background(), "id")
		var ce *Error
		switch {
		case err == nil:
			if status != 200 || string(got) != string(body) {
				t.Fatalf("status %d: body %q returned without error", status, got)
			}
		case errors.As(err, &ce), isInvalid(err), errors.Is(err, search.ErrNotFound):
			if err.Error() == "" {
				t.Fatal("empty message")
			}
		default:
			t.Fatalf("unexpected error kind %T: %v", err, err)
		}
	})
}
