#!/usr/bin/env bash
# Checks the deployment manifests without a cluster (part of make test):
# helm lint of the chart with its default, production and local-cluster
# values; every rendering of the chart and of the kustomize overlays
# validated by kubeconform -strict against the Kubernetes schemas in
# k8s/schemas/<version> (written from a real apiserver by
# scripts/k8s-local.sh schemas, the ProductCatalog CRD included) and, for
# the Prometheus operator's ServiceMonitor and PrometheusRule, in
# k8s/schemas/crds (written from their CRDs by scripts/k8s-schemas.py
# --crd); the chart is rendered once more with telemetry, both of those
# and the Grafana dashboard on. The Go tests in internal/deploytest decode
# the same renderings into typed objects. helm, kustomize and kubeconform
# are pinned in scripts/tools.sh.
set -euo pipefail

cd "$(dirname "$0")/.."
version=${K8S_VERSION:-v1.34.12}
helm=$(scripts/tools.sh helm)
kustomize=$(scripts/tools.sh kustomize)
kubeconform=$(scripts/tools.sh kubeconform)
chart=charts/product-search
schemas=k8s/schemas/$version

values=("" "$chart/values-production.yaml" "scripts/k8s-local/values.yaml")
# Every optional observability piece on.
observed=(--set telemetry.otlpEndpoint=http://otel-collector.observability:4318 --set telemetry.headersSecret=otlp-headers
	--set 'telemetry.resourceAttributes.deployment\.environment\.name=test' --set metrics.serviceMonitor.enabled=true
	--set metrics.prometheusRule.enabled=true --set metrics.grafanaDashboard.enabled=true)
for v in "${values[@]}"; do
	"$helm" lint --quiet --strict "$chart" ${v:+-f "$v"} >/dev/null || { "$helm" lint --strict "$chart" ${v:+-f "$v"}; exit 1; }
done
"$helm" lint --quiet --strict "$chart" "${observed[@]}" >/dev/null || { "$helm" lint --strict "$chart" "${observed[@]}"; exit 1; }

validate() { # name
	local out rc=0
	out=$("$kubeconform" -strict -summary -output text -schema-location "$schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
		-schema-location "k8s/schemas/crds/{{ .ResourceKind }}{{ .KindSuffix }}.json" -) || rc=$?
	echo "${out/#Summary:/$1:}"
	return "$rc"
}
for v in "${values[@]}"; do
	"$helm" template product-search "$chart" --namespace product-search --include-crds ${v:+-f "$v"} | validate "chart ${v:-defaults}"
done
"$helm" template product-search "$chart" --namespace product-search --set operator.enabled=false | validate "chart without operator"
"$helm" template product-search "$chart" --namespace product-search "${observed[@]}" | validate "chart with telemetry and monitoring"
"$helm" template product-search "$chart" --namespace product-search --set operator.enabled=false "${observed[@]}" |
	validate "chart with telemetry and monitoring, without operator"
for o in k8s/base k8s/overlays/dev k8s/overlays/prod; do
	"$kustomize" build "$o" | validate "$o"
done
