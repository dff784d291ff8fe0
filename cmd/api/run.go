package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"text/tabwriter"
	"time"

	"github.com/redis/go-redis/extra/redisotel/v9"
	"github.com/redis/go-redis/v9"

	"productsearch/internal/api"
	"productsearch/internal/config"
	"productsearch/internal/connlimit"
	"productsearch/internal/explorer"
	"productsearch/internal/mcp"
	"productsearch/internal/memlimit"
	"productsearch/internal/ratelimit"
	"productsearch/internal/search"
	"productsearch/internal/telemetry"
)

// process is one run of the server: where it reads its configuration and
// writes its output, and the hooks tests use.
type process struct {
	env            func(string) (string, bool) // os.LookupEnv
	stdout, stderr io.Writer
	reload         <-chan struct{} // a receive reloads the catalog
	// engine, when set, is served instead of the one SEARCH_BACKEND names.
	engine search.Engine
	// ready and metricsReady, when set, are called with the API's and the
	// metrics listener's addresses once they accept connections.
	ready, metricsReady func(net.Addr)
}

// run serves in phases: configuration, telemetry, engine, rate limiter,
// server, listeners, reload, then serve until ctx is done and shut down.
// With -check it stops after the engine has loaded.
func (p *process) run(ctx context.Context, args []string) error {
	check, help, err := parseFlags(args, p.stdout, p.stderr)
	if err != nil || help {
		return err
	}
	cfg, err := config.Load(p.env)
	if err != nil {
		return err
	}
	log := slog.New(telemetry.LogHandler(slog.NewJSONHandler(p.stderr, &slog.HandlerOptions{Level: cfg.LogLevel})))
	log.Info("soft memory limit", slog.String("limit", memlimit.Apply(0).String()))
	tel, err := startTelemetry(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stopTelemetry(tel, log)
	owned := p.engine == nil
	engine, err := p.openEngine(ctx, cfg, log, tel)
	if err != nil {
		return err
	}
	if c, ok := engine.(io.Closer); ok && owned {
		// The Elasticsearch engine refreshes its health view until closed.
		defer c.Close()
	}
	if check {
		log.Info("configuration ok")
		return nil
	}
	store, closeStore, err := newLimiterStore(ctx, cfg, log, tel)
	if err != nil {
		return err
	}
	defer closeStore()
	srv, err := newServer(cfg, engine, log, tel, store)
	if err != nil {
		return err
	}
	defer func() {
		// The last push of metrics still holds the gauges that Close
		// unregisters (engine up, catalog size and age).
		flushTelemetry(tel, log)
		srv.Close()
	}()
	ls, err := listen(cfg, tel, log)
	if err != nil {
		return err
	}
	defer ls.close()
	go func() { ls.serveErr <- srv.Serve(ls.api) }()
	p.announce(cfg, ls, engine, log)
	stopReload := startReload(ctx, cfg, engine, srv, log, p.reload)
	defer stopReload()
	return serve(ctx, cfg, srv, ls, log)
}

// parseFlags reads the command line; -h prints the usage with every
// environment variable and reports help.
func parseFlags(args []string, stdout, stderr io.Writer) (check, help bool, err error) {
	fs := flag.NewFlagSet("api", flag.ContinueOnError)
	fs.SetOutput(stderr)
	checkFlag := fs.Bool("check", false, "validate the configuration and load the catalog, then exit")
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
			return false, true, nil
		}
		return false, false, err
	}
	if fs.NArg() > 0 {
		return false, false, fmt.Errorf("unexpected arguments %q; configure the server with environment variables (see -h)", fs.Args())
	}
	return *checkFlag, false, nil
}

