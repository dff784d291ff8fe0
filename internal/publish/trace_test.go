package publish

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"productsearch/internal/search/elastic"
)

// TestPublishSpan checks that a publish is one span over the spans of its
// requests, and that a failed publish is recorded as an error. The node is
// a closed port, so the first request fails.
func TestPublishSpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	opt := DefaultOptions(elastic.Connection{Addresses: []string{"http://127.0.0.1:1"}, Tracing: tp}, "products")
	if _, err := Publish(context.Background(), version(1, 1), opt); err == nil {
		t.Fatal("publish to a closed port succeeded")
	}
	var got []string
	var root sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		got = append(got, s.Name()+" "+s.Status().Code.String())
		if s.Name() == "publish products" {
			root = s
		}
	}
	if diff := cmp.Diff([]string{"indices.get_alias Error", "publish products Error"}, got); diff != "" {
		t.Fatalf("spans mismatch (-want +got):\n%s", diff)
	}
	if child := rec.Ended()[0]; child.Parent().SpanID() != root.SpanContext().SpanID() {
		t.Error("the request span is not a child of the publish span")
	}
	if root.Status().Code != codes.Error {
		t.Error("failed publish not recorded as an error")
	}
}
