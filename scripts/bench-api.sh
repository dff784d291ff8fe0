#!/usr/bin/env bash
# Load benchmark of the REST API with k6 (make bench-api).
#
#   scripts/bench-api.sh
#   CATALOG_PATH=build/catalog.snapshot DURATION=15s VUS=16 scripts/bench-api.sh
#
# Serves CATALOG_PATH (default build/catalog.snapshot, else a synthetic
# 26,000-product catalog from loadtest/gencatalog) on a free loopback port,
# with its metrics listener (METRICS_ADDR) on another, and a production key
# whose budget cannot run out, then runs the k6
# scenarios of loadtest/api.js one after the other for DURATION each:
# health, lite searches (limit 20, query mix), full searches, product
# detail, all flat out; then lite searches at half the measured lite rate
# for the latency target. It reports requests/s, p50 and p99 per scenario
# and the share of server request time spent in the engine (from the
# server's own metrics listener) and the server's CPU time per request (from /proc,
# which other load on the machine does not inflate), and checks the targets:
#   lite >= 10,000/s; p99 <= 10 ms at half that rate; lite >= 60% of health.
#
# The machine has 2 cores: by default the server is pinned to CPU 1
# (GOMAXPROCS=1) and k6 to CPU 0 so neither starves the other; set
# SERVER_CPUS/LOAD_CPUS (taskset lists) to change the split, or PIN=0 to
# let them share. STRICT=1 exits non-zero when a target is missed.
# SEARCH_BACKEND=elasticsearch also publishes the catalog to the
# Elasticsearch node at ELASTICSEARCH_URL (the local node of
# scripts/elasticsearch.sh when unset, started and stopped again if it was
# not running) under the alias bench-api, runs the same scenarios against a
# second server in cluster mode, and the lite mix against the node alone
# ("raw": the equivalent plain searches, loadtest/api.js), and prints the
# cluster-mode table beside the embedded one with the ratios: cluster lite
# >= 70% of the raw node, cluster health >= 50% of embedded health. The
# cluster's lite mix and the node alone take ROUNDS turns (default 1),
# one after the other with the server kept up, so that both see the same
# state of the node and the machine; the check takes the median ratio of
# the turns. For those turns the server in cluster mode runs on k6's CPUs
# (NODE_CLIENT_CPUS, default LOAD_CPUS): like k6 in the node-alone turns, it
# is a client of the node, which thus has the same share of the machine in
# both (the node's threads are not pinned); on the node's busiest core the
# server's and the node's threads would preempt each other, which a
# deployment on separate machines does not see.
# SCENARIOS (default "health lite full product lite-half-rate") picks the
# scenarios run.
# TRACING=default or TRACING=always exports the server's spans (5% sampled
# by default, or all) over OTLP/HTTP to a sink on loopback, to measure what
# tracing costs (make bench-tracing runs off, default and always side by
# side); TRACING=off (the default) exports none.
# k6 is built from source into build/bin (go install go.k6.io/k6).
set -euo pipefail

cd "$(dirname "$0")/.."
K6_VERSION=v1.8.1
DURATION=${DURATION:-15s}
VUS=${VUS:-16}
TRACING=${TRACING:-off}
PIN=${PIN:-1}
SERVER_CPUS=${SERVER_CPUS:-1}
LOAD_CPUS=${LOAD_CPUS:-0}
KEY=bench-key-0000000001
out=build/bench-api
mkdir -p "$out" build/bin

k6=build/bin/k6
if [[ $("$k6" version 2>/dev/null) != *"$K6_VERSION"* ]]; then
	echo "building k6 $K6_VERSION into build/bin (takes a few minutes once)" >&2
	GOBIN="$PWD/build/bin" go install "go.k6.io/k6@$K6_VERSION"
fi
echo "building cmd/api" >&2
go build -o "$out/api" ./cmd/api

catalog=${CATALOG_PATH:-}
if [ -z "$catalog" ]; then
	catalog=build/catalog.snapshot
	if [ ! -f "$catalog" ]; then
		catalog=build/bench-api/catalog.snapshot
		[ -f "$catalog" ] || go run ./loadtest/gencatalog -out "$catalog" -products 26000 >&2
	fi
