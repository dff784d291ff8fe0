#!/usr/bin/env bash
# Starts or stops a throwaway Redis for the rate-limit integration tests.
#
#   scripts/redis.sh start   # prints REDIS_URL=redis://127.0.0.1:<port>/0
#   scripts/redis.sh stop
#   scripts/redis.sh url     # prints the URL of the running instance
#
# redis-server is installed with apt-get when missing. The server listens on
# a free port on 127.0.0.1 only, keeps nothing on disk, and runs as a daemon
# whose pid and port are kept under build/redis/.
set -euo pipefail

cd "$(dirname "$0")/.."
dir=build/redis
mkdir -p "$dir"
pidfile="$PWD/$dir/redis.pid"
portfile="$dir/port"

need_redis() {
	command -v redis-server >/dev/null && return
	echo "redis-server not found; installing it with apt-get" >&2
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >&2
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

running() {
	[ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

case "${1:-}" in
start)
	if running; then
		echo "REDIS_URL=redis://127.0.0.1:$(cat "$portfile")/0"
		exit 0
	fi
	need_redis
	port=$(free_port)
	redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no \
		--daemonize yes --pidfile "$pidfile" --logfile "$PWD/$dir/redis.log" --dir "$PWD/$dir" >&2
	for _ in $(seq 50); do
		redis-cli -p "$port" ping >/dev/null 2>&1 && break
		sleep 0.1
	done
	redis-cli -p "$port" ping >/dev/null || { echo "redis did not start; see $dir/redis.log" >&2; exit 1; }
	echo "$port" >"$portfile"
	echo "REDIS_URL=redis://127.0.0.1:$port/0"
	;;
stop)
	if running; then
		pid=$(cat "$pidfile")
		kill "$pid"
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	fi
	rm -f "$pidfile" "$portfile"
	;;
url)
	running || { echo "no redis running; use: $0 start" >&2; exit 1; }
	echo "redis://127.0.0.1:$(cat "$portfile")/0"
	;;
*)
	echo "usage: $0 start|stop|url" >&2
	exit 2
	;;
esac
