package operator

import (
	corev1 "k8s.io/api/core/v1"
)

// TelemetryEnv is the environment of every sync container: the pod and
// namespace from the downward API (K8S_POD_NAME, K8S_NAMESPACE_NAME, read
// by the indexer's telemetry), then the OpenTelemetry variables below that
// getenv finds set, so that the chart's telemetry values reach the syncs
// the operator starts. OTEL_EXPORTER_OTLP_HEADERS is not passed on: it may
// hold credentials, which would be written in clear into every CronJob.
func TelemetryEnv(getenv func(string) string) []corev1.EnvVar {
	vars := [...]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL",
		"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_TRACES_EXPORTER", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG",
		"OTEL_RESOURCE_ATTRIBUTES", "OTEL_SDK_DISABLED",
	}
	env := []corev1.EnvVar{
		{Name: "K8S_POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: "K8S_NAMESPACE_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
	}
	for _, name := range vars {
		if v := getenv(name); v != "" {
			env = append(env, corev1.EnvVar{Name: name, Value: v})
		}
	}
	return env
}
