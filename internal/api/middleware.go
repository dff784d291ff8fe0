package api

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"
	"github.com/valyala/fasthttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
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
	rid      string // request id, valid while the request runs
	route    string // the route that matched; empty when none did
	client   netip.Addr
	keyID    string
	engine   time.Duration
	panicked bool
}

// Keys of the request's Fiber locals. clientKey and spanKey are also read
// through the net/http request context of mounted handlers (the fasthttp
// request context answers Value from the locals).
type (
	stateKey     struct{}
	requestIDKey struct{}
	clientKey    struct{}
	spanKey      struct{}
)

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

// middleware returns the chain every routed request passes: a well-formed
// incoming X-Request-ID is kept (others are dropped), Fiber's requestid
// assigns the id, observe records it, and Fiber's recover turns a panic in
// a handler into an error that observe answers with a JSON 500.
func (s *Server) middleware() []any {
	return []any{
		dropBadRequestID,
		requestid.New(requestid.Config{Header: headerRequestID, Generator: s.newRequestID, ContextKey: requestIDKey{}}),
		s.observe,
		recover.New(recover.Config{EnableStackTrace: true, StackTraceHandler: s.logPanic}),
	}
}

// dropBadRequestID removes an incoming X-Request-ID that is too long or
// holds characters other than letters, digits and -_.:/+=, so that the
// requestid middleware generates a fresh one.
func dropBadRequestID(c *fiber.Ctx) error {
	if in := c.Request().Header.Peek(headerRequestID); len(in) > 0 && (len(in) > maxRequestID || !validRequestID(in)) {
		c.Request().Header.Del(headerRequestID)
	}
	return c.Next()
}

// newRequestID returns a request id unique to this process: a random
// prefix chosen at start and a sequence number.
func (s *Server) newRequestID() string {
	var b [32]byte
	return string(strconv.AppendUint(append(b[:0], s.ridBase...), s.ridSeq.Add(1), 36))
}

