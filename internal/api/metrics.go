package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// instruments are the server's metrics. In Prometheus form they are
// http_server_request_duration_seconds{http_route,http_request_method,
// http_response_status_code} (a histogram, so also the request count;
// without http_route when no route matched),
// productsearch_engine_duration_seconds{operation},
// http_server_active_requests{http_request_method,url_scheme},
// productsearch_ratelimit_rejections_total{scope},
// productsearch_ratelimit_allowed_total{scope},
// productsearch_catalog_reloads_total{result: ok, corrupt, error},
// productsearch_engine_up, productsearch_catalog_items and
// productsearch_catalog_age_seconds. The catalog figures are those of the
// last time the engine answered, so they stay true while its backend is
// down (productsearch_engine_up is then 0).
type instruments struct {
	duration   metric.Float64Histogram
	engine     metric.Float64Histogram
	active     map[string]*activeCount // by normalized method; read-only after construction
	rejections metric.Int64Counter
	allowed    metric.Int64Counter
	reloads    metric.Int64Counter
	gauges     metric.Registration
	mu         sync.Mutex                                             // serialises additions to sets
	sets       atomic.Pointer[map[requestAttrs][]metric.RecordOption] // copied on write
	engineOps  map[string][]metric.RecordOption
	scopes     map[string][]metric.AddOption
	lastGood   atomic.Pointer[search.Health] // the engine's last healthy answer
}

// activeCount is the number of requests of one method being served. A
// plain counter read by the metrics callback costs a request two atomic
// additions, where a synchronous up-down counter would cost two attribute
// lookups and aggregations.
type activeCount struct {
	n     atomic.Int64
	used  atomic.Bool // a request of the method was seen: only those are reported
	attrs metric.ObserveOption
}

type requestAttrs struct {
	route, method string
	status        int
}

func newInstruments(m metric.Meter, eng search.Engine, now func() time.Time) (*instruments, error) {
	in := &instruments{engineOps: map[string][]metric.RecordOption{}, scopes: map[string][]metric.AddOption{},
		active: map[string]*activeCount{}}
	in.sets.Store(&map[requestAttrs][]metric.RecordOption{})
	var err error
	if in.duration, err = m.Float64Histogram("http.server.request.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP requests by route, method and status")); err != nil {
		return nil, err
	}
	if in.engine, err = m.Float64Histogram("productsearch.engine.duration", metric.WithUnit("s"),
		metric.WithDescription("Time spent in the search engine per call")); err != nil {
		return nil, err
	}
	if in.rejections, err = m.Int64Counter("productsearch.ratelimit.rejections", metric.WithUnit("{request}"),
		metric.WithDescription("Requests answered 429 by budget scope (ip or key)")); err != nil {
		return nil, err
	}
	if in.allowed, err = m.Int64Counter("productsearch.ratelimit.allowed", metric.WithUnit("{request}"),
		metric.WithDescription("Requests the rate limiter let through by budget scope (ip or key)")); err != nil {
		return nil, err
	}
	active, err := m.Int64ObservableUpDownCounter("http.server.active_requests", metric.WithUnit("{request}"),
		metric.WithDescription("Requests being served"))
	if err != nil {
		return nil, err
	}
	if in.reloads, err = m.Int64Counter("productsearch.catalog.reloads", metric.WithUnit("{reload}"),
		metric.WithDescription("Catalog snapshot reloads by result (ok; corrupt when the file does not match its checksum; error)")); err != nil {
		return nil, err
	}
	items, err := m.Int64ObservableGauge("productsearch.catalog.items", metric.WithUnit("{product}"),
		metric.WithDescription("Products in the served catalog"))
	if err != nil {
		return nil, err
	}
	age, err := m.Float64ObservableGauge("productsearch.catalog.age", metric.WithUnit("s"),
		metric.WithDescription("Seconds since the served catalog was synced"))
	if err != nil {
		return nil, err
	}
	up, err := m.Int64ObservableGauge("productsearch.engine.up",
		metric.WithDescription("1 when the search engine answers, 0 while its backend is down or degraded"))
	if err != nil {
		return nil, err
	}
	in.gauges, err = m.RegisterCallback(func(ctx context.Context, o metric.Observer) error {
		var ok int64
		if h, err := eng.Health(ctx); err == nil && h.Status == "ok" {
			ok = 1
			in.lastGood.Store(&h)
		}
		o.ObserveInt64(up, ok)
		for _, a := range in.active {
			if a.used.Load() {
				o.ObserveInt64(active, a.n.Load(), a.attrs)
			}
		}
		h := in.lastGood.Load()
		if h == nil {
			return nil // never answered: no catalog figures yet
		}
		o.ObserveInt64(items, int64(h.Items))
		if !h.LastUpdate.IsZero() {
			o.ObserveFloat64(age, now().Sub(h.LastUpdate).Seconds())
		}
		return nil
	}, items, age, up, active)
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"search", "product", "health"} {
		in.engineOps[op] = []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(attribute.String("operation", op)))}
	}
	for _, sc := range []string{"ip", "key"} {
		in.scopes[sc] = []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(attribute.String("scope", sc)))}
	}
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "_OTHER"} {
		in.active[m] = &activeCount{attrs: metric.WithAttributeSet(attribute.NewSet(
			attribute.String("http.request.method", m), attribute.String("url.scheme", "http")))}
	}
	return in, nil
}

