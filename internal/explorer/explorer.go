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
// The data endpoints are the REST handlers of GET /api/search and
// GET /api/product/{id} routed without the key check, so they answer with
// the same parsing, engine and bytes. Every explorer request, pages and
// assets included, is charged to the client IP's hourly budget (interface
// specification §8 Limits exempts only health); because an
// asset's name changes with its content, a browser caches it for a year and
// loads it once, so reloading a page costs one request.
package explorer

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gofiber/fiber/v2"

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
	// Engine answers the example look-up of the /docs page (the server's
	// engine when mounted and nil).
	Engine search.Engine
	// PublicKey is the shared public API key, prefilled in the /docs
	// console and examples; empty when the server has none.
	PublicKey string
}

// Explorer holds the explorer's rendered pages and assets. Build it with
// New.
type Explorer struct {
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
	assets, err := loadAssets()
	if err != nil {
		return nil, err
	}
	e := &Explorer{assets: assets}
	if e.index, e.docs, err = renderPages(assets, pageData(opt)); err != nil {
		return nil, err
	}
	return e, nil
}

// Mount builds an explorer over s's engine and adds its routes to s, for
// GET and HEAD. Pages, assets and data endpoints alike are charged to the
// client IP's budget, like every API request but health.
func Mount(s *api.Server, opt Options) error {
	if opt.Engine == nil {
		opt.Engine = s.Engine()
	}
	e, err := New(opt)
	if err != nil {
		return err
	}
	read := api.Methods(http.MethodGet, http.MethodHead)
	routes := []struct {
		path string
		h    []fiber.Handler
	}{
		{PathIndex, []fiber.Handler{e.index.serve}},
		{PathDocs, []fiber.Handler{e.docs.serve}},
		{PathAssets + "*", []fiber.Handler{e.serveAsset}},
		{PathSearch, []fiber.Handler{noSniff, s.SearchHandler()}},
		{PathProduct + ":id", []fiber.Handler{noSniff, s.ProductHandler()}},
	}
	for _, r := range routes {
		if err := s.Handle(r.path, r.h, read); err != nil {
			return fmt.Errorf("explorer: route %s: %w", r.path, err)
		}
	}
	return nil
}

// noSniff marks a data response as not to be sniffed by the browser.
func noSniff(c *fiber.Ctx) error {
	c.Set("X-Content-Type-Options", "nosniff")
	return c.Next()
}
