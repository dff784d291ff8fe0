package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestObserved checks the span and the metric of each request: tool calls
// named for the tool, the engine's span beneath, and failures (an unknown
// tool, a product not found, the backend down) recorded as errors.
func TestObserved(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	engineObserver := func(ctx context.Context, op string) (context.Context, func(error)) {
		ctx, span := tp.Tracer("test").Start(ctx, "engine."+op)
		return ctx, func(error) { span.End() }
	}
	opts := Options{Tracing: tp, Meter: mp.Meter("test"), Engine: engineObserver}
	servers := map[string]*sdk.ClientSession{
		"up":   connectInMemory(t, NewServer(fixtureEngine(t), opts)),
		"down": connectInMemory(t, NewServer(failingEngine{}, opts)),
	}
	tests := []struct {
		name, server, tool string
		args               map[string]any
		span, errType      string // errType "" when it succeeds
		engine             bool   // an engine span beneath
	}{
		{"search", "up", ToolSearchProducts, map[string]any{"category": "Laptops"}, "tools/call search_products", "", true},
		{"product", "up", ToolGetProduct, map[string]any{"product_id": "nope"}, "tools/call get_product", "tool_error", true},
		{"bad arguments", "up", ToolSearchProducts, map[string]any{"limit": "x"}, "tools/call search_products", "tool_error", false},
		{"unknown tool", "up", "search", map[string]any{}, "tools/call _OTHER", "-32602", false},
		{"backend down", "down", ToolSearchProducts, map[string]any{"category": "Laptops"}, "tools/call search_products", "tool_error", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(rec.Ended())
			servers[tc.server].CallTool(context.Background(), &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
			spans := rec.Ended()[before:]
			var call, engine sdktrace.ReadOnlySpan
			for _, s := range spans {
				switch s.Name() {
				case tc.span:
					call = s
				case "engine.search", "engine.product":
					engine = s
				}
			}
			if call == nil {
				t.Fatalf("no span %q among %d", tc.span, len(spans))
			}
			attrs := map[attribute.Key]string{}
			for _, kv := range call.Attributes() {
				attrs[kv.Key] = kv.Value.String()
			}
			if attrs[attrMethod] != "tools/call" || attrs[attrTool] == "" || attrs[attrErrorType] != tc.errType {
				t.Errorf("attributes %v, want method tools/call, a tool name and error.type %q", attrs, tc.errType)
			}
			if failed := call.Status().Code == codes.Error; failed != (tc.errType != "") {
				t.Errorf("recorded as error: %v, want %v", failed, tc.errType != "")
			}
			if (engine != nil) != tc.engine || (engine != nil && engine.Parent().SpanID() != call.SpanContext().SpanID()) {
				t.Errorf("engine span %v, want one beneath the tool call: %v", engine != nil, tc.engine)
			}
		})
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name != "mcp.server.operation.duration" {
			continue
		}
		for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
			method, _ := dp.Attributes.Value(attrMethod)
			tool, _ := dp.Attributes.Value(attrTool)
			errType, _ := dp.Attributes.Value(attrErrorType)
			got[method.String()+" "+tool.String()+" "+errType.String()] += dp.Count
		}
	}
	want := map[string]uint64{
		"tools/call search_products ": 1, "tools/call search_products tool_error": 2,
		"tools/call get_product tool_error": 1, "tools/call _OTHER -32602": 1,
	}
	for k := range got {
		if !strings.HasPrefix(k, "tools/call ") {
			delete(got, k) // initialize, notifications
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request counts mismatch (-want +got):\n%s", diff)
	}
}
