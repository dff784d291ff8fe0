#!/usr/bin/env bash
# How the indexer and the API grow with the catalog (make bench-scale):
# for each scale in SCALES (default "1 3 10 30") it generates the demo feed
# set at that scale (indexer demo --scale N: N times the distinct
# products), indexes it and serves it, and prints one table of
#   index CPU (user+system) and peak RSS of indexer sync, snapshot size,
#   API start (launch to the first healthy answer), API RSS after the load,
#   reload peak RSS (the peak during a SIGHUP reload of the same snapshot),
#   p50/p99 per query class (one search at a time over HTTP), lite
#   searches per second (16 closed-loop clients) and the server's CPU time
#   per search.
# After the reload peak, the snapshot is reloaded again during lite
# searches from closed-loop clients (RELOAD_LOAD_TIME, default 10s), which
# must all succeed.
#
# CLUSTER=1 also publishes the 1x catalog and each scale's into a local
# three-node Elasticsearch cluster (scripts/elasticsearch-cluster.sh, heaps
# of ELASTICSEARCH_CLUSTER_HEAP, default 1g here; or the cluster at
# ELASTICSEARCH_URL) with `indexer publish` (ES_SHARDS primaries, default 3,
# ES_REPLICAS replicas, default 1), serves each with the API in cluster
# mode and prints a second table: publish time, p50/p99 per query class,
# lite searches per second and each class's p99 against its 1x figure.
#
# Every scale answers the same query mix, drawn from the 1x catalog
# (bench.Mix): its queries name lines of the data, which exist at every
# scale. The server listens on 127.0.0.1 only, pinned to CPU 1 with
# GOMAXPROCS=1, the load on CPU 0 (PIN=0 lets them share). Each step is
# bounded: INDEX_TIMEOUT (default 3600 s) for a sync, START_TIMEOUT
# (default 900 s) for a start or a reload. The server is stopped on exit.
#
#   SCALES="1 3 10" scripts/bench-scale.sh
#   INDEXER=/path/to/indexer OUT=build/bench/scale-old scripts/bench-scale.sh   # another indexer's catalogs
#   SCALES=37 CLUSTER=1 scripts/bench-scale.sh   # a million products, embedded and in cluster mode (make bench-million)
#
# Generated feeds and snapshots stay under OUT (default build/bench/scale)
# and are made again when the generator or the indexing pipeline changes.
set -euo pipefail
cd "$(dirname "$0")/.."
SCALES=${SCALES:-1 3 10 30}
OUT=${OUT:-build/bench/scale}
PIN=${PIN:-1}
INDEX_TIMEOUT=${INDEX_TIMEOUT:-3600}
START_TIMEOUT=${START_TIMEOUT:-900}
RELOAD_LOAD_TIME=${RELOAD_LOAD_TIME:-10s}
CLUSTER=${CLUSTER:-0}
KEY=bench-scale-key-0001
mkdir -p "$OUT/bin"
OUT=$(cd "$OUT" && pwd)
command -v /usr/bin/time >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }

go build -o "$OUT/bin/api" ./cmd/api
indexer=${INDEXER:-}
if [ -z "$indexer" ]; then
	go build -o "$OUT/bin/indexer" ./cmd/indexer
	indexer=$OUT/bin/indexer
fi
(cd bench && go build -o "$OUT/bin/scaleload" ./cmd/scaleload)

server_pin=() load_pin=() procs=""
if [ "$PIN" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	server_pin=(taskset -c 1)
	load_pin=(taskset -c 0)
	procs=1
fi

# Sources of the demo catalogs: a snapshot older than any of them is made again.
sources=(internal/demo internal/ingest internal/feed internal/normalize internal/classify internal/extract
	internal/match internal/catalog cmd/indexer)
[ -n "${INDEXER:-}" ] && sources=("$indexer")

pid=""
stop_server() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		pid=""
	fi
}
trap stop_server EXIT

