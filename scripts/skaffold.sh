#!/usr/bin/env bash
# Runs skaffold (pinned below) from the repository root, building it once.
#
#   scripts/skaffold.sh render        # renders the dev and prod profiles (make skaffold-render)
#   scripts/skaffold.sh ARGS...       # any skaffold command
#
# skaffold cannot be installed with `go install pkg@version` (its go.mod
# has replace directives), so it is built from a scratch module that
# requires it with skaffold's own requirements and replacements, kept
# under $PRODUCTSEARCH_CACHE/tools/skaffold-<version>.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
version=v2.16.1
cache=${PRODUCTSEARCH_CACHE:-/var/cache/productsearch}
mkdir -p "$cache/tools" 2>/dev/null && [ -w "$cache/tools" ] || cache=${XDG_CACHE_HOME:-$HOME/.cache}/productsearch
dir=$cache/tools/skaffold-$version
skaffold=$dir/skaffold

if [ ! -x "$skaffold" ]; then
	echo "building skaffold $version (once, a few minutes; kept in $dir)" >&2
	mkdir -p "$dir/src"
	(
		cd "$dir/src"
		gomod=$(go mod download -json "github.com/GoogleContainerTools/skaffold/v2@$version" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["GoMod"])')
		{
			sed 's|^module .*|module skaffoldbuild|' "$gomod"
			printf '\nrequire github.com/GoogleContainerTools/skaffold/v2 %s\n' "$version"
		} >go.mod
		printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/GoogleContainerTools/skaffold/v2/cmd/skaffold"\n' >tools.go
		go mod tidy >&2
		CGO_ENABLED=0 nice -n 10 go build -ldflags "-s -w" -o "$skaffold.tmp" github.com/GoogleContainerTools/skaffold/v2/cmd/skaffold
		mv "$skaffold.tmp" "$skaffold"
	)
fi

# A private home with its global configuration: no usage metrics are
# collected or sent, no update check, and ~/.skaffold stays untouched.
home=$root/build/skaffold/home
mkdir -p "$home/.skaffold"
printf 'global:\n  collect-metrics: false\n  update-check: false\nkubeContexts: []\n' >"$home/.skaffold/config"
export SKAFFOLD_UPDATE_CHECK=false DOCKER_CONFIG=${DOCKER_CONFIG:-$HOME/.docker} KUBECONFIG=${KUBECONFIG:-$HOME/.kube/config}
export HOME=$home

if [ "${1:-}" = render ]; then
	helm=$(scripts/tools.sh helm)
	mkdir -p build/skaffold
	for p in dev prod; do
		PATH=$(dirname "$helm"):$PATH "$skaffold" render -p "$p" --offline=true \
			--digest-source=tag --output "build/skaffold/$p.yaml" >&2
		echo "skaffold render -p $p: $(grep -c '^kind:' "build/skaffold/$p.yaml") objects in build/skaffold/$p.yaml" >&2
	done
	exit 0
fi
exec "$skaffold" "$@"
