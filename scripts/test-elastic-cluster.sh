#!/usr/bin/env bash
# Runs the Elasticsearch engine on a local three-node cluster: the nodes
# are the same Maven artifacts as scripts/elasticsearch.sh's single node,
# each in its own JVM with a small heap (ELASTICSEARCH_CLUSTER_HEAP, default
# 384m), HTTP and transport on 127.0.0.1 at free ports, data under
# build/elasticsearch-cluster/ (deleted on exit, as the nodes are stopped).
#
# With ELASTICSEARCH_URL naming all three nodes and indices of two shards
# with one replica each, it runs the conformance suite, the answers
# compared with the embedded engine and the product look-ups; then
# TestNodeLoss kills one node (kill -9) during a bounded search load and
# requires every search to succeed.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
dir=$root/build/elasticsearch-cluster
heap=${ELASTICSEARCH_CLUSTER_HEAP:-384m}
nodes=3

# The jars and the launcher, built as for the single node.
mapfile -t built < <(scripts/elasticsearch.sh build)
cpfile=${built[0]}
classes=${built[1]}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

pids=()
cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		for _ in $(seq 300); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$pid" 2>/dev/null || true
	done
	rm -rf "$dir"
}
trap cleanup EXIT

rm -rf "$dir"
mkdir -p "$dir"
http=() transport=() names=() seeds=()
for i in $(seq 0 $((nodes - 1))); do
	http+=("$(free_port)")
	transport+=("$(free_port)")
	names+=("node-$i")
	seeds+=("127.0.0.1:${transport[$i]}")
done
seed_list=$(IFS=,; echo "${seeds[*]}")
master_list=$(IFS=,; echo "${names[*]}")

for i in $(seq 0 $((nodes - 1))); do
	mkdir -p "$dir/${names[$i]}"
	ELASTICSEARCH_CLUSTER_NAME=productsearch-test-cluster ELASTICSEARCH_NODE_NAME=${names[$i]} \
		ELASTICSEARCH_TRANSPORT_PORT=${transport[$i]} ELASTICSEARCH_SEED_HOSTS=$seed_list \
		ELASTICSEARCH_INITIAL_MASTERS=$master_list ELASTICSEARCH_HTTP_HOST=127.0.0.1 \
		setsid java -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -Dfile.encoding=UTF-8 \
		-Dlog4j2.formatMsgNoLookups=true -Dio.netty.allocator.numDirectArenas=0 \
		-cp "$classes:$(cat "$cpfile")" org.elasticsearch.node.EmbeddedNode "$dir/${names[$i]}" "${http[$i]}" \
		>"$dir/${names[$i]}.log" 2>&1 </dev/null &
	pids+=("$!")
	disown "$!" # its death is the test's doing, not news
done

urls=()
for port in "${http[@]}"; do
	urls+=("http://127.0.0.1:$port")
done
ELASTICSEARCH_URL=$(IFS=,; echo "${urls[*]}")
export ELASTICSEARCH_URL

limit=${ELASTICSEARCH_START_TIMEOUT:-240}
t0=$SECONDS
until curl -sf -m 5 "${urls[0]}/_cluster/health?wait_for_nodes=$nodes&wait_for_status=green&timeout=2s" >/dev/null 2>&1; do
	for i in "${!pids[@]}"; do
		if ! kill -0 "${pids[$i]}" 2>/dev/null; then
			echo "${names[$i]} exited during start; last lines of its log:" >&2
			tail -n 30 "$dir/${names[$i]}.log" >&2 || true
			exit 1
		fi
	done
	if ((SECONDS - t0 >= limit)); then
		echo "the cluster did not form with $nodes nodes in $limit s; logs in $dir" >&2
		tail -n 20 "$dir"/*.log >&2 || true
		exit 1
	fi
	sleep 1
done
echo "cluster of $nodes nodes up in $((SECONDS - t0)) s at $ELASTICSEARCH_URL" >&2

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
	go test -count=1 -run '^TestNodeLoss$' -v ./internal/search/elastic/ | grep -E '^(---|ok|FAIL|PASS|\s+\w+_test\.go)'
