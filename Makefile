# The two set-up commands are `make run` and `make test`; everything else is
# for development and CI.
SHELL := /bin/bash
GO ?= go
BUILD := build
DEMO := $(BUILD)/demo
SNAPSHOT := $(BUILD)/catalog.snapshot
STATICCHECK_VERSION := v0.8.2

.PHONY: run test lint demo catalog test-race bench-indexer bench-search bench-scale bench-million bench-api bench-tracing bench-elastic test-elastic test-elastic-cluster test-otel fuzz-api test-mcp test-browser test-redis eval train-matcher clean \
	image test-operator e2e-k8s k8s-schemas skaffold-render

# Generate the demo feeds and index them into the catalog snapshot; both are
# made again when the generator's data or the indexer's code changes.
DEMO_SOURCES := $(shell find internal/demo -name '*.yaml' -o -name '*.go' -not -name '*_test.go')
INDEXER_SOURCES := $(shell find cmd/indexer internal/feed internal/normalize internal/lexer internal/extract internal/classify \
	internal/match internal/ingest internal/catalog -name '*.go' -not -name '*_test.go')

$(DEMO)/truth.jsonl: $(DEMO_SOURCES)
	$(GO) run ./cmd/indexer demo --out $(DEMO)

$(SNAPSHOT): $(DEMO)/truth.jsonl indexer/retailers.yaml $(INDEXER_SOURCES)
	$(GO) run ./cmd/indexer sync --config indexer/retailers.yaml --out $(SNAPSHOT)

demo: $(DEMO)/truth.jsonl
catalog: $(SNAPSHOT)

# Serve the demo catalog on http://127.0.0.1:8080 (PORT overrides).
run: $(SNAPSHOT)
	CATALOG_PATH=$(SNAPSHOT) $(GO) run ./cmd/api

# Go tests, then the deployment manifests: helm lint, kubeconform against
# the committed Kubernetes schemas, kustomize builds (no cluster needed;
# helm, kustomize and kubeconform are built once into the cache).
test:
	$(GO) vet ./...
	./scripts/tools.sh helm >/dev/null && ./scripts/tools.sh kustomize >/dev/null && ./scripts/tools.sh kubeconform >/dev/null
	$(GO) test ./...
	./scripts/lint-deploy.sh

# The container image localhost/productsearch:$(TAG) (podman/buildah).
TAG ?= dev
# The packages that serve concurrent requests, trace and count them, under
# the race detector.
test-race:
	$(GO) test -race ./internal/api/... ./internal/mcp/... ./internal/telemetry/... ./internal/ratelimit/... ./internal/connlimit/... ./internal/search ./internal/search/memory ./internal/search/elastic ./cmd/api/...

image:
	./scripts/image.sh app $(TAG)

# The operator's tests on a real kube-apiserver and etcd (envtest).
test-operator:
	export $$(./scripts/k8s-local.sh envtest) && $(GO) test -count=1 ./internal/operator/...

# Install the chart on a local single-node cluster and test it end to end:
# REST, MCP, the shared rate limit, k6, an upgrade and a pod loss under
# load, the operator's sync (see scripts/e2e-k8s.sh). Needs root.
e2e-k8s:
	./scripts/e2e-k8s.sh

# Regenerate k8s/schemas from a real apiserver after adding a kind.
k8s-schemas:
	./scripts/k8s-local.sh schemas

# skaffold render of the dev and prod profiles (no cluster needed).
skaffold-render:
	./scripts/skaffold.sh render

lint:
	@test -z "$$(gofmt -l cmd internal scripts)" || { gofmt -l cmd internal scripts; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# Index the demo set and a 10x demo set; prints wall time and peak memory.
bench-indexer:
	./scripts/bench-indexer.sh

# One table of how indexing and serving grow with the catalog: index CPU and
# peak memory, snapshot size, API start, memory and reload peak, latency
# per query class and lite searches per second at each scale of SCALES
# (see scripts/bench-scale.sh; 30x takes minutes and about 2 GB).
SCALES ?= 1 3 10 30
bench-scale:
	SCALES="$(SCALES)" ./scripts/bench-scale.sh

# A million distinct products (37x the demo set, about 2 GB at the
# indexer's peak and 40 minutes): indexed, served and reloaded under load,
# then published beside the 1x catalog into a local three-node cluster and
# served in cluster mode (CLUSTER=1 of scripts/bench-scale.sh).
bench-million:
	SCALES=37 CLUSTER=1 ./scripts/bench-scale.sh

# Compare the search engine with Bleve and SQLite FTS5 on the demo catalog and
# check its scaling on a 10x catalog (bench/, a module of its own).
bench-search:
	./scripts/bench-search.sh

# Fit the matcher's learned scorer (internal/match/scorer.json) on the
# entity-matching benchmarks' train splits in ../shared/datasets, its
# threshold chosen on their valid splits; the same data gives the same file.
# Run it after any change to what the rules read: internal/eval's tests fail
# while the committed file is not the one training on the datasets writes.
train-matcher:
	$(GO) run ./cmd/indexer train-matcher --dir ../shared/datasets --out internal/match/scorer.json

# Precision, recall and F1 of extraction, classification and matching on the
# datasets in ../shared/datasets (skipped when absent) and the demo truth.
eval:
	./scripts/eval.sh

# Elasticsearch engine and publisher tests on a real single node (started
# with scripts/elasticsearch.sh unless ELASTICSEARCH_URL is set).
test-elastic:
	./scripts/test-elastic.sh

# The same on a local three-node cluster (small heaps, loopback only,
# removed on exit), then one node killed during a bounded search load.
test-elastic-cluster: $(SNAPSHOT)
	./scripts/test-elastic-cluster.sh

# Traces and metrics of the API in cluster mode (Elasticsearch, Redis) as a
# real OpenTelemetry Collector receives them: methods, routes, spans down to
# Elasticsearch and Redis, MCP tool calls, resource attributes, no key
# (the collector is built once into the tools cache; see scripts/test-otel.sh).
test-otel: $(DEMO)/truth.jsonl
	./scripts/test-otel.sh

# Elasticsearch engine beside the embedded one on the demo catalog: publish
# throughput and query latency (starts a local node unless ELASTICSEARCH_URL
# is set).
bench-elastic: $(SNAPSHOT)
	./scripts/bench-elastic.sh

# Official MCP SDK clients (TypeScript over HTTP and stdio, Python over HTTP)
# against a running server.
test-mcp: $(SNAPSHOT)
	./scripts/test-mcp.sh

# Schemathesis against the running server and its OpenAPI document.
fuzz-api: $(SNAPSHOT)
	./scripts/fuzz-api.sh

# k6 load test of a local server: lite and full searches, product, health.
bench-api: $(SNAPSHOT)
	./scripts/bench-api.sh

bench-tracing: $(SNAPSHOT)
	./scripts/bench-tracing.sh

# Two API processes sharing a real Redis allow exactly the limit; the
# fallback holds when Redis stops.
test-redis:
	export $$(./scripts/redis.sh start) && $(GO) test -count=1 -run Redis ./internal/ratelimit/ ./internal/api/; s=$$?; ./scripts/redis.sh stop; exit $$s

# The explorer and /docs in Debian's Chromium driven by playwright-core.
test-browser: $(SNAPSHOT)
	./scripts/test-browser.sh

clean:
	rm -rf $(BUILD)
