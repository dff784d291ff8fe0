#!/usr/bin/env bash
# Benchmarks the Elasticsearch engine beside the embedded one on the demo
# catalog (build/catalog.snapshot; made with `make catalog` when missing):
#
#   - publish: bulk throughput (products/s) of a full publish into a new
#     index (BenchmarkPublish, BENCH_PUBLISHES runs, default 3);
#   - search: p50 and p99 latency of single queries through each engine's
#     Search, with the query mix of the embedded engine's benchmark
#     (BenchmarkSearch, BENCH_QUERIES queries per engine, default 3000),
#     beside the node alone answering the equivalent plain queries ("raw":
#     words matched in the title, the filters, the page of lite products),
#     and how much the Elasticsearch engine's p50 exceeds the node's
#     (target: at most 1 ms);
#   - load: the REST API in cluster mode beside the embedded one and the
#     node alone under k6 (scripts/bench-api.sh with
#     SEARCH_BACKEND=elasticsearch, health and lite searches, LOAD_DURATION
#     each, default 10s), with the ratios: cluster lite searches against
#     the node alone answering the equivalent plain searches (target 0.70),
#     cluster health against embedded health (target 0.50). LOAD=0 skips it.
#
# It uses ELASTICSEARCH_URL when set; otherwise it starts the local node
# (scripts/elasticsearch.sh) and stops it again if it was not running.
# Raw benchmark output is kept in build/bench-elastic/.
set -euo pipefail

cd "$(dirname "$0")/.."
out=build/bench-elastic
mkdir -p "$out"
[ -s build/catalog.snapshot ] || make catalog

started=0
if [ -z "${ELASTICSEARCH_URL:-}" ]; then
	if ! scripts/elasticsearch.sh status >/dev/null 2>&1; then
		scripts/elasticsearch.sh start >/dev/null
		started=1
	fi
	ELASTICSEARCH_URL=$(scripts/elasticsearch.sh url)
fi
export ELASTICSEARCH_URL
cleanup() {
	if [ "$started" = 1 ]; then
		scripts/elasticsearch.sh stop
	fi
}
trap cleanup EXIT

echo "Elasticsearch at $ELASTICSEARCH_URL; catalog: build/catalog.snapshot" >&2
go test -run '^$' -bench '^BenchmarkPublish$' -benchtime "${BENCH_PUBLISHES:-3}x" ./internal/search/elastic/ | tee "$out/publish.txt"
go test -run '^$' -bench '^BenchmarkSearch$' -benchtime "${BENCH_QUERIES:-3000}x" ./internal/search/elastic/ | tee "$out/search.txt"

echo
awk '
	/^BenchmarkPublish/ {
		for (i = 1; i <= NF; i++) {
			if ($(i+1) == "docs/s") bulk = $i
			if ($(i+1) == "published-docs/s") pub = $i
		}
		printf "publish: %.0f products/s bulk load, %.0f products/s including refresh, merge, checks and alias swap\n", bulk, pub
	}
' "$out/publish.txt"
printf "%-8s %12s %12s %12s\n" engine mean p50 p99
awk '
	function human(ns) { return ns >= 1e6 ? sprintf("%.2f ms", ns / 1e6) : sprintf("%.1f µs", ns / 1e3) }
	/^BenchmarkSearch\// {
		name = $1; sub(/^BenchmarkSearch\//, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 1; i <= NF; i++) {
			if ($(i+1) == "ns/op") mean = $i
			if ($(i+1) == "p50-ns") p50 = $i
			if ($(i+1) == "p99-ns") p99 = $i
		}
		printf "%-8s %12s %12s %12s\n", name, human(mean), human(p50), human(p99)
		median[name] = p50
	}
	END {
		if (("elastic" in median) && ("raw" in median) && median["raw"] > 0) {
			d = (median["elastic"] - median["raw"]) / 1e6
			printf "elastic p50 - raw p50: %.2f ms (%.2fx the node alone)\n", d, median["elastic"] / median["raw"]
			printf "%s engine p50 <= the node alone + 1 ms: %.2f ms over\n", d <= 1 ? "PASS" : "MISS", d
		}
	}
' "$out/search.txt" | tee "$out/summary.txt"

if [ "${LOAD:-1}" = 1 ]; then
	echo
	SEARCH_BACKEND=elasticsearch SCENARIOS="health lite" DURATION="${LOAD_DURATION:-10s}" scripts/bench-api.sh |
		sed -n '/^scenario/,$p' | tee -a "$out/summary.txt"
fi
