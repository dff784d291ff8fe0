#!/usr/bin/env bash
# Vendors the API reference renderer: swagger-ui-dist at the exact version and
# integrity pinned below, fetched with `npm pack` from the npm registry and
# checked against the pinned SHA-512 before anything is written. Only the
# files /docs needs are kept (the UMD bundle, its stylesheet, LICENSE and
# NOTICE) under internal/explorer/assets/vendor/swagger-ui, with a SOURCE
# file recording the package, its integrity and each file's SHA-256 (a Go
# test checks the embedded files against it).
#
# To upgrade: change VERSION and INTEGRITY (`npm view swagger-ui-dist@<v>
# dist.integrity`), run this script, and review the diff.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGE=swagger-ui-dist
VERSION=5.35.0
INTEGRITY=sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4YmXkn/h0wCDNsXdGarTNNHC3sU8yVUQ==
FILES=(swagger-ui-bundle.js swagger-ui.css LICENSE NOTICE)
DEST=internal/explorer/assets/vendor/swagger-ui

say() { printf 'vendor-docs: %s\n' "$*" >&2; }
for tool in npm tar openssl sha256sum; do
	command -v "$tool" >/dev/null || { say "$tool is required"; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say "fetching $PACKAGE@$VERSION"
(cd "$tmp" && npm pack --silent "$PACKAGE@$VERSION" >/dev/null)
tgz=$tmp/$PACKAGE-$VERSION.tgz
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | openssl base64 -A)"
if [[ $got != "$INTEGRITY" ]]; then
	say "integrity mismatch for $PACKAGE@$VERSION: got $got, want $INTEGRITY"
	exit 1
fi
tar -xzf "$tgz" -C "$tmp"

rm -rf "$DEST"
mkdir -p "$DEST"
{
	echo "# Vendored by scripts/vendor-docs.sh; do not edit these files by hand."
	echo "package $PACKAGE@$VERSION"
	echo "integrity $INTEGRITY"
} >"$DEST/SOURCE"
for f in "${FILES[@]}"; do
	cp "$tmp/package/$f" "$DEST/$f"
	echo "sha256 $(sha256sum "$DEST/$f" | cut -d' ' -f1) $f" >>"$DEST/SOURCE"
done
say "wrote $DEST ($(du -sh "$DEST" | cut -f1))"
