#!/usr/bin/env bash
# Runs the Elasticsearch engine on a local three-node cluster
# (scripts/elasticsearch-cluster.sh: the same Maven artifacts as the single
# node, small heaps, loopback only; stopped and deleted on exit).
#
# With ELASTICSEARCH_URL naming all three nodes and indices of two shards
# with one replica each, it runs the conformance suite, the answers
# compared with the embedded engine and the product look-ups; then
# TestNodeLoss kills one node (kill -9) during a bounded search load and
# requires every search to succeed.
set -euo pipefail

cd "$(dirname "$0")/.."
trap 'scripts/elasticsearch-cluster.sh stop' EXIT
ELASTICSEARCH_URL=$(scripts/elasticsearch-cluster.sh start | sed -n 's/^ELASTICSEARCH_URL=//p')
export ELASTICSEARCH_URL
echo "cluster at $ELASTICSEARCH_URL" >&2
mapfile -t names < <(scripts/elasticsearch-cluster.sh pids | cut -d' ' -f1)
mapfile -t pids < <(scripts/elasticsearch-cluster.sh pids | cut -d' ' -f2)
IFS=, read -r -a urls <<<"$ELASTICSEARCH_URL"
nodes=${#names[@]}

export ELASTICSEARCH_TEST_SHARDS=2 ELASTICSEARCH_TEST_REPLICAS=1
go test -count=1 -run '^(TestConformance|TestMaxCandidates|TestSameAnswers.*|TestProductLookup)$' ./internal/search/elastic/

# The node to kill: the last one, unless it is the elected master (an
# election is the cluster's own concern, not the engine's).
master=$(curl -sf -m 5 "${urls[0]}/_cat/master?h=node" | tr -d '[:space:]')
victim=$((nodes - 1))
if [ "$master" = "${names[$victim]}" ]; then
	victim=0
fi
echo "killing ${names[$victim]} (pid ${pids[$victim]}) during the load; master: $master" >&2
ELASTICSEARCH_KILL_NODE_PID=${pids[$victim]} \
	go test -count=1 -run '^TestNodeLoss$' -v ./internal/search/elastic/ | grep -E '^(---|ok|FAIL|PASS|\s+\S)'
