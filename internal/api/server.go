// Package api is the HTTP server of the product search service: one Fiber
// router and middleware chain for the REST routes (search, product detail,
// health, the OpenAPI document) and for the endpoints other packages add
// (the explorer's pages and data, the MCP endpoint); bearer-key
// authentication; hourly rate limits per client IP or per production key,
// charged on every endpoint except health; flat JSON errors; request ids,
// structured logs, traces and metrics for every request; and the
// operators' metrics server. Choosing the engine, the rate-limit store and
// the listeners is left to cmd/api.
package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/ratelimit"
	"productsearch/internal/search"
	"productsearch/internal/telemetry"
)

// Version is the interface version served in the OpenAPI document.
const Version = "0.1.0"

// Request size limits.
const (
	maxURILen     = 8 << 10  // request target, bytes
	maxHeaderSize = 16 << 10 // request line and headers together
	maxBodySize   = 1 << 20  // POST bodies of mounted endpoints
)

// writeBufferSize is a connection's response buffer while it answers: a
// page of 20 lite products leaves in one write.
const writeBufferSize = 16 << 10

// Server timeouts; WriteTimeout bounds how long a response is written.
const (
	readTimeout  = 10 * time.Second
	WriteTimeout = 10 * time.Second
	idleTimeout  = 60 * time.Second
)

// Route names used as the http.route attribute of metrics and spans.
const (
	routeSearch      = "/api/search"
	routeProduct     = "/api/product/{id}"
	routeHealth      = "/api/health"
	routeOpenAPI     = "/openapi.json"
	routeOpenAPIYAML = "/openapi.yaml"
	routeUnmatched   = "unmatched" // the access log's route when none matched
)

// Options configure a Server.
type Options struct {
	// Engine answers searches and product look-ups (required).
	Engine search.Engine
	// Logger receives the JSON request log (slog.Default when nil).
	Logger *slog.Logger
	// Telemetry provides tracer, meter and the Prometheus handler (which
	// cmd/api serves on its own listener, METRICS_ADDR); nil builds a private
	// one without exporters.
	Telemetry *telemetry.Telemetry
	// PublicKey is the shared key charged to the client IP's budget;
	// empty disables it.
	PublicKey string
	// Keys maps production keys to their own hourly budgets.
	Keys map[string]int
	// RateLimitPerHour is the hourly budget of one client IP.
	RateLimitPerHour int
	// Store holds the rate-limit counters (in-process when nil).
	Store ratelimit.Store
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// DrainReadWait bounds, during Shutdown, the wait for a request that
	// is still being received (DefaultDrainReadWait when 0).
	DrainReadWait time.Duration
}

// DefaultDrainReadWait is the default Options.DrainReadWait.
const DefaultDrainReadWait = time.Second

// Server is the HTTP API. Create it with New, add endpoints with Handle or
// Mount, then Serve a listener and Shutdown when done.
type Server struct {
	app        *fiber.App
	engine     search.Engine
	log        *slog.Logger
	tel        *telemetry.Telemetry
	keys       *keyring
	limiter    *ratelimit.Limiter
	ipLimit    int
	proxies    ratelimit.Proxies
	now        func() time.Time
	tracer     trace.Tracer
	serverSpan []trace.SpanStartOption // built once: an option made per request is an allocation
	tracing    bool
	prop       propagation.TextMapPropagator
	metrics    *instruments
	openapi    openapiDocs
	ridBase    string // random prefix of generated request ids
	ridSeq     atomic.Uint64
	bufs       sync.Pool
	states     sync.Pool
	started    atomic.Bool
	ownedTel   bool

	drainReadWait time.Duration
	noise         *noiseLog

	listeners struct {
		sync.Mutex
		l      []*trackingListener
		closed bool // Shutdown has begun: Serve accepts no new listener
	}
}

// trackingListener remembers its open connections, so that Shutdown can
// close those that never carried a request and bound the wait for those
// still receiving one.
type trackingListener struct {
	net.Listener
	mu    sync.Mutex
	conns map[*trackedConn]struct{}
	// readLimit, once Shutdown sets it (Unix nanoseconds), is the latest
	// read deadline any connection may have.
	readLimit atomic.Int64
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c, l: l}
	if limit := l.readLimit.Load(); limit != 0 {
		_ = c.SetReadDeadline(time.Unix(0, limit))
	}
	l.mu.Lock()
	l.conns[tc] = struct{}{}
	l.mu.Unlock()
	return tc, nil
}

// closeUnused closes the connections that have not sent a byte.
func (l *trackingListener) closeUnused() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.conns {
		if !c.used.Load() {
			c.Conn.Close()
		}
	}
}

// limitReads makes deadline the latest read deadline of every connection,
// present and future: a request still being received when it passes
// fails (fasthttp answers 408 and closes), so that a half-sent request
// cannot hold shutdown. A request already received is not read again.
func (l *trackingListener) limitReads(deadline time.Time) {
	l.readLimit.Store(deadline.UnixNano())
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.conns {
		_ = c.Conn.SetReadDeadline(deadline)
	}
}

