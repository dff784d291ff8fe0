// Package telemetry sets up OpenTelemetry for the server: a meter provider
// whose metrics are served in Prometheus text format (and pushed over
// OTLP/HTTP when a collector is configured), and a tracer provider that
// exports spans over OTLP/HTTP when a collector is configured and is a no-op
// otherwise, so an unobserved server pays nothing for tracing.
//
// The standard OTEL_* environment variables (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG, ...) are read by the SDK itself.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/otlptranslator"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	promexporter "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Options configure New.
type Options struct {
	// ServiceName and ServiceVersion describe the process in the resource
	// (OTEL_SERVICE_NAME overrides the name).
	ServiceName    string
	ServiceVersion string
	// OTLP enables export over OTLP/HTTP to the collector named by the
	// OTEL_EXPORTER_OTLP_* variables.
	OTLP bool
	// TraceExporter, when set, receives spans instead of OTLP (tests and
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
	res, err := resource.New(ctx,
		resource.WithAttributes(
			attribute.String("service.name", opt.ServiceName),
			attribute.String("service.version", opt.ServiceVersion)),
		resource.WithFromEnv(),
		resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("telemetry resource: %w", err)
	}
	t := &Telemetry{
		propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	prom, err := promexporter.New(
		promexporter.WithRegisterer(reg),
		promexporter.WithoutScopeInfo(),
		promexporter.WithTranslationStrategy(otlptranslator.UnderscoreEscapingWithSuffixes))
	if err != nil {
		return nil, fmt.Errorf("telemetry prometheus exporter: %w", err)
	}
	readers := []sdkmetric.Option{sdkmetric.WithResource(res), sdkmetric.WithReader(prom), sdkmetric.WithView(latencyView())}
	if opt.OTLP {
		exp, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("telemetry otlp metrics: %w", err)
		}
		readers = append(readers, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	}
	t.meter = sdkmetric.NewMeterProvider(readers...)
	t.shutdown = append(t.shutdown, t.meter.Shutdown)
	t.metrics = promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorLog: slogPrinter{opt.Logger}})

	spans := opt.TraceExporter
	if spans == nil && opt.OTLP {
		spans, err = otlptracehttp.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("telemetry otlp traces: %w", err)
		}
	}
	if spans != nil {
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
	} else {
		t.tracer = tracenoop.NewTracerProvider()
	}
	return t, nil
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

// Tracing reports whether spans are recorded and exported.
func (t *Telemetry) Tracing() bool { return t.tracing }

// Meter returns a meter of the server's provider.
func (t *Telemetry) Meter(name string) metric.Meter { return t.meter.Meter(name) }

// Propagator extracts trace context from incoming requests.
func (t *Telemetry) Propagator() propagation.TextMapPropagator { return t.propagator }

// MetricsHandler serves every metric in Prometheus text format.
func (t *Telemetry) MetricsHandler() http.Handler { return t.metrics }

// ForceFlush exports the spans ended so far.
func (t *Telemetry) ForceFlush(ctx context.Context) error {
	if t.flush == nil {
		return nil
	}
	if err := t.flush(ctx); err != nil {
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
