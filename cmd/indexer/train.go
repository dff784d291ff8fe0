package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"productsearch/internal/eval"
)

// runTrainMatcher fits the matcher's learned scorer on the entity-matching
// benchmarks' train splits (threshold from their valid splits) and writes
// its file.
func runTrainMatcher(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("indexer train-matcher", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "../shared/datasets", "dataset `directory` holding entity-matching/*/train.txt and valid.txt")
	out := fs.String("out", "internal/match/scorer.json", "scorer `file` to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("train-matcher takes no arguments, got %q", fs.Args())
	}
	b, summary, err := eval.TrainMatcher(*dir)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		return fmt.Errorf("train-matcher: %w", err)
	}
	fmt.Fprint(stdout, summary)
	fmt.Fprintf(stdout, "scorer written to %s\n", *out)
	return nil
}
