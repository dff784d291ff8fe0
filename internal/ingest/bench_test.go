package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"productsearch/internal/demo"
)

// BenchmarkSyncDemo indexes the demo feed set (BENCH_SCALE times its size,
// default 1) into a fresh snapshot per iteration.
func BenchmarkSyncDemo(b *testing.B) {
	scale := 1
	if s, err := strconv.Atoi(os.Getenv("BENCH_SCALE")); err == nil && s > 0 {
		scale = s
	}
	dir := b.TempDir()
	if _, err := demo.Generate(dir, demo.Options{Seed: 1, Scale: scale}); err != nil {
		b.Fatal(err)
	}
	cfg, err := LoadConfig(filepath.Join(dir, "retailers.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "catalog.snapshot")
	for b.Loop() {
		os.Remove(out)
		if _, err := Sync(context.Background(), Options{Config: cfg, Out: out, Now: syncTime}); err != nil {
			b.Fatal(err)
		}
	}
}
