// Package telemetry sets up OpenTelemetry for the server: a meter provider
// whose metrics are served in Prometheus text format (and pushed to a
// collector when one is configured), with the Go runtime's metrics and the
// build info, and a tracer provider that exports spans when an exporter is
// configured and is a no-op otherwise, so an unobserved server pays nothing
// for tracing.
//
// Exporters are built by the OpenTelemetry contrib autoexport package, so
// the standard OTEL_* environment variables (OTEL_TRACES_EXPORTER,
// OTEL_EXPORTER_OTLP_ENDPOINT and its per-signal forms, _PROTOCOL,
// _HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, ...) are read by the SDK
// itself.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	goruntime "runtime"
	"runtime/debug"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/otlptranslator"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/contrib/instrumentation/runtime"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	promexporter "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Options configure New.
type Options struct {
	// ServiceName and ServiceVersion describe the process in the resource
	// (OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override them).
	ServiceName    string
	ServiceVersion string
	// InstanceID is service.instance.id; empty picks a random one, so
	// that replicas can be told apart.
	InstanceID string
	// PodName and Namespace, when set, are k8s.pod.name and
	// k8s.namespace.name.
	PodName, Namespace string
	// ExportTraces records spans and sends them to the exporter that
	// OTEL_TRACES_EXPORTER names (default otlp, configured by the
	// OTEL_EXPORTER_OTLP_* variables).
	ExportTraces bool
	// ExportMetrics pushes metrics to the exporter OTEL_METRICS_EXPORTER
	// names (default otlp), besides serving them in Prometheus format.
	ExportMetrics bool
	// TraceExporter, when set, receives spans instead (tests and
	// benchmarks).
	TraceExporter sdktrace.SpanExporter
	// Sampler decides which requests are traced; nil leaves it to the
	// SDK, which reads OTEL_TRACES_SAMPLER (default: every request).
	Sampler sdktrace.Sampler
	// Logger receives OpenTelemetry export errors.
	Logger *slog.Logger
}

// DefaultSampleRatio is the share of requests traced by DefaultSampler.
const DefaultSampleRatio = 0.05

// DefaultSampler traces a request when its caller's trace is sampled, and
// otherwise DefaultSampleRatio of requests: tracing every request would
// cost more than the search itself.
func DefaultSampler() sdktrace.Sampler {
	return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(DefaultSampleRatio))
}

// Telemetry holds the providers of one server.
type Telemetry struct {
	tracer     trace.TracerProvider
	flush      func(context.Context) error
	meter      *sdkmetric.MeterProvider
	propagator propagation.TextMapPropagator
	metrics    http.Handler
	tracing    bool
	shutdown   []func(context.Context) error
}

// New builds the providers. Call Shutdown to flush and stop exporters.
func New(ctx context.Context, opt Options) (*Telemetry, error) {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	res, err := newResource(ctx, opt)
	if err != nil {
		return nil, err
	}
	t := &Telemetry{
		propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}
	if err := t.startMetrics(ctx, opt, res); err != nil {
		return nil, err
	}
	if err := t.startTracing(ctx, opt, res); err != nil {
		return nil, errors.Join(err, t.Shutdown(ctx))
	}
	return t, nil
}

// newResource describes the process: the service, its build, this
// instance and its pod, then what OTEL_RESOURCE_ATTRIBUTES and
// OTEL_SERVICE_NAME say over it.
func newResource(ctx context.Context, opt Options) (*resource.Resource, error) {
	id := opt.InstanceID
	if id == "" {
		id = uuid.NewString()
	}
	attrs := []attribute.KeyValue{
		semconv.ServiceName(opt.ServiceName),
		semconv.ServiceVersion(opt.ServiceVersion),
		semconv.ServiceInstanceID(id),
	}
	if opt.PodName != "" {
		attrs = append(attrs, semconv.K8SPodName(opt.PodName))
	}
	if opt.Namespace != "" {
		attrs = append(attrs, semconv.K8SNamespaceName(opt.Namespace))
	}
	res, err := resource.New(ctx, resource.WithAttributes(attrs...), resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("telemetry resource: %w", err)
	}
	return res, nil
}

// startMetrics builds the meter provider: metrics served in Prometheus
// format, pushed too when opt.ExportMetrics, with the Go runtime's
// metrics and the build info.
func (t *Telemetry) startMetrics(ctx context.Context, opt Options, res *resource.Resource) error {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	prom, err := promexporter.New(
		promexporter.WithRegisterer(reg),
		promexporter.WithoutScopeInfo(),
		promexporter.WithTranslationStrategy(otlptranslator.UnderscoreEscapingWithSuffixes))
	if err != nil {
		return fmt.Errorf("telemetry prometheus exporter: %w", err)
	}
	readers := []sdkmetric.Option{sdkmetric.WithResource(res), sdkmetric.WithReader(prom), sdkmetric.WithView(latencyView())}
	if opt.ExportMetrics {
		r, err := autoexport.NewMetricReader(ctx)
		if err != nil {
			return fmt.Errorf("telemetry metrics exporter (OTEL_METRICS_EXPORTER, OTEL_EXPORTER_OTLP_*): %w", err)
		}
		readers = append(readers, sdkmetric.WithReader(r))
	}
	t.meter = sdkmetric.NewMeterProvider(readers...)
	t.shutdown = append(t.shutdown, t.meter.Shutdown)
	t.metrics = promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorLog: slogPrinter{opt.Logger}})
	if err := runtime.Start(runtime.WithMeterProvider(t.meter)); err != nil {
		return fmt.Errorf("telemetry runtime metrics: %w", err)
	}
	return buildInfo(t.meter.Meter(scope), opt.ServiceVersion)
}