type trackedConn struct {
	net.Conn
	l    *trackingListener
	used atomic.Bool
	once sync.Once
}

// SetReadDeadline keeps t within the listener's read limit, once set.
func (c *trackedConn) SetReadDeadline(t time.Time) error {
	if limit := c.l.readLimit.Load(); limit != 0 && (t.IsZero() || t.UnixNano() > limit) {
		t = time.Unix(0, limit)
	}
	return c.Conn.SetReadDeadline(t)
}

// SetDeadline applies the read limit to the read side.
func (c *trackedConn) SetDeadline(t time.Time) error {
	if err := c.Conn.SetWriteDeadline(t); err != nil {
		return err
	}
	return c.SetReadDeadline(t)
}

func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.used.Load() {
		c.used.Store(true)
	}
	return n, err
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// New builds the server and its routes.
func New(opt Options) (*Server, error) {
	if opt.Engine == nil {
		return nil, errors.New("api: no search engine")
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.RateLimitPerHour <= 0 {
		return nil, errors.New("api: rate limit must be positive")
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.DrainReadWait <= 0 {
		opt.DrainReadWait = DefaultDrainReadWait
	}
	if opt.Store == nil {
		opt.Store = ratelimit.NewMemory(0)
	}
	s := &Server{
		engine:  opt.Engine,
		log:     opt.Logger,
		tel:     opt.Telemetry,
		keys:    newKeyring(opt.PublicKey, opt.Keys),
		limiter: ratelimit.New(opt.Store, opt.Now),
		ipLimit: opt.RateLimitPerHour,
		proxies: ratelimit.Proxies(opt.TrustedProxies),
		now:     opt.Now,

		drainReadWait: opt.DrainReadWait,
		noise:         newNoiseLog(),
	}
	if s.tel == nil {
		tel, err := telemetry.New(context.Background(), telemetry.Options{ServiceName: "productsearch-api", ServiceVersion: Version, Logger: s.log})
		if err != nil {
			return nil, err
		}
		s.tel, s.ownedTel = tel, true
	}
	s.tracer = s.tel.Tracer("productsearch/internal/api")
	s.serverSpan = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}
	s.tracing = s.tel.Tracing()
	s.prop = s.tel.Propagator()
	var err error
	if s.metrics, err = newInstruments(s.tel.Meter("productsearch/internal/api"), s.engine, s.now); err != nil {
		return nil, fmt.Errorf("api metrics: %w", err)
	}
	if s.openapi, err = loadOpenAPI(); err != nil {
		return nil, err
	}
	var seed [6]byte
	_, _ = rand.Read(seed[:])
	s.ridBase = hex.EncodeToString(seed[:]) + "-"

	s.app = fiber.New(fiber.Config{
		ErrorHandler:          s.errorHandler,
		DisableStartupMessage: true,
		CaseSensitive:         true,
		ReadBufferSize:        maxHeaderSize,
		WriteBufferSize:       writeBufferSize,
		BodyLimit:             maxBodySize,
		ReadTimeout:           readTimeout,
		WriteTimeout:          WriteTimeout,
		IdleTimeout:           idleTimeout,
	})
	// Responses sent while shutting down tell keep-alive clients that the
	// connection closes.
	s.app.Server().CloseOnShutdown = true
	// Fiber answers an unknown method with a plain-text 400 before any
	// handler runs; answer it in JSON instead.
	next := s.app.Server().Handler
	s.app.Server().Handler = s.guardMethod(next)

	s.app.Use(s.middleware()...)
	s.app.Get("/api/health", named(routeHealth), s.handleHealth)
	s.app.Get("/api/search", named(routeSearch), s.limitByKey, s.handleSearch)
	s.app.Get("/api/product/:id", named(routeProduct), s.limitByKey, s.handleProduct)
	s.app.Get("/openapi.json", named(routeOpenAPI), s.limitByIP(), s.handleOpenAPI(s.openapi.json, fiber.MIMEApplicationJSON))
	s.app.Get("/openapi.yaml", named(routeOpenAPIYAML), s.limitByIP(), s.handleOpenAPI(s.openapi.yaml, "application/yaml"))
	return s, nil
}

// App returns the Fiber application, to inspect its routes; add routes
// with Handle or Mount, which apply the rate limit.
func (s *Server) App() *fiber.App { return s.app }

// Engine returns the search engine the server queries.
func (s *Server) Engine() search.Engine { return s.engine }

// Logger returns the server's logger.
func (s *Server) Logger() *slog.Logger { return s.log }

// Telemetry returns the server's telemetry providers.
func (s *Server) Telemetry() *telemetry.Telemetry { return s.tel }

// MountOption configures a mounted handler.
type MountOption func(*mountConfig)

type mountConfig struct {
	methods []string
}

// Methods restricts the methods routed to a mounted handler; other methods
// get 405 with an Allow header. The default routes every method.
func Methods(methods ...string) MountOption {
	return func(m *mountConfig) { m.methods = append(m.methods, methods...) }
}

// Handle routes path to handlers, for the methods of opts (every method
// by default): an exact path, a Fiber pattern with parameters, or a
// subtree when path ends in "/*". Requests pass the server's middleware
// (request id, recovery, trace, metrics, access log) under the route name
// path, and are charged to the client IP's hourly budget (the budget the
// public key uses; interface specification §8 Limits exempts only health)
// with the rate-limit headers. No API key is required. Handle must be
// called before Serve.
func (s *Server) Handle(path string, handlers []fiber.Handler, opts ...MountOption) error {
	if s.started.Load() {
		return errors.New("api: route added after Serve")
	}
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("api: route path %q must start with /", path)
	}
	var m mountConfig
	for _, o := range opts {
		o(&m)
	}
	chain := append([]fiber.Handler{named(path), s.limitByIP()}, handlers...)
	if len(m.methods) == 0 {
		s.app.All(path, chain...)
		return nil
	}
	for _, method := range m.methods {
		s.app.Add(strings.ToUpper(method), path, chain...)
	}
	return nil
}

