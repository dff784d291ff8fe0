#!/usr/bin/env bash
# A real single-node Kubernetes cluster on this machine, for the end-to-end
# test of the chart (make e2e-k8s) and the operator's envtest suite.
#
#   scripts/k8s-local.sh build     # binaries and images into the cache (first time 10-30 min on 2 cores)
#   scripts/k8s-local.sh up        # control plane, node, registry on 127.0.0.1:5000, CoreDNS
#   scripts/k8s-local.sh down      # stops all of it and undoes the host changes
#   scripts/k8s-local.sh envtest   # prints KUBEBUILDER_ASSETS=<dir with etcd, kube-apiserver, kubectl>
#   scripts/k8s-local.sh kubeconfig  # prints the admin kubeconfig's path
#   scripts/k8s-local.sh schemas   # writes k8s/schemas/<version> (kubeconform) from a
#                                  # throwaway apiserver with the ProductCatalog CRD
#
# Kubernetes $K8S_VERSION (default v1.34.12) is built from the Go module
# proxy (scripts/k8s-local/build-kubernetes.sh); etcd, containerd, runc, the
# CNI plugins, iptables and conntrack are Debian packages. Binaries and
# images are cached under $PRODUCTSEARCH_CACHE/k8s-<version> (default
# /var/cache/productsearch); the cluster's state (PKI, logs, pids, pods)
# lives in build/k8s-local and is removed by down.
#
# While it runs the cluster changes the host: a bridge cni0 (10.244.0.1/24),
# iptables chains (KUBE-*, CNI-*, rules dropping outside traffic to the
# apiserver and the registry; NodePorts answer on 127.0.0.1 only),
# the sysctls kubelet and kube-proxy set, and kubepods cgroups. down removes
# them and restores the sysctls; it is safe to run at any time, also after
# a failed up. Needs root (as CI runs).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
version=${K8S_VERSION:-v1.34.12}
cache=${PRODUCTSEARCH_CACHE:-/var/cache/productsearch}
bin=$cache/k8s-$version/bin
images=$cache/k8s-$version/images
state=$root/build/k8s-local
pki=$state/pki
run=$state/run
logs=$state/logs
bridge_ip=10.244.0.1
kubeconfig=$pki/admin.kubeconfig
kubectl() { "$bin/kubectl" --kubeconfig "$kubeconfig" "$@"; }
log() { echo "k8s-local: $*" >&2; }

