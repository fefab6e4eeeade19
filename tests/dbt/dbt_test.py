#!/usr/bin/env python3
"""dbt runs made for real and read by longpole: the project in
tests/dbt/project (23 models, a seed and tests, with a slow chain
slow_1 → slow_4) is run with dbt-core and dbt-duckdb from PyPI (the venv
scripts/setup.sh makes), as `dbt run` and as `dbt build`, with --threads 4.

For each run, `longpole analyze --format json` of run_results.json and
manifest.json (given in both orders) is checked against dbt's own figures,
read here from the artifacts with the json module:

- the wall time is the span of every node's timing[], first start to last
  end, and dbt's elapsed_time is reported beside it;
- the node count, by resource type, and the threads used;
- each path step's duration is that step's timing[] entry, its lane the
  node's thread_id;
- the path is a chain of real dependencies: each node on it depends on the
  one before per manifest.json (depends_on.nodes), or, in dbt build, the
  one before is a test of a node upstream of it; it ends at the step that
  finished last, and the slow chain is on it;
- run_results.json alone claims no path and says why.

Usage: tests/dbt/dbt_test.py [BIN_DIR] [--keep DIR] (BIN_DIR defaults to
target/debug and must hold `longpole`; --keep copies each run's artifacts
to DIR/run and DIR/build, which is how the fixtures were made).
"""

import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
KEEP = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
if KEEP in args:
    args.remove(KEEP)
BIN = os.path.abspath(args[0] if args else os.path.join(ROOT, "target", "debug"))
LONGPOLE = os.path.join(BIN, "longpole")
VENV = os.path.join(ROOT, "target", "venv-tools")
DBT = os.path.join(VENV, "bin", "dbt")
PROJECT = os.path.join(ROOT, "tests", "dbt", "project")
SLOW = [f"model.longpole_dbt.slow_{n}" for n in range(1, 5)]

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def ns(stamp):
    """An ISO-8601 UTC stamp as ns since 1970, exactly."""
    d = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    whole = int(d.replace(microsecond=0).timestamp())
    return whole * 1_000_000_000 + d.microsecond * 1000


def dbt(project, *command):
    env = dict(os.environ, DBT_SEND_ANONYMOUS_USAGE_STATS="false", LONGPOLE_DBT_DB=os.path.join(project, "db.duckdb"))
    p = subprocess.run([DBT, *command, "--threads", "4", "--profiles-dir", project, "--project-dir", project],
                       capture_output=True, text=True, env=env, cwd=project)
    if p.returncode != 0:
        sys.exit(f"dbt {' '.join(command)} failed:\n{p.stdout}\n{p.stderr}")


def analyze(*files):
    p = subprocess.run([LONGPOLE, "analyze", "--format", "json", *files], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"longpole analyze {files} failed:\n{p.stderr}")
    return json.loads(p.stdout)