// Mount routes path to a net/http handler, as Handle does, through
// Fiber's adaptor. h sees a request whose context carries the request's
// trace span; r.RemoteAddr is the socket peer and the client address is
// available from ClientAddr(r.Context()). The response is buffered and
// sent when h returns, so h must not stream (an MCP handler should answer
// with JSON, not server-sent events).
func (s *Server) Mount(path string, h http.Handler, opts ...MountOption) error {
	return s.Handle(path, []fiber.Handler{httpHandler(h)}, opts...)
}

// SearchHandler returns the handler of GET /api/search without the key
// check, for routes added with Handle: it reads the query string and
// answers exactly as the REST route does.
func (s *Server) SearchHandler() fiber.Handler { return s.handleSearch }

// ProductHandler returns the handler of GET /api/product/{id} without the
// key check, for routes added with Handle; the route must name the
// product id parameter "id".
func (s *Server) ProductHandler() fiber.Handler { return s.handleProduct }

// ReloadDone records the outcome of a catalog reload in the server's
// metrics (err is nil for a reload that succeeded).
func (s *Server) ReloadDone(ctx context.Context, err error) { s.metrics.reloaded(ctx, err) }

// Serve accepts connections on ln until Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	s.started.Store(true)
	tl := &trackingListener{Listener: ln, conns: map[*trackedConn]struct{}{}}
	s.listeners.Lock()
	if s.listeners.closed {
		s.listeners.Unlock()
		return ln.Close()
	}
	s.listeners.l = append(s.listeners.l, tl)
	s.listeners.Unlock()
	if err := s.app.Listener(tl); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// Shutdown stops accepting connections and waits, within ctx, for
// in-flight requests to finish.
func (s *Server) Shutdown(ctx context.Context) error {
	// Responses sent from now on carry Connection: close (CloseOnShutdown),
	// so keep-alive clients open a new connection for their next request
	// instead of sending it on one about to close. A request still being
	// received gets DrainReadWait to arrive.
	s.listeners.Lock()
	s.listeners.closed = true
	for _, l := range s.listeners.l {
		l.limitReads(time.Now().Add(s.drainReadWait))
	}
	s.listeners.Unlock()
	// fasthttp closes idle keep-alive connections but counts a new
	// connection as busy from the moment it is accepted, so one that a
	// client opened and never used would hold shutdown for the read
	// timeout. Close such connections while shutdown runs.
	done := make(chan error, 1)
	go func() { done <- s.app.ShutdownWithContext(ctx) }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var err error
wait:
	for {
		s.listeners.Lock()
		for _, l := range s.listeners.l {
			l.closeUnused()
		}
		s.listeners.Unlock()
		select {
		case err = <-done:
			break wait
		case <-tick.C:
		}
	}
	// A Serve that had registered its listener before fasthttp took it
	// (Shutdown right after start) would otherwise go on accepting: close
	// the listeners here too, which ends its accept loop.
	s.listeners.Lock()
	for _, l := range s.listeners.l {
		_ = l.Close()
	}
	s.listeners.Unlock()
	if s.ownedTel {
		err = errors.Join(err, s.tel.Shutdown(ctx))
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// Close releases the server's metric callbacks; call it after Shutdown.
func (s *Server) Close() error {
	return s.metrics.close()
}

// handler returns the server's request handler with the routes built, for
// serving requests without a listener (fuzzing, benchmarks).
func (s *Server) handler() fasthttp.RequestHandler {
	s.app.Handler() // builds the route tree
	return s.app.Server().Handler
}
