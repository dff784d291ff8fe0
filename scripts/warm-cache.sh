#!/usr/bin/env bash
# Builds the cached tools the later CI suites need, in the order they need
# them, so that on a new machine the builds overlap the suites that come
# before (.ci/run starts it in the background at the lowest priority):
#
#   scripts/warm-cache.sh DIR
#
# Stages, each marked done by an empty file DIR/<stage> (see .ci/run's
# await): otelcol (the OpenTelemetry Collector of make test-otel),
# kubernetes (the Kubernetes commands of envtest and make e2e-k8s), tools
# (k6, crictl, the registry and CoreDNS of make e2e-k8s) and skaffold (make
# skaffold-render). On a machine that has them cached every stage returns
# at once. Only Go builds run here: Debian packages and images are left to
# the suites, so that no two apt-get or buildah runs meet.
set -euo pipefail

cd "$(dirname "$0")/.."
marks=${1:?usage: scripts/warm-cache.sh DIR}
mkdir -p "$marks"
# Run under setsid, this process leads its own process group: DIR/pgid
# lets .ci/run stop every build it started.
echo $$ >"$marks/pgid"
cache=${PRODUCTSEARCH_CACHE:-/var/cache/productsearch}
version=${K8S_VERSION:-v1.34.12}

done_stage() { : >"$marks/$1"; echo "warm-cache: $1 ready ($SECONDS s)" >&2; }

scripts/tools.sh otelcol >/dev/null
done_stage otelcol

scripts/k8s-local/build-kubernetes.sh "$version" "$cache/k8s-$version/bin"
done_stage kubernetes

for t in k6 crictl registry coredns; do scripts/tools.sh "$t" >/dev/null; done
done_stage tools

scripts/skaffold.sh version >/dev/null
done_stage skaffold
