#!/usr/bin/env bash
# Builds the container images with podman/buildah.
#
#   scripts/image.sh app [TAG]        # localhost/productsearch:TAG (default: dev) from ./Dockerfile
#   scripts/image.sh elasticsearch    # localhost/productsearch-elasticsearch:8 (development node)
#   scripts/image.sh redis            # localhost/productsearch-redis:7
#   scripts/image.sh bases            # the local base images only
#
# The Dockerfile's base images default to the public golang and distroless
# ones. When they cannot be pulled (no registry access), equivalent bases
# are assembled locally once: a Debian bookworm root file system from
# debootstrap (kept as a tarball under $PRODUCTSEARCH_CACHE/images), a Go
# image with this machine's Go toolchain, and a static runtime image with
# time zones and the nonroot user (uid 65532); both trust the certificate
# authorities this machine trusts.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
cache=${PRODUCTSEARCH_CACHE:-/var/cache/productsearch}
mkdir -p "$cache/images" 2>/dev/null && [ -w "$cache/images" ] || cache=${XDG_CACHE_HOME:-$HOME/.cache}/productsearch
mkdir -p "$cache/images"

PUBLIC_GO=docker.io/library/golang:1.26-bookworm
PUBLIC_RUNTIME=gcr.io/distroless/static-debian12:nonroot
PUBLIC_DEBIAN=docker.io/library/debian:bookworm-slim
LOCAL_DEBIAN=localhost/productsearch-base/debian:bookworm
LOCAL_CERTS=localhost/productsearch-base/debian-certs:bookworm
LOCAL_GO=localhost/productsearch-base/golang:$(go env GOVERSION)
LOCAL_RUNTIME=localhost/productsearch-base/static:nonroot

log() { echo "image: $*" >&2; }

# available reports whether an image is present or can be pulled.
available() {
	podman image exists "$1" && return 0
	timeout 60 podman pull -q "$1" >/dev/null 2>&1
}

debian() {
	podman image exists "$LOCAL_DEBIAN" && return
	local tar=$cache/images/debian-bookworm-minbase.tar
	if [ ! -s "$tar" ]; then
		command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
		local mirror rootfs
		mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
		mirror=${mirror:-http://deb.debian.org/debian}
		rootfs=$(mktemp -d)
		log "debootstrap bookworm from $mirror (once; kept in $tar)"
		debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >/dev/null
		tar -C "$rootfs" -cf "$tar.tmp" . && mv "$tar.tmp" "$tar"
		rm -rf "$rootfs"
	fi
	podman import -q "$tar" "$LOCAL_DEBIAN" >/dev/null
}

bases() {
	debian
	if ! podman image exists "$LOCAL_CERTS"; then
		printf 'FROM %s\nRUN apt-get update -qq && apt-get install -y -qq --no-install-recommends ca-certificates tzdata >/dev/null && rm -rf /var/lib/apt/lists/*\n' "$LOCAL_DEBIAN" |
			buildah bud --quiet --isolation chroot --network host -t "$LOCAL_CERTS" -f - . >/dev/null
	fi
	if ! podman image exists "$LOCAL_GO"; then
		log "Go image from $(go env GOROOT) ($(go env GOVERSION))"
		local c
		c=$(buildah from --quiet "$LOCAL_CERTS")
		buildah copy --quiet "$c" "$(go env GOROOT)" /usr/local/go >/dev/null
		# This machine's trust store: it may reach the module proxy through
		# an egress proxy with its own certificate authority.
		buildah copy --quiet "$c" /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt >/dev/null
		buildah config --env PATH=/go/bin:/usr/local/go/bin:/usr/sbin:/usr/bin:/sbin:/bin --env GOPATH=/go --env GOTOOLCHAIN=local "$c"
		buildah commit --quiet --rm "$c" "$LOCAL_GO" >/dev/null
	fi
	if ! podman image exists "$LOCAL_RUNTIME"; then
		log "static runtime image"
		local c m
		c=$(buildah from --quiet scratch)
		m=$(buildah mount "$c")
		mkdir -p "$m/etc/ssl/certs" "$m/usr/share" "$m/tmp"
		chmod 1777 "$m/tmp"
		printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$m/etc/passwd"
		printf 'root:x:0:\nnonroot:x:65532:\n' >"$m/etc/group"
		local certs
		certs=$(buildah from --quiet "$LOCAL_CERTS")
		local cm
		cm=$(buildah mount "$certs")
		cp /etc/ssl/certs/ca-certificates.crt "$m/etc/ssl/certs/"
		cp -a "$cm/usr/share/zoneinfo" "$m/usr/share/"
		buildah umount "$certs" >/dev/null && buildah rm "$certs" >/dev/null
		buildah umount "$c" >/dev/null
		buildah config --user 65532:65532 --workingdir /home/nonroot "$c"
		buildah commit --quiet --rm "$c" "$LOCAL_RUNTIME" >/dev/null
	fi
}

# base_args prints --build-arg flags choosing public or local bases.
base_args() {
	if available "$PUBLIC_GO" && available "$PUBLIC_RUNTIME"; then
		return
	fi
	log "public base images cannot be pulled; using local ones"
	bases
	echo "--build-arg GO_IMAGE=$LOCAL_GO --build-arg RUNTIME_IMAGE=$LOCAL_RUNTIME"
}

debian_arg() {
	available "$PUBLIC_DEBIAN" && return
	debian
	echo "--build-arg BASE_IMAGE=$LOCAL_DEBIAN"
}

app() {
	local tag=${1:-dev} t0=$SECONDS args
	args=$(base_args)
	# shellcheck disable=SC2086
	buildah bud --quiet --layers --isolation chroot --network host $args -t "localhost/productsearch:$tag" -f Dockerfile . >/dev/null
	log "localhost/productsearch:$tag built in $((SECONDS - t0)) s"
}

elasticsearch() {
	local out
	out=$("$root/scripts/elasticsearch.sh" build)
	local cpfile classes ctx
	cpfile=$(sed -n 1p <<<"$out")
	classes=$(sed -n 2p <<<"$out")
	ctx=$root/build/images/elasticsearch
	rm -rf "$ctx" && mkdir -p "$ctx/lib"
	tr ':' '\n' <"$cpfile" | xargs -r -I{} cp {} "$ctx/lib/"
	cp -r "$classes" "$ctx/classes"
	# shellcheck disable=SC2046
	buildah bud --quiet --layers --isolation chroot --network host $(debian_arg) -t localhost/productsearch-elasticsearch:8 \
		-f scripts/images/elasticsearch.Containerfile "$ctx" >/dev/null
	log "localhost/productsearch-elasticsearch:8 built"
}

redis() {
	# shellcheck disable=SC2046
	buildah bud --quiet --layers --isolation chroot --network host $(debian_arg) -t localhost/productsearch-redis:7 \
		-f scripts/images/redis.Containerfile scripts/images >/dev/null
	log "localhost/productsearch-redis:7 built"
}

case "${1:-}" in
app) app "${2:-dev}" ;;
elasticsearch) elasticsearch ;;
redis) redis ;;
bases) bases ;;
*)
	echo "usage: $0 app [TAG]|elasticsearch|redis|bases" >&2
	exit 2
	;;
esac
