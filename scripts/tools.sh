#!/usr/bin/env bash
# Prints the path of a pinned command-line tool, building it from the Go
# module proxy the first time.
#
#   scripts/tools.sh helm          # e.g. /var/cache/productsearch/tools/helm-v3.22.0/helm
#   scripts/tools.sh all           # builds every tool below
#
# Tools are kept outside the clone under $PRODUCTSEARCH_CACHE (default
# /var/cache/productsearch, or ~/.cache/productsearch when that is not
# writable), one folder per name and version, so a new clone or a second CI
# run reuses them and a version bump builds the new one beside the old.
set -euo pipefail

cd "$(dirname "$0")/.."

# name  version  package
TOOLS="
helm        v3.22.0  helm.sh/helm/v3/cmd/helm
kubeconform v0.8.0   github.com/yannh/kubeconform/cmd/kubeconform
kustomize   v5.7.1   sigs.k8s.io/kustomize/kustomize/v5
k6          v1.8.1   go.k6.io/k6
crictl      v1.37.0  sigs.k8s.io/cri-tools/cmd/crictl
registry    v0.20.6  github.com/google/go-containerregistry/cmd/registry
crane       v0.20.6  github.com/google/go-containerregistry/cmd/crane
coredns     v1.15.0  github.com/coredns/coredns
"

cache_root() {
	local c=${PRODUCTSEARCH_CACHE:-/var/cache/productsearch}
	if ! mkdir -p "$c" 2>/dev/null || [ ! -w "$c" ]; then
		c=${XDG_CACHE_HOME:-$HOME/.cache}/productsearch
		mkdir -p "$c"
	fi
	echo "$c"
}

tool() {
	local name=$1 line version pkg dir
	line=$(awk -v n="$name" '$1 == n' <<<"$TOOLS")
	[ -n "$line" ] || { echo "unknown tool: $name" >&2; exit 2; }
	read -r _ version pkg <<<"$line"
	dir=$(cache_root)/tools/$name-$version
	if [ ! -x "$dir/$name" ]; then
		echo "building $name $version (once; kept in $dir)" >&2
		mkdir -p "$dir"
		# A private GOBIN so the binary's name is the tool's (kustomize/v5 installs as kustomize).
		CGO_ENABLED=0 GOBIN="$dir/.gobin" nice -n 10 go install -ldflags "-s -w" "$pkg@$version" >&2
		mv "$dir/.gobin/$(basename "${pkg%/v[0-9]*}")" "$dir/$name"
		rmdir "$dir/.gobin"
	fi
	echo "$dir/$name"
}

case "${1:-}" in
all)
	for n in $(awk 'NF {print $1}' <<<"$TOOLS"); do tool "$n" >/dev/null; done
	;;
"")
	echo "usage: $0 all|$(awk 'NF {print $1}' <<<"$TOOLS" | paste -sd'|')" >&2
	exit 2
	;;
*)
	tool "$1"
	;;
esac
