#!/usr/bin/env python3
"""Writes a synthetic `dbt run` of N models (default 5,000) for the
benchmark "a dbt run of 5,000 models opens in under 1 s": the
`manifest.json` (v12) and `run_results.json` (v6) that dbt-core 1.11
writes, with the fields of every node and result the real ones in
crates/core/tests/fixtures/dbt carry:

    python3 scripts/make-dbt-bench.py /tmp/dbt-5000 [N]
    RUNS=3 node tests/e2e/measure-cold-start.mjs /tmp/dbt-5000/manifest.json /tmp/dbt-5000/run_results.json

The project: 20 sources, then staging models (each reads a source),
intermediate models and marts, each reading up to four models of the layers
before it, with a few hundred macros as a real project's manifest holds.
The run is simulated on 8 threads as dbt schedules it: a model is ready
when every model it reads has finished, and runs on the first free thread
(`Thread-k (worker)`), compiled, then executed. Deterministic (a fixed seed).
"""
import datetime
import heapq
import json
import os
import random
import sys

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
rng = random.Random(2026)
THREADS = 8
PROJECT = "bench"
SOURCES = 20
MACROS = 400
START = datetime.datetime(2026, 11, 27, 20, 0, 0, tzinfo=datetime.timezone.utc)


def stamp(seconds):
    """dbt's timestamps: UTC, microseconds, a trailing Z."""
    return (START + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def layer(i):
    if i < n * 0.3:
        return "stg"
    if i < n * 0.8:
        return "int"
    return "mart"


# Each model reads a source (staging) or up to four earlier models.
models = []
for i in range(n):
    kind = layer(i)
    name = f"{kind}_{i:05d}"
    if kind == "stg":
        deps = [f"source.{PROJECT}.raw.table_{rng.randrange(SOURCES):02d}"]
        parents = []
    else:
        lo = 0 if kind == "int" else int(n * 0.3)
        parents = sorted(set(rng.randrange(lo, i) for _ in range(rng.randint(1, 4))))
        deps = []
    models.append({"name": name, "parents": parents, "sources": deps})
uid = lambda i: f"model.{PROJECT}.{models[i]['name']}"

# dbt's schedule: ready when every parent is done; the first free thread.
compile_s = [round(rng.uniform(0.005, 0.05), 6) for _ in range(n)]
execute_s = [round(min(rng.lognormvariate(-0.7, 1.0), 120.0), 6) for _ in range(n)]
children = [[] for _ in range(n)]
waiting = [len(m["parents"]) for m in models]
for i, m in enumerate(models):
    for p in m["parents"]:
        children[p].append(i)
ready = [(0.0, i) for i in range(n) if waiting[i] == 0]
heapq.heapify(ready)
free = [(0.3, t) for t in range(1, THREADS + 1)]  # dbt's start-up first
heapq.heapify(free)
running = []  # (end, model)
timing = [None] * n
while ready or running:
    # A model starts when it is ready and a thread is free, in dbt's order.
    if ready and free and (not running or max(ready[0][0], free[0][0]) <= running[0][0]):
        at, i = heapq.heappop(ready)
        t_free, thread = heapq.heappop(free)
        c0 = max(at, t_free) + 0.001
        c1 = c0 + compile_s[i]
        e0 = c1 + 0.0005
        e1 = e0 + execute_s[i]
        timing[i] = (thread, c0, c1, e0, e1)
        heapq.heappush(running, (e1, i, thread))
        continue
    end, i, thread = heapq.heappop(running)
    heapq.heappush(free, (end + 0.0002, thread))
    for c in children[i]:
        waiting[c] -= 1
        if waiting[c] == 0:
            heapq.heappush(ready, (end, c))
last = max(t[4] for t in timing)

invocation = "5f0c2d1e-0b8a-4b7e-9a61-3c2d7e9f%04d" % (n % 10000)
meta = lambda schema: {
    "dbt_schema_version": f"https://schemas.getdbt.com/dbt/{schema}",
    "dbt_version": "1.11.16",
    "generated_at": stamp(last + 0.2),
    "invocation_id": invocation,
    "invocation_started_at": stamp(0.0),
    "env": {},
}
config = lambda: {
    "enabled": True, "alias": None, "schema": None, "database": None, "tags": [], "meta": {}, "group": None,
    "static_analysis": None, "materialized": rng.choice(["table", "view"]), "incremental_strategy": None,
    "batch_size": None, "lookback": 1, "begin": None, "persist_docs": {}, "post-hook": [], "pre-hook": [],
    "quoting": {}, "column_types": {}, "full_refresh": None, "unique_key": None, "on_schema_change": "ignore",
    "on_configuration_change": "apply", "grants": {}, "packages": [], "docs": {"show": True, "node_color": None},
    "contract": {"enforced": False, "alias_types": True}, "event_time": None, "concurrent_batches": None,
    "access": "protected", "freshness": None,
}


def sql(i):
    m = models[i]
    refs = [f"{{{{ ref('{models[p]['name']}') }}}}" for p in m["parents"]]
    refs += [f"{{{{ source('raw', '{s.rsplit('.', 1)[1]}') }}}}" for s in m["sources"]]
    joined = "\n  join ".join(f"{r} as t{k} using (id)" if k else f"{r} as t{k}" for k, r in enumerate(refs))
    return f"select t0.id, count(*) as n, sum(t0.amount) as amount\nfrom {joined}\ngroup by 1"


nodes, parent_map, child_map = {}, {}, {}
for i, m in enumerate(models):
    u = uid(i)
    code = sql(i)
    compiled = code.replace("{{ ref('", '"db"."main"."').replace("') }}", '"')
    depends = [uid(p) for p in m["parents"]] + m["sources"]
    cfg = config()
    nodes[u] = {
        "database": "db", "schema": "main", "name": m["name"], "resource_type": "model", "package_name": PROJECT,
        "path": f"{layer(i)}/{m['name']}.sql", "original_file_path": f"models/{layer(i)}/{m['name']}.sql",
        "unique_id": u, "fqn": [PROJECT, layer(i), m["name"]], "alias": m["name"],
        "checksum": {"name": "sha256", "checksum": "%064x" % rng.getrandbits(256)}, "config": cfg, "tags": [],
        "description": "", "columns": {}, "meta": {}, "group": None, "docs": {"show": True, "node_color": None},
        "patch_path": None, "build_path": f"target/run/{PROJECT}/models/{layer(i)}/{m['name']}.sql",
        "unrendered_config": {"materialized": cfg["materialized"]}, "created_at": 1795809878.11 + i / 1000,
        "relation_name": f'"db"."main"."{m["name"]}"', "raw_code": code, "doc_blocks": [], "language": "sql",
        "refs": [{"name": models[p]["name"], "package": None, "version": None} for p in m["parents"]],
        "sources": [["raw", s.rsplit(".", 1)[1]] for s in m["sources"]], "metrics": [], "functions": [],
        "depends_on": {"macros": [], "nodes": depends},
        "compiled_path": f"target/compiled/{PROJECT}/models/{layer(i)}/{m['name']}.sql", "compiled": True,
        "compiled_code": compiled, "extra_ctes_injected": True, "extra_ctes": [],
        "contract": {"enforced": False, "alias_types": True, "checksum": None}, "access": "protected",
        "constraints": [], "version": None, "latest_version": None, "deprecation_date": None, "primary_key": [],
        "time_spine": None,
    }
    parent_map[u] = depends
    child_map[u] = [uid(c) for c in children[i]]
sources = {}
for s in range(SOURCES):
    u = f"source.{PROJECT}.raw.table_{s:02d}"
    sources[u] = {
        "database": "db", "schema": "raw", "name": f"table_{s:02d}", "resource_type": "source",
        "package_name": PROJECT, "path": "models/sources.yml", "original_file_path": "models/sources.yml",
        "unique_id": u, "fqn": [PROJECT, "raw", f"table_{s:02d}"], "source_name": "raw",
        "source_description": "", "loader": "", "identifier": f"table_{s:02d}", "quoting": {},
        "loaded_at_field": None, "freshness": None, "external": None, "description": "", "columns": {},
        "meta": {}, "source_meta": {}, "tags": [], "config": {"enabled": True}, "patch_path": None,
        "unrendered_config": {}, "relation_name": f'"db"."raw"."table_{s:02d}"', "created_at": 1795809878.0,
    }
    parent_map[u] = []
    child_map[u] = [uid(i) for i, m in enumerate(models) if u in m["sources"]]
macros = {}
for k in range(MACROS):
    name = f"bench__macro_{k:03d}"
    macros[f"macro.{PROJECT}.{name}"] = {
        "name": name, "resource_type": "macro", "package_name": PROJECT, "path": f"macros/m{k:03d}.sql",
        "original_file_path": f"macros/m{k:03d}.sql", "unique_id": f"macro.{PROJECT}.{name}",
        "macro_sql": f"{{% macro {name}(relation) %}}\n  {{{{ return(adapter.dispatch('{name}')(relation)) }}}}\n{{% endmacro %}}",
        "depends_on": {"macros": []}, "description": "", "meta": {}, "docs": {"show": True, "node_color": None},
        "config": {"meta": {}, "docs": {"show": True, "node_color": None}}, "patch_path": None, "arguments": [],
        "created_at": 1795809873.64, "supported_languages": None,
    }
manifest = {
    "metadata": {
        **meta("manifest/v12.json"), "project_name": PROJECT, "project_id": "%032x" % rng.getrandbits(128),
        "user_id": None, "send_anonymous_usage_stats": False, "adapter_type": "duckdb",
        "quoting": {"database": True, "schema": True, "identifier": True, "column": None},
        "run_started_at": stamp(0.0),
    },
    "nodes": nodes, "sources": sources, "macros": macros, "docs": {}, "exposures": {}, "metrics": {}, "groups": {},
    "selectors": {}, "disabled": {}, "parent_map": parent_map, "child_map": child_map, "group_map": {},
    "saved_queries": {}, "semantic_models": {}, "unit_tests": {}, "functions": {},
}
results = []
# dbt lists the results in the order the nodes finished.
for i in sorted(range(n), key=lambda i: timing[i][4]):
    thread, c0, c1, e0, e1 = timing[i]
    results.append({
        "status": "success",
        "timing": [
            {"name": "compile", "started_at": stamp(c0), "completed_at": stamp(c1)},
            {"name": "execute", "started_at": stamp(e0), "completed_at": stamp(e1)},
        ],
        "thread_id": f"Thread-{thread} (worker)",
        "execution_time": round(e1 - c0 + 0.01, 6),
        "adapter_response": {"_message": "OK"},
        "message": "OK",
        "failures": None,
        "unique_id": uid(i),
        "compiled": True,
        "compiled_code": nodes[uid(i)]["compiled_code"],
        "relation_name": nodes[uid(i)]["relation_name"],
        "batch_results": None,
    })
run_results = {
    "metadata": meta("run-results/v6.json"),
    "results": results,
    "elapsed_time": round(last + 0.4, 6),
    "args": {
        "which": "run", "threads": THREADS, "invocation_command": f"dbt run --threads {THREADS}",
        "project_dir": "/bench/project", "profiles_dir": ".", "select": [], "exclude": [], "vars": {},
        "write_json": True, "partial_parse": True, "log_level": "info", "quiet": False,
    },
}
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f)
with open(os.path.join(out, "run_results.json"), "w") as f:
    json.dump(run_results, f)
print(f"{n} models on {THREADS} threads, {last:.1f} s of run, in {out}")
