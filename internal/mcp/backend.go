package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Backend answers the two tools. The HTTP endpoint uses the search engine
// in-process (EngineBackend); the stdio server calls the REST API
// (restclient.Client). Both return the exact JSON of the REST responses.
//
// Errors: a *search.InvalidError is shown to the model as it is (the REST
// 400 message); an error wrapping search.ErrNotFound becomes "Product not
// found"; any other error's text is shown to the model, so a backend must
// make it say what went wrong and what to do, and keep internal detail out.
type Backend interface {
	// Search runs a validated request and returns the search response
	// object (interface specification §2.5 Search response), as GET /api/search answers it.
	Search(ctx context.Context, req search.Request) ([]byte, error)
	// Product returns the full product object (interface specification §2.1 Product, with offers) of
	// a canonical product id or retailer offer id, as GET
	// /api/product/{id} answers it.
	Product(ctx context.Context, id string) ([]byte, error)
}

// productJSONer is the optional fast path of engines that keep every
// product's JSON encoded (memory.Engine); the bytes are only read.
type productJSONer interface {
	ProductJSON(ctx context.Context, id string) (*catalog.Product, []byte, error)
}

// engineBackend serves the tools from a search engine in this process.
type engineBackend struct {
	engine    search.Engine
	log       *slog.Logger
	maxResult int
	observe   EngineObserver // nil: calls are not observed
}

// EngineBackend returns a Backend over an in-process search engine. Engine
// failures other than invalid requests and unknown products are logged to
// log (nil discards) and reach the model as a short retry message. Search
// responses are bounded by DefaultMaxResultBytes.
func EngineBackend(engine search.Engine, log *slog.Logger) Backend {
	return newEngineBackend(engine, log, DefaultMaxResultBytes)
}

func newEngineBackend(engine search.Engine, log *slog.Logger, maxResult int) *engineBackend {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if maxResult <= 0 {
		maxResult = DefaultMaxResultBytes
	}
	return &engineBackend{engine: engine, log: log, maxResult: maxResult}
}

// errBackendUnavailable is what the model sees when the engine fails.
var errBackendUnavailable = errors.New("the product search backend is unavailable right now; retry in a few seconds")

// call observes an engine call of op, when an observer is set; call done
// with its outcome.
func (b *engineBackend) call(ctx context.Context, op string) (context.Context, func(error)) {
	if b.observe == nil {
		return ctx, func(error) {}
	}
	return b.observe(ctx, op)
}

func (b *engineBackend) Search(ctx context.Context, req search.Request) ([]byte, error) {
	ctx, done := b.call(ctx, "search")
	res, err := b.engine.Search(ctx, req)
	done(err)
	if err != nil {
		return nil, b.fail(ctx, "search", err)
	}
	body := res.AppendJSON(make([]byte, 0, 1024+len(res.Products)*768))
	if len(body) > b.maxResult && len(res.Products) > 1 {
		body = fitResult(*res, body, b.maxResult)
	}
	return body, nil
}

// fitResult cuts the products of res, last first, until its JSON body is
// at most limit bytes or one product is left, and returns that body; body is
// the encoding of the whole result. total and the other counts stay: the
// interface lets total exceed the products returned (§2.5), and a full
// page of products with every offer can be large enough to matter when a
// client sends many calls at once.
func fitResult(res search.Result, body []byte, limit int) []byte {
	all := res.Products
	keep := len(all)
	for len(body) > limit && keep > 1 {
		// Products differ in size, so shrink in proportion and check.
		keep = min(keep-1, max(1, keep*limit/len(body)))
		res.Products = all[:keep]
		body = res.AppendJSON(body[:0])
	}
	return body
}

func (b *engineBackend) Product(ctx context.Context, id string) ([]byte, error) {
	ctx, done := b.call(ctx, "product")
	if pj, ok := b.engine.(productJSONer); ok {
		_, body, err := pj.ProductJSON(ctx, id)
		done(err)
		if err != nil {
			return nil, b.fail(ctx, "product", err)
		}
		return body, nil
	}
	p, err := b.engine.Product(ctx, id)
	done(err)
	if err != nil {
		return nil, b.fail(ctx, "product", err)
	}
	return search.AppendProduct(make([]byte, 0, 4096), p), nil
}

// fail passes invalid requests and unknown products through and hides
// every other engine failure behind errBackendUnavailable.
func (b *engineBackend) fail(ctx context.Context, op string, err error) error {
	var invalid *search.InvalidError
	if errors.As(err, &invalid) || errors.Is(err, search.ErrNotFound) || errors.Is(err, context.Canceled) {
		return err
	}
	b.log.ErrorContext(ctx, "mcp tool engine call failed", slog.String("operation", op), slog.Any("err", err))
	return fmt.Errorf("%w", errBackendUnavailable)
}
