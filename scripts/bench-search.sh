#!/usr/bin/env bash
# Compares the embedded search engine with Bleve and SQLite FTS5 on the demo
# catalog (p50/p99 per engine and query class, ratios, index build times) and
# checks how its search cost grows on a 10x demo catalog. The comparison lives
# in bench/, a Go module of its own so that the peers stay out of the service's
# go.mod. The catalogs are generated under build/bench/search and rebuilt when
# the demo generator, its data or the indexing pipeline change; the report is
# printed and kept in build/bench/search/report.txt.
#
# Extra arguments go to bench/cmd/searchbench, e.g. -runs 5, -engines memory,
# -cpuprofile build/bench/search/cpu.pprof.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bench/search
mkdir -p "$out"
go build -o "$out/indexer" ./cmd/indexer

# Sources the demo catalog is made from.
sources=(internal/demo indexer/retailers.yaml internal/ingest internal/feed internal/normalize
  internal/classify internal/extract internal/match internal/catalog cmd/indexer)

for scale in 1 10; do
  dir=$out/demo-x$scale
  snap=$out/catalog-x$scale.snapshot
  if [ -f "$snap" ] && [ -z "$(find "${sources[@]}" -newer "$snap" -type f ! -name '*_test.go' -print -quit 2>/dev/null)" ]; then
    continue
  fi
  echo "building the demo catalog at scale $scale in $snap" >&2
  rm -rf "$dir" "$snap"
  "$out/indexer" demo --out "$dir" --scale "$scale" >/dev/null
  "$out/indexer" sync --quiet --config "$dir/retailers.yaml" --out "$snap" >/dev/null
done

echo "machine: $(nproc) cores; $(uptime)" >&2
cd bench
go run ./cmd/searchbench -catalog "../$out/catalog-x1.snapshot" -catalog10 "../$out/catalog-x10.snapshot" "$@" |
  tee "../$out/report.txt"
