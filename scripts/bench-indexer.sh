#!/usr/bin/env bash
# Indexes the demo feed set and a 10x demo set, reporting wall time and peak
# memory of each sync. Generated feeds live under build/bench. Each sync runs
# as it would in a container with MEMORY_BUDGET_MIB of memory (default 2048):
# its soft memory limit is 90% of that, as the indexer takes from a cgroup
# limit; MEMORY_BUDGET_MIB=0 runs without one.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${MEMORY_BUDGET_MIB:-2048}
command -v /usr/bin/time >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
mkdir -p build/bench
go build -o build/bin/indexer ./cmd/indexer
for scale in 1 10; do
  dir=build/bench/demo-x$scale
  if [ ! -f "$dir/truth.jsonl" ]; then
    ./build/bin/indexer demo --out "$dir" --scale "$scale"
  fi
  rm -f build/bench/catalog-x$scale.snapshot
  /usr/bin/time -f "%e %M" -o build/bench/time-x$scale \
    ./build/bin/indexer sync --quiet --memory-limit $((budget * 9 / 10)) --config "$dir/retailers.yaml" \
    --out build/bench/catalog-x$scale.snapshot > build/bench/sync-x$scale.txt
  read -r wall kb < build/bench/time-x$scale
  offers=$(grep -o '[0-9]* products, [0-9]* offers' build/bench/sync-x$scale.txt)
  printf 'scale %-3s %s: wall %ss, peak memory %d MB (memory budget %s MiB)\n' "$scale" "$offers" "$wall" $((kb / 1024)) "$budget"
done
