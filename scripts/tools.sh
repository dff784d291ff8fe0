#!/usr/bin/env bash
# Prints the path of a pinned command-line tool, building it from the Go
# module proxy the first time.
#
#   scripts/tools.sh helm          # e.g. /var/cache/productsearch/tools/helm-v3.22.0/helm
#   scripts/tools.sh all           # builds every tool below
#   scripts/tools.sh otelcol       # an OpenTelemetry Collector (OTLP receiver,
#                                  # file exporter) made with the collector builder
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

# The collector: builder and core at one release, stable modules at the
# matching v1 release, the contrib file exporter at the core's release.
OTELCOL_VERSION=v0.165.0
OTELCOL_STABLE=v1.71.0
OTELCOL_MODULES="
go.opentelemetry.io/collector/otelcol@$OTELCOL_VERSION
go.opentelemetry.io/collector/receiver/otlpreceiver@$OTELCOL_VERSION
github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter@$OTELCOL_VERSION
go.opentelemetry.io/collector/confmap/provider/fileprovider@$OTELCOL_STABLE
go.opentelemetry.io/collector/confmap/provider/envprovider@$OTELCOL_STABLE
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

# otelcol builds the collector the way the collector builder (ocb) does,
# in two steps: ocb writes the sources of a distribution with the modules
# above, then go resolves and compiles them. ocb's own step runs a plain
# go mod tidy, which also resolves the tests of the file exporter, and one
# module those tests need is not served at this release; tidy -e resolves
# what the collector itself imports, with the versions pinned first.
otelcol() {
	local dir src name=otelcol
	dir=$(cache_root)/tools/$name-$OTELCOL_VERSION
	if [ ! -x "$dir/$name" ]; then
		echo "building $name $OTELCOL_VERSION with the collector builder (once; kept in $dir)" >&2
		src=$(mktemp -d)
		# shellcheck disable=SC2064
		trap "rm -rf '$src'" RETURN
		CGO_ENABLED=0 GOBIN="$src/bin" go install "go.opentelemetry.io/collector/cmd/builder@$OTELCOL_VERSION" >&2
		{
			printf 'dist:\n  name: %s\n  description: productsearch test collector\n  output_path: %s\n  version: %s\n' \
				"$name" "$src/dist" "${OTELCOL_VERSION#v}"
			echo "receivers:"
			echo "  - gomod: go.opentelemetry.io/collector/receiver/otlpreceiver $OTELCOL_VERSION"
			echo "exporters:"
			echo "  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter $OTELCOL_VERSION"
			echo "providers:"
			echo "  - gomod: go.opentelemetry.io/collector/confmap/provider/fileprovider $OTELCOL_STABLE"
			echo "  - gomod: go.opentelemetry.io/collector/confmap/provider/envprovider $OTELCOL_STABLE"
		} >"$src/manifest.yaml"
		"$src/bin/builder" --config "$src/manifest.yaml" --skip-get-modules --skip-compilation >"$src/builder.log" 2>&1 ||
			{ cat "$src/builder.log" >&2; exit 1; }
		(
			cd "$src/dist"
			go mod init "$name" 2>/dev/null
			# shellcheck disable=SC2086
			go get $OTELCOL_MODULES 2>&1 | { grep -v '^go: \(added\|upgraded\|downloading\|finding\)' >&2 || true; }
			go mod tidy -e 2>/dev/null
			mkdir -p "$dir"
			CGO_ENABLED=0 nice -n 10 go build -trimpath -ldflags "-s -w" -o "$dir/$name.tmp" . >&2
		)
		mv "$dir/$name.tmp" "$dir/$name"
	fi
	echo "$dir/$name"
}

case "${1:-}" in
all)
	for n in $(awk 'NF {print $1}' <<<"$TOOLS"); do tool "$n" >/dev/null; done
	otelcol >/dev/null
	;;
otelcol)
	otelcol
	;;
"")
	echo "usage: $0 all|otelcol|$(awk 'NF {print $1}' <<<"$TOOLS" | paste -sd'|')" >&2
	exit 2
	;;
*)
	tool "$1"
	;;
esac
