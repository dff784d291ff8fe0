package main

import (
	"fmt"
	"log/slog"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/api"
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
// The memory engine maps the snapshot's index file when it has a current
// one and indexes the snapshot otherwise, logging why.
func newEngine(cfg config.Config, tp trace.TracerProvider, m metric.Meter, log *slog.Logger) (search.Engine, error) {
	switch cfg.SearchBackend {
	case config.BackendMemory:
		eng, fl, err := memory.Open(cfg.CatalogPath, memoryOptions(cfg))
		if err != nil {
			return nil, fmt.Errorf("catalog (CATALOG_PATH): %w", err)
		}
		logFileLoad(log, cfg.CatalogPath, fl)
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

// memoryOptions are the memory engine's options: a replaced index file
// stays mapped for retireWrites times the server's write timeout after its
// last search, so that every response holding its bytes has been written
// or has timed out.
func memoryOptions(cfg config.Config) memory.Options {
	return memory.Options{MaxCandidates: cfg.MaxCandidates, Retire: retireWrites * api.WriteTimeout}
}

// retireWrites is how many write timeouts a replaced index file stays
// mapped.
const retireWrites = 3

// logFileLoad says whether the catalog at path was mapped from its index
// file or indexed in memory, and why.
func logFileLoad(log *slog.Logger, path string, fl memory.FileLoad) {
	if fl.Mapped {
		log.Info("catalog index file mapped", slog.String("path", memory.IndexPath(path)))
		return
	}
	log.Warn("catalog index file not used; the snapshot was indexed in memory",
		slog.String("path", memory.IndexPath(path)), slog.Any("reason", fl.NotMapped))
}