// request records one request; route is empty when none matched.
// Attribute sets are built once per route, method and status and reused;
// so are the option slices, which spares every recording an allocation.
func (in *instruments) request(ctx context.Context, route, method string, status int, d time.Duration) {
	key := requestAttrs{route: route, method: normalizeMethod(method), status: status}
	opt, ok := (*in.sets.Load())[key]
	if !ok {
		opt = in.addSet(key)
	}
	in.duration.Record(ctx, d.Seconds(), opt...)
}

// addSet builds the attribute set of a route, method and status seen for
// the first time and publishes a copy of the set map that holds it.
func (in *instruments) addSet(key requestAttrs) []metric.RecordOption {
	in.mu.Lock()
	defer in.mu.Unlock()
	old := *in.sets.Load()
	if opt, ok := old[key]; ok {
		return opt
	}
	attrs := []attribute.KeyValue{
		attribute.String("http.request.method", key.method),
		attribute.Int("http.response.status_code", key.status),
	}
	if key.route != "" { // none when no route matched
		attrs = append(attrs, attribute.String("http.route", key.route))
	}
	opt := []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(attrs...))}
	sets := make(map[requestAttrs][]metric.RecordOption, len(old)+1)
	for k, v := range old {
		sets[k] = v
	}
	sets[key] = opt
	in.sets.Store(&sets)
	return opt
}

func (in *instruments) engineCall(ctx context.Context, op string, d time.Duration) {
	in.engine.Record(ctx, d.Seconds(), in.engineOps[op]...)
}

func (in *instruments) rejected(ctx context.Context, scope string) {
	in.rejections.Add(ctx, 1, in.scopes[scope]...)
}

func (in *instruments) passed(ctx context.Context, scope string) {
	in.allowed.Add(ctx, 1, in.scopes[scope]...)
}

// started and ended count a request of method in and out of
// http.server.active_requests.
func (in *instruments) started(method string) {
	a := in.active[normalizeMethod(method)]
	a.n.Add(1)
	if !a.used.Load() {
		a.used.Store(true)
	}
}

func (in *instruments) ended(method string) {
	in.active[normalizeMethod(method)].n.Add(-1)
}

func (in *instruments) reloaded(ctx context.Context, err error) {
	result := "ok"
	switch {
	case errors.Is(err, catalog.ErrChecksum):
		result = "corrupt" // the file does not match its checksum
	case err != nil:
		result = "error"
	}
	in.reloads.Add(ctx, 1, metric.WithAttributes(attribute.String("result", result)))
}

func (in *instruments) close() error { return in.gauges.Unregister() }

// normalizeMethod maps a request method onto a fixed set, so metric labels
// stay bounded.
func normalizeMethod(m string) string {
	switch m {
	case "GET":
		return "GET"
	case "HEAD":
		return "HEAD"
	case "POST":
		return "POST"
	case "PUT":
		return "PUT"
	case "DELETE":
		return "DELETE"
	case "OPTIONS":
		return "OPTIONS"
	case "PATCH":
		return "PATCH"
	}
	return "_OTHER"
}

// MetricsPath is where the operators' listener serves the Prometheus text
// format.
const MetricsPath = "/metrics"

// NewMetricsServer returns the operators' HTTP server: GET (and HEAD)
// /metrics answered by h, 404 for any other path and 405 for other
// methods. It needs no key and is not rate limited, so cmd/api serves it on a
// listener of its own (METRICS_ADDR, loopback by default), never on the
// public port.
func NewMetricsServer(h http.Handler, log *slog.Logger) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET "+MetricsPath, h)
	return &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderSize,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
