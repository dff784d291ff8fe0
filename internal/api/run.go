package api

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"text/tabwriter"
	"time"

	"productsearch/internal/config"
	"productsearch/internal/ratelimit"
	"productsearch/internal/search"
	"productsearch/internal/telemetry"
)

// Option customises Run.
type Option func(*runOptions)

type runOptions struct {
	reload       <-chan struct{}
	ready        func(net.Addr)
	metricsReady func(net.Addr)
	engine       search.Engine
	extensions   []func(*Server) error
}

// WithReload reloads the catalog on every receive from ch (cmd/api sends
// on SIGHUP).
func WithReload(ch <-chan struct{}) Option { return func(o *runOptions) { o.reload = ch } }

// WithReady calls f with the listening address once the server accepts
// connections.
func WithReady(f func(net.Addr)) Option { return func(o *runOptions) { o.ready = f } }

// WithMetricsReady calls f with the address of the operators' metrics
// listener (METRICS_ADDR) once it accepts connections, before the ready
// function of WithReady. It is not called when METRICS_ADDR is off.
func WithMetricsReady(f func(net.Addr)) Option { return func(o *runOptions) { o.metricsReady = f } }

// WithEngine serves e instead of the engine SEARCH_BACKEND names. If e is a
// Loader, CATALOG_PATH is still watched and reloaded into it.
func WithEngine(e search.Engine) Option { return func(o *runOptions) { o.engine = e } }

// WithExtension calls f with the server before it starts serving: the place
// to Mount the MCP endpoint and explorer routes.
func WithExtension(f func(*Server) error) Option {
	return func(o *runOptions) { o.extensions = append(o.extensions, f) }
}

