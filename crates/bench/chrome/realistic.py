#!/usr/bin/env python3
"""Writes a Chrome trace that looks like the ones Chrome, Perfetto and Bazel
write, not like a friendly benchmark's:

    python3 crates/bench/chrome/realistic.py OUT.json [MB] [SEED]

- several processes (a browser, GPU and renderers), each with named threads,
  one of them a main thread busy for the whole trace;
- thousands of distinct names (``Namespace::Class::Method`` and categories
  drawn from a Zipf-like law, as real traces have a few hot names and a
  long tail);
- call stacks 20 to 40 deep, as B/E pairs and X events mixed on the same
  thread;
- ``args`` on many events (URLs, ids, numbers, nested objects);
- instant events, async spans (b/e), flows (s/f) between threads, and
  counters (C);
- the array form, one event per line, as Chrome writes it.

MB (default 10) is the size to reach; SEED (default 1) makes it
reproducible. Times are whole microseconds, as Chrome writes them; an X
event's `dur` is its rounded end less its rounded start, so that siblings
touch without overlapping. Zero-length events at the same microsecond as
their neighbours are common, as in Chrome's traces; speedscope 1.25 ("Tried
to end frame ... Doing nothing instead"), and longpole after it, then leave
frames open, so stacks grow hundreds deep over a long trace.
"""

import json
import random
import sys


def us(t):
    """A time as Chrome writes it: whole microseconds."""
    return int(round(t))


def names(rnd, n):
    words = ["Layout", "Paint", "Script", "Parse", "Style", "Frame", "Task", "Loader", "Resource", "Cache",
             "Compositor", "Raster", "Tile", "Image", "Decode", "Font", "Shape", "Text", "Block", "Inline",
             "Scheduler", "Worker", "Message", "Mojo", "IPC", "Channel", "Blob", "Stream", "Request", "Response",
             "V8", "GC", "Heap", "Compile", "Optimize", "Interpreter", "Bytecode", "Inline", "Deopt", "Runtime"]
    out = set()
    while len(out) < n:
        ns = rnd.choice(["blink", "cc", "viz", "content", "net", "v8", "base", "gpu", "mojo", "ui"])
        out.add(f"{ns}::{rnd.choice(words)}{rnd.choice(words)}::{rnd.choice(words)}{rnd.randrange(1000)}")
    return sorted(out)


