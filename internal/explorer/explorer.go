// Package explorer is the browser face of the service: the explorer page at
// / (search the catalog with the interface's filters and spec requirements,
// page through results, open a product with every retailer's offer and the
// retailers behind each attribute), its keyless data endpoints
// GET /api/explorer/search and GET /api/explorer/product/{id}, and the
// interactive API reference at /docs, rendered from /openapi.json by a
// vendored swagger-ui with a "try it" console and copy-paste examples.
//
// Everything the pages load is embedded in the binary and served from the
// same origin: no CDN, no external fonts, no telemetry. Pages carry a strict
// Content-Security-Policy (same-origin scripts and styles only, no inline
// code), assets are served under content-hashed names with immutable cache
// headers and gzip, and the page code builds the DOM with textContent only,
// so titles from retailer feeds are always text.
//
// The data endpoints answer exactly like GET /api/search and
// GET /api/product/{id} (same parsing, same engine, same bytes) without an
// API key. Every explorer request, pages and assets included, is charged to
// the client IP's hourly budget (interface specification §8 Limits exempts only health); because an
// asset's name changes with its content, a browser caches it for a year and
// loads it once, so reloading a page costs one request.
package explorer

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"productsearch/internal/api"
	"productsearch/internal/search"
)

// Paths served by the explorer.
const (
	PathIndex   = "/"
	PathDocs    = "/docs"
	PathAssets  = "/assets/"
	PathSearch  = "/api/explorer/search"
	PathProduct = "/api/explorer/product/"
)

// Options configure an Explorer.
type Options struct {
	// Engine answers the data endpoints (required).
	Engine search.Engine
	// PublicKey is the shared public API key, prefilled in the /docs
	// console and examples; empty when the server has none.
	PublicKey string
	// Logger receives failures of the data endpoints (slog.Default when
	// nil).
	Logger *slog.Logger
}

// Explorer serves the explorer page, its data endpoints, the API reference
// and their assets. Build it with New.
type Explorer struct {
	engine search.Engine
	log    *slog.Logger
	assets *assetSet
	index  *page
	docs   *page
}

// New builds the explorer: it loads the embedded assets and renders the two
// pages. It looks up one product in the engine for the /docs examples.
func New(opt Options) (*Explorer, error) {
	if opt.Engine == nil {
		return nil, errors.New("explorer: no search engine")
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	assets, err := loadAssets()
	if err != nil {
		return nil, err
	}
	e := &Explorer{engine: opt.Engine, log: opt.Logger, assets: assets}
	if e.index, e.docs, err = renderPages(assets, pageData(opt)); err != nil {
		return nil, err
	}
	return e, nil
}

// Mount builds an explorer over s's engine and adds it to s. Pages,
// assets and data endpoints alike are charged to the client IP's budget,
// like every API request but health.
func Mount(s *api.Server, opt Options) error {
	if opt.Engine == nil {
		opt.Engine = s.Engine()
	}
	if opt.Logger == nil {
		opt.Logger = s.Logger()
	}
	e, err := New(opt)
	if err != nil {
		return err
	}
	read := api.Methods(http.MethodGet, http.MethodHead)
	mounts := []struct {
		path string
		h    http.Handler
	}{
		{PathIndex, e.Page()},
		{PathDocs, e.Page()},
		{PathAssets + "*", e.Assets()},
		{PathSearch, e.Search()},
		{PathProduct + "*", e.Product()},
	}
	for _, m := range mounts {
		if err := s.Mount(m.path, m.h, read); err != nil {
			return fmt.Errorf("explorer: mount %s: %w", m.path, err)
		}
	}
	return nil
}
