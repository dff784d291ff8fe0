package main

import (
	"fmt"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/catalog"
	"productsearch/internal/config"
	"productsearch/internal/search"
	"productsearch/internal/search/elastic"
	"productsearch/internal/search/memory"
)

// clusterGCPercent is the garbage collector's target in cluster mode
// unless GOGC is set: the API then holds no catalog, its heap being the
// garbage of the searches in flight, so collecting a quarter as often
// costs a few megabytes and saves about a tenth of its CPU per search.
const clusterGCPercent = 400

// newEngine builds the engine SEARCH_BACKEND names; tp, when not nil,
// traces the requests of the Elasticsearch engine, and m measures them.
func newEngine(cfg config.Config, tp trace.TracerProvider, m metric.Meter) (search.Engine, error) {
	switch cfg.SearchBackend {
	case config.BackendMemory:
		snap, err := catalog.ReadSnapshot(cfg.CatalogPath)
		if err != nil {
			return nil, fmt.Errorf("catalog (CATALOG_PATH): %w", err)
		}
		eng, err := memory.New(snap, memory.Options{MaxCandidates: cfg.MaxCandidates})
		if err != nil {
			return nil, fmt.Errorf("memory engine: %w", err)
		}
		releaseMemory()
		return eng, nil
	case config.BackendElasticsearch:
		opts, err := elastic.OptionsFromConfig(cfg.Elasticsearch)
		if err != nil {
			return nil, fmt.Errorf("SEARCH_BACKEND=elasticsearch: %w", err)
		}
		opts.MaxCandidates = cfg.MaxCandidates
		opts.Tracing = tp
		opts.Meter = m
		eng, err := elastic.New(opts)
		if err != nil {
			return nil, fmt.Errorf("SEARCH_BACKEND=elasticsearch: %w", err)
		}
		return eng, nil
	}
	return nil, fmt.Errorf("SEARCH_BACKEND %q is not supported by this build", cfg.SearchBackend)
}
