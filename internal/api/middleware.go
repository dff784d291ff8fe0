package api

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/ratelimit"
)

// Rate-limit header names (interface specification §8 Limits).
const (
	headerLimit     = "X-RateLimit-Limit"
	headerRemaining = "X-RateLimit-Remaining"
	headerReset     = "X-RateLimit-Reset"
	headerRequestID = "X-Request-ID"
)

// maxRequestID bounds an incoming X-Request-ID that is reused.
const maxRequestID = 128

// reqState is what the middleware learns about one request.
type reqState struct {
	rid    []byte // request id: the incoming header's bytes or ridBuf
	ridBuf [32]byte
	route  string // the route that matched; empty when none did
	client netip.Addr
	keyID  string
	engine time.Duration
}

type stateKey struct{}

func state(c *fiber.Ctx) *reqState {
	if st, ok := c.Locals(stateKey{}).(*reqState); ok {
		return st
	}
	return &reqState{}
}

// guardMethod routes requests whose method Fiber does not know (QUERY,
// PROPFIND, made-up ones) as TRACE, which no endpoint serves, so they get
// the same JSON 405 with an Allow header as any other unsupported method;
// Fiber would answer them with a plain-text 400.
func (s *Server) guardMethod(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		switch string(ctx.Method()) {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodPost, fiber.MethodPut, fiber.MethodDelete,
			fiber.MethodConnect, fiber.MethodOptions, fiber.MethodTrace, fiber.MethodPatch:
		default:
			ctx.Request.Header.SetMethod(fiber.MethodTrace)
		}
		next(ctx)
	}
}

// observe wraps every routed request: request id, client address, size
// checks, the trace span, panic recovery, error responses, the request
// metric and the access log.
func (s *Server) observe(c *fiber.Ctx) (err error) {
	start := time.Now()
	st, _ := s.states.Get().(*reqState)
	if st == nil {
		st = new(reqState)
	}
	*st = reqState{}
	c.Locals(stateKey{}, st)

	st.rid = s.requestID(c, st.ridBuf[:0])
	c.Response().Header.SetBytesV(headerRequestID, st.rid)
	st.client = s.clientAddr(c)

	var span trace.Span
	if s.tracing {
		ctx := s.prop.Extract(context.Background(), headerCarrier{&c.Request().Header})
		ctx, span = s.tracer.Start(ctx, c.Method(), trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", c.Method()),
				attribute.String("url.path", string(c.Request().URI().PathOriginal())),
				attribute.String("http.request_id", string(st.rid))))
		c.SetUserContext(ctx)
	}

	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic serving request", ridAttr(st), slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			c.Response().ResetBody()
			err = errInternal
		}
		if err != nil {
			status, msg, internal := classify(c, err)
			if internal && status != errInternal.Status {
				s.log.Warn("request failed", ridAttr(st), slog.Int("status", status), slog.Any("err", err))
			} else if internal && err != errInternal {
				s.log.Error("request failed", ridAttr(st), slog.Any("err", err))
			}
			writeJSONError(c, status, msg)
			err = nil
		}
		status := c.Response().StatusCode()
		route := st.route
		if route == "" {
			route = routeUnmatched
		}
		elapsed := time.Since(start)
		s.metrics.request(c.UserContext(), route, c.Method(), status, elapsed)
		if span != nil {
			span.SetName(c.Method() + " " + route)
			span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status))
			if status >= 500 {
				span.SetStatus(codes.Error, http.StatusText(status))
			}
			span.End()
		}
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		if s.log.Enabled(context.Background(), level) {
			attrs := []slog.Attr{
				ridAttr(st),
				slog.String("method", c.Method()),
				slog.String("route", route),
				slog.String("path", echo(string(c.Request().URI().PathOriginal()))),
				slog.Int("status", status),
				slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
				slog.Int("bytes", len(c.Response().Body())),
				slog.String("client", st.client.String()),
			}
			if st.keyID != "" {
				attrs = append(attrs, slog.String("key_id", st.keyID))
			}
			if st.engine > 0 {
				attrs = append(attrs, slog.Float64("engine_ms", float64(st.engine.Microseconds())/1000))
			}
			s.log.LogAttrs(context.Background(), level, "request", attrs...)
		}
		s.states.Put(st)
		c.Locals(stateKey{}, nil)
	}()

	if len(c.Request().Header.RequestURI()) > maxURILen {
		return errURITooLong
	}
	if (c.Method() == fiber.MethodGet || c.Method() == fiber.MethodHead) &&
		(len(c.Request().Body()) > 0 || c.Request().Header.ContentLength() > 0) {
		return errBodyOnGet
	}
	return c.Next()
}

