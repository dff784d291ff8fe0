#!/usr/bin/env bash
# Checks what an OpenTelemetry Collector receives from the API in cluster
# mode. It starts a collector built with the collector builder (OTLP/HTTP
# receiver, file exporter; scripts/tools.sh otelcol, built once into the
# tools cache), a local Elasticsearch node (scripts/elasticsearch.sh, unless
# ELASTICSEARCH_URL is set) and Redis (scripts/redis.sh), publishes the demo
# catalog to the node with the indexer, and runs the API on Elasticsearch
# and Redis with nothing but OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
# OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, OTEL_SERVICE_NAME and
# OTEL_TRACES_SAMPLER=always_on set. tests/otel/otel_check.py sends a
# bounded number of concurrent REST and MCP requests; the API is then
# stopped (which flushes its spans and metrics), the collector too, and
# otel_check.py checks the collector's files: methods, routes, the
# parent/child structure down to Elasticsearch and Redis, tool names,
# errors, resource attributes and that no API key appears anywhere.
#
# Everything listens on 127.0.0.1; the processes it starts are stopped on
# exit. Files are kept in build/test-otel/.
set -euo pipefail

cd "$(dirname "$0")/.."
out=build/test-otel
rm -rf "$out"
mkdir -p "$out/bin"

say() { printf 'test-otel: %s\n' "$*" >&2; }

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# wait_for URL PID NAME: polls URL until it answers, while PID lives.
wait_for() {
	for _ in $(seq 300); do
		curl -s -o /dev/null -m 2 "$1" && return
		kill -0 "$2" 2>/dev/null || { say "$3 exited during start; see $out/$3.log"; tail -n 20 "$out/$3.log" >&2; exit 1; }
		sleep 0.2
	done
	say "$3 did not answer at $1 within 60 s"
	exit 1
}

# stop_pid PID: SIGTERM, then waits up to 20 s for the process to exit.
stop_pid() {
	kill -TERM "$1" 2>/dev/null || return 0
	for _ in $(seq 200); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null || true
}

collector_pid="" api_pid="" es_started=0 redis_started=0 index=""
cleanup() {
	[ -z "$api_pid" ] || stop_pid "$api_pid"
	[ -z "$collector_pid" ] || stop_pid "$collector_pid"
	if [ -n "$index" ]; then # the published indices, found by their alias
		for i in $(curl -s -m 10 "$ELASTICSEARCH_URL/_alias/$index" | python3 -c 'import json,sys; print(" ".join(i for i in json.load(sys.stdin) if i.startswith(sys.argv[1]+"-")))' "$index" 2>/dev/null); do
			curl -s -o /dev/null -m 10 -X DELETE "$ELASTICSEARCH_URL/$i" || true
		done
	fi
	[ "$redis_started" = 0 ] || scripts/redis.sh stop
	[ "$es_started" = 0 ] || scripts/elasticsearch.sh stop
}
trap cleanup EXIT

otelcol=$(scripts/tools.sh otelcol)
say "building cmd/api and cmd/indexer"
version="otel-check-$(date +%s)"
go build -ldflags "-X main.version=$version" -o "$out/bin/api" ./cmd/api
go build -o "$out/bin/indexer" ./cmd/indexer

# The collector writes what it receives as OTLP JSON, one request a line.
otlp_port=$(free_port)
cat >"$out/collector.yaml" <<EOF
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:$otlp_port
exporters:
  file/traces:
    path: $PWD/$out/traces.jsonl
  file/metrics:
    path: $PWD/$out/metrics.jsonl
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file/traces]
    metrics:
      receivers: [otlp]
      exporters: [file/metrics]
EOF
"$otelcol" --config "$out/collector.yaml" >"$out/collector.log" 2>&1 &
collector_pid=$!
wait_for "http://127.0.0.1:$otlp_port/" "$collector_pid" collector

if [ -z "${ELASTICSEARCH_URL:-}" ]; then
	if ! scripts/elasticsearch.sh status >/dev/null 2>&1; then
		scripts/elasticsearch.sh start >/dev/null
		es_started=1
	fi
	ELASTICSEARCH_URL=$(scripts/elasticsearch.sh url)
fi
if ! scripts/redis.sh url >/dev/null 2>&1; then
	scripts/redis.sh start >/dev/null
	redis_started=1
fi
redis_url=$(scripts/redis.sh url)

# Nothing from the caller's environment decides where telemetry goes.
for v in $(compgen -e); do
	case $v in OTEL_*) unset "$v" ;; esac
done
traces_endpoint=http://127.0.0.1:$otlp_port/v1/traces
metrics_endpoint=http://127.0.0.1:$otlp_port/v1/metrics

index="otel-check-$$"
say "publishing the demo catalog to $ELASTICSEARCH_URL (alias $index)"
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=$traces_endpoint OTEL_SERVICE_NAME=otel-check-indexer \
	"$out/bin/indexer" sync --config indexer/retailers.yaml --out "$out/catalog.snapshot" --quiet \
	--publish elasticsearch --es-url "$ELASTICSEARCH_URL" --es-index "$index" --es-keep 1 >"$out/indexer.log" 2>&1 ||
	{ tail -n 20 "$out/indexer.log" >&2; exit 1; }

api_port=$(free_port)
metrics_port=$(free_port)
secret="ps_live_$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
public="ps_public_$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
say "starting the API on 127.0.0.1:$api_port (Elasticsearch, Redis)"
HOST=127.0.0.1 PORT=$api_port METRICS_ADDR=127.0.0.1:$metrics_port \
	SEARCH_BACKEND=elasticsearch ELASTICSEARCH_URL=$ELASTICSEARCH_URL ELASTICSEARCH_INDEX=$index ELASTICSEARCH_TIMEOUT=10s \
	REDIS_URL=$redis_url API_KEYS="$secret=100000" PUBLIC_API_KEY=$public RATE_LIMIT_PER_HOUR=100000 \
	OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=$traces_endpoint OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=$metrics_endpoint \
	OTEL_SERVICE_NAME=otel-check-api OTEL_TRACES_SAMPLER=always_on \
	"$out/bin/api" >"$out/api.log" 2>&1 &
api_pid=$!
wait_for "http://127.0.0.1:$api_port/api/health" "$api_pid" api

say "sending REST and MCP requests"
python3 tests/otel/otel_check.py send --base "http://127.0.0.1:$api_port" --key "$secret" --public-key "$public" \
	--sent "$out/sent.jsonl"

# Stopping flushes the API's spans and metrics, then the collector's files.
stop_pid "$api_pid"
api_pid=""
stop_pid "$collector_pid"
collector_pid=""

python3 tests/otel/otel_check.py check --sent "$out/sent.jsonl" --traces "$out/traces.jsonl" \
	--metrics "$out/metrics.jsonl" --service otel-check-api --version "$version" \
	--indexer-service otel-check-indexer --secret "$secret" --secret "$public" --api-log "$out/api.log"
