#!/usr/bin/env bash
# End-to-end test of the Kubernetes delivery on a real local cluster
# (make e2e-k8s). It
#   1. brings up the cluster (scripts/k8s-local.sh up),
#   2. builds the images (scripts/image.sh) and pushes them to the
#      cluster's registry on 127.0.0.1:5000 under two tags,
#   3. helm install --wait: two API replicas, Redis, Elasticsearch and the
#      operator, whose ProductCatalog syncs the demo feeds into
#      Elasticsearch (the API turns ready once the catalog is live),
#   4. through the NodePort on 127.0.0.1:30080 checks that the per-IP limit
#      is exact across the two replicas (50 of 200, k6 MODE=limit), then
#      health, search, product detail and MCP tools/call,
#   5. runs k6 (loadtest/cluster.js) within its thresholds and measures the
#      API pods' CPU per search and per MCP call from their cgroups,
#   6. helm upgrade to the second tag under k6 load, then deletes one API
#      pod under k6 load: no request may fail (STRICT=1),
#   7. checks that the ProductCatalog status shows the sync,
# and always uninstalls and tears the cluster down (undoing its host
# changes), also on failure. Figures go to build/e2e-k8s/figures.txt.
#
# KEEP=1 leaves the cluster up for inspection (scripts/k8s-local.sh down
# stops it later).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
out=$root/build/e2e-k8s
mkdir -p "$out"
: >"$out/figures.txt"
t_start=$SECONDS
ns=product-search
release=product-search
base=http://127.0.0.1:30080
load_key=ps_e2e_load_key_0001
helm=$(scripts/tools.sh helm)
k6=$(scripts/tools.sh k6)
kubeconfig=$(scripts/k8s-local.sh kubeconfig)
bin=${PRODUCTSEARCH_CACHE:-/var/cache/productsearch}/k8s-${K8S_VERSION:-v1.34.12}/bin
kubectl() { "$bin/kubectl" --kubeconfig "$kubeconfig" "$@"; }
export KUBECONFIG=$kubeconfig
step() { printf '\n== e2e-k8s: %s (%s)\n' "$*" "$(date -u +%H:%M:%S)" >&2; }
figure() { echo "$*" | tee -a "$out/figures.txt" >&2; }
fail() { echo "e2e-k8s: FAILED: $*" >&2; exit 1; }

load_pids=()
cleanup() {
	local rc=$?
	for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	if [ "$rc" -ne 0 ] && [ -f "$kubeconfig" ]; then
		echo "e2e-k8s: failed; cluster state:" >&2
		kubectl get pods,jobs,productcatalogs -A -o wide >&2 2>/dev/null || true
		kubectl -n "$ns" describe pods >"$out/pods.txt" 2>&1 || true
		kubectl -n "$ns" logs -l app.kubernetes.io/component=operator --tail=50 >"$out/operator.log" 2>&1 || true
		echo "e2e-k8s: pod descriptions in $out/pods.txt, operator log in $out/operator.log" >&2
	fi
	if [ "${KEEP:-0}" = 1 ]; then
		echo "e2e-k8s: KEEP=1: cluster left up; scripts/k8s-local.sh down stops it" >&2
		return
	fi
	if [ -f "$kubeconfig" ]; then
		"$helm" uninstall "$release" -n "$ns" --wait --timeout 120s >/dev/null 2>&1 || true
	fi
	scripts/k8s-local.sh down || true
	echo "e2e-k8s: total $((SECONDS - t_start)) s" >&2
}
trap cleanup EXIT

step "cluster"
scripts/k8s-local.sh up

step "images"
t0=$SECONDS
scripts/image.sh app e2e
scripts/image.sh redis
scripts/image.sh elasticsearch
push() { # local-image registry-image
	podman tag "$1" "$2"
	podman push -q --tls-verify=false "$2" >/dev/null
}
push localhost/productsearch:e2e localhost:5000/productsearch:e2e-1
push localhost/productsearch:e2e localhost:5000/productsearch:e2e-2
push localhost/productsearch-redis:7 localhost:5000/productsearch-redis:7
push localhost/productsearch-elasticsearch:8 localhost:5000/productsearch-elasticsearch:8
figure "images built and pushed: $((SECONDS - t0)) s"

