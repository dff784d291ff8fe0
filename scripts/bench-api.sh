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

# Two distinct free ports: the API's and the metrics listener's.
read -r port metrics_port < <(python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
base="http://127.0.0.1:$port"
metrics_url="http://127.0.0.1:$metrics_port/metrics"
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
env HOST=127.0.0.1 PORT="$port" METRICS_ADDR="127.0.0.1:$metrics_port" CATALOG_PATH="$catalog" API_KEYS="$KEY=1000000000000" \
	LOG_LEVEL=warn RELOAD_INTERVAL=0 ${procs:+GOMAXPROCS=$procs} "${tracing_env[@]}" "${server_pin[@]}" "$out/api" >"$out/server.log" 2>&1 &
pid=$!
trap 'kill $pid $sink_pid 2>/dev/null; wait $pid $sink_pid 2>/dev/null || true' EXIT
# A large catalog takes a while to load: wait as long as the server lives,
# up to START_TIMEOUT seconds (default 600).
t_start=$SECONDS
until curl -fs "$base/api/health" >/dev/null 2>&1; do
	kill -0 $pid 2>/dev/null || { cat "$out/server.log" >&2; exit 1; }
	if (( SECONDS - t_start > ${START_TIMEOUT:-600} )); then
		echo "the server did not answer within ${START_TIMEOUT:-600} s (START_TIMEOUT)" >&2
		exit 1
	fi
	sleep 0.1
done
echo "server answered after $((SECONDS - t_start)) s" >&2
items=$(curl -fs "$base/api/health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"])')
curl -fs "$metrics_url" >/dev/null || { echo "no metrics at $metrics_url" >&2; cat "$out/server.log" >&2; exit 1; }
echo "serving $catalog ($items products) at $base, metrics at $metrics_url; $split; $DURATION per scenario, $VUS VUs" >&2

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
run() { # name scenario route op [rate]
	local name=$1 scenario=$2 route=$3 op=$4 r=${5:-0}
	local before after t0 t1
	before=$(metric_sums "$route" "$op")
	t0=$(cpu_ticks)
	"${load_pin[@]}" "$k6" run -q --no-usage-report -e SCENARIO="$scenario" -e BASE_URL="$base" -e API_KEY="$KEY" \
		-e DURATION="$DURATION" -e VUS="$VUS" -e RATE="$r" -e SUMMARY="$out/$name.json" loadtest/api.js >"$out/$name.txt" 2>&1 ||
		{ cat "$out/$name.txt" >&2; exit 1; }
	t1=$(cpu_ticks)
	after=$(metric_sums "$route" "$op")
	read -r rate[$name] p50[$name] p99[$name] failed[$name] < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
d = m["http_req_duration"]["values"]
print(round(m["http_reqs"]["values"]["rate"]), round(d["med"], 2), round(d["p(99)"], 2), m["http_req_failed"]["values"]["rate"])' "$out/$name.json")
	share[$name]=$(python3 -c '
import sys
b, a = [list(map(float, s.split())) for s in sys.argv[1:3]]
eng, req = a[0]-b[0], a[1]-b[1]
print(f"{100*eng/req:.0f}%" if req > 0 else "-")' "$before" "$after")
	# Server CPU per request: robust to other load on the machine, and
	# the capacity of one core at that cost.
	cpu[$name]=$(python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["metrics"]["http_reqs"]["values"]["count"]
us = (float(sys.argv[3]) - float(sys.argv[2])) / float(sys.argv[4]) * 1e6 / max(n, 1)
print(f"{us:.0f} us/req (~{1e6/us:,.0f}/s per core)" if us > 0 else "-")' "$out/$name.json" "$t0" "$t1" "$hz")
	printf '%-16s %7s req/s  p50 %5s ms  p99 %6s ms  engine share %4s  server CPU %s  failed %s\n' \
		"$name" "${rate[$name]}" "${p50[$name]}" "${p99[$name]}" "${share[$name]}" "${cpu[$name]}" "${failed[$name]}" | tee -a "$out/report.txt"
}

: >"$out/report.txt"
echo "bench-api $(date -u +%FT%TZ): $items products; $split; $DURATION per scenario; tracing $TRACING" | tee -a "$out/report.txt"
run health health /api/health health
run lite lite /api/search search
run full full /api/search search
run product product '/api/product/{id}' product
half=$(( rate[lite] / 2 ))
run lite-half-rate lite /api/search search "$half"

python3 - "$out/report.txt" "${rate[lite]}" "${rate[health]}" "${p99[lite-half-rate]}" "${failed[lite]}${failed[full]}${failed[product]}${failed[health]}" <<'EOF' | tee -a "$out/report.txt"
import sys
report, lite, health, p99, failed = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
checks = [
    (f"lite searches >= 10000/s: {lite:.0f}/s", lite >= 10000),
    (f"p99 <= 10 ms at half the lite rate: {p99} ms", p99 <= 10),
    (f"lite >= 60% of health: {100*lite/health:.0f}%", lite >= 0.6 * health),
    ("no failed requests", set(failed) <= set("0.")),
]
for text, ok in checks:
    print(("PASS " if ok else "MISS ") + text)
EOF
if grep -q "^MISS no failed" "$out/report.txt"; then
	exit 1
fi
if [ "${STRICT:-0}" = 1 ] && grep -q "^MISS" "$out/report.txt"; then
	exit 1
fi