// ridAttr is the log attribute of the request id.
func ridAttr(st *reqState) slog.Attr { return slog.String("request_id", string(st.rid)) }

// named returns a handler that records the route name of the request,
// for the http.route attribute of metrics, spans and the access log.
func named(route string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		state(c).route = route
		return c.Next()
	}
}

// requestID reuses a well-formed incoming X-Request-ID or appends a new
// one to buf.
func (s *Server) requestID(c *fiber.Ctx, buf []byte) []byte {
	if in := c.Request().Header.Peek(headerRequestID); len(in) > 0 && len(in) <= maxRequestID && validRequestID(in) {
		return in
	}
	return strconv.AppendUint(append(buf, s.ridBase...), s.ridSeq.Add(1), 36)
}

func validRequestID(b []byte) bool {
	for _, ch := range b {
		ok := ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' ||
			ch == '-' || ch == '_' || ch == '.' || ch == ':' || ch == '/' || ch == '+' || ch == '='
		if !ok {
			return false
		}
	}
	return true
}

// clientAddr is the address the request is charged to: the socket peer,
// or behind trusted proxies the X-Forwarded-For hop found by
// ratelimit.Proxies.ClientIP.
func (s *Server) clientAddr(c *fiber.Ctx) netip.Addr {
	var peer netip.Addr
	if tcp, ok := c.Context().RemoteAddr().(*net.TCPAddr); ok {
		peer = tcp.AddrPort().Addr()
	}
	if len(s.proxies) == 0 || !s.proxies.Trusted(peer) {
		return peer.Unmap()
	}
	values := c.Request().Header.PeekAll(fiber.HeaderXForwardedFor)
	fwd := make([]string, len(values))
	for i, v := range values {
		fwd[i] = string(v)
	}
	return s.proxies.ClientIP(peer, fwd...)
}

// setLimitHeaders writes the rate-limit headers of d.
func setLimitHeaders(c *fiber.Ctx, d ratelimit.Decision) {
	h := &c.Response().Header
	// fasthttp would send "X-Ratelimit-Limit"; the interface names the
	// headers with a capital L, and some clients match them exactly.
	// Request headers stay normalised, so lookups remain case-insensitive.
	h.DisableNormalizing()
	var b [20]byte
	h.SetBytesV(headerLimit, strconv.AppendInt(b[:0], int64(d.Limit), 10))
	h.SetBytesV(headerRemaining, strconv.AppendInt(b[:0], int64(d.Remaining), 10))
	h.SetBytesV(headerReset, strconv.AppendInt(b[:0], d.Reset.Unix(), 10))
}

// charge charges the request to budget key and answers 429 when it is
// spent; it reports whether the request may go on.
func (s *Server) charge(c *fiber.Ctx, key string, limit int, scope string) bool {
	d, err := s.limiter.Allow(c.UserContext(), key, limit)
	if err != nil {
		// The stores in use fall back instead of failing; should one
		// fail anyway, serving beats refusing every request.
		s.log.Warn("rate limiter failed; request allowed", slog.Any("err", err))
		return true
	}
	setLimitHeaders(c, d)
	if !d.Allowed {
		s.metrics.rejected(c.UserContext(), scope)
		writeRateLimited(c, d.Reset, s.now())
		return false
	}
	return true
}

