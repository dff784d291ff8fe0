#!/usr/bin/env python3
"""Traffic for scripts/test-otel.sh, and the checks of what the collector received.

  otel_check.py send  --base URL --key KEY --public-key KEY --sent sent.jsonl
  otel_check.py check --sent sent.jsonl --traces traces.jsonl --metrics metrics.jsonl
                      --service NAME --version VERSION --indexer-service NAME
                      --secret KEY [--secret KEY ...] [--api-log api.log]

The first --secret is a production key, which the API log must not hold
either; every one is looked for in the collector's files.

send fires a bounded, shuffled mix of REST and MCP requests from several
threads at once and writes one line per request: its X-Request-ID, method,
path, the route the server should report (null when none matches), the
status it got and, for MCP, the tool called. check reads the collector's
file exporter output (OTLP JSON, one export request per line) and fails
with a list of every mismatch. Standard library only.
"""

import argparse
import concurrent.futures
import json
import random
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections import defaultdict

KIND_INTERNAL, KIND_SERVER, KIND_CLIENT = 1, 2, 3
STATUS_ERROR = 2
API_SCOPE = "productsearch/internal/api"
MCP_SCOPE = "productsearch/internal/mcp"

# ---------------------------------------------------------------- traffic


def call(base, req):
    """Sends one request; returns its status."""
    body = None
    headers = {"X-Request-ID": req["rid"], "User-Agent": "otel-check/1"}
    if req.get("auth"):
        headers["Authorization"] = "Bearer " + req["auth"]
    if req.get("json") is not None:
        body = json.dumps(req["json"]).encode()
        headers["Content-Type"] = "application/json"
    r = urllib.request.Request(base + req["path"], data=body, method=req["method"], headers=headers)
    try:
        with urllib.request.urlopen(r, timeout=20) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as e:
        e.read()
        return e.code