fi

server_pin=() load_pin=() procs=""
if [ "$PIN" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	server_pin=(taskset -c "$SERVER_CPUS")
	load_pin=(taskset -c "$LOAD_CPUS")
	procs=$(( $(echo "$SERVER_CPUS" | tr ',' '\n' | wc -l) ))
	split="server on CPU $SERVER_CPUS (GOMAXPROCS=$procs), k6 on CPU $LOAD_CPUS"
else
	split="server and k6 share all $(nproc) CPUs"
fi

tracing_env=(OTEL_SDK_DISABLED=true)
sink_pid=""
case "$TRACING" in
off) ;;
default | always)
	# An OTLP/HTTP sink on loopback that accepts and drops every export.
	sink_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"${load_pin[@]}" python3 - "$sink_port" <<'PY' &
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class Sink(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()
PY
	sink_pid=$!
	tracing_env=(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="http://127.0.0.1:$sink_port/v1/traces" OTEL_METRICS_EXPORTER=none)
	[ "$TRACING" = always ] && tracing_env+=(OTEL_TRACES_SAMPLER=always_on)
	;;
*) echo "TRACING must be off, default or always, got $TRACING" >&2; exit 2 ;;
esac
backend=${SEARCH_BACKEND:-memory}
backends=(memory)
es_started=0
pid=""
cleanup() {
	if [ -n "$pid$sink_pid" ]; then
		kill $pid $sink_pid 2>/dev/null || true
		wait $pid $sink_pid 2>/dev/null || true
	fi
	if [ "$es_started" = 1 ]; then
		scripts/elasticsearch.sh stop >/dev/null || true
	fi
}
trap cleanup EXIT
case "$backend" in
memory) ;;
elasticsearch)
	if [ -z "${ELASTICSEARCH_URL:-}" ]; then
		if ! scripts/elasticsearch.sh status >/dev/null 2>&1; then
			scripts/elasticsearch.sh start >/dev/null
			es_started=1
		fi
		ELASTICSEARCH_URL=$(scripts/elasticsearch.sh url)
	fi
	es_index=bench-api
	echo "publishing the catalog's feeds to $ELASTICSEARCH_URL (alias $es_index)" >&2
	go run ./cmd/indexer sync --config indexer/retailers.yaml --out "$out/es-catalog.snapshot" --quiet \
		--publish elasticsearch --es-url "$ELASTICSEARCH_URL" --es-index "$es_index" --es-keep 1 >"$out/publish.log" 2>&1 ||
		{ tail -n 20 "$out/publish.log" >&2; exit 1; }
	catalog=$out/es-catalog.snapshot
	backends=(memory elasticsearch)
	;;
*) echo "SEARCH_BACKEND must be memory or elasticsearch, got $backend" >&2; exit 2 ;;
esac

# start_server serves the catalog with a backend on two distinct free
# ports (the API's and the metrics listener's); it sets pid, base and
# metrics_url.
start_server() {
	local be=$1 port metrics_port
	read -r port metrics_port < <(python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
	base="http://127.0.0.1:$port"
	metrics_url="http://127.0.0.1:$metrics_port/metrics"
	local es_env=(SEARCH_BACKEND=memory)
	if [ "$be" = elasticsearch ]; then
		es_env=(SEARCH_BACKEND=elasticsearch ELASTICSEARCH_URL="$ELASTICSEARCH_URL" ELASTICSEARCH_INDEX="$es_index")
	fi
	env HOST=127.0.0.1 PORT="$port" METRICS_ADDR="127.0.0.1:$metrics_port" CATALOG_PATH="$catalog" API_KEYS="$KEY=1000000000000" \
		LOG_LEVEL=warn RELOAD_INTERVAL=0 ${procs:+GOMAXPROCS=$procs} "${es_env[@]}" "${tracing_env[@]}" "${server_pin[@]}" "$out/api" >"$out/server-$be.log" 2>&1 &
	pid=$!
	# A large catalog takes a while to load: wait as long as the server
	# lives, up to START_TIMEOUT seconds (default 600).
	local t_start=$SECONDS
	until curl -fs "$base/api/health" >/dev/null 2>&1; do
		kill -0 $pid 2>/dev/null || { cat "$out/server-$be.log" >&2; exit 1; }
		if (( SECONDS - t_start > ${START_TIMEOUT:-600} )); then
			echo "the server did not answer within ${START_TIMEOUT:-600} s (START_TIMEOUT)" >&2
			exit 1
		fi
		sleep 0.1
	done
	echo "$be: server answered after $((SECONDS - t_start)) s" >&2
	items=$(curl -fs "$base/api/health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"])')
	curl -fs "$metrics_url" >/dev/null || { echo "no metrics at $metrics_url" >&2; cat "$out/server-$be.log" >&2; exit 1; }
	echo "$be: serving $catalog ($items products) at $base, metrics at $metrics_url; $split; $DURATION per scenario, $VUS VUs" >&2
}

