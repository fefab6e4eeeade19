#!/usr/bin/env python3
"""The fleet tables read by a real engine: `longpole export --to parquet`
of the whole test corpus (tests/data) and a few hundred simulated builds, queried with
DuckDB (PyPI's `duckdb`, in the venv `scripts/setup.sh` makes).

What each table holds is checked against what the CLI prints for the same
runs, read on its own: `longpole analyze --format json` (wall time, the
critical path's steps and length) and `longpole dump` (every task's role,
uid, lane, times in ns, kind, bytes, outcome). The run ids are recomputed
here from the files' bytes with hashlib. Then every query of the DuckDB
cookbook in docs/fleet.md is run as written there and its answer compared
with the same question answered from the CLI's output. The Parquet types
(`parquet_schema`), the codec (`parquet_metadata`) and `dt` as a DATE are
checked too, and that exporting again replaces rows instead of adding them.

Usage: tests/fleet/duckdb_test.py [BIN_DIR] (default target/debug, which
must hold `longpole` and `distbuild-sim`).
"""

import collections
import concurrent.futures
import datetime
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import duckdb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug"))
LONGPOLE = os.path.join(BIN, "longpole")
SIM = os.path.join(BIN, "distbuild-sim")
CORPUS = os.path.join(ROOT, "tests", "data")
DOC = os.path.join(ROOT, "docs", "fleet.md")
# Simulated builds: reruns of one build (the same graph, so the same
# targets recur on critical paths), and builds of their own.
RERUNS = 150
OWN_BUILDS = 50
# 2024-11-19, the simulator's day: a week later is "this week"'s end.
DATA_WEEK_END = "DATE '2024-11-25'"
DATES_FROM_NS = 946_684_800_000_000_000

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(*args, ok=True):
    p = subprocess.run(args, capture_output=True, text=True)
    if ok and p.returncode != 0:
        raise RuntimeError(f"{args} failed: {p.stderr}")
    return p


def run_id(paths):
    """The SHA-256 of the files' SHA-256 digests, sorted."""
    digests = sorted(hashlib.sha256(open(p, "rb").read()).digest() for p in paths)
    return hashlib.sha256(b"".join(digests)).hexdigest()[:32]


def ns(text):
    """A dump's exact ms (`1732000000801.5`) as integer ns."""
    if text == "?":
        return None
    sign = -1 if text.startswith("-") else 1
    whole, _, frac = text.lstrip("-").partition(".")
    return sign * (int(whole) * 1_000_000 + int((frac + "000000")[:6]))


def us(n):
    return None if n is None else n // 1000


DUMP_LINE = re.compile(
    r"^(\w+) (.*?) lane=(.*) (\S+)\.\.(\S+) dur=(\S+) kind=(.*?)"
    r"(?: bytes=(\d+))?(?: from=(.*?))?( cached)?( failed)? deps=\[.*\]$"
)


def parse_dump(text):
    """Tasks as (role, uid, lane, start_ns, dur_ns, kind, bytes, status), the window's start and the wall time in ns."""
    tasks, origin, wall = [], None, None
    for line in text.splitlines():
        if line.startswith("window "):
            if line != "window none":
                origin = ns(line.split()[1].split("..")[0])
                wall = ns(line.split("wall=")[1])
            continue
        m = DUMP_LINE.match(line)
        assert m, f"cannot parse the dump line {line!r}"
        role, uid, lane, start, _end, dur, kind, nbytes, _from, cached, failed = m.groups()
        status = "failed" if failed else "cached" if cached else "executed"
        tasks.append((role, uid, lane, ns(start), ns(dur), kind, int(nbytes) if nbytes else None, status))
    return tasks, origin, wall