def check_run(name, target):
    results_path = os.path.join(target, "run_results.json")
    manifest_path = os.path.join(target, "manifest.json")
    results = json.load(open(results_path))
    manifest = json.load(open(manifest_path))
    nodes = manifest["nodes"]
    steps = {}
    for r in results["results"]:
        for t in r["timing"]:
            steps[(r["unique_id"], t["name"])] = (ns(t["started_at"]), ns(t["completed_at"]), r["thread_id"])
    first = min(s for s, _, _ in steps.values())
    last = max(e for _, e, _ in steps.values())
    for files in ([results_path, manifest_path], [manifest_path, results_path]):
        a = analyze(*files)
        where = f"{name} ({os.path.basename(files[0])} first)"
        check(a.get("format") == "dbt", f"{where}: format {a.get('format')}")
        check(ns_of(a["wall_ms"]) == last - first, f"{where}: wall {a['wall_ms']} ms against {(last - first) / 1e6} ms")
        d = a["dbt"]
        check(abs(d["elapsed_time_ms"] - results["elapsed_time"] * 1000) < 1e-3,
              f"{where}: elapsed_time {d['elapsed_time_ms']} against {results['elapsed_time']} s")
        by_type = {}
        for r in results["results"]:
            t = nodes[r["unique_id"]]["resource_type"]
            by_type[t] = by_type.get(t, 0) + 1
        for t, key in [("model", "models"), ("test", "tests"), ("seed", "seeds"), ("snapshot", "snapshots")]:
            check(d[key] == by_type.get(t, 0), f"{where}: {key} {d[key]} against {by_type.get(t, 0)}")
        check(len(d["nodes"]) == len(results["results"]), f"{where}: {len(d['nodes'])} nodes")
        for n, r in zip(d["nodes"], results["results"]):
            # To the last bit but one: serde_json's default float parsing
            # may round a decimal's last bit the other way from Python's.
            same_time = abs(n["execution_time_s"] - r["execution_time"]) <= 1e-12 * max(1.0, abs(r["execution_time"]))
            check(same_time and n["status"] == r["status"],
                  f"{where}: {r['unique_id']}'s execution time or status")
        threads = {r["thread_id"] for r in results["results"]}
        check(d["threads_used"] == len(threads) and d["threads"] == results["args"]["threads"],
              f"{where}: threads {d['threads_used']} of {d['threads']}")
        path = a["critical_path"]["tasks"]
        check(len(path) > 0, f"{where}: an empty path")
        for t in path:
            start, end, thread = steps[(t["unique_id"], t["step"])]
            check(ns_of(t["duration_ms"]) == end - start, f"{where}: {t['name']} lasts {t['duration_ms']} ms, dbt says {(end - start) / 1e6}")
            check(ns_of(t["start_ms"]) == start and t["lane"] == thread, f"{where}: {t['name']}'s start or thread")
        check(ns_of(path[-1]["end_ms"]) == last, f"{where}: the path does not end at the last step's end")
        check(ns_of(a["critical_path"]["total_ms"]) == ns_of(path[-1]["end_ms"]) - ns_of(path[0]["start_ms"]),
              f"{where}: total is not the path's span")
        for before, after in zip(path, path[1:]):
            b, c = before["unique_id"], after["unique_id"]
            if b == c:
                check((before["step"], after["step"]) == ("compile", "execute"), f"{where}: {b}'s steps out of order")
                continue
            deps = nodes[c]["depends_on"]["nodes"]
            tested = nodes[b]["resource_type"] == "test" and results["args"]["which"] == "build" and all(
                upstream(nodes, p, c) for p in nodes[b]["depends_on"]["nodes"])
            check(b in deps or tested, f"{where}: {c} does not depend on {b}")
        on_path = {t["unique_id"] for t in path}
        check(all(s in on_path for s in SLOW), f"{where}: the slow chain is not on the path: {sorted(on_path)}")
    alone = analyze(results_path)
    check(alone["critical_path"] is None and "manifest.json" in (alone.get("no_path_reason") or ""),
          f"{name}: run_results.json alone claims a path")
    return results


def ns_of(ms):
    """A JSON time in ms as ns: dbt's stamps are whole µs."""
    return round(ms * 1e3) * 1000


def upstream(nodes, p, n, seen=None):
    seen = set() if seen is None else seen
    for d in nodes.get(n, {}).get("depends_on", {}).get("nodes", []):
        if d == p or (d not in seen and (seen.add(d) or upstream(nodes, p, d, seen))):
            return True
    return False


def main():
    if not os.path.exists(DBT):
        sys.exit(f"no dbt at {DBT}: run scripts/setup.sh")
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "project")
        shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns("target", "logs", "*.duckdb"))
        for command in ["run", "build"]:
            if command == "run":
                dbt(project, "seed")
            dbt(project, command)
            target = os.path.join(project, "target")
            results = check_run(f"dbt {command}", target)
            print(f"dbt {command}: {len(results['results'])} nodes checked")
            if KEEP:
                out = os.path.join(KEEP, command)
                os.makedirs(out, exist_ok=True)
                for f in ["run_results.json", "manifest.json"]:
                    shutil.copy(os.path.join(target, f), out)
    if failures:
        sys.exit(f"{len(failures)} failures")
    print("dbt: all checks passed")


main()
