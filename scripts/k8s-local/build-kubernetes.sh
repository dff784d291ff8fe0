#!/usr/bin/env bash
# Builds the Kubernetes commands of one release from the Go module proxy:
#
#   scripts/k8s-local/build-kubernetes.sh v1.34.12 OUTDIR [COMMAND...]
#
# (all six commands of a node when none are named).
# k8s.io/kubernetes is not meant to be required as a module: its go.mod
# points its staging modules (k8s.io/api, k8s.io/client-go, ...) at v0.0.0.
# A scratch module beside OUTDIR requires it and replaces each of those with
# the matching published v0.N.P, then each command is built with the version
# stamps the release build sets (without them they report v0.0.0).
set -euo pipefail

version=$1
out=$2
shift 2
commands=("$@")
[ ${#commands[@]} -gt 0 ] || commands=(kube-apiserver kubectl kube-controller-manager kube-scheduler kubelet kube-proxy)
minor=$(cut -d. -f2 <<<"$version")
staging=v0.${version#v1.}
src=$out/../src
mkdir -p "$src" "$out"
cd "$src"

if [ ! -f go.sum ]; then
	gomod=$(go mod download -json "k8s.io/kubernetes@$version" | python3 -c 'import json,sys; print(json.load(sys.stdin)["GoMod"])')
	goversion=$(awk '/^go /{print $2; exit}' "$gomod")
	{
		printf 'module k8sbuild\n\ngo %s\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$goversion" "$version"
		awk '/^require/,/^\)/' "$gomod" | awk -v v="$staging" '$1 ~ /^k8s.io\// && $2 == "v0.0.0" {print "\t" $1 " => " $1 " " v}'
		printf ')\n'
	} >go.mod
	cat >tools.go <<'EOT'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-proxy"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "k8s.io/kubernetes/cmd/kubelet"
)
EOT
	go mod tidy
fi

ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
	ldflags+=" -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
done
ldflags+=" -X k8s.io/component-base/version.gitTreeState=clean"
for cmd in "${commands[@]}"; do
	[ -x "$out/$cmd" ] && continue
	t0=$SECONDS
	CGO_ENABLED=0 nice -n 10 go build -ldflags "$ldflags" -o "$out/$cmd.tmp" "k8s.io/kubernetes/cmd/$cmd"
	mv "$out/$cmd.tmp" "$out/$cmd"
	echo "built $cmd $version in $((SECONDS - t0)) s" >&2
done
