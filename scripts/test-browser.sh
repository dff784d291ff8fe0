#!/usr/bin/env bash
# Real-browser tests of the explorer (/) and the API reference (/docs):
# tests/browser/explorer.test.mjs drives Debian's Chromium through
# playwright-core (pinned in tests/browser/package-lock.json; it downloads
# no browser) at desktop (1280x800) and phone (390x844) sizes, and saves
# screenshots under build/screenshots.
#
# It installs Chromium with apt-get when /usr/bin/chromium is missing,
# builds cmd/api, and starts two servers on free loopback ports: one over
# the demo catalog (build/catalog.snapshot, made by `make catalog` when
# missing) with a raised rate limit, and one over the explorer's fixture
# catalog (hostile feed titles) with RATE_LIMIT_PER_HOUR=10 for the
# rate-limit page: pages and assets are charged like searches, so that is
# one page load with its assets, a search and a product view, and a few
# searches more to spend. Neither serves metrics (METRICS_ADDR=off). Both
# are stopped on exit. Exit status is non-zero when a test fails.
#
# Environment:
#   CHROMIUM               browser binary (default /usr/bin/chromium)
#   BROWSER_TEST_CATALOG   catalog snapshot for the main server
#   API_BIN                an API binary to run instead of building cmd/api
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=$ROOT/build
GO=${GO:-go}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
CATALOG=${BROWSER_TEST_CATALOG:-$BUILD/catalog.snapshot}
FIXTURE=$ROOT/internal/explorer/testdata/catalog.snapshot
SHOTS=$BUILD/screenshots
LIMITED_LIMIT=10
KEY=ps_public_demo_key

say() { printf 'test-browser: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

for tool in node npm curl; do
	command -v "$tool" >/dev/null || die "$tool is required (install Node.js >= 20, npm and curl)"
done
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || die "Node.js >= 20 is required"

if [[ ! -x $CHROMIUM ]]; then
	[[ $CHROMIUM == /usr/bin/chromium ]] || die "CHROMIUM=$CHROMIUM is not an executable"
	command -v apt-get >/dev/null || die "/usr/bin/chromium is missing and apt-get is not available; install Chromium or set CHROMIUM"
	sudo=()
	[[ $(id -u) == 0 ]] || sudo=(sudo)
	say "installing Debian's chromium (apt-get)"
	"${sudo[@]}" apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >&2
fi

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

# playwright-core: npm ci from the committed lock file, when it changed.
if [[ ! -f tests/browser/node_modules/.package-lock.json || tests/browser/package-lock.json -nt tests/browser/node_modules/.package-lock.json ]]; then
	say "installing playwright-core (npm ci)"
	(cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
fi

free_port() {
	node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

pids=()
cleanup() {
	for pid in "${pids[@]+"${pids[@]}"}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
}
trap cleanup EXIT

# start_api NAME CATALOG LIMIT: starts a server in the background and sets
# api_url to its base URL. (Not run in a command substitution: the server
# must be a child of this shell for cleanup to stop it.)
start_api() {
	local name=$1 catalog=$2 limit=$3 port log
	port=$(free_port)
	log=$BUILD/test-browser-$name.log
	HOST=127.0.0.1 PORT=$port METRICS_ADDR=off CATALOG_PATH=$catalog PUBLIC_API_KEY=$KEY RATE_LIMIT_PER_HOUR=$limit \
		RELOAD_INTERVAL=0 LOG_LEVEL=warn "$API_BIN" >"$log" 2>&1 &
	pids+=($!)
	api_url=http://127.0.0.1:$port
	say "started the $name API on $api_url over $catalog (log: $log)"
}

wait_healthy() {
	local base=$1 log=$2
	for _ in $(seq 1 120); do
		curl -fsS "$base/api/health" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	cat "$log" >&2
	die "$base did not become healthy within 60 s"
}

start_api main "$CATALOG" 100000
BASE_URL=$api_url
start_api limited "$FIXTURE" "$LIMITED_LIMIT"
LIMITED_URL=$api_url
wait_healthy "$BASE_URL" "$BUILD/test-browser-main.log"
wait_healthy "$LIMITED_URL" "$BUILD/test-browser-limited.log"

rm -rf "$SHOTS"
mkdir -p "$SHOTS"
say "running the browser tests ($("$CHROMIUM" --version 2>/dev/null | head -1))"
(cd tests/browser && BASE_URL=$BASE_URL LIMITED_URL=$LIMITED_URL LIMITED_LIMIT=$LIMITED_LIMIT API_KEY=$KEY \
	CHROMIUM=$CHROMIUM SCREENSHOTS=$SHOTS node --test --test-concurrency=1 explorer.test.mjs)
say "screenshots in $SHOTS"
