package telemetry

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func TestMetricsWithoutTracing(t *testing.T) {
	tel, err := New(context.Background(), Options{ServiceName: "svc", ServiceVersion: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	if tel.Tracing() {
		t.Error("tracing on without an exporter")
	}
	_, span := tel.Tracer("t").Start(context.Background(), "x")
	if span.IsRecording() {
		t.Error("span recorded without an exporter")
	}
	c, err := tel.Meter("t").Int64Counter("demo.things")
	if err != nil {
		t.Fatal(err)
	}
	c.Add(context.Background(), 3)
	rec := httptest.NewRecorder()
	tel.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{"\ndemo_things_total 3\n", "go_goroutines", `service_name="svc"`, `service_version="1.2.3"`} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestTracingExports(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tel, err := New(context.Background(), Options{ServiceName: "svc", TraceExporter: exp, Sampler: sdktrace.AlwaysSample()})
	if err != nil {
		t.Fatal(err)
	}
	if !tel.Tracing() {
		t.Fatal("tracing off with an exporter")
	}
	_, span := tel.Tracer("t").Start(context.Background(), "op")
	span.End()
	defer tel.Shutdown(context.Background())
	if err := tel.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := exp.GetSpans()
	if len(spans) != 1 || spans[0].Name != "op" {
		t.Errorf("exported spans %v, want one named op", spans)
	}
}

func TestDefaultSampler(t *testing.T) {
	s := DefaultSampler()
	sampled := 0
	const n = 20000
	for i := range n {
		var id trace.TraceID
		id[0], id[1], id[2], id[3] = byte(i), byte(i>>8), byte(i*7), byte(i*13)
		for j := 4; j < 16; j++ {
			id[j] = byte(i * (j + 31))
		}
		r := s.ShouldSample(sdktrace.SamplingParameters{ParentContext: context.Background(), TraceID: id, Name: "x"})
		if r.Decision == sdktrace.RecordAndSample {
			sampled++
		}
	}
	if got := float64(sampled) / n; got < DefaultSampleRatio/2 || got > DefaultSampleRatio*2 {
		t.Errorf("sampled %.3f of root spans, want about %.2f", got, DefaultSampleRatio)
	}
	// A sampled caller's trace is always continued.
	parent := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1}, TraceFlags: trace.FlagsSampled, Remote: true,
	}))
	if r := s.ShouldSample(sdktrace.SamplingParameters{ParentContext: parent, TraceID: trace.TraceID{1}}); r.Decision != sdktrace.RecordAndSample {
		t.Error("a sampled parent's trace was dropped")
	}
}

func TestOTLPExport(t *testing.T) {
	var mu sync.Mutex
	paths := map[string]int{}
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths[r.Method+" "+r.URL.Path]++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	tel, err := New(context.Background(), Options{ServiceName: "svc", ExportTraces: true, ExportMetrics: true, Sampler: sdktrace.AlwaysSample()})
	if err != nil {
		t.Fatal(err)
	}
	_, span := tel.Tracer("t").Start(context.Background(), "op")
	span.End()
	c, _ := tel.Meter("t").Int64Counter("demo.things")
	c.Add(context.Background(), 1)
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"POST /v1/traces", "POST /v1/metrics"} {
		if paths[want] == 0 {
			t.Errorf("collector got no %s (got %v)", want, paths)
		}
	}
}

// collector records the requests of an OTLP/HTTP collector.
type collector struct {
	mu    sync.Mutex
	paths map[string]int
	*httptest.Server
}

func newCollector(t *testing.T) *collector {
	c := &collector{paths: map[string]int{}}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.paths[r.Method+" "+r.URL.Path+" "+r.Header.Get("X-Tenant")]++
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *collector) got() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.paths)
}

// TestStandardVariables checks that the OTEL_* variables an operator sets
// reach the exporters: per-signal endpoints alone, and headers.
func TestStandardVariables(t *testing.T) {
	tests := []struct {
		name    string
		env     func(url string) map[string]string
		traces  bool
		metrics bool
		want    []string
	}{
		{"traces endpoint alone", func(u string) map[string]string {
			return map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": u + "/custom/traces"}
		}, true, false, []string{"POST /custom/traces "}},
		{"general endpoint with headers", func(u string) map[string]string {
			return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": u, "OTEL_EXPORTER_OTLP_HEADERS": "x-tenant=blue"}
		}, true, true, []string{"POST /v1/metrics blue", "POST /v1/traces blue"}},
		{"metrics endpoint alone", func(u string) map[string]string {
			return map[string]string{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": u + "/m"}
		}, false, true, []string{"POST /m "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCollector(t)
			for k, v := range tc.env(c.URL) {
				t.Setenv(k, v)
			}
			tel, err := New(context.Background(), Options{ServiceName: "svc", ExportTraces: tc.traces, ExportMetrics: tc.metrics, Sampler: sdktrace.AlwaysSample()})
			if err != nil {
				t.Fatal(err)
			}
			_, span := tel.Tracer("t").Start(context.Background(), "op")
			span.End()
			if err := tel.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			got := c.got()
			var paths []string
			for p := range got {
				paths = append(paths, p)
			}
			slices.Sort(paths)
			if diff := cmp.Diff(tc.want, paths); diff != "" {
				t.Errorf("collector requests mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResource(t *testing.T) {
	tests := []struct {
		name string
		opt  Options
		env  map[string]string
		want []string // lines of target_info's labels
		not  []string
	}{
		{"defaults", Options{ServiceName: "svc", ServiceVersion: "v1.2.3"}, nil,
			[]string{`service_name="svc"`, `service_version="v1.2.3"`, `service_instance_id="`}, []string{"k8s_pod_name"}},
		{"pod", Options{ServiceName: "svc", InstanceID: "prod.api-7f9c", PodName: "api-7f9c", Namespace: "prod"}, nil,
			[]string{`service_instance_id="prod.api-7f9c"`, `k8s_pod_name="api-7f9c"`, `k8s_namespace_name="prod"`}, nil},
		{"environment wins", Options{ServiceName: "svc"},
			map[string]string{"OTEL_SERVICE_NAME": "search-eu", "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment.name=staging"},
			[]string{`service_name="search-eu"`, `deployment_environment_name="staging"`}, []string{`service_name="svc"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			tel, err := New(context.Background(), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer tel.Shutdown(context.Background())
			body := scrape(t, tel)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("metrics lack %s", w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(body, w) {
					t.Errorf("metrics have %s", w)
				}
			}
		})
	}
}

func TestRuntimeAndBuildInfo(t *testing.T) {
	tel, err := New(context.Background(), Options{ServiceName: "svc", ServiceVersion: "v9.9.9"})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	body := scrape(t, tel)
	for _, want := range []string{`productsearch_build_info{go_version="go`, `version="v9.9.9"} 1`, "go_goroutine_count", "go_memory_used_bytes"} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestBuildVersion(t *testing.T) {
	if got := BuildVersion("v1.4.0"); got != "v1.4.0" {
		t.Errorf("BuildVersion(stamped) = %q", got)
	}
	if got := BuildVersion(""); got == "" {
		t.Error("BuildVersion is empty")
	}
}

func scrape(t *testing.T, tel *Telemetry) string {
	t.Helper()
	rec := httptest.NewRecorder()
	tel.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return rec.Body.String()
}