def mcp_call(rid, tool, args, key):
    return {
        "method": "POST", "path": "/api/mcp", "route": "/api/mcp", "tool": tool, "auth": key,
        "json": {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": tool, "arguments": args}},
    }


def plan(base, key, public):
    """The requests to send: a product id is looked up first, so that
    product routes are called with real ids."""
    ids = product_ids(base, key)
    queries = ["laptop", "tv 55 inch", "usb-c charger", "headphones", "ssd 1tb", "monitor 4k", "phone", "camera"]
    reqs = []
    for q in queries:
        path = "/api/search?query=" + urllib.parse.quote(q) + "&limit=5"
        reqs += [{"method": "GET", "path": path, "route": "/api/search", "auth": key} for _ in range(3)]
        reqs.append({"method": "GET", "path": path, "route": "/api/search", "auth": public})
        reqs.append(mcp_call(None, "search_products", {"query": q, "limit": 5}, key))
    for pid in ids:
        path = "/api/product/" + urllib.parse.quote(pid, safe="")
        reqs += [{"method": "GET", "path": path, "route": "/api/product/{id}", "auth": key, "id": pid} for _ in range(2)]
        reqs.append(mcp_call(None, "get_product", {"product_id": pid}, key))
    reqs += [{"method": "GET", "path": "/api/product/no-such-product-4711", "route": "/api/product/{id}",
              "auth": key, "id": "no-such-product-4711"} for _ in range(3)]
    reqs += [mcp_call(None, "no_such_tool", {}, key) for _ in range(4)]
    reqs += [{"method": "POST", "path": "/api/search?query=tv", "route": None, "auth": key, "json": {}} for _ in range(4)]
    reqs += [{"method": "DELETE", "path": "/api/product/" + urllib.parse.quote(ids[0], safe=""), "route": None,
              "auth": key} for _ in range(2)]
    reqs += [{"method": "GET", "path": "/api/mcp", "route": None, "auth": key} for _ in range(3)]
    reqs += [{"method": "GET", "path": "/api/no/such/path/12345", "route": None, "auth": key} for _ in range(4)]
    reqs += [{"method": "GET", "path": "/api/health", "route": "/api/health"} for _ in range(6)]
    reqs += [{"method": "GET", "path": "/openapi.json", "route": "/openapi.json"} for _ in range(3)]
    reqs += [{"method": "GET", "path": "/api/search?query=tv", "route": "/api/search"} for _ in range(3)]  # 401
    random.Random(7).shuffle(reqs)
    for n, r in enumerate(reqs):
        r["rid"] = "otel-check-%d" % n
        if r.get("json") is not None and "jsonrpc" in r["json"]:
            r["json"]["id"] = n
    return reqs


def product_ids(base, key):
    r = urllib.request.Request(base + "/api/search?limit=3", headers={"Authorization": "Bearer " + key,
                                                                               "X-Request-ID": "otel-check-setup"})
    with urllib.request.urlopen(r, timeout=20) as resp:
        data = json.load(resp)
    ids = [item["id"] for item in data.get("products", [])][:3]
    if not ids:
        sys.exit("otel_check: the search for product ids returned none: %s" % json.dumps(data)[:300])
    return ids


def warm_up(base, key):
    """A few searches one after another: a node that has just started
    answers its first queries slowly."""
    for n, q in enumerate(["laptop", "tv", "phone", "monitor", "camera"]):
        r = {"rid": "otel-warmup-%d" % n, "method": "GET", "path": "/api/search?query=%s&limit=5" % q, "auth": key}
        call(base, r)


def send(args):
    warm_up(args.base, args.key)
    reqs = plan(args.base, args.key, args.public_key)
    with concurrent.futures.ThreadPoolExecutor(max_workers=12) as pool:
        statuses = list(pool.map(lambda r: call(args.base, r), reqs))
    with open(args.sent, "w") as f:
        for r, st in zip(reqs, statuses):
            rec = {k: r.get(k) for k in ("rid", "method", "path", "route", "tool", "id")}
            rec["status"] = st
            f.write(json.dumps(rec) + "\n")
    print("otel_check: sent %d requests (%s)" % (len(reqs), ", ".join(
        "%d: %d" % (s, statuses.count(s)) for s in sorted(set(statuses)))), file=sys.stderr)


# ---------------------------------------------------------------- checks


def value(v):
    """The Python value of an OTLP JSON AnyValue."""
    for k in ("stringValue", "boolValue", "doubleValue"):
        if k in v:
            return v[k]
    if "intValue" in v:
        return int(v["intValue"])
    if "arrayValue" in v:
        return [value(x) for x in v["arrayValue"].get("values", [])]
    return None


def attrs(kvs):
    return {kv["key"]: value(kv.get("value", {})) for kv in kvs or []}


def read_spans(path):
    """Every span in the file, with its resource and scope."""
    spans = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            for rs in json.loads(line).get("resourceSpans", []):
                res = attrs(rs.get("resource", {}).get("attributes"))
                for ss in rs.get("scopeSpans", []):
                    scope = ss.get("scope", {}).get("name", "")
                    for s in ss.get("spans", []):
                        s["attrs"] = attrs(s.get("attributes"))
                        s["resource"], s["scope"] = res, scope
                        spans.append(s)
    return spans


def read_metric_names(path):
    """Metric name -> list of (resource, data point attributes)."""
    names = defaultdict(list)
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            for rm in json.loads(line).get("resourceMetrics", []):
                res = attrs(rm.get("resource", {}).get("attributes"))
                for sm in rm.get("scopeMetrics", []):
                    for m in sm.get("metrics", []):
                        for kind in ("sum", "gauge", "histogram", "exponentialHistogram"):
                            for dp in m.get(kind, {}).get("dataPoints", []):
                                names[m["name"]].append((res, attrs(dp.get("attributes"))))
    return names


class Checker:
    def __init__(self):
        self.errors = []

    def expect(self, ok, msg):
        if not ok:
            self.errors.append(msg)
        return ok


def is_db(span, system):
    a = span["attrs"]
    return span.get("kind") == KIND_CLIENT and system in (a.get("db.system.name"), a.get("db.system"))


def check_resource(c, api_spans, args):
    versions, ids = set(), set()
    for s in api_spans:
        versions.add(s["resource"].get("service.version"))
        ids.add(s["resource"].get("service.instance.id"))
    c.expect(versions == {args.version}, "service.version: want %r, got %r" % (args.version, versions))
    c.expect(len(ids) == 1 and None not in ids and "" not in ids, "service.instance.id: want one, got %r" % ids)


def check_server_span(c, req, span):
    rid, a = req["rid"], span["attrs"]
    method, route = req["method"], req["route"]
    c.expect(a.get("http.request.method") == method,
             "%s: http.request.method %r, sent %s" % (rid, a.get("http.request.method"), method))
    c.expect(a.get("http.route") == route, "%s: http.route %r, want %r (%s %s)" % (rid, a.get("http.route"), route,
                                                                                method, req["path"]))
    want_name = method + (" " + route if route else "")
    c.expect(span["name"] == want_name, "%s: span name %r, want %r" % (rid, span["name"], want_name))
    c.expect(a.get("http.response.status_code") == req["status"],
             "%s: http.response.status_code %r, got %r" % (rid, a.get("http.response.status_code"), req["status"]))
    c.expect(a.get("url.path") == req["path"].split("?")[0], "%s: url.path %r" % (rid, a.get("url.path")))
    c.expect(a.get("user_agent.original") == "otel-check/1", "%s: user_agent.original %r" % (rid, a.get("user_agent.original")))
    c.expect(a.get("client.address") == "127.0.0.1", "%s: client.address %r" % (rid, a.get("client.address")))
    if req.get("id"):
        c.expect(req["id"] not in span["name"] and req["id"] not in str(a.get("http.route")),
                 "%s: the product id is in the span name or route" % rid)


def check_traces(c, args, sent):
    spans = read_spans(args.traces)
    api = [s for s in spans if s["resource"].get("service.name") == args.service]
    c.expect(len(api) > 0, "no span with service.name %r (names: %r)" % (
        args.service, sorted({s["resource"].get("service.name") for s in spans})))
    check_resource(c, api, args)
    by_id = {s["spanId"]: s for s in api}
    children = defaultdict(list)
    for s in api:
        if s.get("parentSpanId"):
            children[s["parentSpanId"]].append(s)
    server = {}
    for s in api:
        if s["scope"] == API_SCOPE and s.get("kind") == KIND_SERVER:
            rid = s["attrs"].get("http.request_id")
            c.expect(rid not in server, "%s: two server spans" % rid)
            server[rid] = s
            c.expect(not s.get("parentSpanId"), "%s: the server span has a parent" % rid)
    for req in sent:
        span = server.get(req["rid"])
        if c.expect(span is not None, "%s: no server span (%s %s)" % (req["rid"], req["method"], req["path"])):
            check_server_span(c, req, span)
            check_below(c, req, span, children)
    # A Redis or Elasticsearch span is a root (start-up, health checks) or
    # belongs to a request's trace.
    for s in api:
        if (is_db(s, "redis") or is_db(s, "elasticsearch")) and s.get("parentSpanId"):
            root = s
            while root.get("parentSpanId") and root["parentSpanId"] in by_id:
                root = by_id[root["parentSpanId"]]
            background = is_db(root, "redis") or is_db(root, "elasticsearch")  # a pool's dial, a health check
            c.expect(background or (root["scope"] == API_SCOPE and root.get("kind") == KIND_SERVER),
                     "client span %r is under %r, not under a server span" % (s["name"], root["name"]))
    idx = [s for s in spans if s["resource"].get("service.name") == args.indexer_service]
    c.expect(any(is_db(s, "elasticsearch") for s in idx), "no Elasticsearch span from the indexer's publish")
    return len(api), len(idx)


def check_below(c, req, span, children):
    """The spans beneath a request's server span."""
    rid = req["rid"]
    kids = children[span["spanId"]]
    limited = req["route"] in ("/api/search", "/api/product/{id}", "/api/mcp", "/openapi.json") or (
        req["route"] is None and req["path"].startswith("/api/") and req["status"] != 404)
    if req["status"] != 405 and limited:
        c.expect(any(is_db(k, "redis") for k in kids), "%s: no Redis span under the server span (%s)" % (
            rid, [k["name"] for k in kids]))
    engine_op = {"/api/search": "engine.search", "/api/product/{id}": "engine.product"}.get(req["route"])
    if engine_op and req["status"] in (200, 404):
        eng = [k for k in kids if k["name"] == engine_op]
        if c.expect(len(eng) == 1, "%s: want one %s span under the server span, got %s" % (
                rid, engine_op, [k["name"] for k in kids])):
            check_engine(c, rid, eng[0], children)
    if req.get("tool"):
        tool = req["tool"] if req["tool"] in ("search_products", "get_product") else "_OTHER"
        calls = [k for k in kids if k["scope"] == MCP_SCOPE and k["name"] == "tools/call " + tool]
        if not c.expect(len(calls) == 1, "%s: want a span 'tools/call %s' under the server span, got %s" % (
                rid, tool, [k["name"] for k in kids])):
            return
        call = calls[0]
        c.expect(call["attrs"].get("gen_ai.tool.name") == tool, "%s: gen_ai.tool.name %r" % (
            rid, call["attrs"].get("gen_ai.tool.name")))
        c.expect(call["attrs"].get("mcp.method.name") == "tools/call", "%s: mcp.method.name" % rid)
        failed = call.get("status", {}).get("code") == STATUS_ERROR
        if tool == "_OTHER":
            c.expect(failed and call["attrs"].get("error.type"), "%s: the unknown tool is not recorded as an error" % rid)
            return
        c.expect(not failed, "%s: tool call %s recorded as an error" % (rid, tool))
        op = "engine.search" if tool == "search_products" else "engine.product"
        eng = [k for k in children[call["spanId"]] if k["name"] == op]
        if c.expect(len(eng) == 1, "%s: want one %s span under the tool call" % (rid, op)):
            check_engine(c, rid, eng[0], children)


def check_engine(c, rid, eng, children):
    es = [k for k in children[eng["spanId"]] if is_db(k, "elasticsearch")]
    c.expect(len(es) >= 1, "%s: no Elasticsearch span under %s" % (rid, eng["name"]))


def check_metrics(c, args):
    names = read_metric_names(args.metrics)
    for want in ("http.server.request.duration", "mcp.server.operation.duration", "productsearch.engine.duration",
                 "productsearch.ratelimit.allowed", "productsearch.engine.up", "productsearch.catalog.items",
                 "db.client.operation.duration", "go.memory.used", "productsearch.build.info"):
        c.expect(want in names, "metric %s was not exported over OTLP" % want)
    for res, _ in names.get("http.server.request.duration", []):
        c.expect(res.get("service.name") == args.service, "metric resource service.name %r" % res.get("service.name"))
        break
    tools = {a.get("gen_ai.tool.name") for _, a in names.get("mcp.server.operation.duration", [])}
    c.expect({"search_products", "get_product", "_OTHER"} <= tools, "mcp.server.operation.duration tools: %r" % tools)
    es_ops = {(a.get("db.operation.name"), a.get("outcome")) for _, a in names.get("db.client.operation.duration", [])
              if a.get("db.system.name") == "elasticsearch"}
    c.expect(("search", "ok") in es_ops, "db.client.operation.duration of Elasticsearch: %r" % sorted(es_ops))
    routes = {a.get("http.route") for _, a in names.get("http.server.request.duration", [])}
    c.expect("unmatched" not in routes, "http.server.request.duration has the route 'unmatched'")
    c.expect({"/api/search", "/api/product/{id}", "/api/mcp"} <= routes, "request routes in metrics: %r" % routes)


def check(args):
    with open(args.sent) as f:
        sent = [json.loads(line) for line in f if line.strip()]
    c = Checker()
    n_api, n_idx = check_traces(c, args, sent)
    check_metrics(c, args)
    for path in (args.traces, args.metrics):
        with open(path, "rb") as f:
            data = f.read()
        for s in args.secret:
            c.expect(s.encode() not in data, "an API key appears in %s" % path)
    if args.api_log:  # the log names the public key at start-up, never a production key
        with open(args.api_log, "rb") as f:
            c.expect(args.secret[0].encode() not in f.read(), "the production key appears in %s" % args.api_log)
    if c.errors:
        for e in c.errors[:60]:
            print("FAIL: " + e, file=sys.stderr)
        if len(c.errors) > 60:
            print("... and %d more" % (len(c.errors) - 60), file=sys.stderr)
        print("otel: 0 passed, 1 failed")
        sys.exit(1)
    print("otel_check: %d requests matched %d API spans and %d indexer spans" % (len(sent), n_api, n_idx),
          file=sys.stderr)
    print("otel: 1 passed, 0 failed")


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("send")
    s.add_argument("--base", required=True)
    s.add_argument("--key", required=True)
    s.add_argument("--public-key", required=True)
    s.add_argument("--sent", required=True)
    k = sub.add_parser("check")
    for a in ("--sent", "--traces", "--metrics", "--service", "--version", "--indexer-service"):
        k.add_argument(a, required=True)
    k.add_argument("--secret", action="append", required=True)
    k.add_argument("--api-log")
    args = p.parse_args()
    send(args) if args.cmd == "send" else check(args)


if __name__ == "__main__":
    main()
