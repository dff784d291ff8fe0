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

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Implementation identity reported to clients.
const (
	ServerName    = "productsearch"
	ServerTitle   = "Product Search"
	ServerVersion = "0.1.0"
)

// DefaultMaxBodyBytes is the default limit of an HTTP request body.
const DefaultMaxBodyBytes = 1 << 20

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
	return NewBackendServer(EngineBackend(engine, opts.Logger), opts)
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
	return s
}
