package mcp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"productsearch/internal/config"
	"productsearch/internal/restclient"
)

// RunStdio serves the two tools over stdio (newline-delimited JSON-RPC on
// stdin and stdout) until stdin closes or ctx is done, answering them by
// calling the REST API that the environment names (config.LoadClient; see
// -h). Nothing but
// protocol messages is written to stdout; logs and usage go to stderr.
func RunStdio(ctx context.Context, args []string, lookupEnv func(string) (string, bool), stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp-stdio", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: mcp-stdio\n\nServes the product search MCP tools (%s, %s) over stdio by calling the REST API.\n"+
			"Configuration is read from the environment:\n\n", ToolSearchProducts, ToolGetProduct)
		tw := tabwriter.NewWriter(stderr, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "  VARIABLE\tMEANING\tDEFAULT")
		for _, v := range config.ClientVariables() {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", v[0], v[1], v[2])
		}
		tw.Flush()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q; configure the server with environment variables (see -h)", fs.Args())
	}
	cfg, err := config.LoadClient(lookupEnv)
	if err != nil {
		return err
	}
	client, err := restclient.New(restclient.Options{
		BaseURL:   cfg.BaseURL,
		APIKey:    cfg.APIKey,
		Timeout:   cfg.Timeout,
		UserAgent: ServerName + "-mcp-stdio/" + ServerVersion,
	})
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	log.Info("mcp stdio server ready", slog.String("api", client.BaseURL()))
	s := NewBackendServer(client, Options{Logger: log})
	err = s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("mcp stdio: %w", err)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
