#!/usr/bin/env bash
# What tracing costs the API (make bench-tracing): runs scripts/bench-api.sh
# three times, with tracing off, with the default sampler (5% of requests,
# parent-based) and with every request sampled, spans exported over
# OTLP/HTTP to a sink on loopback, and prints requests/s and server CPU per
# request side by side with the ratio to tracing off. Alternate runs and
# ratios are what to read on a noisy machine. Takes DURATION, VUS and the
# pinning variables of bench-api.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bench-api
for mode in off default always; do
	TRACING=$mode ./scripts/bench-api.sh >/dev/null
	cp "$out/report.txt" "$out/report-tracing-$mode.txt"
done
python3 - "$out"/report-tracing-{off,default,always}.txt <<'PY' | tee "$out/report-tracing.txt"
import re, sys
modes = ["off", "default", "always"]
rows = {}
for mode, path in zip(modes, sys.argv[1:]):
    for line in open(path):
        m = re.match(r"(\S+)\s+(\d+) req/s .* server CPU (\d+) us/req", line)
        if m:
            rows.setdefault(m[1], {})[mode] = (int(m[2]), int(m[3]))
print(f"{'scenario':16} " + "  ".join(f"{m + ' req/s, CPU/req':>26}" for m in modes))
for name, r in rows.items():
    cells = []
    for m in modes:
        if m not in r:
            cells.append(f"{'-':>26}")
            continue
        rate, cpu = r[m]
        ratio = f" ({cpu / r['off'][1]:.2f}x)" if m != "off" and "off" in r else ""
        cells.append(f"{rate:>8}/s {cpu:>4} us{ratio:>9}")
    print(f"{name:16} " + "  ".join(cells))
PY
