#!/usr/bin/env python3
"""Writes a synthetic `cargo build --timings` page of N units (default
1,000) for the benchmark "a Cargo build of 1,000 units opens in under 1 s":

    python3 scripts/make-cargo-bench.py /tmp/cargo-1000.html [N]
    RUNS=3 node tests/e2e/measure-cold-start.mjs /tmp/cargo-1000.html

The build is simulated on 16 jobs: each unit waits for up to three
earlier units (the last of them to be ready, by its end or, pipelined, by
its metadata, made it ready), and is listed in that unit's
`unblocked_units` or `unblocked_rmeta_units` as cargo 1.95 writes them,
with frontend and codegen sections. Deterministic (a fixed seed)."""
import heapq
import json
import random
import sys

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
rng = random.Random(2026)
JOBS = 16
units = []
for i in range(n):
    deps = rng.sample(range(i), min(i, rng.randint(0, 3))) if i else []
    dur = round(rng.lognormvariate(0.0, 1.0), 2) + 0.01
    rmeta = round(dur * rng.uniform(0.3, 0.7), 2)
    units.append({"deps": deps, "dur": dur, "rmeta": rmeta, "bin": rng.random() < 0.05})

# Event-driven schedule: a unit is ready when its deps are (a bin waits for
# ends, a lib for metadata); it starts when one of JOBS slots is free.
ready_at, made_by = [0.0] * n, [None] * n
start, end = [0.0] * n, [0.0] * n
free = [0.0] * JOBS
for i, u in enumerate(units):
    best = (0.0, None)
    for d in u["deps"]:
        via = "end" if u["bin"] else "rmeta"
        t = end[d] if via == "end" else start[d] + units[d]["rmeta"]
        if t >= best[0]:
            best = (t, (d, via))
    ready_at[i], made_by[i] = best
    slot_free = heapq.heappop(free)
    start[i] = round(max(slot_free, ready_at[i]), 2)
    end[i] = round(start[i] + u["dur"], 2)
    heapq.heappush(free, end[i])

data = []
for i, u in enumerate(units):
    data.append({
        "i": i, "name": f"crate{i}", "version": "1.0.0", "mode": "todo",
        "target": ' app{} "bin"'.format(i) if u["bin"] else "", "features": [],
        "start": start[i], "duration": round(end[i] - start[i], 2),
        "unblocked_units": [j for j in range(n) if made_by[j] == (i, "end")],
        "unblocked_rmeta_units": [j for j in range(n) if made_by[j] == (i, "rmeta")],
        "sections": [["frontend", {"start": 0.0, "end": u["rmeta"]}],
                     ["codegen", {"start": u["rmeta"], "end": round(end[i] - start[i], 2)}]],
    })
data.sort(key=lambda u: u["start"])
points = sorted({t for i in range(n) for t in (start[i], end[i])})
concurrency = [{"t": t, "active": sum(1 for i in range(n) if start[i] <= t < end[i]), "waiting": 0, "inactive": 0}
               for t in points]
with open(out, "w") as f:
    f.write('<html>\n<head>\n  <title>Cargo Build Timings — synthetic</title>\n</head>\n<body>\n')
    f.write('<table class="my-table summary-table">\n')
    for k, v in [("Fresh units", 0), ("Dirty units", n), ("Total units", n),
                 ("Max concurrency", f"{max(c['active'] for c in concurrency)} (jobs={JOBS} ncpu={JOBS})"),
                 ("Total time", f"{points[-1]:.1f}s")]:
        f.write(f"<tr>\n<td>{k}:</td><td>{v}</td>\n</tr>\n")
    f.write("</table>\n<script>\nDURATION = %d;\n" % int(points[-1] + 1))
    f.write("const UNIT_DATA = %s;\n" % json.dumps(data, indent=2))
    f.write("const CONCURRENCY_DATA = %s;\n" % json.dumps(concurrency, indent=2))
    f.write("const CPU_USAGE = [];\n</script>\n</body>\n</html>\n")
