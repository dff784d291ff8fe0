// Package deploytest checks the deployment manifests: the Helm chart in
// charts/product-search and the kustomize manifests in k8s/. Its tests
// render both with the pinned helm and kustomize (scripts/tools.sh),
// decode every object into its typed Kubernetes struct with unknown fields
// refused, and check that k8s/ describes the same deployment as the chart.
package deploytest
