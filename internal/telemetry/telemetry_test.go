package telemetry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

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
	tel, err := New(context.Background(), Options{ServiceName: "svc", OTLP: true, Sampler: sdktrace.AlwaysSample()})
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
