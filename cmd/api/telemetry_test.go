package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/api"
	"productsearch/internal/config"
	"productsearch/internal/ratelimit"
	"productsearch/internal/telemetry"
)

// TestTelemetryLog checks the start-up line that says where telemetry
// goes. The endpoints point at a closed port: nothing is sent before the
// providers shut down.
func TestTelemetryLog(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want map[string]any
	}{
		{"nothing configured", nil, map[string]any{"traces_exporter": "none", "metrics_exporter": "none"}},
		{"traces endpoint alone", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:1/v1/traces"}, map[string]any{
			"traces_exporter": "otlp http/protobuf", "traces_endpoint": "http://127.0.0.1:1/v1/traces",
			"sampler":          "ParentBased{root:TraceIDRatioBased{0.05},remoteParentSampled:AlwaysOnSampler,remoteParentNotSampled:AlwaysOffSampler,localParentSampled:AlwaysOnSampler,localParentNotSampled:AlwaysOffSampler}",
			"metrics_exporter": "none",
		}},
		{"sampler named", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.5"}, map[string]any{
			"traces_exporter": "otlp http/protobuf", "traces_endpoint": "http://127.0.0.1:1", "sampler": "traceidratio 0.5",
			"metrics_exporter": "otlp http://127.0.0.1:1",
		}},
		{"sdk disabled", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_SDK_DISABLED": "true"}, map[string]any{
			"traces_exporter": "none", "metrics_exporter": "none", "sdk_disabled": true,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v) // the SDK reads the process environment
			}
			cfg, err := config.Load(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			tel, err := startTelemetry(context.Background(), cfg, slog.New(slog.NewJSONHandler(&buf, nil)))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			tel.Shutdown(ctx)
			var got map[string]any
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatalf("log %q: %v", buf.String(), err)
			}
			want := map[string]any{"level": "INFO", "msg": "telemetry", "sdk_disabled": false, "service_version": got["service_version"]}
			for k, v := range tc.want {
				want[k] = v
			}
			delete(got, "time")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("start-up line mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRedisInstrumented checks that the rate limiter's Redis commands are
// client spans beneath the request's span, failures recorded as errors,
// with the client's metrics. Redis is a closed port: a dead Redis is what
// an operator most needs to see.
func TestRedisInstrumented(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tel, err := telemetry.New(context.Background(), telemetry.Options{ServiceName: "test", TraceExporter: exp, Sampler: sdktrace.AlwaysSample()})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	client, err := ratelimit.OpenRedis("redis://127.0.0.1:1/0")
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if err := instrumentRedis(client, tel); err != nil {
		t.Fatal(err)
	}
	ctx, parent := tel.Tracer("test").Start(context.Background(), "request")
	if client.Ping(ctx).Err() == nil {
		t.Fatal("ping of a closed port succeeded")
	}
	parent.End()
	if err := tel.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var ping tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		if s.Name == "ping" {
			ping = s
		}
	}
	if ping.Parent.SpanID() != parent.SpanContext().SpanID() || ping.Status.Code != codes.Error || ping.SpanKind != trace.SpanKindClient {
		t.Errorf("ping span %q: parent %v, status %v, kind %v; want a failed client span under the request", ping.Name, ping.Parent.SpanID(), ping.Status, ping.SpanKind)
	}
	rec := httptest.NewRecorder()
	tel.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if !strings.Contains(rec.Body.String(), "db_client_connections_") {
		t.Error("no Redis client metrics")
	}
}

// TestMCPTrace checks that an MCP tool call over HTTP is one trace: the
// server span, the tool call beneath it, the engine call beneath that.
func TestMCPTrace(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tel, err := telemetry.New(context.Background(), telemetry.Options{ServiceName: "test", TraceExporter: exp, Sampler: sdktrace.AlwaysSample()})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	base, _ := serveWith(t, api.Options{Engine: fixtureEngine(t), PublicKey: "public", RateLimitPerHour: 100, Telemetry: tel})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_products","arguments":{"query":"laptop"}}}`
	resp, body := send(t, http.MethodPost, base+"/api/mcp", call, "Content-Type", "application/json")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if err := tel.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	parents := map[string]string{} // span name to its parent's name
	names := map[trace.SpanID]string{}
	spans := exp.GetSpans()
	for _, s := range spans {
		names[s.SpanContext.SpanID()] = s.Name
	}
	for _, s := range spans {
		parents[s.Name] = names[s.Parent.SpanID()]
	}
	want := map[string]string{"POST /api/mcp": "", "tools/call search_products": "POST /api/mcp", "engine.search": "tools/call search_products"}
	if diff := cmp.Diff(want, parents); diff != "" {
		t.Errorf("span tree mismatch (-want +got):\n%s", diff)
	}
}
