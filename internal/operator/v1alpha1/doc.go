// Package v1alpha1 is the ProductCatalog API (search.productsearch.dev/v1alpha1):
// the retailer feeds of a catalog, when to sync them and where to publish
// the result, and the status the operator reports back. The CRD manifest
// and the deep-copy functions are generated from these types by
// controller-gen (go generate ./internal/operator/...).
//
// +kubebuilder:object:generate=true
// +groupName=search.productsearch.dev
package v1alpha1

//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.19.0 object paths=./...
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.19.0 crd paths=./... output:crd:dir=../../../charts/product-search/crds