deps() {
	local missing=()
	for c in etcd containerd runc iptables conntrack podman buildah openssl debootstrap; do
		command -v "$c" >/dev/null || missing+=("$c")
	done
	[ -x /usr/lib/cni/bridge ] || missing+=(cni)
	[ ${#missing[@]} -eq 0 ] && return
	log "installing ${missing[*]} with apt-get"
	ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends etcd-server containerd runc \
		containernetworking-plugins iptables conntrack podman buildah openssl debootstrap curl >/dev/null
}

build() {
	deps
	scripts/k8s-local/build-kubernetes.sh "$version" "$bin"
	ln -sf /usr/bin/etcd "$bin/etcd"
	local t
	for t in helm crictl registry coredns k6 kubeconform kustomize; do scripts/tools.sh "$t" >/dev/null; done
	mkdir -p "$images"
	if [ ! -s "$images/pause.tar" ]; then
		local ctx
		ctx=$(mktemp -d)
		CGO_ENABLED=0 go build -ldflags "-s -w" -o "$ctx/pause" ./scripts/k8s-local/pause
		printf 'FROM scratch\nCOPY pause /pause\nENTRYPOINT ["/pause"]\n' >"$ctx/Containerfile"
		buildah bud --quiet -t localhost/pause:3.10 -f "$ctx/Containerfile" "$ctx" >/dev/null
		podman save -q --format docker-archive -o "$images/pause.tar" localhost/pause:3.10
		rm -rf "$ctx"
	fi
	if [ ! -s "$images/coredns.tar" ]; then
		local ctx
		ctx=$(mktemp -d)
		cp "$(scripts/tools.sh coredns)" "$ctx/coredns"
		printf 'FROM scratch\nCOPY coredns /coredns\nENTRYPOINT ["/coredns"]\n' >"$ctx/Containerfile"
		buildah bud --quiet -t localhost/coredns:local -f "$ctx/Containerfile" "$ctx" >/dev/null
		podman save -q --format docker-archive -o "$images/coredns.tar" localhost/coredns:local
		rm -rf "$ctx"
	fi
}

certs() {
	[ -f "$pki/ca.crt" ] && return
	mkdir -p "$pki"
	(
		cd "$pki"
		openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 30 -subj "/CN=productsearch-local-ca" 2>/dev/null
		sign() { # name subject [subjectAltName]
			openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" -subj "$2" 2>/dev/null
			if [ -n "${3:-}" ]; then
				printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth,clientAuth\n' "$3" >"$1.ext"
			else
				printf 'extendedKeyUsage=clientAuth\n' >"$1.ext"
			fi
			openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -out "$1.crt" -days 30 -extfile "$1.ext" 2>/dev/null
		}
		sign apiserver "/CN=kube-apiserver" "IP:127.0.0.1,IP:$bridge_ip,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
		sign admin "/O=system:masters/CN=admin"
		sign apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client"
		sign kube-controller-manager "/CN=system:kube-controller-manager"
		sign kube-scheduler "/CN=system:kube-scheduler"
		sign kube-proxy "/CN=system:kube-proxy"
		sign kubelet "/O=system:nodes/CN=system:node:$(hostname)" "IP:127.0.0.1,IP:$bridge_ip,DNS:$(hostname),DNS:localhost"
		openssl genrsa -out sa.key 2048 2>/dev/null
		openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
		for n in admin kube-controller-manager kube-scheduler kube-proxy kubelet; do
			cat >"$n.kubeconfig" <<EOK
apiVersion: v1
kind: Config
clusters:
- cluster: {certificate-authority: $pki/ca.crt, server: "https://127.0.0.1:6443"}
  name: local
users:
- name: $n
  user: {client-certificate: $pki/$n.crt, client-key: $pki/$n.key}
contexts:
- context: {cluster: local, user: $n}
  name: local
current-context: local
EOK
		done
	)
}

config() {
	mkdir -p "$state/conf/cni" "$run" "$logs"
	cat >"$state/conf/containerd.toml" <<EOC
version = 2
root = "$run/containerd/root"
state = "$run/containerd/state"
oom_score = 0
[grpc]
  address = "$run/containerd/containerd.sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "localhost/pause:3.10"
  # Negative OOM scores are refused in this sandbox.
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    default_runtime_name = "runc"
    snapshotter = "overlayfs"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        BinaryName = "/usr/sbin/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$state/conf/cni"
  [plugins."io.containerd.grpc.v1.cri".registry.mirrors."localhost:5000"]
    endpoint = ["http://localhost:5000"]
EOC
	cat >"$state/conf/cni/10-bridge.conflist" <<EOC
{
  "cniVersion": "0.4.0",
  "name": "productsearch-local",
  "plugins": [
    {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.244.0.0/24", "gateway": "$bridge_ip"}]], "routes": [{"dst": "0.0.0.0/0"}],
              "dataDir": "$run/cni-ipam"}},
    {"type": "portmap", "capabilities": {"portMappings": true}},
    {"type": "loopback"}
  ]
}
EOC
	cat >"$state/conf/kubelet.yaml" <<EOC
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $bridge_ip
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $pki/ca.crt}
authorization: {mode: Webhook}
tlsCertFile: $pki/kubelet.crt
tlsPrivateKeyFile: $pki/kubelet.key
containerRuntimeEndpoint: unix://$run/containerd/containerd.sock
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
oomScoreAdj: 0
clusterDomain: cluster.local
clusterDNS: [10.96.0.10]
resolvConf: ""
staticPodPath: ""
serializeImagePulls: false
evictionHard: {"memory.available": "100Mi", "nodefs.available": "2%", "imagefs.available": "2%"}
# Images are imported, not pulled (there is no registry to pull the pause
# image or the app images from again), so the kubelet must never collect
# them; on a host disk fuller than 85% its default would remove the pause
# image and no new pod could start.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
EOC
}

