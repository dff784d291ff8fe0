#!/usr/bin/env python3
"""Writes kubeconform schemas for the kinds the deployment uses, from a live
kube-apiserver's OpenAPI v2 document (scripts/k8s-local.sh schemas runs it).

    kubectl get --raw /openapi/v2 | scripts/k8s-schemas.py k8s/schemas/v1.34.12

Only the kinds in KINDS (and the definitions they reach) are kept, so the
committed files stay small. Strict: objects refuse properties their type
does not declare, as the apiserver's typed decoding would; optional fields
may be null; quantities and int-or-string fields take either form.
Files are named as kubeconform looks them up:
<kind>[-<group>]-<version>.json, with the definitions in _definitions.json.

Kinds of operators the chart can create objects for but the apiserver does
not serve (the Prometheus operator's ServiceMonitor and PrometheusRule) are
written from their CustomResourceDefinitions instead, one self-contained
file per kind and version, with the same strictness:

    scripts/k8s-schemas.py --crd k8s/schemas/crds < monitoring.coreos.com_servicemonitors.yaml
"""
import json
import os
import sys

KINDS = {
    ("", "v1", "ConfigMap"), ("", "v1", "Secret"), ("", "v1", "Service"), ("", "v1", "ServiceAccount"),
    ("", "v1", "Namespace"), ("apps", "v1", "Deployment"), ("apps", "v1", "StatefulSet"),
    ("batch", "v1", "CronJob"), ("batch", "v1", "Job"), ("policy", "v1", "PodDisruptionBudget"),
    ("autoscaling", "v2", "HorizontalPodAutoscaler"), ("networking.k8s.io", "v1", "Ingress"),
    ("networking.k8s.io", "v1", "NetworkPolicy"), ("rbac.authorization.k8s.io", "v1", "Role"),
    ("rbac.authorization.k8s.io", "v1", "RoleBinding"),
    ("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
    ("search.productsearch.dev", "v1alpha1", "ProductCatalog"),
}
FLEX = {"anyOf": [{"type": "string"}, {"type": "number"}]}


def fix(node):
    if isinstance(node, list):
        return [fix(n) for n in node]
    if not isinstance(node, dict):
        return node
    if node.get("format") == "int-or-string" or node.get("x-kubernetes-int-or-string"):
        return dict(FLEX)
    out = {}
    for k, v in node.items():
        if k.startswith("x-kubernetes-") and k != "x-kubernetes-preserve-unknown-fields":
            continue
        if k == "description":
            continue
        if k == "$ref":
            out[k] = "_definitions.json" + v if v.startswith("#/definitions/") else v
        elif k == "properties":
            req = set(node.get("required", []))
            props = {}
            for pk, pv in v.items():
                pv = fix(pv)
                if pk not in req and isinstance(pv, dict) and isinstance(pv.get("type"), str):
                    pv["type"] = [pv["type"], "null"]
                props[pk] = pv
            out[k] = props
        else:
            out[k] = fix(v)
    if "properties" in out and "additionalProperties" not in out and not node.get("x-kubernetes-preserve-unknown-fields"):
        out["additionalProperties"] = False
    return out


def refs(node, found):
    if isinstance(node, dict):
        r = node.get("$ref")
        if isinstance(r, str) and r.startswith("#/definitions/"):
            found.add(r[len("#/definitions/"):])
        for v in node.values():
            refs(v, found)
    elif isinstance(node, list):
        for v in node:
            refs(v, found)


def main():
    out = sys.argv[1]
    defs = json.load(sys.stdin)["definitions"]
    roots = {}
    for name, d in defs.items():
        for gvk in d.get("x-kubernetes-group-version-kind", []):
            key = (gvk.get("group", ""), gvk["version"], gvk["kind"])
            if key in KINDS:
                roots[key] = name
    missing = KINDS - set(roots)
    if missing:
        sys.exit(f"kinds not served by this apiserver: {sorted(missing)}")
    keep, pending = set(), list(roots.values())
    while pending:
        n = pending.pop()
        if n in keep:
            continue
        keep.add(n)
        found = set()
        refs(defs[n], found)
        pending.extend(found - keep)
    os.makedirs(out, exist_ok=True)
    pruned = {}
    for n in sorted(keep):
        if n.endswith(("api.resource.Quantity", "util.intstr.IntOrString")):
            pruned[n] = dict(FLEX)
        else:
            pruned[n] = fix(defs[n])
    with open(os.path.join(out, "_definitions.json"), "w") as f:
        json.dump({"definitions": pruned}, f, indent=1, sort_keys=True)
        f.write("\n")
    for (g, v, k), n in sorted(roots.items()):
        fn = k.lower() + ("-" + g.split(".")[0].lower() if g else "") + "-" + v.lower() + ".json"
        with open(os.path.join(out, fn), "w") as f:
            json.dump({"$ref": "_definitions.json#/definitions/" + n}, f)
            f.write("\n")
    print(f"wrote {len(roots)} kinds ({len(pruned)} definitions) to {out}", file=sys.stderr)


def crds(out):
    import yaml  # only this mode reads YAML

    os.makedirs(out, exist_ok=True)
    for doc in yaml.safe_load_all(sys.stdin):
        if not doc or doc.get("kind") != "CustomResourceDefinition":
            continue
        spec = doc["spec"]
        group, kind = spec["group"], spec["names"]["kind"]
        for v in spec["versions"]:
            schema = fix(v["schema"]["openAPIV3Schema"])
            fn = kind.lower() + "-" + group.split(".")[0].lower() + "-" + v["name"].lower() + ".json"
            with open(os.path.join(out, fn), "w") as f:
                json.dump(schema, f, indent=1, sort_keys=True)
                f.write("\n")
            print(f"wrote {fn} to {out}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--crd":
        crds(sys.argv[2])
    else:
        main()