stop_server() {
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null || true
	pid=""
}

# metric_sums prints "engine_seconds request_seconds" for a route and engine
# operation, summed over statuses, from the server's metrics listener.
metric_sums() {
	curl -fs "$metrics_url" | python3 -c '
import re, sys
route, op = sys.argv[1], sys.argv[2]
eng = req = 0.0
for line in sys.stdin:
    if line.startswith("productsearch_engine_duration_seconds_sum") and f"operation=\"{op}\"" in line:
        eng += float(line.split()[-1])
    if line.startswith("http_server_request_duration_seconds_sum") and f"http_route=\"{route}\"" in line:
        req += float(line.split()[-1])
print(eng, req)' "$1" "$2"
}

# cpu_ticks prints the server's user+system CPU time in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)

declare -A rate p50 p99 share failed cpu
# k6_run runs one k6 scenario and records its rate, p50, p99 and failed
# share under key.
k6_run() { # key scenario [rate]
	local key=$1 scenario=$2 r=${3:-0} file=${1//\//-}
	"${load_pin[@]}" "$k6" run -q --no-usage-report -e SCENARIO="$scenario" -e BASE_URL="$base" -e API_KEY="$KEY" \
		-e ES_URL="${ELASTICSEARCH_URL:-}" -e ES_INDEX="${es_index:-}" \
		-e DURATION="$DURATION" -e VUS="$VUS" -e RATE="$r" -e SUMMARY="$out/$file.json" loadtest/api.js >"$out/$file.txt" 2>&1 ||
		{ cat "$out/$file.txt" >&2; exit 1; }
	read -r "rate[$key]" "p50[$key]" "p99[$key]" "failed[$key]" < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
d = m["http_req_duration"]["values"]
print(round(m["http_reqs"]["values"]["rate"]), round(d["med"], 2), round(d["p(99)"], 2), m["http_req_failed"]["values"]["rate"])' "$out/$file.json")
}

run() { # backend name scenario route op [rate]
	local be=$1 name=$2 scenario=$3 route=$4 op=$5 r=${6:-0} key=$1/$2
	local before after t0 t1
	before=$(metric_sums "$route" "$op")
	t0=$(cpu_ticks)
	k6_run "$key" "$scenario" "$r"
	t1=$(cpu_ticks)
	after=$(metric_sums "$route" "$op")
	share[$key]=$(python3 -c '
import sys
b, a = [list(map(float, s.split())) for s in sys.argv[1:3]]
eng, req = a[0]-b[0], a[1]-b[1]
print(f"{100*eng/req:.0f}%" if req > 0 else "-")' "$before" "$after")
	# Server CPU per request: robust to other load on the machine, and
	# the capacity of one core at that cost.
	cpu[$key]=$(python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["metrics"]["http_reqs"]["values"]["count"]
us = (float(sys.argv[3]) - float(sys.argv[2])) / float(sys.argv[4]) * 1e6 / max(n, 1)
print(f"{us:.0f} us/req (~{1e6/us:,.0f}/s per core)" if us > 0 else "-")' "$out/${key//\//-}.json" "$t0" "$t1" "$hz")
	printf '%-14s %-16s %7s req/s  p50 %5s ms  p99 %6s ms  engine share %4s  server CPU %s  failed %s\n' \
		"$be" "$name" "${rate[$key]}" "${p50[$key]}" "${p99[$key]}" "${share[$key]}" "${cpu[$key]}" "${failed[$key]}" | tee -a "$out/report.txt"
}

# lite_against_node runs the cluster's lite mix and the node alone in
# turns, ROUNDS times, after warm-up turns that are not counted (the node's
# compiler and caches: the rates grow by half over the first turns); it
# keeps each turn's ratio in ratios.txt and the medians of both rates as
# the scenarios' results.
ROUNDS=${ROUNDS:-1}
NODE_CLIENT_CPUS=${NODE_CLIENT_CPUS:-$LOAD_CPUS}
lite_against_node() {
	local i lites=() raws=()
	if [ ${#server_pin[@]} -gt 0 ]; then
		taskset -a -p -c "$NODE_CLIENT_CPUS" "$pid" >/dev/null
		echo "the cluster's lite mix against the node alone: the server on CPU $NODE_CLIENT_CPUS with k6, the node unpinned" |
			tee -a "$out/report.txt"
	fi
	# Warm-up turns of WARMUP each (default 5s), until neither rate moved
	# by more than 5% from the turn before (at most 20): a node just started
	# compiles the code of the engine's larger requests later than that of
	# the plain ones (their rate may still grow after 80 s).
	local prev_lite=0 prev_raw=0 steady
	for ((i = 1; i <= 20; i++)); do
		DURATION=${WARMUP:-5s} k6_run warm/lite lite
		DURATION=${WARMUP:-5s} k6_run warm/raw raw
		steady=$(python3 -c 'import sys; a, b, c, d = map(float, sys.argv[1:]); print(int(abs(a - b) <= 0.05 * a and abs(c - d) <= 0.05 * c))' \
			"${rate[warm/lite]}" "$prev_lite" "${rate[warm/raw]}" "$prev_raw")
		echo "warm-up turn $i: cluster lite ${rate[warm/lite]}/s, node alone ${rate[warm/raw]}/s" >&2
		[ "$steady" = 1 ] && break
		prev_lite=${rate[warm/lite]} prev_raw=${rate[warm/raw]}
	done
	for ((i = 1; i <= ROUNDS; i++)); do
		run elasticsearch lite lite /api/search search
		k6_run node/raw raw
		printf '%-14s %-16s %7s req/s  p50 %5s ms  p99 %6s ms  (the node alone: the lite mix as plain searches)  failed %s\n' \
			node raw "${rate[node/raw]}" "${p50[node/raw]}" "${p99[node/raw]}" "${failed[node/raw]}" | tee -a "$out/report.txt"
		echo "${rate[elasticsearch/lite]} ${rate[node/raw]}" >>"$out/ratios.txt"
		lites+=("${rate[elasticsearch/lite]}") raws+=("${rate[node/raw]}")
	done
	if [ ${#server_pin[@]} -gt 0 ]; then
		taskset -a -p -c "$SERVER_CPUS" "$pid" >/dev/null
	fi
	rate[elasticsearch/lite]=$(printf '%s\n' "${lites[@]}" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
	rate[node/raw]=$(printf '%s\n' "${raws[@]}" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
}

SCENARIOS=${SCENARIOS:-health lite full product lite-half-rate}
: >"$out/report.txt"
: >"$out/ratios.txt"
echo "bench-api $(date -u +%FT%TZ): $catalog; $split; $DURATION per scenario; tracing $TRACING; backends ${backends[*]}" | tee -a "$out/report.txt"
for be in "${backends[@]}"; do
	start_server "$be"
	for sc in $SCENARIOS; do
		case $sc in
		health) run "$be" health health /api/health health ;;
		lite)
			if [ "$be" = elasticsearch ]; then
				lite_against_node
			else
				run "$be" lite lite /api/search search
			fi
			;;
		full) run "$be" full full /api/search search ;;
		product) run "$be" product product '/api/product/{id}' product ;;
		lite-half-rate) run "$be" lite-half-rate lite /api/search search "$((${rate[$be/lite]:-200} / 2))" ;;
		*) echo "unknown scenario $sc" >&2; exit 2 ;;
		esac
	done
	stop_server
done
if [ "$backend" = elasticsearch ] && [ -z "${rate[node/raw]:-}" ]; then
	k6_run node/raw raw
	printf '%-14s %-16s %7s req/s  p50 %5s ms  p99 %6s ms  (the node alone: the lite mix as plain searches)  failed %s\n' \
		node raw "${rate[node/raw]}" "${p50[node/raw]}" "${p99[node/raw]}" "${failed[node/raw]}" | tee -a "$out/report.txt"
fi

# The table and the checks, from "key rate p50 p99 failed" lines.
for k in "${!rate[@]}"; do echo "$k ${rate[$k]} ${p50[$k]} ${p99[$k]} ${failed[$k]}"; done >"$out/results.txt"
python3 - "$backend" "$out/results.txt" "$out/ratios.txt" <<'PY' | tee -a "$out/report.txt"
import statistics, sys
backend, path = sys.argv[1], sys.argv[2]
turns = [tuple(map(float, line.split())) for line in open(sys.argv[3]) if line.strip()]
r = {}
for line in open(path):
    k, rate, p50, p99, failed = line.split()
    r[k] = (float(rate), float(p50), float(p99), float(failed))
mem = lambda n: r.get("memory/" + n)
es = lambda n: r.get("elasticsearch/" + n)
raw = r.get("node/raw")
checks = []
if backend == "elasticsearch":
    print()
    print(f"{'scenario':<16} {'embedded req/s':>14} {'p50 ms':>7} {'p99 ms':>7}   {'cluster req/s':>13} {'p50 ms':>7} {'p99 ms':>7}   {'cluster/embedded':>16}")
    for n in ["health", "lite", "full", "product", "lite-half-rate"]:
        a, b = mem(n), es(n)
        if a and b:
            print(f"{n:<16} {a[0]:>14.0f} {a[1]:>7.2f} {a[2]:>7.2f}   {b[0]:>13.0f} {b[1]:>7.2f} {b[2]:>7.2f}   {b[0]/a[0]:>16.2f}")
    if raw:
        print(f"{'node alone (raw)':<16} {'':>14} {'':>7} {'':>7}   {raw[0]:>13.0f} {raw[1]:>7.2f} {raw[2]:>7.2f}")
    if turns:
        ratios = [a / b for a, b in turns if b > 0]
        each = ", ".join(f"{a:.0f}/{b:.0f}" for a, b in turns)
        ratio = statistics.median(ratios)
        checks.append((f"cluster lite >= 70% of the node alone: median {ratio:.2f} of {len(turns)} turns ({each})", ratio >= 0.7))
    elif es("lite") and raw:
        checks.append((f"cluster lite >= 70% of the node alone: {es('lite')[0]:.0f}/s of {raw[0]:.0f}/s = {es('lite')[0]/raw[0]:.2f}", es("lite")[0] >= 0.7 * raw[0]))
    if es("health") and mem("health"):
        checks.append((f"cluster health >= 50% of embedded health: {es('health')[0]/mem('health')[0]:.2f}", es("health")[0] >= 0.5 * mem("health")[0]))
if mem("lite"):
    checks.append((f"lite searches >= 10000/s: {mem('lite')[0]:.0f}/s", mem("lite")[0] >= 10000))
if mem("lite-half-rate"):
    checks.append((f"p99 <= 10 ms at half the lite rate: {mem('lite-half-rate')[2]} ms", mem("lite-half-rate")[2] <= 10))
if mem("lite") and mem("health"):
    checks.append((f"lite >= 60% of health: {100*mem('lite')[0]/mem('health')[0]:.0f}%", mem("lite")[0] >= 0.6 * mem("health")[0]))
checks.append(("no failed requests", all(v[3] == 0 for v in r.values())))
for text, ok in checks:
    print(("PASS " if ok else "MISS ") + text)
PY
if grep -q "^MISS no failed" "$out/report.txt"; then
	exit 1
fi
if [ "${STRICT:-0}" = 1 ] && grep -q "^MISS" "$out/report.txt"; then
	exit 1
fi
