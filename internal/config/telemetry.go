package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Telemetry holds what the server decides from the standard OTEL_*
// variables: whether spans and metrics are exported, where to, and how
// requests are sampled. The OpenTelemetry SDK reads the same variables
// itself for everything else (headers, timeouts, compression, sampler
// argument, resource attributes, service name).
type Telemetry struct {
	// Disabled is OTEL_SDK_DISABLED=true: nothing is traced or exported
	// (the Prometheus listener of METRICS_ADDR still serves).
	Disabled bool
	// TracesExporter and MetricsExporter are OTEL_TRACES_EXPORTER and
	// OTEL_METRICS_EXPORTER ("otlp", "console", "none"); empty when unset.
	TracesExporter, MetricsExporter string
	// TracesEndpoint and MetricsEndpoint are the per-signal endpoint, or
	// the general OTEL_EXPORTER_OTLP_ENDPOINT; empty when neither is set.
	TracesEndpoint, MetricsEndpoint string
	// TracesProtocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or
	// OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" (default) or "grpc".
	TracesProtocol string
	// Sampler and SamplerArg are OTEL_TRACES_SAMPLER and
	// OTEL_TRACES_SAMPLER_ARG; when Sampler is empty the server traces 5%
	// of requests (and every request whose caller samples it).
	Sampler, SamplerArg string
	// PodName and Namespace name the Kubernetes pod (K8S_POD_NAME,
	// K8S_NAMESPACE_NAME, set from the downward API); empty outside one.
	PodName, Namespace string
}

// ExportTraces reports whether spans are recorded and exported: an
// exporter other than none is named, or an OTLP endpoint for traces is set.
func (t Telemetry) ExportTraces() bool {
	return exporting(t.Disabled, t.TracesExporter, t.TracesEndpoint)
}

// ExportMetrics reports whether metrics are pushed besides the Prometheus
// listener: an exporter other than none is named, or an OTLP endpoint for
// metrics is set.
func (t Telemetry) ExportMetrics() bool {
	return exporting(t.Disabled, t.MetricsExporter, t.MetricsEndpoint)
}

func exporting(disabled bool, exporter, endpoint string) bool {
	if disabled || exporter == "none" {
		return false
	}
	return exporter != "" || endpoint != ""
}

// Endpoint is where spans go, for the start-up log: the configured
// endpoint or the exporter's default.
func (t Telemetry) Endpoint() string {
	switch {
	case t.TracesExporter == "console":
		return "stdout"
	case t.TracesEndpoint != "":
		return t.TracesEndpoint
	case t.TracesProtocol == "grpc":
		return "localhost:4317"
	}
	return "http://localhost:4318"
}

// Values the server accepts in the OTEL_* variables it checks.
var (
	traceExporters  = [...]string{"otlp", "console", "none"}
	metricExporters = [...]string{"otlp", "console", "none"}
	otlpProtocols   = [...]string{"http/protobuf", "grpc"}
	samplers        = [...]string{"always_on", "always_off", "traceidratio", "parentbased_always_on",
		"parentbased_always_off", "parentbased_traceidratio"}
)

// telemetry reads the OTEL_* variables the server decides on, and K8S_*.
func (r *reader) telemetry(t *Telemetry) {
	if v, ok := r.value("OTEL_SDK_DISABLED"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			r.bad("OTEL_SDK_DISABLED", "%q is not true or false", v)
		}
		t.Disabled = b
	}
	t.TracesExporter = r.oneOf("OTEL_TRACES_EXPORTER", traceExporters[:])
	t.MetricsExporter = r.oneOf("OTEL_METRICS_EXPORTER", metricExporters[:])
	general, _ := r.value("OTEL_EXPORTER_OTLP_ENDPOINT")
	t.TracesEndpoint, t.MetricsEndpoint = general, general
	if v, ok := r.value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); ok {
		t.TracesEndpoint = v
	}
	if v, ok := r.value("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"); ok {
		t.MetricsEndpoint = v
	}
	if v := r.oneOf("OTEL_EXPORTER_OTLP_PROTOCOL", otlpProtocols[:]); v != "" {
		t.TracesProtocol = v
	}
	if v := r.oneOf("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", otlpProtocols[:]); v != "" {
		t.TracesProtocol = v
	}
	r.oneOf("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", otlpProtocols[:])
	t.Sampler = r.oneOf("OTEL_TRACES_SAMPLER", samplers[:])
	t.SamplerArg, _ = r.value("OTEL_TRACES_SAMPLER_ARG")
	if t.SamplerArg != "" && strings.HasSuffix(t.Sampler, "traceidratio") {
		if f, err := strconv.ParseFloat(t.SamplerArg, 64); err != nil || f < 0 || f > 1 {
			r.bad("OTEL_TRACES_SAMPLER_ARG", "%q is not a ratio between 0 and 1", t.SamplerArg)
		}
	}
	t.PodName, _ = r.value("K8S_POD_NAME")
	t.Namespace, _ = r.value("K8S_NAMESPACE_NAME")
}

// LoadTelemetry reads only the OTEL_* variables through lookup, for
// programs such as the indexer that export spans without serving.
func LoadTelemetry(lookup func(string) (string, bool)) (Telemetry, error) {
	r := &reader{lookup: lookup}
	t := Defaults().Telemetry
	r.telemetry(&t)
	if len(r.errs) > 0 {
		return Telemetry{}, fmt.Errorf("invalid configuration:\n%w", errors.Join(r.errs...))
	}
	return t, nil
}

// oneOf returns the variable name when it is set to one of valid (case
// ignored), and reports it otherwise.
func (r *reader) oneOf(name string, valid []string) string {
	v, ok := r.value(name)
	if !ok {
		return ""
	}
	v = strings.ToLower(v)
	if !slices.Contains(valid, v) {
		r.bad(name, "%q is not supported; valid values: %s", v, strings.Join(valid, ", "))
		return ""
	}
	return v
}
