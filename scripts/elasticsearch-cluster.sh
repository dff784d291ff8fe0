#!/usr/bin/env bash
# Starts or stops a local three-node Elasticsearch cluster: the nodes are
# the same Maven artifacts as scripts/elasticsearch.sh's single node, each
# in its own JVM with a small heap (ELASTICSEARCH_CLUSTER_HEAP, default
# 384m), HTTP and transport on 127.0.0.1 at free ports, data under
# build/elasticsearch-cluster/.
#
#   scripts/elasticsearch-cluster.sh start   # waits for green health; prints ELASTICSEARCH_URL=<the three URLs>
#   scripts/elasticsearch-cluster.sh url     # prints the URLs of the running cluster, comma-separated
#   scripts/elasticsearch-cluster.sh pids    # prints "name pid" per node
#   scripts/elasticsearch-cluster.sh stop    # stops the nodes and deletes their data
#
# start waits up to ELASTICSEARCH_START_TIMEOUT seconds (default 240) for the
# cluster to form, and stops what it started when it does not.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
dir=$root/build/elasticsearch-cluster
heap=${ELASTICSEARCH_CLUSTER_HEAP:-384m}
nodes=3

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

stop() {
	[ -f "$dir/pids" ] || { rm -rf "$dir"; return 0; }
	local name pid
	while read -r name pid; do
		kill "$pid" 2>/dev/null || true
	done <"$dir/pids"
	while read -r name pid; do
		for _ in $(seq 300); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$pid" 2>/dev/null || true
	done <"$dir/pids"
	rm -rf "$dir"
}

start() {
	if [ -f "$dir/url" ] && curl -sf -m 5 "$(cut -d, -f1 "$dir/url")/_cluster/health" >/dev/null 2>&1; then
		echo "ELASTICSEARCH_URL=$(cat "$dir/url")"
		return
	fi
	stop
	# The jars and the launcher, built as for the single node.
	local built cpfile classes
	mapfile -t built < <(scripts/elasticsearch.sh build)
	cpfile=${built[0]}
	classes=${built[1]}

	mkdir -p "$dir"
	local http=() transport=() names=() seeds=() i
	for i in $(seq 0 $((nodes - 1))); do
		http+=("$(free_port)")
		transport+=("$(free_port)")
		names+=("node-$i")
		seeds+=("127.0.0.1:${transport[$i]}")
	done
	local seed_list master_list
	seed_list=$(IFS=,; echo "${seeds[*]}")
	master_list=$(IFS=,; echo "${names[*]}")
	: >"$dir/pids"
	for i in $(seq 0 $((nodes - 1))); do
		mkdir -p "$dir/${names[$i]}"
		ELASTICSEARCH_CLUSTER_NAME=productsearch-local-cluster ELASTICSEARCH_NODE_NAME=${names[$i]} \
			ELASTICSEARCH_TRANSPORT_PORT=${transport[$i]} ELASTICSEARCH_SEED_HOSTS=$seed_list \
			ELASTICSEARCH_INITIAL_MASTERS=$master_list ELASTICSEARCH_HTTP_HOST=127.0.0.1 \
			setsid java -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -Dfile.encoding=UTF-8 \
			-Dlog4j2.formatMsgNoLookups=true -Dio.netty.allocator.numDirectArenas=0 \
			-cp "$classes:$(cat "$cpfile")" org.elasticsearch.node.EmbeddedNode "$dir/${names[$i]}" "${http[$i]}" \
			>"$dir/${names[$i]}.log" 2>&1 </dev/null &
		echo "${names[$i]} $!" >>"$dir/pids"
		disown "$!"
	done
	local urls=() port
	for port in "${http[@]}"; do
		urls+=("http://127.0.0.1:$port")
	done
	(IFS=,; echo "${urls[*]}") >"$dir/url"

	local limit=${ELASTICSEARCH_START_TIMEOUT:-240} t0=$SECONDS name pid
	until curl -sf -m 5 "${urls[0]}/_cluster/health?wait_for_nodes=$nodes&wait_for_status=green&timeout=2s" >/dev/null 2>&1; do
		while read -r name pid; do
			if ! kill -0 "$pid" 2>/dev/null; then
				echo "$name exited during start; last lines of its log:" >&2
				tail -n 30 "$dir/$name.log" >&2 || true
				stop
				exit 1
			fi
		done <"$dir/pids"
		if ((SECONDS - t0 >= limit)); then
			echo "the cluster did not form with $nodes nodes in $limit s; last lines of the logs:" >&2
			tail -n 20 "$dir"/*.log >&2 || true
			stop
			exit 1
		fi
		sleep 1
	done
	echo "cluster of $nodes nodes up in $((SECONDS - t0)) s" >&2
	echo "ELASTICSEARCH_URL=$(cat "$dir/url")"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
url) cat "$dir/url" ;;
pids) cat "$dir/pids" ;;
*)
	echo "usage: $0 start|url|pids|stop" >&2
	exit 2
	;;
esac
