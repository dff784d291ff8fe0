// Package mcp is the Model Context Protocol side of the product search
// service: the two tools search_products and get_product, defined once and
// served over any Backend, on the official Go SDK's server. NewHandler
// serves them at POST /api/mcp over Streamable HTTP (stateless, JSON
// responses) from the in-process engine, and also answers plain JSON-RPC
// callers that send no Accept header and no initialize; RunStdio serves
// them over stdio from the public REST API.
//
// Tool arguments are read into a search.Request by search.ParseQuery, so
// validation and every error message are the REST API's; results are the
// exact JSON of the REST responses, as text content and as structured
// content that conforms to each tool's advertised output schema.
package mcp

import (
	"context"
	"log/slog"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Implementation identity reported to clients.
const (
	ServerName    = "productsearch"
	ServerTitle   = "Product Search"
	ServerVersion = "0.1.0"
)

// Default limits of the HTTP endpoint.
const (
	// DefaultMaxBodyBytes limits an HTTP request body.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultMaxBatch limits the messages of one JSON-RPC batch.
	DefaultMaxBatch = 20
	// DefaultMaxBatchResponseBytes limits the response to one batch: the
	// calls after the limit is reached are answered with an error, not run.
	DefaultMaxBatchResponseBytes = 4 << 20
	// DefaultMaxResultBytes limits the search response of one
	// search_products call served from the in-process engine: a larger
	// one keeps its first products only (a full-mode page of 100
	// products with every offer can exceed it).
	DefaultMaxResultBytes = 512 << 10
)

// Options configure the MCP server and its HTTP handler.
type Options struct {
	// Logger receives tool failures and the SDK's server log; nil discards.
	Logger *slog.Logger
	// AllowedOrigins lists the browser origins, besides localhost and
	// 127.0.0.1 on any port, that may call the HTTP endpoint, written
	// scheme://host[:port] ("https://explorer.example.com"). Requests
	// without an Origin header are always allowed.
	AllowedOrigins []string
	// MaxBodyBytes limits an HTTP request body; 0 means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Attributes are the attributes the search_products schema lists;
	// nil means catalog.DefaultAttributes.
	Attributes *catalog.AttributeTable
	// MaxBatch limits the messages of a JSON-RPC batch (protocol versions
	// before 2025-06-18 only); 0 means DefaultMaxBatch.
	MaxBatch int
	// MaxBatchResponseBytes limits the response to a batch; 0 means
	// DefaultMaxBatchResponseBytes.
	MaxBatchResponseBytes int
	// MaxResultBytes limits one search response of the in-process engine;
	// 0 means DefaultMaxResultBytes.
	MaxResultBytes int
	// ChargeBatch, when set, is called before a batch of n messages runs,
	// with extra = n-1: the server that mounts the handler charged the HTTP
	// request as one call, and every further call in the batch costs one
	// more. It returns false when the budget does not cover them, after
	// writing the refusal (429) to w; the batch is then not run.
	ChargeBatch func(w http.ResponseWriter, r *http.Request, extra int) bool
	// Tracing, when set, records a span per request received, a tool
	// call's named for the tool.
	Tracing trace.TracerProvider
	// Meter, when set, records mcp.server.operation.duration by method,
	// tool and error type.
	Meter metric.Meter
	// Engine, when set, observes every engine call of the in-process
	// backend (NewServer).
	Engine EngineObserver
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// sdkLogger is the logger handed to the SDK: warnings and errors only, as
// it logs every (per-request, when stateless) session at info level.
func (o Options) sdkLogger() *slog.Logger {
	return slog.New(minLevel{Handler: o.logger().Handler(), min: slog.LevelWarn})
}

// minLevel drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}

// NewServer returns the MCP server with the two tools over an in-process
// search engine.
func NewServer(engine search.Engine, opts Options) *sdk.Server {
	b := newEngineBackend(engine, opts.Logger, opts.MaxResultBytes)
	b.observe = opts.Engine
	return NewBackendServer(b, opts)
}

// NewBackendServer returns the MCP server with the two tools over b.
func NewBackendServer(b Backend, opts Options) *sdk.Server {
	log := opts.logger()
	s := sdk.NewServer(&sdk.Implementation{Name: ServerName, Title: ServerTitle, Version: ServerVersion}, &sdk.ServerOptions{
		Instructions: serverInstructions,
		Logger:       opts.sdkLogger(),
		// Tools only: the tool list never changes, and there is no logging.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	t := &tools{backend: b, log: log}
	attrs := opts.Attributes
	if attrs == nil {
		attrs = catalog.DefaultAttributes()
	}
	s.AddTool(searchTool(attrs), t.searchProducts)
	s.AddTool(productTool(), t.getProduct)
	if opts.Tracing != nil || opts.Meter != nil {
		// The instruments are built from valid constant names and cannot
		// fail.
		if o, err := newObserver(opts); err == nil {
			s.AddReceivingMiddleware(o.middleware)
		} else {
			log.Warn("mcp telemetry off", slog.Any("err", err))
		}
	}
	return s
}
