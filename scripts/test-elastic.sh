#!/usr/bin/env bash
# Runs the Elasticsearch engine's and the publisher's tests on a real node:
# the conformance suite, the answers compared with the embedded engine,
# publishing under load, failed publishes, time-outs, and a stop and
# restart of the node. It starts the local node (scripts/elasticsearch.sh)
# unless ELASTICSEARCH_URL is set, and stops it again if it started it.
# TestSameAnswersOnDemoCatalog also runs when build/catalog.snapshot exists
# (make catalog).
set -euo pipefail

cd "$(dirname "$0")/.."
started=0
if [ -z "${ELASTICSEARCH_URL:-}" ]; then
	if ! scripts/elasticsearch.sh status >/dev/null 2>&1; then
		scripts/elasticsearch.sh start >/dev/null
		started=1
	fi
	ELASTICSEARCH_URL=$(scripts/elasticsearch.sh url)
	restart=1
else
	restart=0 # someone else's node: not ours to stop
fi
export ELASTICSEARCH_URL
cleanup() {
	if [ "$started" = 1 ]; then
		scripts/elasticsearch.sh stop
	fi
}
trap cleanup EXIT

echo "Elasticsearch at $ELASTICSEARCH_URL" >&2
go test -count=1 ./internal/search/elastic/... ./internal/publish/... ./cmd/indexer/
if [ "$restart" = 1 ]; then
	ELASTICSEARCH_RESTART_TEST=1 go test -count=1 -run '^TestNodeRestart$' -v ./internal/search/elastic/ | grep -E '^(---|ok|FAIL|PASS)'
fi
