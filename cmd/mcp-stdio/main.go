// Command mcp-stdio is the local MCP server of the product search service:
// it serves the search_products and get_product tools over stdio to an MCP
// client (an AI agent's host) and answers them by calling the REST API.
// Configure it with PRODUCT_SEARCH_BASE_URL and PRODUCT_SEARCH_API_KEY
// (run it with -h for the list).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"productsearch/internal/mcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := mcp.RunStdio(ctx, os.Args[1:], os.LookupEnv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-stdio:", err)
		os.Exit(1)
	}
}