// logPanic logs a handler's panic with its stack and marks the request, so
// that observe answers it with a 500 whatever the panic value.
func (s *Server) logPanic(c *fiber.Ctx, r any) {
	st := state(c)
	s.log.ErrorContext(c.UserContext(), "panic serving request", ridAttr(st), slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
	st.panicked = true
	c.Response().ResetBody()
}

// observe wraps every routed request: client address, size checks, the
// trace span, error responses, the request metric and the access log.
//
// The span is started here rather than by the otelfiber contrib middleware
// (github.com/gofiber/contrib/otelfiber/v2 v2.1.1 builds here, but it
// follows semantic conventions 1.12 — http.method, http.target,
// http.status_code — names spans by Fiber's pattern "/api/product/:id"
// without the method, records a second set of request metrics in
// milliseconds, copies every request header per request and calls the
// error handler itself). Spans here are named "METHOD route" with the route
// names of the metrics ("/api/product/{id}"), carry the request id and the
// current attributes (http.request.method, url.path, http.route,
// http.response.status_code). Every string kept by the span is copied:
// Fiber reuses the request's memory once the handler returns, and spans
// are exported later (TestSpanAttributesOutliveRequest).
func (s *Server) observe(c *fiber.Ctx) (err error) {
	start := time.Now()
	st, _ := s.states.Get().(*reqState)
	if st == nil {
		st = new(reqState)
	}
	*st = reqState{}
	c.Locals(stateKey{}, st)
	st.rid, _ = c.Locals(requestIDKey{}).(string)
	st.client = s.clientAddr(c)
	s.metrics.started(c.Method())

	var span trace.Span
	if s.tracing {
		span = s.startSpan(c, st)
	}

	defer func() {
		if st.panicked {
			err = errInternal
		}
		if err != nil {
			status, msg, internal := classify(c, err)
			if internal && status != errInternal.Status {
				s.log.WarnContext(c.UserContext(), "request failed", ridAttr(st), slog.Int("status", status), slog.Any("err", err))
			} else if internal && err != errInternal {
				s.log.ErrorContext(c.UserContext(), "request failed", ridAttr(st), slog.Any("err", err))
			}
			writeJSONError(c, status, msg)
			err = nil
		}
		s.finish(c, st, span, time.Since(start))
		s.metrics.ended(c.Method())
		s.states.Put(st)
		c.Locals(stateKey{}, nil)
	}()

	if msg := framingError(c.Request().Header.RawHeaders()); msg != "" {
		// Whatever follows on the connection cannot be trusted to start
		// a request: answer and close.
		c.Context().SetConnectionClose()
		return &Error{http.StatusBadRequest, msg}
	}
	if len(c.Request().Header.RequestURI()) > maxURILen {
		return errURITooLong
	}
	if (c.Method() == fiber.MethodGet || c.Method() == fiber.MethodHead) &&
		(len(c.Request().Body()) > 0 || c.Request().Header.ContentLength() > 0) {
		return errBodyOnGet
	}
	return c.Next()
}

// finish records the request metric, ends the span and writes the access
// log of a request that took elapsed.
func (s *Server) finish(c *fiber.Ctx, st *reqState, span trace.Span, elapsed time.Duration) {
	status := c.Response().StatusCode()
	s.metrics.request(c.UserContext(), st.route, c.Method(), status, elapsed)
	route := st.route
	if route == "" {
		route = routeUnmatched // in the access log only
	}
	if span != nil {
		endSpan(span, c.Method(), st.route, status)
	}
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	ctx := c.UserContext() // its span joins the line to the trace
	if !s.log.Enabled(ctx, level) {
		return
	}
	var suppressed int64
	if st.route == "" && (status == http.StatusNotFound || status == http.StatusMethodNotAllowed) {
		var ok bool
		if ok, suppressed = s.noise.allow(); !ok {
			return
		}
	}
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
	if suppressed > 0 {
		// Lines of unrouted requests left out since the last one.
		attrs = append(attrs, slog.Int64("suppressed", suppressed))
	}
	s.log.LogAttrs(ctx, level, "request", attrs...)
}

// startSpan starts the server span of a request, continuing the caller's
// trace, with the attributes of the HTTP semantic conventions known before
// routing. Every string is copied: Fiber reuses the request's memory.
func (s *Server) startSpan(c *fiber.Ctx, st *reqState) trace.Span {
	method := strings.Clone(c.Method())
	ctx := s.prop.Extract(context.Background(), headerCarrier{&c.Request().Header})
	// The attributes are set after the sampling decision: the samplers the
	// SDK reads from OTEL_TRACES_SAMPLER decide by the trace id and the
	// parent alone, and most requests are not sampled, so building and
	// copying the attributes of every request would be spent on nothing.
	ctx, span := s.tracer.Start(ctx, method, s.serverSpan...)
	c.SetUserContext(ctx)
	if span.IsRecording() {
		span.SetAttributes(s.requestAttrs(c, st, method)...)
	}
	return span
}

// requestAttrs returns the server span attributes of a request, every
// string copied (Fiber reuses the request's memory).
func (s *Server) requestAttrs(c *fiber.Ctx, st *reqState, method string) []attribute.KeyValue {
	scheme := "http"
	if c.Context().IsTLS() {
		scheme = "https"
	}
	attrs := make([]attribute.KeyValue, 0, 10)
	attrs = append(attrs,
		semconv.HTTPRequestMethodKey.String(method),
		semconv.URLPath(string(c.Request().URI().PathOriginal())),
		semconv.URLScheme(scheme),
		attribute.String("http.request_id", strings.Clone(st.rid)))
	if st.client.IsValid() {
		attrs = append(attrs, semconv.ClientAddress(st.client.String()))
	}
	if host := string(c.Request().Host()); host != "" {
		name, port, err := net.SplitHostPort(host)
		if err != nil {
			name, port = host, "80"
			if scheme == "https" {
				port = "443"
			}
		}
		attrs = append(attrs, semconv.ServerAddress(strings.Trim(name, "[]")))
		if n, err := strconv.Atoi(port); err == nil {
			attrs = append(attrs, semconv.ServerPort(n))
		}
	}
	if ua := c.Request().Header.UserAgent(); len(ua) > 0 {
		attrs = append(attrs, semconv.UserAgentOriginal(string(ua)))
	}
	return attrs
}

// endSpan names the span of a request "METHOD route" (only METHOD when no
// route matched), records the status, a server error as error.type, and
// ends it.
func endSpan(span trace.Span, method, route string, status int) {
	if !span.IsRecording() {
		span.End()
		return
	}
	attrs := []attribute.KeyValue{semconv.HTTPResponseStatusCode(status)}
	if route != "" {
		span.SetName(method + " " + route) // the concatenation is a copy
		attrs = append(attrs, semconv.HTTPRoute(route))
	}
	if status >= 500 {
		attrs = append(attrs, semconv.ErrorTypeKey.String(strconv.Itoa(status)))
		span.SetStatus(codes.Error, http.StatusText(status))
	}
	span.SetAttributes(attrs...)
	span.End()
}

// ridAttr is the log attribute of the request id.
func ridAttr(st *reqState) slog.Attr { return slog.String("request_id", st.rid) }

// named returns a handler that records the route name of the request,
// for the http.route attribute of metrics, spans and the access log.
func named(route string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		state(c).route = route
		return c.Next()
	}
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
	writeLimitHeaders(&c.Response().Header, d)
}