// startTelemetry builds the tracer and meter providers from the OTEL_*
// variables: spans are exported when an exporter or endpoint is configured,
// 5% of requests unless OTEL_TRACES_SAMPLER says otherwise. It logs where
// telemetry goes.
func startTelemetry(ctx context.Context, cfg config.Config, log *slog.Logger) (*telemetry.Telemetry, error) {
	tc := cfg.Telemetry
	opt := telemetry.Options{
		ServiceName:    "productsearch-api",
		ServiceVersion: telemetry.BuildVersion(version),
		PodName:        tc.PodName,
		Namespace:      tc.Namespace,
		ExportTraces:   tc.ExportTraces(),
		ExportMetrics:  tc.ExportMetrics(),
		Logger:         log,
	}
	if tc.PodName != "" && tc.Namespace != "" {
		opt.InstanceID = tc.Namespace + "." + tc.PodName
	}
	sampler := tc.Sampler
	if sampler == "" {
		opt.Sampler = telemetry.DefaultSampler()
		sampler = opt.Sampler.Description()
	} else if tc.SamplerArg != "" {
		sampler += " " + tc.SamplerArg
	}
	tel, err := telemetry.New(ctx, opt)
	if err != nil {
		return nil, err
	}
	attrs := []any{slog.String("service_version", opt.ServiceVersion), slog.Bool("sdk_disabled", tc.Disabled)}
	if opt.ExportTraces {
		exporter := cmp.Or(tc.TracesExporter, "otlp")
		if exporter == "otlp" {
			exporter += " " + tc.TracesProtocol
		}
		attrs = append(attrs, slog.String("traces_exporter", exporter), slog.String("traces_endpoint", tc.Endpoint()), slog.String("sampler", sampler))
	} else {
		attrs = append(attrs, slog.String("traces_exporter", "none"))
	}
	metrics := "none"
	if opt.ExportMetrics {
		metrics = cmp.Or(tc.MetricsExporter, "otlp")
		if tc.MetricsEndpoint != "" && metrics == "otlp" {
			metrics += " " + tc.MetricsEndpoint
		}
	}
	attrs = append(attrs, slog.String("metrics_exporter", metrics))
	log.Info("telemetry", attrs...)
	return tel, nil
}

// stopTelemetry flushes and stops the providers.
func stopTelemetry(tel *telemetry.Telemetry, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := tel.Shutdown(ctx); err != nil {
		log.Warn("telemetry shutdown", slog.Any("err", err))
	}
}

// flushTelemetry exports the spans and metrics recorded so far.
func flushTelemetry(tel *telemetry.Telemetry, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := tel.ForceFlush(ctx); err != nil {
		log.Warn("telemetry flush", slog.Any("err", err))
	}
}

// openEngine builds the configured engine (or takes the one of p) and logs
// what it serves.
func (p *process) openEngine(ctx context.Context, cfg config.Config, log *slog.Logger, tel *telemetry.Telemetry) (search.Engine, error) {
	if p.engine != nil {
		return p.engine, nil
	}
	start := time.Now()
	engine, err := newEngine(cfg, tel.TracerProvider(), tel.Meter("productsearch/internal/search/elastic"), log)
	if err != nil {
		return nil, err
	}
	if _, set := p.env("GOGC"); cfg.SearchBackend == config.BackendElasticsearch && !set {
		debug.SetGCPercent(clusterGCPercent)
		log.Info("garbage collector target", slog.Int("gogc", clusterGCPercent))
	}
	h, _ := engine.Health(ctx)
	log.Info("catalog loaded", slog.String("backend", cfg.SearchBackend), slog.String("path", cfg.CatalogPath),
		slog.Int("products", h.Items), slog.Time("sync_time", h.LastUpdate), slog.Duration("took", time.Since(start)))
	return engine, nil
}

// newLimiterStore returns the store of the rate-limit counters: in this
// process, or in Redis (REDIS_URL) with the in-process store as fallback
// while Redis is unreachable. release releases it.
func newLimiterStore(ctx context.Context, cfg config.Config, log *slog.Logger, tel *telemetry.Telemetry) (store ratelimit.Store, release func(), err error) {
	local := ratelimit.NewMemory(0)
	if cfg.RedisURL == "" {
		return local, func() {}, nil
	}
	client, err := ratelimit.OpenRedis(cfg.RedisURL)
	if err != nil {
		return nil, nil, err
	}
	// The client's own messages (dial failures) go to the JSON log; the
	// setting is process-wide, as the Redis package keeps one logger.
	redis.SetLogger(ratelimit.RedisLogger(log))
	if err := instrumentRedis(client, tel); err != nil {
		client.Close()
		return nil, nil, err
	}
	fb, err := ratelimit.NewFallback(ratelimit.NewRedis(client, "productsearch:ratelimit:"), ratelimit.FallbackOptions{
		Local: local, Logger: log, Meter: tel.Meter("productsearch/internal/ratelimit"),
	})
	if err != nil {
		client.Close()
		return nil, nil, fmt.Errorf("rate limiter: %w", err)
	}
	fb.Check(ctx)
	return fb, func() {
		fb.Close()
		client.Close()
	}, nil
}

