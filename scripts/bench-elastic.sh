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
#     the engine and the node taking each query in turns, and how much the
#     Elasticsearch engine's p50 exceeds the node's (target: at most 1 ms);
#   - load: the REST API in cluster mode beside the embedded one and the
#     node alone under k6 (scripts/bench-api.sh with
#     SEARCH_BACKEND=elasticsearch, health and lite searches, LOAD_DURATION
#     each, default 10s), with the ratios: cluster lite searches against
#     the node alone answering the equivalent plain searches, in
#     LOAD_ROUNDS turns (default 3; the median ratio, target 0.70),
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
	# BenchmarkSearch/memory reports mean-ns, p50-ns and p99-ns;
	# BenchmarkSearch/elastic-vs-raw the same per engine, prefixed
	# "elastic-" and "raw-", from queries the two took in turns.
	/^BenchmarkSearch\// {
		for (i = 1; i <= NF; i++) {
			m = $(i+1)
			if (m !~ /-ns$/) continue
			name = "memory"
			if (m ~ /^(elastic|raw)-/) { name = m; sub(/-.*/, "", name); sub(/^(elastic|raw)-/, "", m) }
			v[name, m] = $i
			seen[name] = 1
		}
	}
	END {
		n = split("memory elastic raw", order, " ")
		for (k = 1; k <= n; k++) {
			e = order[k]
			if (e in seen) printf "%-8s %12s %12s %12s\n", e, human(v[e, "mean-ns"]), human(v[e, "p50-ns"]), human(v[e, "p99-ns"])
		}
		if (("elastic" in seen) && ("raw" in seen) && v["raw", "p50-ns"] > 0) {
			d = (v["elastic", "p50-ns"] - v["raw", "p50-ns"]) / 1e6
			printf "elastic p50 - raw p50 (queries taken in turns): %.2f ms (%.2fx the node alone)\n", d, v["elastic", "p50-ns"] / v["raw", "p50-ns"]
			printf "%s engine p50 <= the node alone + 1 ms: %.2f ms over\n", d <= 1 ? "PASS" : "MISS", d
		}
	}
' "$out/search.txt" | tee "$out/summary.txt"

if [ "${LOAD:-1}" = 1 ]; then
	echo
	SEARCH_BACKEND=elasticsearch SCENARIOS="health lite" DURATION="${LOAD_DURATION:-10s}" ROUNDS="${LOAD_ROUNDS:-3}" scripts/bench-api.sh |
		sed -n '/^scenario/,$p' | tee -a "$out/summary.txt"
fi