# build_catalog N: feeds and snapshot at scale N; writes "cpu_s peak_kb" to
# $OUT/index-xN.txt when it indexes.
build_catalog() {
	local n=$1 dir=$OUT/demo-x$1 snap=$OUT/catalog-x$1.snapshot
	if [ -f "$snap" ] && [ -f "$OUT/index-x$n.txt" ] &&
		[ -z "$(find "${sources[@]}" -newer "$snap" -type f ! -name '*_test.go' -print -quit 2>/dev/null)" ]; then
		return
	fi
	echo "scale $n: generating and indexing the demo feeds in $dir" >&2
	rm -rf "$dir" "$snap"
	nice -n 5 "$indexer" demo --out "$dir" --scale "$n" >/dev/null
	timeout "$INDEX_TIMEOUT" /usr/bin/time -f "%U %S %M %e" -o "$OUT/time-x$n.txt" \
		"$indexer" sync --quiet --config "$dir/retailers.yaml" --out "$snap" >"$OUT/sync-x$n.txt"
	read -r user sys kb wall <"$OUT/time-x$n.txt"
	echo "$(python3 -c "print(round($user + $sys, 1))") $kb $wall" >"$OUT/index-x$n.txt"
}

now() { date +%s.%N; }
status_kb() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
reloaded_since() { [ "$(grep -c "catalog reloaded" "$1" || true)" -gt "$2" ]; }

# wait_until T0 LOG MESSAGE COMMAND...: runs COMMAND until it succeeds; fails
# with MESSAGE once START_TIMEOUT seconds have passed since T0, or with the
# server's log when the server has exited.
wait_until() {
	local t0=$1 log=$2 msg=$3
	shift 3
	until "$@" >/dev/null 2>&1; do
		kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; return 1; }
		if python3 -c "import sys; sys.exit(0 if $(now) - $t0 > $START_TIMEOUT else 1)"; then
			echo "$msg" >&2
			return 1
		fi
		sleep 0.05
	done
}

# serve LOG VAR=VALUE...: starts the API on a free loopback port with the
# given settings, its output in LOG; it sets pid and base and returns once
# the server answers (non-zero when it does not within START_TIMEOUT).
serve() {
	local log=$1 port t0
	shift
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	base="http://127.0.0.1:$port"
	t0=$(now)
	env HOST=127.0.0.1 PORT="$port" METRICS_ADDR=off API_KEYS="$KEY=1000000000000" LOG_LEVEL=info RELOAD_INTERVAL=0 \
		OTEL_SDK_DISABLED=true "$@" ${procs:+GOMAXPROCS=$procs} "${server_pin[@]}" "$OUT/bin/api" >"$log" 2>&1 &
	pid=$!
	wait_until "$t0" "$log" "the server logging to $log did not answer within $START_TIMEOUT s (START_TIMEOUT)" \
		curl -fs "$base/api/health" -o /dev/null
}

