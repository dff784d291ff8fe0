package api

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/search"
	"productsearch/internal/telemetry"
)

// tracedServer serves with every request traced into the returned
// exporter.
func tracedServer(t *testing.T, opt Options, mounts ...func(*Server)) (*testServer, *telemetry.Telemetry, *tracetest.InMemoryExporter) {
	t.Helper()
	tel, exp := tracedTelemetry(t, sdktrace.AlwaysSample())
	opt.Telemetry = tel
	return startServer(t, opt, mounts...), tel, exp
}

// TestRequestLogJoinsTrace checks that the access log line of a request
// names the trace and the server span of the request.
func TestRequestLogJoinsTrace(t *testing.T) {
	ts, tel, exp := tracedServer(t, Options{})
	tests := []struct {
		name, path, rid string
		status          int
	}{
		{"search", "/api/search?limit=1", "log-search-1", 200},
		{"unknown product", "/api/product/nope", "log-product-2", 404},
		{"bad query", "/api/search?limit=x", "log-bad-3", 400},
	}
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	for _, tc := range tests {
		ts.get(t, tc.path, "traceparent", "00-"+traceID+"-00f067aa0ba902b7-01", "X-Request-ID", tc.rid)
	}
	if err := tel.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := map[string]string{} // request id to span id
	for _, s := range exp.GetSpans() {
		if s.SpanKind != trace.SpanKindServer {
			continue
		}
		for _, kv := range s.Attributes {
			if kv.Key == "http.request_id" {
				spans[kv.Value.AsString()] = s.SpanContext.SpanID().String()
			}
		}
	}
	lines := map[string][2]string{}
	sc := bufio.NewScanner(strings.NewReader(ts.logs.String()))
	for sc.Scan() {
		var line struct {
			Msg       string `json:"msg"`
			RequestID string `json:"request_id"`
			TraceID   string `json:"trace_id"`
			SpanID    string `json:"span_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if line.Msg == "request" {
			lines[line.RequestID] = [2]string{line.TraceID, line.SpanID}
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := [2]string{traceID, spans[tc.rid]}
			if diff := cmp.Diff(want, lines[tc.rid]); diff != "" || spans[tc.rid] == "" {
				t.Errorf("log line trace_id, span_id mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOperatorMetrics checks the metrics an operator pages on: limiter
// decisions both ways, requests in flight, the engine's availability, and
// catalog figures that stay those of the last healthy answer while the
// backend is down.
func TestOperatorMetrics(t *testing.T) {
	eng := newFakeEngine()
	ts := startServer(t, Options{Engine: eng, RateLimitPerHour: 2, Now: fixedClock(testNow)})
	for range 3 {
		ts.get(t, "/api/search")
	}
	healthy := eng.health
	steps := []struct {
		name   string
		health search.Health
		err    error
		want   []string
	}{
		{"healthy", healthy, nil, []string{
			`productsearch_ratelimit_allowed_total{scope="ip"} 2`,
			`productsearch_ratelimit_rejections_total{scope="ip"} 1`,
			`http_server_active_requests{http_request_method="GET",url_scheme="http"} 0`,
			"\nproductsearch_engine_up 1\n",
			"\nproductsearch_catalog_items 12\n",
			"\nproductsearch_catalog_age_seconds 30000\n",
		}},
		{"degraded", search.Health{Status: "degraded"}, nil, []string{
			"\nproductsearch_engine_up 0\n", "\nproductsearch_catalog_items 12\n", "\nproductsearch_catalog_age_seconds 30000\n",
		}},
		{"failing", search.Health{}, errors.New("connection refused"), []string{
			"\nproductsearch_engine_up 0\n", "\nproductsearch_catalog_items 12\n",
		}},
		{"back", healthy, nil, []string{"\nproductsearch_engine_up 1\n"}},
	}
	for _, st := range steps {
		eng.health, eng.healthErr = st.health, st.err
		body := string(ts.metrics(t, http.MethodGet, "/metrics").body)
		for _, w := range st.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: metrics lack %q", st.name, strings.TrimSpace(w))
			}
		}
	}
}

// TestServerSpans fires requests of different methods and routes at once
// and checks the attributes of every server span against its own request.
func TestServerSpans(t *testing.T) {
	ts, tel, exp := tracedServer(t, Options{RateLimitPerHour: 1 << 20})
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(ts.URL, "http://"))
	type want struct{ name, method, route, status, errType string }
	requests := []struct {
		method, path string
		want         want
	}{
		{http.MethodGet, "/api/search?limit=1", want{"GET /api/search", "GET", "/api/search", "200", ""}},
		{http.MethodPost, "/api/search", want{"POST", "POST", "", "405", ""}},
		{http.MethodHead, "/api/health", want{"HEAD /api/health", "HEAD", "/api/health", "200", ""}},
		{http.MethodGet, "/openapi.json", want{"GET /openapi.json", "GET", "/openapi.json", "200", ""}},
		{http.MethodGet, "/openapi.yaml", want{"GET /openapi.yaml", "GET", "/openapi.yaml", "200", ""}},
		{http.MethodGet, "/no/such/page", want{"GET", "GET", "", "404", ""}},
		{http.MethodDelete, "/api/product/x", want{"DELETE", "DELETE", "", "405", ""}},
	}
	const rounds = 8
	var wg sync.WaitGroup
	for i := range rounds {
		for j, rq := range requests {
			wg.Go(func() {
				ts.do(t, rq.method, rq.path, nil, "Authorization", "Bearer "+testPublicKey,
					"User-Agent", "probe/"+strconv.Itoa(j), "X-Request-ID", fmt.Sprintf("r%d-%d", i, j))
			})
		}
	}
	wg.Wait()
	if err := tel.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, s := range exp.GetSpans() {
		if s.SpanKind != trace.SpanKindServer {
			continue
		}
		attrs := map[string]string{}
		for _, kv := range s.Attributes {
			attrs[string(kv.Key)] = kv.Value.String()
		}
		var i, j int
		if _, err := fmt.Sscanf(attrs["http.request_id"], "r%d-%d", &i, &j); err != nil {
			t.Fatalf("span %s: request id %q", s.Name, attrs["http.request_id"])
		}
		seen++
		w := requests[j].want
		path, _, _ := strings.Cut(requests[j].path, "?")
		wantAttrs := map[string]string{
			"http.request.method": w.method, "url.path": path, "url.scheme": "http", "http.request_id": attrs["http.request_id"],
			"client.address": "127.0.0.1", "server.address": host, "server.port": port,
			"user_agent.original": "probe/" + strconv.Itoa(j), "http.response.status_code": w.status,
		}
		if w.route != "" {
			wantAttrs["http.route"] = w.route
		}
		if diff := cmp.Diff(wantAttrs, attrs); diff != "" || s.Name != w.name {
			t.Errorf("span %q (want %q) of %s %s: attributes mismatch (-want +got):\n%s", s.Name, w.name, requests[j].method, requests[j].path, diff)
		}
	}
	if seen != rounds*len(requests) {
		t.Errorf("%d server spans, want %d", seen, rounds*len(requests))
	}
}

// TestServerErrorSpan checks that a 5xx answer is an error span with
// error.type.
func TestServerErrorSpan(t *testing.T) {
	eng := newFakeEngine()
	eng.search = func(context.Context, search.Request) (*search.Result, error) { return nil, errors.New("boom") }
	ts, tel, exp := tracedServer(t, Options{Engine: eng})
	r := ts.get(t, "/api/search")
	if err := tel.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, s := range exp.GetSpans() {
		if s.SpanKind != trace.SpanKindServer {
			continue
		}
		var errType string
		for _, kv := range s.Attributes {
			if kv.Key == "error.type" {
				errType = kv.Value.String()
			}
		}
		if want := strconv.Itoa(r.status); errType != want || s.Status.Code != codes.Error {
			t.Errorf("span %s: error.type %q, status %v; want %q and an error", s.Name, errType, s.Status, want)
		}
	}
}

// tracedTelemetry returns telemetry that records spans, sampled by
// sampler, in memory, shut down when the test ends.
func tracedTelemetry(t *testing.T, sampler sdktrace.Sampler) (*telemetry.Telemetry, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tel, err := telemetry.New(context.Background(), telemetry.Options{ServiceName: "test", TraceExporter: exp, Sampler: sampler})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tel.Shutdown(context.Background()) })
	return tel, exp
}
