package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/search"
)

// maxIDLen bounds product ids looked up; longer ids cannot exist.
const maxIDLen = 512

// handleSearch serves GET /api/search.
func (s *Server) handleSearch(c *fiber.Ctx) error {
	vals := url.Values{}
	var badName []byte
	for k, v := range c.Context().QueryArgs().All() {
		if badName == nil && (!utf8.Valid(k) || !utf8.Valid(v)) {
			badName = append([]byte{}, k...)
		}
		vals.Add(string(k), string(v))
	}
	if badName != nil {
		return &search.InvalidError{Message: fmt.Sprintf("parameter %q is not valid UTF-8 text; URL-encode UTF-8 text", echo(string(badName)))}
	}
	req, err := search.ParseQuery(vals)
	if err != nil {
		return err
	}
	ctx, span, start := s.engineCall(c, "search")
	res, err := s.engine.Search(ctx, req)
	s.engineDone(c, ctx, "search", span, start, err)
	if err != nil {
		return err
	}
	bp := s.buffer()
	*bp = res.AppendJSON((*bp)[:0])
	c.Response().SetBody(*bp)
	s.bufs.Put(bp)
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	return nil
}

// handleProduct serves GET /api/product/{id}.
func (s *Server) handleProduct(c *fiber.Ctx) error {
	id, err := url.PathUnescape(c.Params("id"))
	if err != nil {
		return &search.InvalidError{Message: "the product id is not validly URL-encoded; encode it once, e.g. /api/product/" + url.PathEscape("abc:123")}
	}
	notFound := &Error{http.StatusNotFound, "Product not found: " + echo(id)}
	if id == "" || len(id) > maxIDLen || !utf8.ValidString(id) {
		return notFound
	}
	ctx, span, start := s.engineCall(c, "product")
	p, err := s.engine.Product(ctx, id)
	s.engineDone(c, ctx, "product", span, start, err)
	switch {
	case errors.Is(err, search.ErrNotFound):
		return notFound
	case err != nil:
		return err
	}
	bp := s.buffer()
	*bp = search.AppendProduct((*bp)[:0], p)
	c.Response().SetBody(*bp)
	s.bufs.Put(bp)
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	return nil
}

// healthBody is the Health response (interface specification §2.6 Health response).
type healthBody struct {
	Status     string `json:"status"`
	Items      int    `json:"items"`
	LastUpdate string `json:"last_update"`
}

// handleHealth serves GET /api/health: 200 while the engine is ok, 503 with
// the same body when it is degraded, 503 with an error when it cannot say.
func (s *Server) handleHealth(c *fiber.Ctx) error {
	ctx, span, start := s.engineCall(c, "health")
	h, err := s.engine.Health(ctx)
	s.engineDone(c, ctx, "health", span, start, err)
	if err != nil {
		return errors.Join(errUnavailable, err)
	}
	body, err := json.Marshal(healthBody{Status: h.Status, Items: h.Items, LastUpdate: h.LastUpdate.UTC().Format(time.RFC3339)})
	if err != nil {
		return fmt.Errorf("encode health: %w", err)
	}
	if h.Status != "ok" {
		c.Status(http.StatusServiceUnavailable)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Response().SetBodyRaw(body)
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	return nil
}

// handleOpenAPI serves one rendering of the interface description.
func (s *Server) handleOpenAPI(doc []byte, contentType string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		c.Response().SetBodyRaw(doc)
		c.Response().Header.SetContentType(contentType)
		return nil
	}
}

// engineCall starts the span and the clock of one engine call; pass them
// to engineDone when it returns.
func (s *Server) engineCall(c *fiber.Ctx, op string) (context.Context, trace.Span, time.Time) {
	ctx, span := s.startEngineSpan(c.UserContext(), op)
	return ctx, span, time.Now()
}

// startEngineSpan starts the span of an engine call of op beneath the
// request's span, or none when tracing is off or the request is not
// sampled (no sampler the SDK offers would keep a child of a dropped
// parent: they follow the parent or decide by the same trace id).
func (s *Server) startEngineSpan(ctx context.Context, op string) (context.Context, trace.Span) {
	if !s.tracing {
		return ctx, nil
	}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() && !sc.IsSampled() {
		return ctx, nil
	}
	return s.tracer.Start(ctx, "engine."+op, trace.WithAttributes(attribute.String("operation", op)))
}

// engineDone records the engine-duration metric, the Server-Timing header
// and the end of the span of a call begun by engineCall.
func (s *Server) engineDone(c *fiber.Ctx, ctx context.Context, op string, span trace.Span, start time.Time, err error) {
	d := time.Since(start)
	s.metrics.engineCall(ctx, op, d)
	state(c).engine += d
	var b [32]byte
	c.Response().Header.SetBytesV("Server-Timing", strconv.AppendFloat(append(b[:0], "engine;dur="...), float64(d.Nanoseconds())/1e6, 'f', 3, 64))
	endEngineSpan(span, err)
}

// ObserveEngine starts the span and the clock of an engine call of op
// ("search", "product") made for a mounted handler, such as the MCP tools;
// the returned function records the engine metric and ends the span with
// the call's outcome.
func (s *Server) ObserveEngine(ctx context.Context, op string) (context.Context, func(error)) {
	ctx, span := s.startEngineSpan(ctx, op)
	start := time.Now()
	return ctx, func(err error) {
		s.metrics.engineCall(ctx, op, time.Since(start))
		endEngineSpan(span, err)
	}
}

// endEngineSpan ends the span of an engine call, recording a failure other
// than an unknown product as an error.
func endEngineSpan(span trace.Span, err error) {
	if span == nil {
		return
	}
	if err != nil && !errors.Is(err, search.ErrNotFound) {
		span.RecordError(err)
		span.SetStatus(codes.Error, "engine failed")
	}
	span.End()
}

// buffer returns a pooled response buffer.
func (s *Server) buffer() *[]byte {
	if bp, ok := s.bufs.Get().(*[]byte); ok {
		return bp
	}
	b := make([]byte, 0, 16<<10)
	return &b
}
