package api

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// fuzzServer serves the fixture catalog through the memory engine with a
// budget the fuzzer cannot spend.
func fuzzServer(f *testing.F) fasthttp.RequestHandler {
	s, err := New(Options{
		Engine: memoryEngine(f), Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		PublicKey: testPublicKey, RateLimitPerHour: 1 << 40,
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	return s.handler()
}

// serve runs one request through the handler and checks the answer: never
// a 5xx, always a JSON body.
func serve(t *testing.T, h fasthttp.RequestHandler, method, uri string) *fasthttp.RequestCtx {
	var req fasthttp.Request
	req.Header.SetMethod(method)
	req.SetRequestURI(uri)
	req.Header.Set("Authorization", "Bearer "+testPublicKey)
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
	h(&ctx)
	status := ctx.Response.StatusCode()
	if status >= 500 {
		t.Fatalf("%s %q: status %d, body %s", method, uri, status, ctx.Response.Body())
	}
	if method != fasthttp.MethodHead && !json.Valid(ctx.Response.Body()) {
		t.Fatalf("%s %q: status %d, body is not JSON: %q", method, uri, status, ctx.Response.Body())
	}
	return &ctx
}

// FuzzSearchQuery sends arbitrary query strings to GET /api/search.
func FuzzSearchQuery(f *testing.F) {
	for _, s := range []string{
		"query=laptop&limit=5", "category=Laptops&lite=true&constraints=%7B%22memory_gb%22%3A%7B%22gte%22%3A16%7D%7D",
		"min_price=1e308&max_price=-0", "sort=price_desc&offset=9999", "constraints=%7B%7D&brand=%00",
		"query=%ff", "limit=1&limit=2", "query=55%22+4K&category=TVs", "q=x", "constraints=%5B",
	} {
		f.Add(s)
	}
	h := fuzzServer(f)
	f.Fuzz(func(t *testing.T, q string) {
		ctx := serve(t, h, fasthttp.MethodGet, "/api/search?"+q)
		// A request target with bytes outside visible ASCII is not a
		// valid URI; it may fail to route (404), never worse.
		valid := !strings.ContainsFunc(q, func(r rune) bool { return r <= ' ' || r >= 0x7f })
		if s := ctx.Response.StatusCode(); valid && s != fasthttp.StatusOK && s != fasthttp.StatusBadRequest {
			t.Fatalf("%q: status %d, want 200 or 400: %s", q, s, ctx.Response.Body())
		}
	})
}

// FuzzProductPath sends arbitrary paths under /api/product/.
func FuzzProductPath(f *testing.F) {
	for _, s := range []string{"dell-xps-13", "argos-apple-iphone-15-128", "%zz", "a%2Fb", "..", "%00", ""} {
		f.Add(s)
	}
	h := fuzzServer(f)
	f.Fuzz(func(t *testing.T, id string) {
		serve(t, h, fasthttp.MethodGet, "/api/product/"+id)
	})
}