// Run reads the configuration from lookupEnv (os.LookupEnv in cmd/api),
// loads the catalog, serves the API (and Prometheus metrics on
// METRICS_ADDR) until ctx is done, then shuts down gracefully: it stops
// accepting connections and waits up to SHUTDOWN_TIMEOUT for in-flight
// requests, the API's first, so that metrics stay readable while it drains.
// Logs go to stderr as JSON.
func Run(ctx context.Context, args []string, lookupEnv func(string) (string, bool), stdout, stderr io.Writer, opts ...Option) error {
	var ro runOptions
	for _, o := range opts {
		o(&ro)
	}
	fs := flag.NewFlagSet("api", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "validate the configuration and load the catalog, then exit")
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: api [-check]\n\nServes the product search REST API. Configuration is read from the environment:\n\n")
		tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "  VARIABLE\tMEANING\tDEFAULT")
		for _, v := range config.Variables() {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", v[0], v[1], v[2])
		}
		tw.Flush()
		fmt.Fprintln(stdout, "\nFlags:")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q; configure the server with environment variables (see -h)", fs.Args())
	}
	cfg, err := config.Load(lookupEnv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))

	topt := telemetry.Options{ServiceName: "productsearch-api", ServiceVersion: Version, OTLP: cfg.OTLPEndpoint != "", Logger: log}
	if cfg.TracesSampler == "" {
		topt.Sampler = telemetry.DefaultSampler()
	}
	tel, err := telemetry.New(ctx, topt)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tel.Shutdown(sctx); err != nil {
			log.Warn("telemetry shutdown", slog.Any("err", err))
		}
	}()

	engine, watch := ro.engine, ""
	if engine == nil {
		start := time.Now()
		if engine, err = newEngine(cfg, lookupEnv); err != nil {
			return err
		}
		h, _ := engine.Health(ctx)
		log.Info("catalog loaded", slog.String("backend", cfg.SearchBackend), slog.String("path", cfg.CatalogPath),
			slog.Int("products", h.Items), slog.Time("sync_time", h.LastUpdate), slog.Duration("took", time.Since(start)))
	}
	if _, ok := engine.(Loader); ok && cfg.SearchBackend == config.BackendMemory {
		watch = cfg.CatalogPath
	}
	if *check {
		log.Info("configuration ok")
		return nil
	}

	var store ratelimit.Store = ratelimit.NewMemory(0)
	if cfg.RedisURL != "" {
		client, err := ratelimit.OpenRedis(cfg.RedisURL)
		if err != nil {
			return err
		}
		defer client.Close()
		fb, err := ratelimit.NewFallback(ratelimit.NewRedis(client, "productsearch:ratelimit:"), ratelimit.FallbackOptions{
			Local: store, Logger: log, Meter: tel.Meter("productsearch/internal/ratelimit"),
		})
		if err != nil {
			return fmt.Errorf("rate limiter: %w", err)
		}
		defer fb.Close()
		fb.Check(ctx)
		store = fb
	}

	srv, err := New(Options{
		Engine:           engine,
		Logger:           log,
		Telemetry:        tel,
		PublicKey:        cfg.PublicAPIKey,
		Keys:             cfg.APIKeys,
		RateLimitPerHour: cfg.RateLimitPerHour,
		Store:            store,
		TrustedProxies:   cfg.TrustedProxies,
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	for _, ext := range ro.extensions {
		if err := ext(srv); err != nil {
			return fmt.Errorf("extension: %w", err)
		}
	}

	// Metrics first: a taken METRICS_ADDR stops the start before the API
	// port is opened.
	var (
		metrics     *http.Server
		metricsAddr net.Addr // nil when METRICS_ADDR is off
		metricsErr  = make(chan error, 1)
	)
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			return fmt.Errorf("listen on %s (METRICS_ADDR; off disables the metrics listener): %w", cfg.MetricsAddr, err)
		}
		metrics, metricsAddr = newMetricsServer(tel.MetricsHandler(), log), mln.Addr()
		go func() {
			if err := metrics.Serve(mln); !errors.Is(err, http.ErrServerClosed) {
				metricsErr <- fmt.Errorf("serve metrics: %w", err)
			}
		}()
		defer metrics.Close() // after a failed start; a no-op after Shutdown
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s (HOST, PORT): %w", cfg.Addr, err)
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	metricsAttr := slog.String("metrics_addr", "off")
	if metricsAddr != nil {
		metricsAttr = slog.String("metrics_addr", metricsAddr.String())
	}
	log.Info("listening", slog.String("addr", ln.Addr().String()), metricsAttr, slog.String("backend", cfg.SearchBackend),
		slog.Bool("redis", cfg.RedisURL != ""), slog.Int("rate_limit_per_hour", cfg.RateLimitPerHour),
		slog.Int("production_keys", len(cfg.APIKeys)), slog.Bool("public_key", cfg.PublicAPIKey != ""))
	printBanner(stderr, ln.Addr(), metricsAddr, engine, cfg.PublicAPIKey)
	if ro.metricsReady != nil && metricsAddr != nil {
		ro.metricsReady(metricsAddr)
	}
	if ro.ready != nil {
		ro.ready(ln.Addr())
	}

	rctx, stopReload := context.WithCancel(ctx)
	reloadDone := make(chan struct{})
	go func() {
		defer close(reloadDone)
		if watch == "" {
			<-rctx.Done()
			return
		}
		r := newReloader(watch, engine.(Loader), log, func(err error) { srv.metrics.reloaded(rctx, err) })
		r.run(rctx, cfg.ReloadInterval, ro.reload)
	}()
	defer func() {
		stopReload()
		<-reloadDone
	}()

	// A failed metrics listener stops the API gracefully too: operators
	// would otherwise watch a server they cannot see.
	var failed error
	select {
	case err := <-serveErr:
		return err
	case failed = <-metricsErr:
		log.Error("metrics listener failed; shutting down", slog.Any("err", failed))
	case <-ctx.Done():
	}
	log.Info("shutting down", slog.Duration("timeout", cfg.ShutdownTimeout))
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return errors.Join(failed, err)
	}
	if err := <-serveErr; err != nil {
		return errors.Join(failed, err)
	}
	if failed != nil {
		return failed
	}
	if metrics != nil {
		if err := metrics.Shutdown(sctx); err != nil {
			return fmt.Errorf("shutdown metrics: %w", err)
		}
	}
	log.Info("stopped")
	return nil
}

// printBanner tells the person who started the server where it is and how
// to call it, and where operators read its metrics (metricsAddr is nil when
// the metrics listener is off). Only the shared public key is printed,
// never production keys.
func printBanner(w io.Writer, addr, metricsAddr net.Addr, engine search.Engine, publicKey string) {
	h, _ := engine.Health(context.Background())
	base := "http://" + addr.String()
	fmt.Fprintf(w, "Product search is serving %d products on %s\n", h.Items, base)
	fmt.Fprintf(w, "  explorer        %s/\n  API reference   %s/docs\n  MCP endpoint    POST %s/api/mcp\n", base, base, base)
	if metricsAddr != nil {
		fmt.Fprintf(w, "  metrics         http://%s%s (operators; no key, not rate limited)\n", metricsAddr, metricsPath)
	} else {
		fmt.Fprintf(w, "  metrics         off (METRICS_ADDR)\n")
	}
	if publicKey != "" {
		fmt.Fprintf(w, "  public API key  %s\n  try it          curl -H 'Authorization: Bearer %s' '%s/api/search?query=macbook+air&category=Laptops&lite=true&limit=5'\n",
			publicKey, publicKey, base)
	}
}
