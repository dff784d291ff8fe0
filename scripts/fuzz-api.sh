#!/usr/bin/env bash
# Fuzzes the REST API with Schemathesis against its own OpenAPI document.
#
#   scripts/fuzz-api.sh                 # make fuzz-api
#   CATALOG_PATH=x.snapshot MAX_EXAMPLES=50 scripts/fuzz-api.sh
#
# Builds cmd/api, serves CATALOG_PATH (default: build/catalog.snapshot,
# else the test fixture internal/api/testdata/catalog.snapshot) on a free
# loopback port with the rate limit raised, installs Schemathesis into
# build/venv-schemathesis, and runs it against /openapi.json with the bearer
# key. Fails on any 5xx, schema violation, undocumented status code or wrong
# content type. The server is always stopped. One worker: the coverage
# phase describes its filters with Python's ast module, which is not safe to
# call from two threads at once on the Python 3.11 that Debian ships.
set -euo pipefail

cd "$(dirname "$0")/.."
SCHEMATHESIS_VERSION=4.32.5
# Pinned with Schemathesis so that a fresh clone fuzzes with the same engine.
HYPOTHESIS_VERSION=6.170.17
MAX_EXAMPLES=${MAX_EXAMPLES:-100}
MAX_TIME=${MAX_TIME:-180}
KEY=fuzz-key-0000000001

catalog=${CATALOG_PATH:-}
if [ -z "$catalog" ]; then
	catalog=build/catalog.snapshot
	[ -f "$catalog" ] || catalog=internal/api/testdata/catalog.snapshot
fi
[ -f "$catalog" ] || { echo "no catalog snapshot at $catalog" >&2; exit 1; }

mkdir -p build/bin build/fuzz-api
echo "building cmd/api" >&2
go build -o build/bin/api ./cmd/api

venv=build/venv-schemathesis
installed=$("$venv/bin/pip" freeze 2>/dev/null || true)
if [[ $installed != *"schemathesis==$SCHEMATHESIS_VERSION"* || $installed != *"hypothesis==$HYPOTHESIS_VERSION"* ]]; then
	echo "installing schemathesis $SCHEMATHESIS_VERSION (hypothesis $HYPOTHESIS_VERSION) into $venv" >&2
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION" "hypothesis==$HYPOTHESIS_VERSION"
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
log=build/fuzz-api/server.log
HOST=127.0.0.1 PORT=$port METRICS_ADDR=off CATALOG_PATH=$catalog API_KEYS="$KEY=1000000000" RATE_LIMIT_PER_HOUR=1000000000 \
	LOG_LEVEL=warn RELOAD_INTERVAL=0 build/bin/api >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
	curl -fs "$base/api/health" >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || { cat "$log" >&2; exit 1; }
	sleep 0.1
done
curl -fs "$base/api/health" >/dev/null || { echo "server did not start; see $log" >&2; exit 1; }
echo "serving $catalog at $base" >&2

exclude=()
mcp_status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
	-d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' "$base/api/mcp")
if [ "$mcp_status" = 404 ]; then
	echo "POST /api/mcp is not mounted in this build; leaving it out" >&2
	exclude=(--exclude-path /api/mcp)
fi

"$venv/bin/st" run "$base/openapi.json" --url "$base" \
	-H "Authorization: Bearer $KEY" \
	--checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
	--max-examples "$MAX_EXAMPLES" --max-time "$MAX_TIME" --seed 1 --workers 1 \
	--request-timeout 10 --suppress-health-check too_slow \
	--report junit --report-dir build/fuzz-api \
	"${exclude[@]}"
status=$?
if grep -q '"level":"ERROR"' "$log"; then
	echo "the server logged errors during the run; see $log" >&2
	grep -m5 '"level":"ERROR"' "$log" >&2
	exit 1
fi
exit $status