# start NAME CMD...: runs CMD in the background with its log and pid in the state dir.
start() {
	local name=$1
	shift
	setsid nohup "$@" >"$logs/$name.log" 2>&1 </dev/null &
	echo $! >"$run/$name.pid"
}

wait_for() { # what seconds command...
	local what=$1 limit=$2
	shift 2
	local t0=$SECONDS
	until "$@" >/dev/null 2>&1; do
		if ((SECONDS - t0 >= limit)); then
			log "$what not ready after $limit s"
			return 1
		fi
		sleep 0.5
	done
}

up() {
	build
	[ "$(id -u)" -eq 0 ] || { log "needs root"; exit 1; }
	[ -f "$run/kube-apiserver.pid" ] && { log "already up (down first)"; exit 1; }
	local t0=$SECONDS
	certs
	config
	# Save what the kubelet and kube-proxy change, for down to restore.
	[ -f "$state/sysctl.saved" ] || for k in vm/overcommit_memory vm/panic_on_oom kernel/panic kernel/panic_on_oops \
		kernel/keys/root_maxkeys kernel/keys/root_maxbytes net/ipv4/conf/all/route_localnet net/bridge/bridge-nf-call-iptables net/ipv4/ip_forward; do
		[ -f "/proc/sys/$k" ] && echo "$k $(cat "/proc/sys/$k")"
	done >"$state/sysctl.saved"
	ip link show cni0 >/dev/null 2>&1 || {
		ip link add cni0 type bridge && ip addr add "$bridge_ip/24" dev cni0 && ip link set cni0 up
	}
	# The apiserver and the registry listen on all addresses (pods reach
	# them on the bridge); nothing outside the machine may.
	for port in 6443 5000; do
		iptables -C INPUT -i eth0 -p tcp --dport $port -j DROP 2>/dev/null || iptables -I INPUT -i eth0 -p tcp --dport $port -j DROP
	done

	start etcd etcd --data-dir "$run/etcd" --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
		--listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
		--initial-cluster default=http://127.0.0.1:2380 --unsafe-no-fsync=true
	# The apiserver advertises the bridge address: pods reach it through
	# the kubernetes Service, whose endpoints may not be loopback.
	start kube-apiserver "$bin/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 --bind-address=0.0.0.0 \
		--advertise-address=$bridge_ip --secure-port=6443 --cert-dir="$run/apiserver-certs" \
		--tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" --client-ca-file="$pki/ca.crt" \
		--authorization-mode=Node,RBAC --service-account-issuer=https://kubernetes.default.svc.cluster.local \
		--service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
		--service-cluster-ip-range=10.96.0.0/16 --allow-privileged=true \
		--kubelet-client-certificate="$pki/apiserver-kubelet-client.crt" --kubelet-client-key="$pki/apiserver-kubelet-client.key" \
		--kubelet-preferred-address-types=InternalIP --enable-priority-and-fairness=false --profiling=false
	wait_for apiserver 180 kubectl get --raw /readyz

	start containerd containerd --config "$state/conf/containerd.toml"
	wait_for containerd 60 ctr -a "$run/containerd/containerd.sock" version
	for img in pause coredns; do ctr -a "$run/containerd/containerd.sock" -n k8s.io images import "$images/$img.tar" >/dev/null; done
	mkdir -p "$run/registry"
	start registry "$(scripts/tools.sh registry)" -port 5000
	start kube-controller-manager "$bin/kube-controller-manager" --kubeconfig="$pki/kube-controller-manager.kubeconfig" \
		--authentication-kubeconfig="$pki/kube-controller-manager.kubeconfig" --authorization-kubeconfig="$pki/kube-controller-manager.kubeconfig" \
		--bind-address=127.0.0.1 --leader-elect=false --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
		--use-service-account-credentials=true --cluster-signing-cert-file="$pki/ca.crt" --cluster-signing-key-file="$pki/ca.key" \
		--service-cluster-ip-range=10.96.0.0/16
	start kube-scheduler "$bin/kube-scheduler" --kubeconfig="$pki/kube-scheduler.kubeconfig" \
		--authentication-kubeconfig="$pki/kube-scheduler.kubeconfig" --authorization-kubeconfig="$pki/kube-scheduler.kubeconfig" \
		--bind-address=127.0.0.1 --leader-elect=false
	start kubelet "$bin/kubelet" --config="$state/conf/kubelet.yaml" --kubeconfig="$pki/kubelet.kubeconfig" \
		--root-dir="$run/kubelet" --node-ip=$bridge_ip --hostname-override="$(hostname)"
	start kube-proxy "$bin/kube-proxy" --kubeconfig="$pki/kube-proxy.kubeconfig" --proxy-mode=iptables \
		--cluster-cidr=10.244.0.0/16 --hostname-override="$(hostname)" --nodeport-addresses=127.0.0.0/8 \
		--metrics-bind-address=127.0.0.1:10249 --healthz-bind-address=127.0.0.1:10256
	wait_for node 180 node_ready
	kubectl apply -f scripts/k8s-local/coredns.yaml >/dev/null
	kubectl -n kube-system rollout status deploy/coredns --timeout=180s >/dev/null
	wait_for registry 30 curl -fsS http://127.0.0.1:5000/v2/
	log "cluster $version up in $((SECONDS - t0)) s; kubectl --kubeconfig $kubeconfig"
}

