#!/usr/bin/env bash
# Starts or stops the single-node Elasticsearch 8 used in development and CI.
#
#   scripts/elasticsearch.sh start    # prints ELASTICSEARCH_URL=http://127.0.0.1:<port>
#   scripts/elasticsearch.sh stop     # stops the node; its data stays
#   scripts/elasticsearch.sh status   # prints the URL and cluster health; exit 1 when down
#   scripts/elasticsearch.sh url      # prints the URL of the running node
#   scripts/elasticsearch.sh clean    # stops the node and deletes its data
#   scripts/elasticsearch.sh build    # resolves the jars and compiles the launcher only;
#                                     # prints the classpath file and the classes folder
#
# The node is the Elasticsearch server jar from Maven Central with its HTTP
# module, run in one JVM by scripts/elasticsearch/ (see pom.xml there for what
# it provides). Maven resolves the jars once; javac compiles the launcher.
# JDK 17 and Maven are installed with apt-get when missing.
#
# It listens on 127.0.0.1 only, without security, on ELASTICSEARCH_PORT
# (default 9200 or the port of the previous run, or a free port when that
# one is taken), with a heap of
# ELASTICSEARCH_HEAP (default 1g). Data, logs, pid and port live under
# build/elasticsearch/. start waits (up to ELASTICSEARCH_START_TIMEOUT
# seconds, default 180) for green or yellow health; start and stop are
# idempotent.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
dir=build/elasticsearch
src=scripts/elasticsearch
mkdir -p "$dir"
pidfile="$root/$dir/node.pid"
portfile="$root/$dir/port"
logfile="$root/$dir/node.log"
home="$root/$dir/home"
classes="$root/$dir/classes"
cpfile="$root/$dir/classpath.txt"

need_tools() {
	command -v java >/dev/null && command -v javac >/dev/null && command -v mvn >/dev/null && return
	echo "java, javac or mvn not found; installing openjdk-17-jdk-headless and maven with apt-get" >&2
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openjdk-17-jdk-headless maven >&2
}

# build resolves the classpath (once per pom change) and compiles the launcher.
build() {
	if [ ! -s "$cpfile" ] || [ "$src/pom.xml" -nt "$cpfile" ]; then
		echo "resolving Elasticsearch jars with Maven (first run downloads about 60 MB)" >&2
		mvn -B -q -Dstyle.color=never -f "$src/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cpfile" >&2
	fi
	local java_src="$src/src/main/java/org/elasticsearch/node/EmbeddedNode.java"
	local class="$classes/org/elasticsearch/node/EmbeddedNode.class"
	if [ ! -f "$class" ] || [ "$java_src" -nt "$class" ] || [ "$cpfile" -nt "$class" ]; then
		mkdir -p "$classes"
		javac -nowarn -cp "$(cat "$cpfile")" -d "$classes" "$java_src"
	fi
}

# port_free reports whether a port can be listened on (as the node binds,
# with SO_REUSEADDR, so connections left in TIME_WAIT do not count).
port_free() {
	python3 -c 'import socket,sys
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1",int(sys.argv[1]))); s.listen(1); s.close()' "$1" 2>/dev/null
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

running() {
	[ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

url() {
	echo "http://127.0.0.1:$(cat "$portfile")"
}

healthy() {
	curl -sf -m 5 "$(url)/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null 2>&1
}

start() {
	if running && [ -f "$portfile" ]; then
		wait_healthy
		echo "ELASTICSEARCH_URL=$(url)"
		return
	fi
	rm -f "$pidfile"
	need_tools
	build
	# The port of the last run, so that a restart keeps the URL.
	local port=${ELASTICSEARCH_PORT:-$(cat "$portfile" 2>/dev/null || echo 9200)}
	port_free "$port" || port=$(free_port)
	echo "$port" >"$portfile"
	mkdir -p "$home"
	local heap=${ELASTICSEARCH_HEAP:-1g}
	# setsid: the node outlives the shell that started it.
	# shellcheck disable=SC2086
	setsid nohup java -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -Dfile.encoding=UTF-8 \
		-Dlog4j2.formatMsgNoLookups=true -Dio.netty.allocator.numDirectArenas=0 \
		${ELASTICSEARCH_JAVA_OPTS:-} \
		-cp "$classes:$(cat "$cpfile")" org.elasticsearch.node.EmbeddedNode "$home" "$port" \
		>"$logfile" 2>&1 </dev/null &
	echo $! >"$pidfile"
	local t0=$SECONDS
	wait_healthy
	echo "elasticsearch up in $((SECONDS - t0)) s; log: $dir/node.log" >&2
	echo "ELASTICSEARCH_URL=$(url)"
}

wait_healthy() {
	local limit=${ELASTICSEARCH_START_TIMEOUT:-180} t0=$SECONDS
	until healthy; do
		if ! running; then
			echo "elasticsearch exited during start; last lines of $dir/node.log:" >&2
			tail -n 30 "$logfile" >&2 || true
			rm -f "$pidfile"
			exit 1
		fi
		if ((SECONDS - t0 >= limit)); then
			echo "elasticsearch not healthy after $limit s; see $dir/node.log" >&2
			exit 1
		fi
		sleep 1
	done
}

stop() {
	if running; then
		local pid
		pid=$(cat "$pidfile")
		kill "$pid"
		for _ in $(seq 300); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "elasticsearch did not stop in 30 s; killing it" >&2
			kill -9 "$pid" 2>/dev/null || true
		fi
	fi
	rm -f "$pidfile"
}

case "${1:-}" in
start)
	start
	;;
stop)
	stop
	;;
status)
	if ! running || [ ! -f "$portfile" ]; then
		echo "elasticsearch: not running" >&2
		exit 1
	fi
	echo "ELASTICSEARCH_URL=$(url)"
	curl -sf -m 5 "$(url)/_cluster/health" || { echo "elasticsearch: running (pid $(cat "$pidfile")) but not answering" >&2; exit 1; }
	echo
	;;
url)
	running && [ -f "$portfile" ] || { echo "elasticsearch: not running; use: $0 start" >&2; exit 1; }
	url
	;;
clean)
	stop
	rm -rf "$home" "$portfile"
	;;
build)
	need_tools
	build
	echo "$cpfile"
	echo "$classes"
	;;
*)
	echo "usage: $0 start|stop|status|url|clean|build" >&2
	exit 2
	;;
esac