# measure N: serves the scale-N snapshot and appends one row to $OUT/rows.jsonl.
measure() {
	local n=$1 snap=$OUT/catalog-x$1.snapshot log=$OUT/server-x$1.log
	local t0 t_start rss hwm reloads t1 c0 c1 load lp
	t0=$(now)
	serve "$log" CATALOG_PATH="$snap" || return 1
	t_start=$(python3 -c "print(round($(now) - $t0, 2))")
	echo "scale $n: server answered after $t_start s; measuring" >&2
	c0=$(cpu_ticks "$pid")
	"${load_pin[@]}" "$OUT/bin/scaleload" -mix "$OUT/catalog-x1.snapshot" -base "$base" -key "$KEY" >"$OUT/load-x$n.json"
	c1=$(cpu_ticks "$pid")
	rss=$(status_kb "$pid" VmRSS)
	# Reload the same snapshot with the peak RSS reset first (clear_refs 5).
	reloads=$(grep -c "catalog reloaded" "$log" || true)
	echo 5 >"/proc/$pid/clear_refs"
	t1=$(now)
	kill -HUP "$pid"
	wait_until "$t1" "$log" "scale $n: the reload did not finish within $START_TIMEOUT s" \
		reloaded_since "$log" "$reloads" || return 1
	hwm=$(status_kb "$pid" VmHWM)
	# The same reload under load: lite searches from closed-loop clients
	# while the server swaps the snapshot in again; every one must succeed.
	reloads=$(grep -c "catalog reloaded" "$log" || true)
	"${load_pin[@]}" "$OUT/bin/scaleload" -mix "$OUT/catalog-x1.snapshot" -base "$base" -key "$KEY" -lite-only \
		-lite-time "$RELOAD_LOAD_TIME" >"$OUT/reload-load-x$n.json" &
	lp=$!
	sleep 2
	t1=$(now)
	kill -HUP "$pid"
	wait_until "$t1" "$log" "scale $n: the reload under load did not finish within $START_TIMEOUT s" \
		reloaded_since "$log" "$reloads" || return 1
	kill -0 "$lp" 2>/dev/null || echo "scale $n: the reload outlasted the load (RELOAD_LOAD_TIME $RELOAD_LOAD_TIME)" >&2
	wait "$lp"
	stop_server
	load=$(cat "$OUT/load-x$n.json")
	python3 - "$n" "$snap" "$OUT/index-x$n.txt" "$t_start" "$rss" "$hwm" "$c0" "$c1" "$(getconf CLK_TCK)" "$load" "$OUT/sync-x$n.txt" \
		"$(cat "$OUT/reload-load-x$n.json")" <<'PY' >>"$OUT/rows.jsonl"
import json, os, re, sys
n, snap, index, start, rss, hwm, c0, c1, hz, load, sync, reload_load = sys.argv[1:]
reload_load = json.loads(reload_load)
cpu_s, peak_kb, wall = open(index).read().split()
m = re.search(r"(\d+) products, (\d+) offers", open(sync).read())
load = json.loads(load)
row = {
    "scale": int(n), "products": int(m.group(1)) if m else 0, "offers": int(m.group(2)) if m else 0,
    "index_cpu_s": float(cpu_s), "index_wall_s": float(wall), "index_peak_gb": int(peak_kb) / 2**20,
    "snapshot_mb": os.path.getsize(snap) / 2**20, "start_s": float(start), "rss_gb": int(rss) / 2**20,
    "reload_peak_gb": int(hwm) / 2**20,
    "cpu_us_per_req": (float(c1) - float(c0)) / float(hz) * 1e6 / max(load["requests"], 1),
    "classes": load["classes"], "lite_per_s": load["lite_per_s"], "failed": load["failed"],
    "reload_load_requests": reload_load["requests"], "reload_load_failed": reload_load["failed"],
}
print(json.dumps(row))
PY
}

# measure_cluster N: publishes the scale-N snapshot into the cluster at
# $es_url and appends one row of cluster-mode figures to
# $OUT/cluster-rows.jsonl.
measure_cluster() {
	local n=$1 snap=$OUT/catalog-x$1.snapshot log=$OUT/server-cluster-x$1.log alias=bench-scale-x$1
	local t0 t_pub
	echo "scale $n: publishing to the cluster" >&2
	t0=$(now)
	"$indexer" publish --es-url "$es_url" --es-index "$alias" --es-keep 1 --es-shards "${ES_SHARDS:-3}" \
		--es-replicas "${ES_REPLICAS:-1}" "$snap" >"$OUT/publish-x$n.txt" 2>&1 ||
		{ tail -n 20 "$OUT/publish-x$n.txt" >&2; return 1; }
	t_pub=$(python3 -c "print(round($(now) - $t0, 1))")
	serve "$log" SEARCH_BACKEND=elasticsearch ELASTICSEARCH_URL="$es_url" ELASTICSEARCH_INDEX="$alias" || return 1
	echo "scale $n: measuring in cluster mode" >&2
	"${load_pin[@]}" "$OUT/bin/scaleload" -mix "$OUT/catalog-x1.snapshot" -base "$base" -key "$KEY" >"$OUT/cluster-load-x$n.json"
	stop_server
	python3 - "$n" "$t_pub" "$(cat "$OUT/cluster-load-x$n.json")" "$OUT/sync-x$n.txt" <<'PY' >>"$OUT/cluster-rows.jsonl"
import json, re, sys
n, pub, load, sync = sys.argv[1:]
m = re.search(r"(\d+) products", open(sync).read())
load = json.loads(load)
print(json.dumps({"scale": int(n), "products": int(m.group(1)) if m else 0, "publish_s": float(pub),
                  "classes": load["classes"], "lite_per_s": load["lite_per_s"], "failed": load["failed"]}))
PY
}

