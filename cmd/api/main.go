// Command api serves the product search REST API, the MCP endpoint
// (POST /api/mcp) and the web explorer on one port, and Prometheus metrics
// for operators on another (METRICS_ADDR). It is configured through
// environment variables (run it with -h for the list); SIGHUP reloads the
// catalog snapshot, SIGINT and SIGTERM shut it down gracefully.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is the build's version, stamped by
// go build -ldflags "-X main.version=v1.2.3"; empty, the version Go
// recorded in the binary is used.
var version string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}

// run serves until ctx is done, configured from the process environment,
// reloading the catalog on SIGHUP.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	p := &process{env: os.LookupEnv, stdout: stdout, stderr: stderr, reload: hangups(ctx)}
	return p.run(ctx, args)
}

// hangups turns SIGHUP into receives on the returned channel until ctx is
// done; signals that arrive while a reload is pending are merged.
func hangups(ctx context.Context) <-chan struct{} {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	reload := make(chan struct{}, 1)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				select {
				case reload <- struct{}{}:
				default: // a reload is already pending
				}
			}
		}
	}()
	return reload
}
