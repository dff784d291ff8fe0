package elastic

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestEndpoint(t *testing.T) {
	tests := []struct{ method, path, want string }{
		{http.MethodPost, "/products/_search", "search"},
		{http.MethodPost, "/_msearch", "msearch"},
		{http.MethodPost, "/_mget", "mget"},
		{http.MethodPost, "/_bulk", "bulk"},
		{http.MethodGet, "/products-2/_count", "count"},
		{http.MethodGet, "/products/_mapping", "indices.get_mapping"},
		{http.MethodPut, "/products-2/_settings", "indices.put_settings"},
		{http.MethodPost, "/products-2/_refresh", "indices.refresh"},
		{http.MethodPost, "/products-2/_forcemerge?max_num_segments=1", "indices.forcemerge"},
		{http.MethodPost, "/_aliases", "indices.update_aliases"},
		{http.MethodGet, "/_alias/products", "indices.get_alias"},
		{http.MethodGet, "/_cat/indices/products-*", "cat.indices"},
		{http.MethodPut, "/products-2", "indices.create"},
		{http.MethodDelete, "/products-1", "indices.delete"},
		{http.MethodHead, "/products-1", "indices.exists"},
		{http.MethodGet, "/products/_doc/p1", "get"},
		{http.MethodGet, "/", "info"},
		{http.MethodGet, "/_nodes/stats", "request"},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			if got := Endpoint(tc.method, tc.path); got != tc.want {
				t.Errorf("Endpoint = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestClientSpans checks the client span of each request: named for the
// API, a child of the caller's span, with the node's address, the status
// and failures recorded as errors.
func TestClientSpans(t *testing.T) {
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Elastic-Product", "Elasticsearch")
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/broken/_search" {
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"error":{"type":"boom","reason":"broken shard"}}`))
			return
		}
		w.Write([]byte(`{}`))
	}))
	defer node.Close()
	u, _ := url.Parse(node.URL)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	c, err := NewClient(Connection{Addresses: []string{node.URL}, Tracing: tp})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, name string
		status     int64
		failed     bool
	}{
		{"/products/_search", "search", 200, false},
		{"/broken/_search", "search", 500, true},
		{"/_aliases", "indices.update_aliases", 200, false},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			ctx, parent := tp.Tracer("test").Start(context.Background(), "caller")
			c.Do(ctx, http.MethodPost, tc.path, nil, []byte(`{}`), nil)
			parent.End()
			spans := rec.Ended()
			s := spans[len(spans)-2]
			attrs := map[string]any{}
			for _, kv := range s.Attributes() {
				attrs[string(kv.Key)] = kv.Value.AsInterface()
			}
			want := map[string]any{
				"db.system": "elasticsearch", "db.operation": tc.name, "http.request.method": "POST",
				"url.full": node.URL + tc.path, "server.address": u.Hostname(), "server.port": attrs["server.port"],
				"http.response.status_code": tc.status,
			}
			if diff := cmp.Diff(want, attrs); diff != "" {
				t.Errorf("attributes mismatch (-want +got):\n%s", diff)
			}
			if s.Name() != tc.name || s.Parent().SpanID() != parent.SpanContext().SpanID() {
				t.Errorf("span %q under %v, want %q under the caller's", s.Name(), s.Parent().SpanID(), tc.name)
			}
			if failed := s.Status().Code == codes.Error; failed != tc.failed {
				t.Errorf("recorded as error: %v, want %v", failed, tc.failed)
			}
		})
	}
}

// TestClientMetrics checks db.client.operation.duration: one data point
// per operation and outcome, a request the node never answered included.
func TestClientMetrics(t *testing.T) {
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Elastic-Product", "Elasticsearch")
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/broken/_search":
			w.WriteHeader(http.StatusInternalServerError)
		case "/products/_doc/missing":
			w.WriteHeader(http.StatusNotFound)
		}
		w.Write([]byte(`{}`))
	}))
	defer node.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	reader := sdkmetric.NewManualReader()
	meter := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)).Meter("test")
	up, err := NewClient(Connection{Addresses: []string{node.URL}, Meter: meter})
	if err != nil {
		t.Fatal(err)
	}
	down, err := NewClient(Connection{Addresses: []string{gone.URL}, Meter: meter})
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		c            *Client
		method, path string
	}{
		{up, http.MethodPost, "/products/_search"},
		{up, http.MethodPost, "/products/_search"},
		{up, http.MethodPost, "/broken/_search"},
		{up, http.MethodGet, "/products/_doc/missing"},
		{down, http.MethodPost, "/_mget"},
	}
	for _, call := range calls {
		call.c.Do(context.Background(), call.method, call.path, nil, nil, nil)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "db.client.operation.duration" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				sys, _ := dp.Attributes.Value("db.system.name")
				op, _ := dp.Attributes.Value("db.operation.name")
				outcome, _ := dp.Attributes.Value("outcome")
				got[sys.AsString()+" "+op.AsString()+" "+outcome.AsString()] = dp.Count
			}
		}
	}
	want := map[string]uint64{
		"elasticsearch search ok":        2,
		"elasticsearch search error":     1,
		"elasticsearch get not_found":    1,
		"elasticsearch mget unreachable": 1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("db.client.operation.duration counts mismatch (-want +got):\n%s", diff)
	}
}