// instrumentRedis records a client span of every Redis command (when
// spans are exported) and the client's connection-pool and command-duration
// metrics, with go-redis's own OpenTelemetry instrumentation. Commands are
// recorded without their arguments, which hold client addresses and key
// ids.
func instrumentRedis(client *redis.Client, tel *telemetry.Telemetry) error {
	if tp := tel.TracerProvider(); tp != nil {
		if err := redisotel.InstrumentTracing(client, redisotel.WithTracerProvider(tp),
			redisotel.WithDBStatement(false), redisotel.WithCallerEnabled(false)); err != nil {
			return fmt.Errorf("redis tracing: %w", err)
		}
	}
	if err := redisotel.InstrumentMetrics(client, redisotel.WithMeterProvider(tel.MeterProvider()),
		redisotel.WithSemConvCompliantMetrics(true)); err != nil {
		return fmt.Errorf("redis metrics: %w", err)
	}
	return nil
}

// newServer builds the HTTP server with its REST routes, the MCP endpoint
// and the explorer.
func newServer(cfg config.Config, engine search.Engine, log *slog.Logger, tel *telemetry.Telemetry, store ratelimit.Store) (*api.Server, error) {
	srv, err := api.New(api.Options{
		Engine:           engine,
		Logger:           log,
		Telemetry:        tel,
		PublicKey:        cfg.PublicAPIKey,
		Keys:             cfg.APIKeys,
		RateLimitPerHour: cfg.RateLimitPerHour,
		Store:            store,
		TrustedProxies:   cfg.TrustedProxies,
		DrainReadWait:    cfg.ShutdownReadWait,
	})
	if err != nil {
		return nil, err
	}
	if err := mountAll(srv, cfg); err != nil {
		srv.Close()
		return nil, err
	}
	return srv, nil
}

// mountAll adds the MCP endpoint (POST /api/mcp, from the same engine,
// callable from loopback and PUBLIC_ORIGINS pages) and the explorer (/,
// /docs, /assets/ and /api/explorer/, with the public key prefilled in the
// API reference) to srv; both are charged to the client IP's budget, every
// call of an MCP batch included. MCP requests are traced and measured with
// the server's telemetry, their engine calls as the REST API's.
func mountAll(srv *api.Server, cfg config.Config) error {
	tel := srv.Telemetry()
	h := mcp.NewHandler(srv.Engine(), mcp.Options{
		Logger:         srv.Logger(),
		AllowedOrigins: cfg.PublicOrigins,
		ChargeBatch:    srv.ChargeCalls,
		Tracing:        tel.TracerProvider(),
		Meter:          tel.Meter("productsearch/internal/mcp"),
		Engine:         srv.ObserveEngine,
	})
	if err := srv.Mount("/api/mcp", h, api.Methods(http.MethodPost)); err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return explorer.Mount(srv, explorer.Options{PublicKey: cfg.PublicAPIKey})
}

// listeners are the open ports of the process.
type listeners struct {
	api         net.Listener
	metrics     *http.Server // nil when METRICS_ADDR is off
	metricsAddr net.Addr     // nil when METRICS_ADDR is off
	serveErr    chan error   // the API server's Serve result
	metricsErr  chan error   // a failure of the metrics server
}

// listen opens the metrics listener and serves it, then the API port
// within its connection budgets (MAX_CONNS, MAX_CONNS_PER_ADDR), retrying
// accept errors such as "too many open files" rather than stopping.
// Metrics come first: a taken METRICS_ADDR stops the start before the API
// port is opened.
func listen(cfg config.Config, tel *telemetry.Telemetry, log *slog.Logger) (*listeners, error) {
	ls := &listeners{serveErr: make(chan error, 1), metricsErr: make(chan error, 1)}
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			return nil, fmt.Errorf("listen on %s (METRICS_ADDR; off disables the metrics listener): %w", cfg.MetricsAddr, err)
		}
		ls.metrics, ls.metricsAddr = api.NewMetricsServer(tel.MetricsHandler(), log), mln.Addr()
		go func() {
			if err := ls.metrics.Serve(mln); !errors.Is(err, http.ErrServerClosed) {
				ls.metricsErr <- fmt.Errorf("serve metrics: %w", err)
			}
		}()
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		ls.close()
		return nil, fmt.Errorf("listen on %s (HOST, PORT): %w", cfg.Addr, err)
	}
	maxConns := cfg.MaxConns
	if maxConns == 0 {
		maxConns = connlimit.DefaultMax()
	}
	api := connlimit.Listen(ln, connlimit.Options{
		Max:     maxConns,
		PerAddr: cfg.MaxConnsPerAddr,
		Exempt:  ratelimit.Proxies(cfg.TrustedProxies).Trusted,
		Logger:  log,
	})
	if _, err := api.RegisterMetrics(tel.Meter("productsearch/internal/connlimit")); err != nil {
		ln.Close()
		ls.close()
		return nil, fmt.Errorf("connection metrics: %w", err)
	}
	ls.api = api
	return ls, nil
}