def simulate(out):
    """Writes the simulated builds, one folder each; their folders."""
    dirs = []
    for k in range(RERUNS + OWN_BUILDS):
        d = os.path.join(out, f"sim{k:03}")
        os.makedirs(d)
        if k < RERUNS:
            args = ["--nodes", "200", "--hosts", "20", "--seed", "7", "--rerun", str(k + 1)]
        else:
            args = ["--nodes", str(20 + 7 * k % 180), "--hosts", str(2 + k % 9), "--seed", str(k)]
        args += ["--cache-hits", "0.2", "--failures", "0.02"]
        run(SIM, *args, "--log", os.path.join(d, "run.log"), "--graph", os.path.join(d, "graph.json"))
        dirs.append(d)
    return dirs


def expected_groups(sim_dirs):
    """The runs the export should find, by the rule docs/fleet.md states:
    each corpus file longpole reads is a run of its own, but a folder's MAL
    traces are one; a simulated build's log goes with its graph."""
    files = []
    for dirpath, _, names in os.walk(CORPUS):
        files += [os.path.join(dirpath, n) for n in sorted(names)]
    files.sort()

    def fmt(path):
        p = run(LONGPOLE, "analyze", "--format", "json", path, ok=False)
        return json.loads(p.stdout)["format"] if p.returncode == 0 else None

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        formats = list(pool.map(fmt, files))
    groups, mal = [], collections.defaultdict(list)
    for path, f in zip(files, formats):
        if f == "monetdb-mal":
            mal[os.path.dirname(path)].append(path)
        elif f is not None:
            groups.append([path])
    groups += [sorted(v) for v in mal.values()]
    unread = [p for p, f in zip(files, formats) if f is None]
    groups += [[os.path.join(d, "run.log"), os.path.join(d, "graph.json")] for d in sim_dirs]
    return groups, unread


def reference(group):
    """What the CLI says of one run."""
    a = json.loads(run(LONGPOLE, "analyze", "--format", "json", *group).stdout)
    tasks, origin, wall = parse_dump(run(LONGPOLE, "dump", *group).stdout)
    return {"paths": group, "id": run_id(group), "analyze": a, "tasks": tasks, "origin": origin, "wall": wall}


def close(a, b, tol):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol


def ms_us(x):
    """`analyze`'s ms (rounded to µs) as µs."""
    return None if x is None else round(x * 1000)