step "helm install --wait"
t0=$SECONDS
"$helm" install "$release" charts/product-search -n "$ns" --create-namespace --wait --timeout 15m \
	-f scripts/k8s-local/values.yaml --set image.tag=e2e-1 --set "api.apiKeys.$load_key=1000000000" \
	--set "api.trustedProxies={10.244.0.1/32}" >"$out/install.txt"
figure "helm install --wait (first sync included): $((SECONDS - t0)) s"
kubectl -n "$ns" get pods -o wide >&2

# helm --wait sees the pods ready; the node's proxy may program the
# NodePort a moment later. Wait for it (health counts against no limit).
step "NodePort answering"
for i in $(seq 60); do
	curl -fsS -o /dev/null --max-time 2 "$base/api/health" && break
	[ "$i" -lt 60 ] || fail "NodePort $base not answering after 60 s"
	sleep 1
done
figure "NodePort answering after helm --wait: $i attempt(s)"

step "per-IP limit across two replicas"
"$k6" run -q -e BASE_URL=$base -e MODE=limit loadtest/cluster.js 2>&1 | tee "$out/limit.txt" >&2 || fail "per-IP limit not exact"
figure "per-IP limit: $(head -1 "$out/limit.txt")"
served=0
for pod in $(kubectl -n "$ns" get pods -l app.kubernetes.io/component=api -o name); do
	n=$(kubectl get --raw "/api/v1/namespaces/$ns/pods/${pod#pod/}:9464/proxy/metrics" |
		awk '/^productsearch_ratelimit_rejections_total/ && /scope="ip"/ {s+=$2} END {print s+0}')
	echo "  $pod answered $n requests with 429" >&2
	[ "${n%.*}" -gt 0 ] && served=$((served + 1))
done
[ "$served" -ge 2 ] && figure "both API replicas refused requests over the shared limit" ||
	echo "e2e-k8s: note: could not confirm from metrics that both replicas answered" >&2