// writeLimitHeaders writes the rate-limit headers of d into h.
func writeLimitHeaders(h *fasthttp.ResponseHeader, d ratelimit.Decision) {
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
		s.log.WarnContext(c.UserContext(), "rate limiter failed; request allowed", slog.Any("err", err))
		return true
	}
	setLimitHeaders(c, d)
	if !d.Allowed {
		s.metrics.rejected(c.UserContext(), scope)
		writeRateLimited(c, d.Reset, s.now())
		return false
	}
	s.metrics.passed(c.UserContext(), scope)
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

// limitByIP returns middleware that charges each request to the client IP's
// hourly budget, sets the rate-limit headers and answers 429 when the
// budget is spent. Every route but health applies it (Handle and Mount
// included).
func (s *Server) limitByIP() fiber.Handler {
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
	for k := range hc.h.All() {
		keys = append(keys, string(k))
	}
	return keys
}

// ClientAddr returns the client address of a request served by a mounted
// net/http handler (the one its rate limit is charged to).
func ClientAddr(ctx context.Context) (netip.Addr, bool) {
	a, ok := ctx.Value(clientKey{}).(netip.Addr)
	return a, ok
}

// httpHandler mounts a net/http handler with Fiber's adaptor. The adaptor
// hands h a request whose context is the fasthttp request context, which
// answers Value from the request's locals: the client address is put there
// for ClientAddr, and the request's span is put back where OpenTelemetry
// looks for it.
func httpHandler(h http.Handler) fiber.Handler {
	serve := adaptor.HTTPHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if span, ok := r.Context().Value(spanKey{}).(trace.Span); ok {
			r = r.WithContext(trace.ContextWithSpan(r.Context(), span))
		}
		h.ServeHTTP(w, r)
	}))
	return func(c *fiber.Ctx) error {
		c.Locals(clientKey{}, state(c).client)
		if span := trace.SpanFromContext(c.UserContext()); span.SpanContext().IsValid() {
			c.Locals(spanKey{}, span)
		}
		return serve(c)
	}
}

// ChargeCalls charges n more calls to the client IP's hourly budget from a
// mounted net/http handler, for a request that carries several calls (a
// JSON-RPC batch: the route charged the request as one). It updates the
// rate-limit headers on w and, when the budget does not cover the calls,
// answers 429 as the route would and reports false.
func (s *Server) ChargeCalls(w http.ResponseWriter, r *http.Request, n int) bool {
	client, _ := ClientAddr(r.Context())
	d, err := s.limiter.AllowN(r.Context(), ratelimit.IPKey(client), s.ipLimit, n)
	if err != nil {
		s.log.Warn("rate limiter failed; request allowed", slog.Any("err", err))
		return true
	}
	// The adaptor adds w's headers to the response the route already gave
	// rate-limit headers: replace those in place.
	h := w.Header()
	if fctx, ok := r.Context().(*fasthttp.RequestCtx); ok {
		writeLimitHeaders(&fctx.Response.Header, d)
	} else {
		h[headerLimit] = []string{strconv.Itoa(d.Limit)}
		h[headerRemaining] = []string{strconv.Itoa(d.Remaining)}
		h[headerReset] = []string{strconv.FormatInt(d.Reset.Unix(), 10)}
	}
	if d.Allowed {
		s.metrics.passed(r.Context(), "ip")
		return true
	}
	s.metrics.rejected(r.Context(), "ip")
	retryAfter, body := rateLimited(d.Reset, s.now())
	h.Set(fiber.HeaderRetryAfter, retryAfter)
	h.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write(body)
	return false
}
