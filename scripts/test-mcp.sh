#!/usr/bin/env bash
# Runs MCP clients that this project did not write against the real servers:
# the official TypeScript SDK (@modelcontextprotocol/sdk, pinned in
# tests/mcp/package-lock.json) over Streamable HTTP and over stdio (the built
# cmd/mcp-stdio), and the official Python SDK (mcp, pinned in
# tests/mcp/requirements.txt) over Streamable HTTP.
#
# It builds cmd/api and cmd/mcp-stdio, starts the API on a free loopback port
# over the demo catalog (build/catalog.snapshot, made by `make catalog` when
# missing) with a raised rate limit, waits for /api/health, runs both client
# suites, and stops the API. Exit status is non-zero when any suite fails.
#
# Environment:
#   MCP_TEST_CATALOG  catalog snapshot to serve (default build/catalog.snapshot)
#   API_BIN           an API binary to run instead of building cmd/api
#   PYTHON            Python >= 3.10 for the venv (default python3)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=$ROOT/build
GO=${GO:-go}
PYTHON=${PYTHON:-python3}
CATALOG=${MCP_TEST_CATALOG:-$BUILD/catalog.snapshot}
VENV=$BUILD/mcp-venv
LOG=$BUILD/test-mcp-api.log

say() { printf 'test-mcp: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

for tool in node npm curl "$PYTHON"; do
	command -v "$tool" >/dev/null || die "$tool is required (install Node.js >= 18, npm, curl and Python >= 3.10)"
done
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' || die "$PYTHON is older than 3.10; set PYTHON"

mkdir -p "$BUILD/bin"
if [[ ! -f $CATALOG ]]; then
	[[ $CATALOG == "$BUILD/catalog.snapshot" ]] || die "catalog snapshot $CATALOG does not exist"
	say "building the demo catalog (make catalog)"
	make catalog >&2
fi

if [[ -z ${API_BIN:-} ]]; then
	say "building cmd/api"
	"$GO" build -o "$BUILD/bin/api" ./cmd/api
	API_BIN=$BUILD/bin/api
fi
say "building cmd/mcp-stdio"
"$GO" build -o "$BUILD/bin/mcp-stdio" ./cmd/mcp-stdio

# TypeScript client: npm ci from the committed lock file, when it changed.
if [[ ! -f tests/mcp/node_modules/.package-lock.json || tests/mcp/package-lock.json -nt tests/mcp/node_modules/.package-lock.json ]]; then
	say "installing the TypeScript SDK (npm ci)"
	(cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

# Python client: a venv under build/, reinstalled when the pins change.
req_sum=$(sha256sum tests/mcp/requirements.txt | cut -d' ' -f1)
if [[ ! -x $VENV/bin/python || $(cat "$VENV/.requirements.sha256" 2>/dev/null) != "$req_sum" ]]; then
	say "installing the Python SDK into $VENV"
	rm -rf "$VENV"
	"$PYTHON" -m venv "$VENV"
	"$VENV/bin/pip" install --quiet --disable-pip-version-check -r tests/mcp/requirements.txt >&2
	echo "$req_sum" >"$VENV/.requirements.sha256"
fi

port=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
key=mcp-test-key-$port
say "starting the API on $base over $CATALOG (log: $LOG)"
HOST=127.0.0.1 PORT=$port METRICS_ADDR=off CATALOG_PATH=$CATALOG PUBLIC_API_KEY=$key RATE_LIMIT_PER_HOUR=100000 \
	RELOAD_INTERVAL=0 LOG_LEVEL=warn "$API_BIN" >"$LOG" 2>&1 &
api_pid=$!
cleanup() {
	kill "$api_pid" 2>/dev/null || true
	wait "$api_pid" 2>/dev/null || true
}
trap cleanup EXIT

for _ in $(seq 1 120); do
	curl -fsS "$base/api/health" >/dev/null 2>&1 && break
	kill -0 "$api_pid" 2>/dev/null || { cat "$LOG" >&2; die "the API exited before it was ready"; }
	sleep 0.5
done
curl -fsS "$base/api/health" >/dev/null || { cat "$LOG" >&2; die "the API did not become healthy within 60 s"; }

status=$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$base/api/mcp" -H 'Content-Type: application/json' \
	--data '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
[[ $status == 200 ]] || die "POST /api/mcp answered $status: the API does not serve the MCP endpoint (mount mcp.NewHandler in cmd/api)"

export MCP_URL=$base/api/mcp
export MCP_STDIO_BIN=$BUILD/bin/mcp-stdio
export PRODUCT_SEARCH_BASE_URL=$base
export PRODUCT_SEARCH_API_KEY=$key

failed=()
say "TypeScript SDK client (Streamable HTTP and stdio)"
(cd tests/mcp && node --test ts-client.test.mjs) || failed+=(typescript)
say "Python SDK client (Streamable HTTP)"
(cd tests/mcp && "$VENV/bin/python" -m pytest -q -p no:cacheprovider test_python_client.py) || failed+=(python)

if ((${#failed[@]})); then
	die "failed: ${failed[*]}"
fi
say "both MCP SDK clients passed"