// startTracing builds the tracer provider when spans are exported, and
// leaves the no-op provider otherwise.
func (t *Telemetry) startTracing(ctx context.Context, opt Options, res *resource.Resource) error {
	spans := opt.TraceExporter
	if spans == nil && opt.ExportTraces {
		exp, err := autoexport.NewSpanExporter(ctx)
		if err != nil {
			return fmt.Errorf("telemetry trace exporter (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_*): %w", err)
		}
		if !autoexport.IsNoneSpanExporter(exp) {
			spans = exp
		}
	}
	if spans == nil {
		t.tracer = tracenoop.NewTracerProvider()
		return nil
	}
	topts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res), sdktrace.WithBatcher(spans)}
	if opt.Sampler != nil {
		topts = append(topts, sdktrace.WithSampler(opt.Sampler))
	}
	tp := sdktrace.NewTracerProvider(topts...)
	t.tracer, t.tracing, t.flush = tp, true, tp.ForceFlush
	t.shutdown = append(t.shutdown, tp.Shutdown)
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		opt.Logger.Warn("opentelemetry export failed", "err", err)
	}))
	return nil
}

// scope is the instrumentation scope of the metrics of this package.
const scope = "productsearch/internal/telemetry"

// buildInfo registers productsearch.build.info, always 1, with the build
// version and the Go version as attributes.
func buildInfo(m metric.Meter, version string) error {
	attrs := metric.WithAttributes(attribute.String("version", version), attribute.String("go_version", goruntime.Version()))
	_, err := m.Int64ObservableGauge("productsearch.build.info",
		metric.WithDescription("Always 1; the attributes name the build."),
		metric.WithInt64Callback(func(_ context.Context, o metric.Int64Observer) error {
			o.Observe(1, attrs)
			return nil
		}))
	if err != nil {
		return fmt.Errorf("telemetry build info: %w", err)
	}
	return nil
}

// BuildVersion is the version of the running binary: stamped when set
// (go build -ldflags "-X main.version=..."), else the module version or
// VCS revision Go recorded, else "devel".
func BuildVersion(stamped string) string {
	if stamped != "" {
		return stamped
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	return rev[:min(len(rev), 12)] + dirty
}

// latencyView gives duration histograms bucket bounds suited to a service
// that answers in microseconds to milliseconds.
func latencyView() sdkmetric.View {
	return sdkmetric.NewView(
		sdkmetric.Instrument{Unit: "s", Kind: sdkmetric.InstrumentKindHistogram},
		sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{
			Boundaries: []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10},
		}})
}

// Tracer returns a tracer of the server's provider.
func (t *Telemetry) Tracer(name string) trace.Tracer { return t.tracer.Tracer(name) }

// TracerProvider returns the server's tracer provider, for instrumented
// clients; nil when spans are not recorded, so they skip the work.
func (t *Telemetry) TracerProvider() trace.TracerProvider {
	if !t.tracing {
		return nil
	}
	return t.tracer
}

// Tracing reports whether spans are recorded and exported.
func (t *Telemetry) Tracing() bool { return t.tracing }

// Meter returns a meter of the server's provider.
func (t *Telemetry) Meter(name string) metric.Meter { return t.meter.Meter(name) }

// MeterProvider returns the server's meter provider, for instrumented
// clients.
func (t *Telemetry) MeterProvider() metric.MeterProvider { return t.meter }

// Propagator extracts trace context from incoming requests.
func (t *Telemetry) Propagator() propagation.TextMapPropagator { return t.propagator }

// MetricsHandler serves every metric in Prometheus text format.
func (t *Telemetry) MetricsHandler() http.Handler { return t.metrics }

// ForceFlush exports the spans ended so far, and the metrics as they are
// now to the pushing exporter when there is one.
func (t *Telemetry) ForceFlush(ctx context.Context) error {
	var errs []error
	if t.flush != nil {
		errs = append(errs, t.flush(ctx))
	}
	errs = append(errs, t.meter.ForceFlush(ctx))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("telemetry flush: %w", err)
	}
	return nil
}

// Shutdown flushes and stops the exporters, within ctx.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	var errs []error
	for _, f := range t.shutdown {
		if err := f(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("telemetry shutdown: %w", err)
	}
	return nil
}

// slogPrinter adapts a slog.Logger to promhttp's error log.
type slogPrinter struct{ log *slog.Logger }

func (p slogPrinter) Println(v ...any) { p.log.Warn("metrics scrape", "err", fmt.Sprint(v...)) }