def main():
    out = sys.argv[1]
    target = int(float(sys.argv[2]) * 1e6) if len(sys.argv) > 2 else 10_000_000
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    pool = names(rnd, 5000)
    weights = [1.0 / (i + 1) ** 0.9 for i in range(len(pool))]
    cats = ["blink", "cc", "v8", "devtools.timeline", "toplevel", "disabled-by-default-devtools.timeline", "loading", "net", "gpu"]
    procs = [(1, "Browser", [(1, "CrBrowserMain"), (7, "IOThread"), (9, "ThreadPoolForegroundWorker")]),
             (2, "GPU Process", [(1, "CrGpuMain"), (5, "VizCompositorThread")])]
    for r in range(4):
        pid = 10 + r
        procs.append((pid, f"Renderer", [(1, "CrRendererMain"), (3, "Compositor"), (4, "ThreadPoolForegroundWorker"), (6, "DedicatedWorker thread")]))
    lanes = [(pid, tid) for pid, _, threads in procs for tid, _ in threads]
    written = 0
    f = open(out, "w")

    def put(ev):
        nonlocal written
        line = ("" if written == 0 else ",\n") + json.dumps(ev, separators=(",", ":"))
        written += len(line)
        f.write(line)

    f.write("[\n")
    for pid, pname, threads in procs:
        put({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": pname}})
        for tid, tname in threads:
            put({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": tname}})
    clock = {lane: 1_000_000.0 + rnd.random() * 1000 for lane in lanes}
    # The long-running main thread: one span over the whole trace, closed at the end.
    put({"name": "RunLoop::Run", "cat": "toplevel", "ph": "B", "pid": 1, "tid": 1, "ts": 999_000.0})
    flow = 0
    async_id = 0

    def args(name):
        k = rnd.random()
        if k < 0.35:
            return None
        if k < 0.6:
            return {"url": f"https://example.{rnd.randrange(50)}.test/{name.split('::')[-1].lower()}?q={rnd.randrange(10**6)}"}
        if k < 0.8:
            return {"data": {"frame": f"0x{rnd.randrange(1 << 40):x}", "nodeId": rnd.randrange(10**5), "type": rnd.choice(["click", "load", "paint"])}}
        return {"count": rnd.randrange(10**4), "size": rnd.random() * 1e6}

    def tree(pid, tid, depth, max_depth):
        nonlocal flow, async_id
        lane = (pid, tid)
        name = rnd.choices(pool, weights)[0]
        cat = rnd.choice(cats)
        start = clock[lane]
        a = args(name)
        use_x = rnd.random() < 0.5
        if not use_x:
            ev = {"name": name, "cat": cat, "ph": "B", "pid": pid, "tid": tid, "ts": us(start)}
            if a:
                ev["args"] = a
            put(ev)
        clock[lane] += rnd.random() * 5
        children = []
        if depth < max_depth:
            for _ in range(1 if depth < max_depth - 3 else rnd.randrange(0, 3)):
                children.append(tree(pid, tid, depth + 1, max_depth))
        if rnd.random() < 0.05:
            put({"name": rnd.choice(pool), "cat": cat, "ph": "i", "s": "t", "pid": pid, "tid": tid, "ts": us(clock[lane])})
        if rnd.random() < 0.03:
            flow += 1
            other = rnd.choice(lanes)
            put({"name": "PostTask", "cat": "toplevel.flow", "ph": "s", "id": flow, "pid": pid, "tid": tid, "ts": us(clock[lane])})
            clock[other] = max(clock[other], clock[lane] + 1)
            put({"name": "PostTask", "cat": "toplevel.flow", "ph": "f", "bp": "e", "id": flow, "pid": other[0], "tid": other[1], "ts": us(clock[other])})
        clock[lane] += rnd.random() * 20 + 0.5
        end = clock[lane]
        if use_x:
            ev = {"name": name, "cat": cat, "ph": "X", "pid": pid, "tid": tid, "ts": us(start), "dur": us(end) - us(start)}
            if a:
                ev["args"] = a
            if rnd.random() < 0.2:
                ev["tdur"] = round((end - start) * 0.8, 3)
            put(ev)
        else:
            put({"name": name, "cat": cat, "ph": "E", "pid": pid, "tid": tid, "ts": us(end)})
        return end

    while written < target:
        pid, tid = rnd.choice(lanes)
        tree(pid, tid, 0, rnd.randrange(20, 41))
        if rnd.random() < 0.2:
            async_id += 1
            lane = rnd.choice(lanes)
            t = clock[lane]
            put({"name": "Load", "cat": "loading", "ph": "b", "id": f"0x{async_id:x}", "pid": lane[0], "tid": lane[1], "ts": us(t)})
            put({"name": "Load", "cat": "loading", "ph": "e", "id": f"0x{async_id:x}", "pid": lane[0], "tid": lane[1], "ts": us(t + rnd.random() * 5000)})
        if rnd.random() < 0.3:
            pid = rnd.choice(procs)[0]
            put({"name": "JSHeapUsed", "ph": "C", "pid": pid, "tid": 1, "ts": us(max(clock.values())), "args": {"value": rnd.randrange(10**7, 10**9)}})
    put({"name": "RunLoop::Run", "cat": "toplevel", "ph": "E", "pid": 1, "tid": 1, "ts": us(max(clock.values()) + 10)})
    f.write("\n]\n")
    f.close()


if __name__ == "__main__":
    main()
