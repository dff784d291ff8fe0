# Product search: the API, the indexer, the MCP stdio server and the
# ProductCatalog operator as static binaries on a non-root runtime image.
#
#   docker build -t productsearch .            # or: podman build, buildah bud
#   make image                                 # builds it here, see scripts/image.sh
#
# The runtime image holds only the binaries, CA certificates and time zones;
# everything runs as uid 65532 and needs no writable root file system.
# The default command is the API (HOST=0.0.0.0, PORT=8080); the chart runs
# /indexer and /operator from the same image.

# Base images; override them to build from a mirror or local copies.
ARG GO_IMAGE=docker.io/library/golang:1.26-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot

FROM ${GO_IMAGE} AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOFLAGS=-buildvcs=false
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod \
    go mod download
COPY cmd ./cmd
COPY internal ./internal
COPY indexer ./indexer
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    mkdir -p /out && \
    go build -trimpath -ldflags "-s -w" -o /out/ ./cmd/api ./cmd/indexer ./cmd/mcp-stdio ./cmd/operator

FROM ${RUNTIME_IMAGE}
COPY --from=build /out/ /
USER 65532:65532
ENV HOST=0.0.0.0 PORT=8080 METRICS_ADDR=0.0.0.0:9464
EXPOSE 8080 9464
ENTRYPOINT ["/api"]
