// Command api serves the product search REST API, the MCP endpoint
// (POST /api/mcp) and the web explorer on one port, and Prometheus metrics
// for operators on another (METRICS_ADDR). It is configured through
// environment variables (run it with -h for the list); SIGHUP reloads the
// catalog snapshot, SIGINT and SIGTERM shut it down gracefully.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"productsearch/internal/api"
	"productsearch/internal/config"
	"productsearch/internal/explorer"
	"productsearch/internal/mcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	reload := make(chan struct{}, 1)
	go func() {
		for range hup {
			select {
			case reload <- struct{}{}:
			default: // a reload is already pending
			}
		}
	}()

	err := api.Run(ctx, os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr, api.WithReload(reload),
		api.WithExtension(mountMCP),
		api.WithExtension(mountExplorer))
	if err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}

// mountMCP serves the MCP endpoint (POST /api/mcp) from the same engine,
// behind the server's per-IP rate limit.
func mountMCP(s *api.Server) error {
	return s.Mount("/api/mcp", mcp.NewHandler(s.Engine(), mcp.Options{Logger: s.Logger()}), api.Methods(http.MethodPost))
}

// mountExplorer serves the web explorer at /, its data endpoints under
// /api/explorer (behind the per-IP rate limit) and the API reference at
// /docs, with the configured public key prefilled in the reference.
func mountExplorer(s *api.Server) error {
	cfg, err := config.Load(os.LookupEnv)
	if err != nil {
		return fmt.Errorf("explorer: %w", err)
	}
	return explorer.Mount(s, explorer.Options{PublicKey: cfg.PublicAPIKey})
}