// limitByKey authenticates the bearer key and charges the request: a
// production key to its own budget, the public key to the client IP's. A
// missing or unknown key is charged to the client IP too before the 401, so
// guessing keys is limited like any other traffic.
func (s *Server) limitByKey(c *fiber.Ctx) error {
	st := state(c)
	tok, _ := bearerToken(c.Request().Header.Peek(fiber.HeaderAuthorization))
	kind, budget, id := s.keys.lookup(tok)
	st.keyID = id
	var ok bool
	if kind == keyProduction {
		ok = s.charge(c, "key:"+id, budget, "key")
	} else {
		ok = s.charge(c, ratelimit.IPKey(st.client), s.ipLimit, "ip")
	}
	if !ok {
		return nil
	}
	if kind == keyNone {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="productsearch"`)
		return errUnauthorized
	}
	return c.Next()
}

// LimitByIP returns middleware that charges each request to the client IP's
// hourly budget, sets the rate-limit headers and answers 429 when the
// budget is spent. Mount applies it; use it for Fiber routes added via App.
func (s *Server) LimitByIP() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if !s.charge(c, ratelimit.IPKey(state(c).client), s.ipLimit, "ip") {
			return nil
		}
		return c.Next()
	}
}

// headerCarrier adapts request headers to trace-context propagation.
type headerCarrier struct{ h *fasthttp.RequestHeader }

func (hc headerCarrier) Get(key string) string { return string(hc.h.Peek(key)) }
func (hc headerCarrier) Set(key, value string) { hc.h.Set(key, value) }
func (hc headerCarrier) Keys() []string {
	var keys []string
	hc.h.VisitAll(func(k, _ []byte) { keys = append(keys, string(k)) })
	return keys
}

// clientKey carries the client address in a mounted handler's context.
type clientKey struct{}

// ClientAddr returns the client address of a request served by a mounted
// handler (the one its rate limit is charged to).
func ClientAddr(ctx context.Context) (netip.Addr, bool) {
	a, ok := ctx.Value(clientKey{}).(netip.Addr)
	return a, ok
}

// httpHandler adapts a net/http handler to Fiber. The request context
// carries the span and the client address; the response is buffered.
func httpHandler(h http.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var r http.Request
		if err := fasthttpadaptor.ConvertRequest(c.Context(), &r, true); err != nil {
			return &Error{http.StatusBadRequest, "Malformed HTTP request"}
		}
		ctx := context.WithValue(c.UserContext(), clientKey{}, state(c).client)
		w := &responseWriter{header: http.Header{}, c: c}
		h.ServeHTTP(w, r.WithContext(ctx))
		w.finish()
		return nil
	}
}

// responseWriter buffers a net/http response into the Fiber response.
type responseWriter struct {
	c           *fiber.Ctx
	header      http.Header
	status      int
	wroteHeader bool
}

func (w *responseWriter) Header() http.Header { return w.header }

func (w *responseWriter) WriteHeader(status int) {
	if w.wroteHeader {
		return
	}
	w.wroteHeader = true
	w.status = status
	resp := &w.c.Response().Header
	for k, vv := range w.header {
		if http.CanonicalHeaderKey(k) == fiber.HeaderContentType {
			if len(vv) > 0 {
				resp.SetContentType(vv[0])
			}
			continue
		}
		for _, v := range vv {
			resp.Add(k, v)
		}
	}
	w.c.Status(status)
}

func (w *responseWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		if w.header.Get(fiber.HeaderContentType) == "" {
			w.header.Set(fiber.HeaderContentType, http.DetectContentType(p))
		}
		w.WriteHeader(http.StatusOK)
	}
	w.c.Response().AppendBody(p)
	return len(p), nil
}

// Flush is a no-op: the response is sent when the handler returns.
func (w *responseWriter) Flush() {}

func (w *responseWriter) finish() {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
}
