package mcp

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// EngineObserver, called before an engine call of operation op ("search",
// "product"), returns the context of the call and a function to call with
// its outcome; the API server's traces the call beneath the tool call and
// records the engine metrics.
type EngineObserver func(ctx context.Context, op string) (context.Context, func(error))

// Attribute keys of the OpenTelemetry semantic conventions for MCP.
const (
	attrMethod    = attribute.Key("mcp.method.name")
	attrTool      = attribute.Key("gen_ai.tool.name")
	attrOperation = attribute.Key("gen_ai.operation.name")
	attrErrorType = attribute.Key("error.type")
	attrRPCStatus = attribute.Key("rpc.response.status_code")
)

// errorTypeTool is error.type of a tool call whose result is an error.
const errorTypeTool = "tool_error"

// observer traces and measures the JSON-RPC methods the server receives.
type observer struct {
	tracer   trace.Tracer
	duration metric.Float64Histogram
}

func newObserver(opts Options) (*observer, error) {
	tp, m := opts.Tracing, opts.Meter
	if tp == nil {
		tp = tracenoop.NewTracerProvider()
	}
	if m == nil {
		m = metricnoop.NewMeterProvider().Meter("")
	}
	d, err := m.Float64Histogram("mcp.server.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of MCP requests by method, tool and error type"))
	if err != nil {
		return nil, err
	}
	return &observer{tracer: tp.Tracer("productsearch/internal/mcp"), duration: d}, nil
}

// middleware records a server span per request, named for the method, or
// "tools/call <tool>" for a tool call, and the request's duration. A
// JSON-RPC error (an unknown tool, bad arguments) and a tool result marked
// as an error (a product not found, the backend down) are recorded as
// errors with their error.type: the JSON-RPC code, or "tool_error".
func (o *observer) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		start := time.Now()
		name := method
		attrs := make([]attribute.KeyValue, 1, 4)
		attrs[0] = attrMethod.String(method)
		tool := ""
		if p, ok := req.GetParams().(*sdk.CallToolParamsRaw); ok && p != nil {
			tool = knownTool(p.Name)
			name += " " + tool
			attrs = append(attrs, attrTool.String(tool), attrOperation.String("execute_tool"))
		}
		ctx, span := o.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
		res, err := next(ctx, method, req)
		errType, msg := outcome(res, err)
		if errType != "" {
			attrs = append(attrs, attrErrorType.String(errType))
			span.SetAttributes(attrErrorType.String(errType))
			span.SetStatus(codes.Error, msg)
		}
		if wire := (*jsonrpc.Error)(nil); errors.As(err, &wire) {
			span.SetAttributes(attrRPCStatus.String(errType))
		}
		o.duration.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(attrs...))
		span.End()
		return res, err
	}
}

// outcome returns the error.type and message of a failed request: the
// JSON-RPC error code, or "tool_error" for a tool result marked as an
// error; both are empty when it succeeded.
func outcome(res sdk.Result, err error) (errType, msg string) {
	var wire *jsonrpc.Error
	switch r, isTool := res.(*sdk.CallToolResult); {
	case errors.As(err, &wire):
		return strconv.FormatInt(wire.Code, 10), wire.Message
	case err != nil:
		return "_OTHER", err.Error()
	case isTool && r != nil && r.IsError:
		return errorTypeTool, resultText(r)
	}
	return "", ""
}

// knownTool returns name when it is a tool of this server and "_OTHER"
// otherwise, so that a client's made-up names cannot grow the metrics.
func knownTool(name string) string {
	switch name {
	case ToolSearchProducts, ToolGetProduct:
		return name
	}
	return "_OTHER"
}

// resultText is the first text of a tool result, for the span status.
func resultText(r *sdk.CallToolResult) string {
	for _, c := range r.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			return t.Text
		}
	}
	return "tool error"
}
