// Command operator runs the ProductCatalog controller: it keeps each
// catalog's indexer CronJob in line with its spec, starts a sync on request
// and reports the syncs in the catalog's status (see internal/operator).
// SIGINT and SIGTERM stop it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"productsearch/internal/operator"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := operator.Run(ctx, os.Args[1:], os.Getenv, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "operator:", err)
		os.Exit(1)
	}
}