def check_tables(db, refs):
    runs = {r[0]: r for r in db.sql("SELECT run_id, format, wall_us, critical_path_us, task_count, started_at FROM runs").fetchall()}
    check(len(runs) == len(refs), f"runs has {len(runs)} rows, the CLI reads {len(refs)} runs")
    tasks = collections.defaultdict(list)
    for row in db.sql(
        "SELECT run_id, role, uid, lane, start_offset_us, duration_us, kind, bytes, status FROM tasks"
    ).fetchall():
        tasks[row[0]].append(row[1:])
    paths = collections.defaultdict(list)
    for row in db.sql(
        "SELECT run_id, step, lane, start_offset_us, duration_us, gap_before_us FROM critical_path ORDER BY run_id, step"
    ).fetchall():
        paths[row[0]].append(row[1:])
    total_tasks = db.sql("SELECT count(*) FROM tasks").fetchall()[0][0]
    check(total_tasks == sum(len(r["tasks"]) for r in refs), f"tasks has {total_tasks} rows")
    for r in refs:
        name, a, origin = " + ".join(r["paths"]), r["analyze"], r["origin"] or 0
        row = runs.get(r["id"])
        check(row is not None, f"no runs row for {name} (id {r['id']})")
        if row is None:
            continue
        _, fmt, wall, cp, count, started = row
        check(fmt == a["format"], f"{name}: format {fmt} != {a['format']}")
        check(close(wall, ms_us(a.get("wall_ms")), 1), f"{name}: wall_us {wall} vs wall_ms {a.get('wall_ms')}")
        check(wall == us(r["wall"]), f"{name}: wall_us {wall} vs the dump's {r['wall']} ns")
        path = a.get("critical_path") or None
        check(close(cp, ms_us(path and path["total_ms"]), 1), f"{name}: critical_path_us {cp} vs {path and path['total_ms']}")
        check(count == len(r["tasks"]), f"{name}: task_count {count} != {len(r['tasks'])} dumped")
        dated = origin >= DATES_FROM_NS
        want_start = datetime.datetime.fromtimestamp(origin // 1000 / 1e6, datetime.timezone.utc) if dated else None
        check(started == want_start, f"{name}: started_at {started} != {want_start}")
        want = sorted(
            (role, uid, lane, us(None if s is None else s - origin), us(d), kind, b, st)
            for role, uid, lane, s, d, kind, b, st in r["tasks"]
        )
        got = sorted(tasks.get(r["id"], []))
        check(got == want, f"{name}: tasks differ from the dump ({len(got)} vs {len(want)} rows)")
        steps = (path or {}).get("tasks", [])
        got_path = paths.get(r["id"], [])
        check(len(got_path) == len(steps), f"{name}: {len(got_path)} path steps, analyze prints {len(steps)}")
        prev_end = origin / 1e6
        for (step, lane, start, dur, gap), s in zip(got_path, steps):
            lane_ok = lane == s.get("host", s.get("lane", lane))
            start_ok = close(start, ms_us(s["start_ms"] - origin / 1e6), 2)
            dur_ok = close(dur, ms_us(s["end_ms"] - s["start_ms"]), 2)
            gap_ok = close(gap, max(0, ms_us(s["start_ms"] - prev_end)), 2)
            check(lane_ok and start_ok and dur_ok and gap_ok, f"{name}: path step {step} differs from analyze's {s}")
            prev_end = s["end_ms"]


def cookbook():
    text = open(DOC).read()
    blocks = re.findall(r"```sql\n-- cookbook: (\w+)\n(.*?)```", text, re.S)
    return dict(blocks)


def quantile_cont(values, q):
    v = sorted(values)
    pos = (len(v) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def dt_of(r):
    o = r["origin"]
    if o is None or o < DATES_FROM_NS:
        return None
    return datetime.datetime.fromtimestamp(o // 1_000_000_000, datetime.timezone.utc).date()


def task_keys(db):
    """Each task's key by (run_id, role, uid, lane, start offset, duration),
    and each work task's by (run_id, uid), from the export: the key is the
    one thing `analyze` does not print."""
    keys, work = collections.defaultdict(set), {}
    for rid, role, uid, lane, start, dur, key in db.sql(
        "SELECT run_id, role, uid, lane, start_offset_us, duration_us, task_key FROM tasks"
    ).fetchall():
        keys[(rid, role, uid, lane, start, dur)].add(key)
        if role == "work":
            work[(rid, uid)] = key
    return keys, work


def expected_answers(db, refs):
    """Each cookbook question answered from the CLI's output."""
    want = {}
    role_of = {"run": "work", "copy": "transfer", "prepare": "setup"}
    keys, work = task_keys(db)
    week_end = datetime.date(2024, 11, 25)
    on_path = collections.Counter()
    for r in refs:
        d = dt_of(r)
        if d is None or d < week_end - datetime.timedelta(days=7):
            continue
        assert r["analyze"]["format"] == "distbuild", "only simulated builds are dated this week"
        seen = set()
        for s in (r["analyze"].get("critical_path") or {}).get("tasks", []):
            start = ms_us(s["start_ms"] - r["origin"] / 1e6)
            uid = s.get("uid", s.get("type"))
            k = keys[(r["id"], role_of[s["kind"]], uid, s["host"], start, ms_us(s["end_ms"] - s["start_ms"]))]
            if s["kind"] == "copy":
                k = {x for x in k if x.endswith(" for " + work[(r["id"], s["consumer"])])}
            assert len(k) == 1, f"step {s} of {r['paths']} matches {k}"
            seen |= k
        on_path.update(seen)
    want["critical_targets"] = sorted(on_path.items(), key=lambda kv: (-kv[1], kv[0]))[:20]

    copies = collections.defaultdict(list)
    for r in refs:
        for role, _, lane, _, dur, _, _, _ in r["tasks"]:
            if role == "transfer" and dur is not None:
                copies[lane].append(us(dur))
    rows = [(lane, len(v), quantile_cont(v, 0.9)) for lane, v in copies.items()]
    want["copy_p90_per_host"] = sorted(rows, key=lambda x: (-x[2], x[0]))

    scans = []
    for r in refs:
        if r["analyze"]["format"] != "starrocks":
            continue
        durs = [(kind, us(d)) for _, _, _, _, d, kind, _, _ in r["tasks"] if d is not None]
        scan = [d for kind, d in durs if "SCAN" in kind]
        source = " + ".join(os.path.basename(p) for p in r["paths"])
        scans.append((source, sum(scan) if scan else None, sum(d for _, d in durs) if durs else None))
    want["scan_heavy_plans"] = sorted(scans, key=lambda x: (x[1] is None, -(x[1] or 0), x[0]))

    walls = collections.defaultdict(list)
    shares = collections.defaultdict(list)
    for r in refs:
        a = r["analyze"]
        wall = us(r["wall"])
        walls[a["format"]].append(wall)
        path = a.get("critical_path")
        if path and wall:
            shares[a["format"]].append(ms_us(path["total_ms"]) / wall)
    want["wall_by_format"] = [
        (f, len(v), quantile_cont([x for x in v if x is not None], 0.5), quantile_cont([x for x in v if x is not None], 0.9), max(x for x in v if x is not None))
        for f, v in sorted(walls.items())
    ]
    want["path_share"] = [(f, len(v), sum(v) / len(v)) for f, v in sorted(shares.items())]

    outcomes = collections.defaultdict(lambda: [0, 0, 0])
    for r in refs:
        o = outcomes[(dt_of(r), r["analyze"]["format"])]
        for t in r["tasks"]:
            o[0] += 1
            o[1] += t[7] == "cached"
            o[2] += t[7] == "failed"
    want["outcomes_by_day"] = sorted(
        ((d, f, *v) for (d, f), v in outcomes.items()), key=lambda x: (x[0] is None, x[0] or datetime.date.min, x[1])
    )

    idle = []
    for r in refs:
        steps = (r["analyze"].get("critical_path") or {}).get("tasks", [])
        if not steps:
            continue
        prev, total = r["origin"] / 1e6, 0
        for s in steps:
            total += max(0, ms_us(s["start_ms"] - prev))
            prev = s["end_ms"]
        source = " + ".join(os.path.basename(p) for p in r["paths"])
        idle.append((source, r["id"], total, len(steps)))
    want["idle_on_path"] = sorted(idle, key=lambda x: (-x[2], x[1]))[:10]
    return want


def same(got, want, tol):
    if len(got) != len(want):
        return False
    for g, w in zip(got, want):
        if len(g) != len(w):
            return False
        for a, b in zip(g, w):
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
                if abs(a - b) > tol * max(1, abs(b)):
                    return False
            elif a != b:
                return False
    return True


def check_cookbook(db, refs, out):
    queries = cookbook()
    want = expected_answers(db, refs)
    check(set(queries) - {"views"} == set(want), f"cookbook queries {sorted(queries)} vs checked {sorted(want)}")
    # `analyze` prints ms rounded to the µs, the tables µs rounded down: a
    # gap or a share made of them may differ by a µs a step (a 0.7 ms
    # StarRocks query's share by 1.5e-4).
    tolerance = {"idle_on_path": 1e-3, "path_share": 2e-3}
    for name, sql in queries.items():
        if name == "views":
            continue
        got = db.sql(sql.replace("current_date", DATA_WEEK_END)).fetchall()
        if name == "idle_on_path":
            # Ties in idle time within a µs may order differently: compare as sets of runs.
            ok = sorted(g[1] for g in got) == sorted(w[1] for w in want[name]) and same(
                sorted(got, key=lambda x: x[1]), sorted(want[name], key=lambda x: x[1]), 1e-3
            )
        else:
            ok = same(got, want[name], tolerance.get(name, 1e-9))
        check(ok, f"cookbook query {name}: DuckDB says {got[:5]}…, the CLI {want[name][:5]}…")
        check(len(got) > 0, f"cookbook query {name} answers nothing")
        if ok:
            print(f"cookbook {name}: {len(got)} rows, as the CLI computes")


def check_files(db, out):
    types = dict(
        db.sql(
            f"SELECT name, coalesce(logical_type, type) FROM parquet_schema('{out}/tasks/*/*.parquet') WHERE name IN ('started_at', 'duration_us', 'uid')"
        ).fetchall()
    )
    check("isAdjustedToUTC=1" in types["started_at"] and "MICROS=MicroSeconds()" in types["started_at"], f"started_at is {types['started_at']}")
    check(types["duration_us"] == "INT64", f"duration_us is {types['duration_us']}")
    check(types["uid"] == "StringType()", f"uid is {types['uid']}")
    codecs = {c for (c,) in db.sql(f"SELECT DISTINCT compression FROM parquet_metadata('{out}/*/*/*.parquet')").fetchall()}
    check(codecs == {"SNAPPY"}, f"codecs {codecs}")
    dt = {t for (t,) in db.sql("SELECT DISTINCT typeof(dt) FROM tasks").fetchall()}
    check(dt == {"DATE"}, f"dt reads as {dt}")
    nulls = db.sql("SELECT count(*) FROM runs WHERE dt IS NULL AND started_at IS NOT NULL").fetchall()[0][0]
    check(nulls == 0, "a dated run in the undated partition")


def main():
    for tool in (LONGPOLE, SIM):
        if not os.access(tool, os.X_OK):
            sys.exit(f"{tool} is missing: build it first (cargo build -p longpole-cli -p longpole-distbuild-sim)")
    tmp = tempfile.mkdtemp(prefix="longpole-fleet-")
    try:
        sim_dirs = simulate(os.path.join(tmp, "sim"))
        groups, unread = expected_groups(sim_dirs)
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
            refs = list(pool.map(reference, groups))
        out = os.path.join(tmp, "fleet")
        p = run(LONGPOLE, "export", CORPUS, os.path.join(tmp, "sim"), "--to", "parquet", "--output", out, ok=False)
        skipped = [l for l in p.stderr.splitlines() if l.startswith("longpole: skipped ")]
        check(p.returncode == 1, f"the export's exit status is {p.returncode} with unreadable inputs")
        check(len(skipped) == len(unread), f"{len(skipped)} inputs reported skipped, {len(unread)} unreadable")
        check(f"{len(unread)} of {len(groups) + len(unread)} runs failed" in p.stderr, f"last line: {p.stderr.splitlines()[-1:]}")
        db = duckdb.connect()
        views = cookbook()["views"].replace("'fleet/", f"'{out}/")
        db.sql(views)
        check_tables(db, refs)
        check_files(db, out)
        check_cookbook(db, refs, out)
        # Exporting again replaces rows: the same counts.
        before = db.sql("SELECT count(*) FROM tasks").fetchall()[0][0]
        run(LONGPOLE, "export", os.path.join(tmp, "sim"), "--to", "parquet", "--output", out)
        check(db.sql("SELECT count(*) FROM tasks").fetchall()[0][0] == before, "exporting again added rows")
        print(f"{len(refs)} runs ({len(groups) - len(sim_dirs)} from the corpus, {len(sim_dirs)} simulated), {before} tasks")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        sys.exit(f"{len(failures)} checks failed")
    print("fleet tables: all checks passed (DuckDB", duckdb.__version__ + ")")


if __name__ == "__main__":
    main()