: >"$OUT/rows.jsonl"
: >"$OUT/cluster-rows.jsonl"
scales=(1 $SCALES)
for n in $(printf '%s\n' "${scales[@]}" | sort -nu); do
	build_catalog "$n"
done
for n in $SCALES; do
	measure "$n"
done
es_url="" cluster_started=0
if [ "$CLUSTER" = 1 ]; then
	es_url=${ELASTICSEARCH_URL:-}
	if [ -z "$es_url" ]; then
		trap 'stop_server; [ "$cluster_started" = 1 ] && scripts/elasticsearch-cluster.sh stop' EXIT
		cluster_started=1
		es_url=$(ELASTICSEARCH_CLUSTER_HEAP=${ELASTICSEARCH_CLUSTER_HEAP:-1g} scripts/elasticsearch-cluster.sh start |
			sed -n 's/^ELASTICSEARCH_URL=//p')
	fi
	for n in $(printf '%s\n' "${scales[@]}" | sort -nu); do
		measure_cluster "$n"
	done
fi

python3 - "$OUT/rows.jsonl" "$OUT/cluster-rows.jsonl" <<'PY' | tee "$OUT/report.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cluster = [json.loads(l) for l in open(sys.argv[2])]
classes = ["broad", "narrow", "filters", "price_sort", "constraints"]


def table(head, out):
    out = [head] + out
    w = [max(len(row[i]) for row in out) for i in range(len(head))]
    for row in out:
        print("  ".join(cell.rjust(w[i]) for i, cell in enumerate(row)))


def p50p99(r):
    return [f"{r['classes'][c]['p50_ms']:.2f} / {r['classes'][c]['p99_ms']:.2f}" for c in classes]


table(["scale", "products", "index CPU", "index peak", "snapshot", "API start", "API RSS", "reload peak",
       "KB/product"] + [f"{c} p50/p99 ms" for c in classes] + ["lite/s", "CPU/search", "reload under load"],
      [[f"{r['scale']}x", f"{r['products']:,}", f"{r['index_cpu_s']:.0f} s", f"{r['index_peak_gb']:.2f} GB",
        f"{r['snapshot_mb']:.0f} MB", f"{r['start_s']:.1f} s", f"{r['rss_gb']:.2f} GB",
        f"{r['reload_peak_gb']:.2f} GB", f"{r['rss_gb'] * 2**20 / max(r['products'], 1):.1f}"] + p50p99(r) +
       [f"{r['lite_per_s']:,.0f}", f"{r['cpu_us_per_req']:.0f} us",
        f"{r['reload_load_failed']} failed of {r['reload_load_requests']:,}"] for r in rows])
failed = sum(r["failed"] + r["reload_load_failed"] for r in rows)
ok = True
if cluster:
    base = next((r for r in cluster if r["scale"] == 1), None)
    print("\ncluster mode (three local nodes):")
    out = []
    for r in cluster:
        worst = max(r["classes"][c]["p99_ms"] / base["classes"][c]["p99_ms"] for c in classes) if base else 0
        out.append([f"{r['scale']}x", f"{r['products']:,}", f"{r['publish_s']:.0f} s"] + p50p99(r) +
                   [f"{r['lite_per_s']:,.0f}", f"{worst:.2f}x"])
        if r["scale"] != 1 and worst > 2:
            ok = False
    table(["scale", "products", "publish"] + [f"{c} p50/p99 ms" for c in classes] + ["lite/s", "worst p99 / 1x"], out)
    failed += sum(r["failed"] for r in cluster)
    print(f"cluster-mode p99 of every class within 2x of 1x: {'PASS' if ok else 'MISS'}")
print(f"failed requests: {failed}")
sys.exit(1 if failed else 0)
PY
