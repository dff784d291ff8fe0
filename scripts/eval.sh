#!/usr/bin/env bash
# Measures matching, extraction and classification on the labelled data in
# ../shared/datasets (the entity-matching benchmarks' test splits, WDC
# included, the pricerunner-dev clusters scored per category with colour
# variants together, and the phone-specs listings) and, when it has been generated, on the demo feed
# set in build/demo. Prints one table. Skips when the datasets are absent.
set -euo pipefail
cd "$(dirname "$0")/.."
datasets=../shared/datasets
if [ ! -d "$datasets" ]; then
  echo "eval: skipped: $datasets not found (the evaluation data lives outside the repository)"
  exit 0
fi
demo=()
if [ -f build/demo/truth.jsonl ]; then
  demo=(--demo build/demo)
fi
go run ./cmd/indexer eval all --dir "$datasets" "${demo[@]}" "$@"