// close closes the metrics server after a failed start; after a graceful
// shutdown it does nothing.
func (ls *listeners) close() {
	if ls.metrics != nil {
		ls.metrics.Close()
	}
}

// announce logs the listening addresses, prints the start-up lines and
// calls the readiness hooks.
func (p *process) announce(cfg config.Config, ls *listeners, engine search.Engine, log *slog.Logger) {
	metricsAttr := slog.String("metrics_addr", "off")
	if ls.metricsAddr != nil {
		metricsAttr = slog.String("metrics_addr", ls.metricsAddr.String())
	}
	log.Info("listening", slog.String("addr", ls.api.Addr().String()), metricsAttr, slog.String("backend", cfg.SearchBackend),
		slog.Bool("redis", cfg.RedisURL != ""), slog.Int("rate_limit_per_hour", cfg.RateLimitPerHour),
		slog.Int("production_keys", len(cfg.APIKeys)), slog.Bool("public_key", cfg.PublicAPIKey != ""))
	printBanner(p.stderr, ls.api.Addr(), ls.metricsAddr, engine, cfg.PublicAPIKey)
	if p.metricsReady != nil && ls.metricsAddr != nil {
		p.metricsReady(ls.metricsAddr)
	}
	if p.ready != nil {
		p.ready(ls.api.Addr())
	}
}

// startReload watches the snapshot file of the memory engine (every
// RELOAD_INTERVAL) and reloads it on every receive from hup; the returned
// function stops it and waits until it has.
func startReload(ctx context.Context, cfg config.Config, engine search.Engine, srv *api.Server, log *slog.Logger, hup <-chan struct{}) func() {
	rctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	l, ok := engine.(loader)
	go func() {
		defer close(done)
		if !ok || cfg.SearchBackend != config.BackendMemory {
			<-rctx.Done()
			return
		}
		r := newReloader(cfg.CatalogPath, l, log, func(err error) { srv.ReloadDone(rctx, err) })
		r.run(rctx, cfg.ReloadInterval, hup)
	}()
	return func() {
		stop()
		<-done
	}
}

// serve waits for ctx, a failure of the API server or of the metrics
// listener, then shuts down gracefully: it stops accepting connections and
// waits up to SHUTDOWN_TIMEOUT for in-flight requests, the API's first, so
// that metrics stay readable while it drains. A failed metrics listener
// stops the API too: operators would otherwise watch a server they cannot
// see.
func serve(ctx context.Context, cfg config.Config, srv *api.Server, ls *listeners, log *slog.Logger) error {
	var failed error
	select {
	case err := <-ls.serveErr:
		return err
	case failed = <-ls.metricsErr:
		log.Error("metrics listener failed; shutting down", slog.Any("err", failed))
	case <-ctx.Done():
	}
	log.Info("shutting down", slog.Duration("timeout", cfg.ShutdownTimeout))
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return errors.Join(failed, err)
	}
	if err := <-ls.serveErr; err != nil {
		return errors.Join(failed, err)
	}
	if failed != nil {
		return failed
	}
	if ls.metrics != nil {
		if err := ls.metrics.Shutdown(sctx); err != nil {
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
		fmt.Fprintf(w, "  metrics         http://%s%s (operators; no key, not rate limited)\n", metricsAddr, api.MetricsPath)
	} else {
		fmt.Fprintf(w, "  metrics         off (METRICS_ADDR)\n")
	}
	if publicKey != "" {
		fmt.Fprintf(w, "  public API key  %s\n  try it          curl -H 'Authorization: Bearer %s' '%s/api/search?query=macbook+air&category=Laptops&lite=true&limit=5'\n",
			publicKey, publicKey, base)
	}
}
