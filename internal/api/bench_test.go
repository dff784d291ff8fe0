package api

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"testing"

	"github.com/valyala/fasthttp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
	"productsearch/internal/telemetry"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// benchEngine serves BENCH_CATALOG (a demo-size snapshot, e.g. from
// go run ./loadtest/gencatalog) or else the fixture.
func benchEngine(b *testing.B) search.Engine {
	b.Helper()
	snap := fixtureSnapshot()
	if p := os.Getenv("BENCH_CATALOG"); p != "" {
		var err error
		if snap, err = catalog.ReadSnapshot(p); err != nil {
			b.Fatal(err)
		}
	}
	eng, err := memory.New(snap, memory.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	return eng
}

// benchHandler runs requests through the full middleware chain without a
// network, to measure what the server adds to the engine.
func benchHandler(b *testing.B, eng search.Engine, tracing bool, sampler sdktrace.Sampler) fasthttp.RequestHandler {
	b.Helper()
	opt := Options{Engine: eng, Logger: slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn})),
		PublicKey: testPublicKey, Keys: map[string]int{benchKey: 1 << 40}, RateLimitPerHour: 1 << 40}
	if tracing {
		tel, err := telemetry.New(context.Background(), telemetry.Options{ServiceName: "bench", TraceExporter: tracetest.NewNoopExporter(), Sampler: sampler})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { tel.Shutdown(context.Background()) })
		opt.Telemetry = tel
	}
	s, err := New(opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s.handler()
}

func benchRequests(b *testing.B, h fasthttp.RequestHandler, uris []string) {
	reqs := make([]fasthttp.Request, len(uris))
	for i, u := range uris {
		reqs[i].SetRequestURI(u)
		reqs[i].Header.Set("Authorization", "Bearer "+benchKey)
	}
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}
	var ctx fasthttp.RequestCtx
	i := 0
	for b.Loop() {
		ctx.Init(&reqs[i%len(reqs)], addr, nil)
		h(&ctx)
		if ctx.Response.StatusCode() != 200 {
			b.Fatalf("%s: status %d: %s", uris[i%len(uris)], ctx.Response.StatusCode(), ctx.Response.Body())
		}
		i++
	}
}

// productURIs returns detail URIs of products the engine holds.
func productURIs(b *testing.B, eng search.Engine) []string {
	res, err := eng.Search(context.Background(), search.Request{Limit: 20, Sort: search.SortRelevance})
	if err != nil {
		b.Fatal(err)
	}
	var uris []string
	for _, h := range res.Products {
		uris = append(uris, "/api/product/"+url.PathEscape(h.Product.ID))
	}
	return uris
}

var benchSearches = []string{
	"/api/search?category=Laptops&limit=20",
	"/api/search?query=ThinkPad&category=Laptops&limit=20",
	"/api/search?brand=Samsung&category=TVs&limit=20",
	"/api/search?category=Monitors&constraints=%7B%22refresh_hz%22%3A%7B%22gte%22%3A144%7D%7D&limit=20",
	"/api/search?query=iPhone+15&limit=20",
	"/api/search?category=Phones&min_price=300&max_price=900&limit=20",
}

func withLite(uris []string) []string {
	out := make([]string, len(uris))
	for i, u := range uris {
		out[i] = u + "&lite=true"
	}
	return out
}

// BenchmarkServer measures a request through the whole server (routing,
// auth, rate limit, metrics, log level check, encoding) per endpoint;
// BenchmarkEngine the engine alone for the same searches.
func BenchmarkServer(b *testing.B) {
	eng := benchEngine(b)
	for _, mode := range []struct {
		name    string
		tracing bool
		sampler sdktrace.Sampler
	}{
		{"untraced", false, nil},
		{"traced-default-sampler", true, telemetry.DefaultSampler()},
		{"traced-always", true, sdktrace.AlwaysSample()},
	} {
		name := mode.name
		h := benchHandler(b, eng, mode.tracing, mode.sampler)
		b.Run(name+"/health", func(b *testing.B) { benchRequests(b, h, []string{"/api/health"}) })
		b.Run(name+"/lite", func(b *testing.B) { benchRequests(b, h, withLite(benchSearches)) })
		b.Run(name+"/full", func(b *testing.B) { benchRequests(b, h, benchSearches) })
		b.Run(name+"/product", func(b *testing.B) { benchRequests(b, h, productURIs(b, eng)) })
	}
}

func BenchmarkEngine(b *testing.B) {
	eng := benchEngine(b)
	ctx := context.Background()
	for _, lite := range []bool{true, false} {
		name := "full"
		uris := benchSearches
		if lite {
			name, uris = "lite", withLite(benchSearches)
		}
		var reqs []search.Request
		for _, u := range uris {
			var args fasthttp.Args
			args.Parse(u[len("/api/search?"):])
			v := map[string][]string{}
			for k, val := range args.All() {
				v[string(k)] = append(v[string(k)], string(val))
			}
			r, err := search.ParseQuery(v)
			if err != nil {
				b.Fatal(err)
			}
			reqs = append(reqs, r)
		}
		b.Run(name, func(b *testing.B) {
			i := 0
			buf := make([]byte, 0, 64<<10)
			for b.Loop() {
				res, err := eng.Search(ctx, reqs[i%len(reqs)])
				if err != nil {
					b.Fatal(err)
				}
				buf = res.AppendJSON(buf[:0])
				i++
			}
		})
	}
}