step "REST and MCP through the NodePort"
# A client of its own: the limit test spent the budget of the address
# the NodePort traffic arrives from (the node, trusted as a proxy here).
auth=(-H "Authorization: Bearer $load_key" -H "X-Forwarded-For: 198.51.100.10")
curl -fsS -o "$out/health.json" "$base/api/health" && grep -q '"status":"ok"' "$out/health.json" || fail "health"
cat "$out/health.json" >&2
echo >&2
search=$(curl -fsS "${auth[@]}" "$base/api/search?query=macbook+air&category=Laptops&lite=true&limit=3")
id=$(python3 -c 'import json,sys; p=json.load(sys.stdin)["products"]; assert p, "no products"; print(p[0]["id"])' <<<"$search") || fail "search: $search"
product=$(curl -fsS "${auth[@]}" "$base/api/product/$id") && grep -q "\"id\":\"$id\"" <<<"$product" || fail "product $id"
mcp=$(curl -fsS "${auth[@]}" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
	-d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_products","arguments":{"query":"macbook air","limit":3}}}' "$base/api/mcp")
grep -q '"result"' <<<"$mcp" && ! grep -q '"isError":true' <<<"$mcp" || fail "mcp: $mcp"
echo "health, search, product $id and MCP tools/call answer" >&2

# cpu_usage prints the total CPU time in nanoseconds of the pods of a
# component (cgroup v1 cpuacct).
cpu_usage() { # component
	local total=0 uid f
	for uid in $(kubectl -n "$ns" get pods -l "app.kubernetes.io/component=$1" -o jsonpath='{.items[*].metadata.uid}'); do
		for f in /sys/fs/cgroup/cpuacct/kubepods/*/pod"$uid"/cpuacct.usage /sys/fs/cgroup/cpuacct/kubepods/pod"$uid"/cpuacct.usage; do
			[ -f "$f" ] && total=$((total + $(cat "$f")))
		done
	done
	echo "$total"
}
k6load() { # name extra-k6-args...
	local name=$1
	shift
	"$k6" run -q -e BASE_URL=$base -e API_KEY=$load_key -e CLIENTS=2000 -e SUMMARY="$out/$name.json" "$@" loadtest/cluster.js \
		>"$out/$name.txt" 2>&1
}

step "k6 mix"
k6load mix -e MODE=mix -e RATE=${E2E_RATE:-40} -e DURATION=${E2E_DURATION:-60s} || { cat "$out/mix.txt" >&2; fail "k6 mix thresholds"; }
cat "$out/mix.txt" >&2
figure "k6 mix: $(head -1 "$out/mix.txt")"
for mode in search mcp; do
	a0=$(cpu_usage api) e0=$(cpu_usage elasticsearch)
	k6load "cpu-$mode" -e MODE=$mode -e RATE=40 -e DURATION=20s || { cat "$out/cpu-$mode.txt" >&2; fail "k6 $mode"; }
	a1=$(cpu_usage api) e1=$(cpu_usage elasticsearch)
	n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["metrics"]["http_reqs"]["values"]["count"])' "$out/cpu-$mode.json")
	figure "CPU per $mode call over $n requests (cgroups): $(python3 -c "print(f'API {($a1 - $a0) / 1e6 / $n:.2f} ms, Elasticsearch {($e1 - $e0) / 1e6 / $n:.2f} ms')")"
done

step "helm upgrade to a new image tag under load"
k6load upgrade -e MODE=mix -e RATE=20 -e DURATION=150s -e STRICT=1 &
load_pids=($!)
sleep 10
t0=$SECONDS
"$helm" upgrade "$release" charts/product-search -n "$ns" --reuse-values --set image.tag=e2e-2 --wait --timeout 10m >/dev/null
figure "helm upgrade --wait: $((SECONDS - t0)) s"
images=$(kubectl -n "$ns" get pods -l app.kubernetes.io/component=api -o jsonpath='{.items[*].spec.containers[0].image}')
[[ $images == *e2e-2* ]] || fail "upgrade: pods not on e2e-2 ($images)"
wait "${load_pids[0]}" || { cat "$out/upgrade.txt" >&2; fail "requests failed during the upgrade"; }
load_pids=()
figure "during upgrade: $(head -1 "$out/upgrade.txt")"

step "delete one API pod under load"
k6load podloss -e MODE=mix -e RATE=20 -e DURATION=60s -e STRICT=1 &
load_pids=($!)
sleep 10
victim=pod/$(kubectl -n "$ns" get pods -l app.kubernetes.io/component=api -o jsonpath='{.items[0].metadata.name}')
kubectl -n "$ns" delete "$victim" --wait=false >/dev/null
echo "deleted $victim" >&2
wait "${load_pids[0]}" || { cat "$out/podloss.txt" >&2; fail "requests failed while a pod was deleted"; }
load_pids=()
figure "during pod loss: $(head -1 "$out/podloss.txt")"
kubectl -n "$ns" rollout status deploy/$release-api --timeout=180s >/dev/null

step "operator status"
kubectl -n "$ns" get productcatalog "$release" -o json >"$out/productcatalog.json"
python3 - "$out/productcatalog.json" <<'PY' | tee -a "$out/figures.txt" >&2
import json, sys
pc = json.load(open(sys.argv[1]))
st = pc.get("status", {})
last = st.get("lastSync") or {}
conds = {c["type"]: c for c in st.get("conditions", [])}
assert last.get("result") == "Succeeded", f"last sync: {last}"
assert last.get("products", 0) > 0 and last.get("retailers"), f"last sync has no products: {last}"
assert conds.get("Ready", {}).get("status") == "True", f"conditions: {conds}"
assert conds.get("Degraded", {}).get("status") == "False", f"conditions: {conds}"
assert st.get("liveIndex"), "no live index"
rej = sum(r.get("rejected", 0) for r in last["retailers"])
print(f"operator: last sync {last['job']} {last['result']}: {last['products']} products, {last['offers']} offers, "
      f"{len(last['retailers'])} retailers, {rej} rejected rows; live index {st['liveIndex']}")
PY

step "passed"
figure "e2e-k8s passed in $((SECONDS - t_start)) s (before teardown)"