node_ready() {
	[[ $(kubectl get node "$(hostname)" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}') == True ]]
}

# stop NAME: ends the process recorded in NAME.pid (ours only), waiting
# up to 10 s before SIGKILL.
stop() {
	local f=$run/$1.pid p
	[ -f "$f" ] || return 0
	p=$(cat "$f")
	if kill -0 "$p" 2>/dev/null; then
		kill "$p" 2>/dev/null || true
		for _ in $(seq 20); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.5
		done
		kill -9 "$p" 2>/dev/null || true
	fi
	rm -f "$f"
}

down() {
	# Best effort to the end: every step runs even when an earlier one finds
	# nothing to undo.
	set +e +o pipefail
	for n in kube-proxy kubelet kube-scheduler kube-controller-manager; do stop "$n"; done
	# Pod sandboxes first, while containerd still runs: stops containers and
	# tears down their network namespaces.
	if [ -f "$run/containerd.pid" ] && [ -S "$run/containerd/containerd.sock" ]; then
		local crictl
		crictl=$(scripts/tools.sh crictl 2>/dev/null || true)
		[ -n "$crictl" ] && "$crictl" -r "unix://$run/containerd/containerd.sock" -i "unix://$run/containerd/containerd.sock" rmp -fa >/dev/null 2>&1 || true
	fi
	for n in containerd registry kube-apiserver etcd; do stop "$n"; done
	if [ -d "$run" ]; then
		findmnt -rn -o TARGET | grep "^$run/" | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
	fi
	[ -x "$bin/kube-proxy" ] && "$bin/kube-proxy" --cleanup >/dev/null 2>&1 || true
	for port in 6443 5000; do iptables -D INPUT -i eth0 -p tcp --dport $port -j DROP 2>/dev/null || true; done
	local ipt t rule c
	for ipt in iptables ip6tables; do
		for t in nat filter mangle; do
			"$ipt-save" -t "$t" 2>/dev/null | grep -E '^-A [A-Z_]+ .*-j (CNI|KUBE)-[A-Za-z0-9-]+' | sed 's/^-A/-D/' |
				while read -r rule; do eval "$ipt -t $t $rule" 2>/dev/null || true; done
			for c in $("$ipt-save" -t "$t" 2>/dev/null | grep -oE '^:(CNI|KUBE)-[A-Za-z0-9-]+' | tr -d :); do "$ipt" -t "$t" -F "$c" 2>/dev/null || true; done
			for c in $("$ipt-save" -t "$t" 2>/dev/null | grep -oE '^:(CNI|KUBE)-[A-Za-z0-9-]+' | tr -d :); do "$ipt" -t "$t" -X "$c" 2>/dev/null || true; done
		done
	done
	ip link del cni0 2>/dev/null || true
	local h
	for h in /sys/fs/cgroup/*/; do
		[ -d "$h/kubepods" ] && find "$h/kubepods" -depth -type d -exec rmdir {} \; 2>/dev/null || true
	done
	if [ -f "$state/sysctl.saved" ]; then
		local k v
		while read -r k v; do echo "$v" >"/proc/sys/$k" 2>/dev/null || true; done <"$state/sysctl.saved"
	fi
	rm -rf "$run" "$state/sysctl.saved" "$logs"
	log "down; host changes undone"
}

# control_plane builds what envtest and schemas need: etcd (Debian's) and
# the apiserver and kubectl.
control_plane() {
	deps
	scripts/k8s-local/build-kubernetes.sh "$version" "$bin" kube-apiserver kubectl
}

# schemas starts etcd and an apiserver only, installs the CRD and writes
# the kubeconform schemas of the kinds the deployment uses.
schemas() {
	control_plane
	[ -f "$run/kube-apiserver.pid" ] && { log "a cluster is up (down first)"; exit 1; }
	certs
	mkdir -p "$run" "$logs"
	trap down EXIT
	start etcd etcd --data-dir "$run/etcd" --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
		--listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
		--initial-cluster default=http://127.0.0.1:2380 --unsafe-no-fsync=true
	start kube-apiserver "$bin/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 --bind-address=127.0.0.1 \
		--secure-port=6443 --cert-dir="$run/apiserver-certs" --tls-cert-file="$pki/apiserver.crt" \
		--tls-private-key-file="$pki/apiserver.key" --client-ca-file="$pki/ca.crt" \
		--service-account-issuer=https://kubernetes.default.svc.cluster.local --service-account-key-file="$pki/sa.pub" \
		--service-account-signing-key-file="$pki/sa.key" --service-cluster-ip-range=10.96.0.0/16
	wait_for apiserver 180 kubectl get --raw /readyz
	kubectl apply -f charts/product-search/crds/ >/dev/null
	kubectl wait --for=condition=Established crd/productcatalogs.search.productsearch.dev --timeout=60s >/dev/null
	sleep 2 # the aggregated OpenAPI document picks the CRD up shortly after
	rm -rf "k8s/schemas/$version"
	kubectl get --raw /openapi/v2 | python3 scripts/k8s-schemas.py "k8s/schemas/$version"
}

envtest() {
	control_plane
	local dir=$cache/k8s-$version/envtest
	mkdir -p "$dir"
	ln -sf "$bin/kube-apiserver" "$dir/kube-apiserver"
	ln -sf "$bin/kubectl" "$dir/kubectl"
	ln -sf /usr/bin/etcd "$dir/etcd"
	echo "KUBEBUILDER_ASSETS=$dir"
}

case "${1:-}" in
build) build ;;
up) up ;;
down) down ;;
envtest) envtest ;;
kubeconfig) echo "$kubeconfig" ;;
schemas) schemas ;;
*)
	echo "usage: $0 build|up|down|envtest|kubeconfig|schemas" >&2
	exit 2
	;;
esac
