#!/usr/bin/env python3
# Copied unchanged from the project's shared benchmark shapes (shared/bench/chrome_trace_shape.py), so that
# the benchmarks stand alone; docs/numbers.md gives the commands and figures on it.
"""Writes a Chrome trace (a JSON array of X events) of about SIZE_MB: nested call stacks on several threads, with
NAMES distinct function names and stacks up to DEPTH deep. This is the shape of a sampled-then-instrumented profile
where names repeat a lot but not a handful of times; it is one of the shapes speed is judged on.
usage: chrome_trace_shape.py SIZE_MB OUT [--seed S] [--names N] [--depth D] [--threads T]"""
import argparse, random

p = argparse.ArgumentParser()
p.add_argument("size_mb", type=float); p.add_argument("out")
p.add_argument("--seed", type=int, default=1); p.add_argument("--names", type=int, default=400)
p.add_argument("--depth", type=int, default=12); p.add_argument("--threads", type=int, default=8)
a = p.parse_args()
rng = random.Random(a.seed)
names = [f"fn_{i}" for i in range(a.names)]
target = int(a.size_mb * 1024 * 1024)
with open(a.out, "w") as f:
    f.write("[\n")
    written, ts, first = 0, 0, True
    while written < target:
        tid = rng.randrange(a.threads)
        def emit(start, depth, dur):
            parts = [f'{{"name":"{rng.choice(names)}","cat":"c","ph":"X","pid":1,"tid":{tid},"ts":{start},"dur":{dur}}}']
            if depth < a.depth and dur > 20:
                t = start + 1
                while t < start + dur - 10 and rng.random() < 0.8:
                    d = rng.randrange(5, max(6, (start + dur - t) // 2))
                    parts.extend(emit(t, depth + 1, d))
                    t += d + rng.randrange(1, 5)
            return parts
        budget = rng.randrange(2000, 20000)
        for line in emit(ts, 0, budget):
            f.write(("" if first else ",\n") + line)
            first = False
            written += len(line) + 2
        ts += budget + rng.randrange(100, 5000)
    f.write("\n]\n")
