#!/usr/bin/env python3
"""Spark applications run for real and read by longpole: a small PySpark
application (PySpark from PyPI, in target/venv-spark or target/venv-tools;
Java from the system) with a skewed join whose shuffles a later job reuses
(its map stages are then skipped), a grouping that a second action reuses,
and a SQL query, run in local mode with spark.eventLog.enabled, once
uncompressed and once with each of Spark's event-log codecs (zstd, lz4,
snappy).

For each log, `longpole analyze --format json` is checked against the
figures the History Server shows, computed here from the events with the
json module (and, for compressed logs, from the uncompressed log of the
same run written beside it, so the codec is the only difference):

- the wall is the application's duration: ApplicationEnd's Timestamp less
  ApplicationStart's (the History Server's attempt duration);
- jobs, stages that ran, skipped stages and task attempts are counted as
  the History Server counts them;
- each path stage's duration is its Completion Time less its Submission
  Time, as the stages page shows it;
- the path ends at the stage that completed last, and is a chain of real
  dependencies: each stage on it is a parent of the next (Parent IDs), or
  was computed by the same RDD as a skipped parent of the next;
- the path runs back through the skipped stage of the last job to the
  join's map stage of the job before, and names a straggler on the join's
  reduce side.

Where no Java is installed, the script says so and passes.

Usage: tests/spark/spark_test.py [BIN_DIR] [--quick] [--keep DIR] (BIN_DIR defaults
to target/debug and must hold `longpole`; --keep copies each log to DIR,
which is how crates/core/tests/fixtures/spark/ was made).

`tests/spark/spark_test.py --references DIR` writes, beside each log in
DIR, `<log>.reference`: the History Server's figures of it and the
SHA-256 of its events as Spark's own reader decodes them (the Rust tests
check longpole's decoding and figures against these).
"""

import glob
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
# --quick (the test suite's run): uncompressed and zstd (Spark's default
# codec) only; the committed fixtures cover lz4, snappy and rolling logs.
CODECS = [None, "zstd"] if "--quick" in sys.argv else [None, "zstd", "lz4", "snappy", "rolling"]

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def python_with_pyspark():
    for venv in ("venv-spark", "venv-tools"):
        py = os.path.join(ROOT, "target", venv, "bin", "python")
        if os.path.exists(py) and subprocess.run([py, "-c", "import pyspark"], capture_output=True).returncode == 0:
            return py
    return None


DECODE = r'''
def decode(jvm, log, dest):
    """The events of `log` (a file, or a rolling log's folder) as Spark's
    own reader decodes them (by the codec its name ends in), into `dest`."""
    import glob, os
    parts = [log]
    if os.path.isdir(log):
        parts = sorted(glob.glob(log + "/events_*"), key=lambda p: int(os.path.basename(p).split("_")[1]))
    with open(dest, "w") as f:
        for part in parts:
            hpath = jvm.org.apache.hadoop.fs.Path("file://" + os.path.abspath(part))
            fs = hpath.getFileSystem(jvm.org.apache.hadoop.conf.Configuration())
            stream = jvm.org.apache.spark.deploy.history.EventLogFileReader.openEventLog(hpath, fs)
            reader = jvm.java.io.BufferedReader(jvm.java.io.InputStreamReader(stream, "UTF-8"))
            while True:
                line = reader.readLine()
                if line is None:
                    break
                f.write(line + "\n")
            reader.close()
'''

APP = DECODE + r'''
import sys
from pyspark.sql import SparkSession
codec, out = sys.argv[1], sys.argv[2]
b = (SparkSession.builder.master("local[4]").appName("longpole-skewed-join")
     .config("spark.eventLog.enabled", "true").config("spark.eventLog.dir", out)
     .config("spark.ui.enabled", "false").config("spark.sql.adaptive.enabled", "false")
     .config("spark.sql.shuffle.partitions", "4").config("spark.default.parallelism", "4"))
b = b.config("spark.eventLog.rolling.enabled", "true" if codec == "rolling" else "false")
if codec in ("none", "rolling"):
    b = b.config("spark.eventLog.compress", "false")
else:
    b = b.config("spark.eventLog.compress", "true").config("spark.eventLog.compression.codec", codec)
spark = b.getOrCreate()
sc = spark.sparkContext
sc.setLogLevel("ERROR")

def spin(n):
    s = 0
    for i in range(n):
        s += i * i
    return s

sc.setJobDescription(None)
spark.range(0, 5000, 1, 4).selectExpr("id % 7 AS k").groupBy("k").count().collect()
# A grouping and a second action on it (its map stage skipped).
sc.setJobDescription("group sizes")
sizes = sc.parallelize(range(2000), 4).map(lambda x: (x % 5, x)).groupByKey(4).mapValues(len)
sizes.count()
sizes.collect()
# A skewed join: key 0 holds most rows on the left and several on the right.
sc.setJobDescription("skewed join")
left = sc.parallelize(range(4000), 4).map(lambda x: (0 if x % 10 < 8 else x % 16, x))
right = sc.parallelize(range(64), 4).map(lambda x: (x % 16 if x >= 8 else 0, x))
joined = left.join(right, 4).mapValues(lambda v: v[0] + v[1] + spin(200) % 7)
joined.count()
# The same join's shuffle reused, last: its map stage is skipped, and the
# path runs back through it to the join's map stage of the job before.
sc.setJobDescription("sum by key over the join")
joined.reduceByKey(lambda a, b: a + b, 4).collect()
spark.stop()
# Spark's own reader of event logs writes the events back plain for the check.
import glob, os
log = [p for p in glob.glob(out.replace("file://", "") + "/*") if not os.path.basename(p).startswith(".")][0]
decode(sc._gateway.jvm, log, sys.argv[3])
'''


def run_app(py, codec, out):
    app = os.path.join(out, "app.py")
    with open(app, "w") as f:
        f.write(APP)
    events = os.path.join(out, "events")
    os.makedirs(events)
    decoded = os.path.join(out, "decoded.jsonl")
    p = subprocess.run([py, app, codec or "none", "file://" + events, decoded], capture_output=True, text=True,
                       env={**os.environ, "PYSPARK_PYTHON": py, "SPARK_LOCAL_IP": "127.0.0.1"})
    if p.returncode != 0:
        raise SystemExit(f"the Spark application failed:\n{p.stderr[-3000:]}")
    logs = [p for p in glob.glob(os.path.join(events, "*")) if not os.path.basename(p).startswith(".")]
    assert len(logs) == 1, logs
    with open(decoded) as f:
        events = [json.loads(line) for line in f if line.strip()]
    return logs[0], events


def history_figures(events):
    """What the History Server shows, from the events."""
    by = lambda name: [e for e in events if e["Event"] == name]
    start = by("SparkListenerApplicationStart")[0]["Timestamp"]
    end = by("SparkListenerApplicationEnd")[0]["Timestamp"]
    completed = {e["Stage Info"]["Stage ID"]: e["Stage Info"] for e in by("SparkListenerStageCompleted")}
    listed = {}
    for j in by("SparkListenerJobStart"):
        for s in j["Stage Infos"]:
            listed.setdefault(s["Stage ID"], s)
    skipped = [i for i in listed if i not in completed]
    return {
        "wall_ms": end - start,
        "jobs": len(by("SparkListenerJobStart")),
        "stages_ran": len(completed),
        "stages_skipped": len(skipped),
        "tasks": len(by("SparkListenerTaskEnd")),
        "completed": completed,
        "listed": listed,
    }


def output_rdd(info):
    return max(r["RDD ID"] for r in info["RDD Info"])


def check_log(path, h, label):
    out = subprocess.run([LONGPOLE, "analyze", "--format", "json", path], capture_output=True, text=True)
    check(out.returncode == 0, f"{label}: longpole analyze failed: {out.stderr}")
    if out.returncode != 0:
        return None
    r = json.loads(out.stdout)
    check(r["format"] == "spark", f"{label}: format {r['format']}")
    check(r["wall_ms"] == h["wall_ms"], f"{label}: wall {r['wall_ms']} ms, the History Server's {h['wall_ms']} ms")
    s = r["spark"]
    for k, want in [("jobs", h["jobs"]), ("stages_ran", h["stages_ran"]), ("stages_skipped", h["stages_skipped"]),
                    ("task_attempts", h["tasks"])]:
        check(s[k] == want, f"{label}: {k} {s[k]}, the events' {want}")
    path_ = r["critical_path"]["tasks"]
    check(len(path_) >= 2, f"{label}: a path of {len(path_)} stages")
    last = max(h["completed"].values(), key=lambda i: (i["Completion Time"], i["Stage ID"]))
    check(path_[-1]["stage_id"] == last["Stage ID"], f"{label}: the path ends at stage {path_[-1]['stage_id']}, not {last['Stage ID']}")
    for t in path_:
        info = h["completed"][t["stage_id"]]
        want = info["Completion Time"] - info["Submission Time"]
        check(t["duration_ms"] == want, f"{label}: stage {t['stage_id']} lasts {t['duration_ms']} ms, the History Server's {want}")
    for a, b in zip(path_, path_[1:]):
        parents = h["completed"][b["stage_id"]]["Parent IDs"]
        real = a["stage_id"] in parents or any(
            p not in h["completed"] and output_rdd(h["listed"][p]) == output_rdd(h["completed"][a["stage_id"]])
            for p in parents)
        check(real, f"{label}: stage {a['stage_id']} is not a parent (nor stands for one) of stage {b['stage_id']}")
    first, final = path_[0], path_[-1]
    span = h["completed"][final["stage_id"]]["Completion Time"] - h["completed"][first["stage_id"]]["Submission Time"]
    check(r["critical_path"]["total_ms"] == span, f"{label}: path total {r['critical_path']['total_ms']}, its span {span}")
    on_path = [t for t in path_ if t.get("skew") and t["skew"]["straggler"]]
    check(any(t["for_skipped_stage"] is not None for t in path_), f"{label}: no skipped stage resolved on the path")
    check(bool(on_path), f"{label}: no straggler named on the path")
    return r


REFERENCE_APP = DECODE + r'''
import sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
for log in sys.argv[1:]:
    decode(spark.sparkContext._gateway.jvm, log, log.rstrip("/") + ".decoded")
spark.stop()
'''


def write_references(py, folder):
    """Each log of `folder` decoded by Spark, and its figures, as `<log>.reference`."""
    import hashlib
    logs = sorted(p for p in glob.glob(os.path.join(folder, "*"))
                  if not p.endswith((".reference", ".md", ".decoded", ".py")))
    with tempfile.TemporaryDirectory() as tmp:
        app = os.path.join(tmp, "decode.py")
        with open(app, "w") as f:
            f.write(REFERENCE_APP)
        subprocess.run([py, app, *logs], check=True, capture_output=True)
    for log in logs:
        decoded = log.rstrip("/") + ".decoded"
        with open(decoded, "rb") as f:
            raw = f.read()
        os.remove(decoded)
        h = history_figures([json.loads(line) for line in raw.splitlines() if line.strip()])
        ref = {
            "decoded_bytes": len(raw),
            "decoded_sha256": hashlib.sha256(raw).hexdigest(),
            "wall_ms": h["wall_ms"], "jobs": h["jobs"], "stages_ran": h["stages_ran"],
            "stages_skipped": h["stages_skipped"], "tasks": h["tasks"],
            "last_completed_stage": max(h["completed"].values(), key=lambda i: (i["Completion Time"], i["Stage ID"]))["Stage ID"],
            "stage_duration_ms": {str(i): s["Completion Time"] - s["Submission Time"] for i, s in sorted(h["completed"].items())},
        }
        with open(log.rstrip("/") + ".reference", "w") as f:
            json.dump(ref, f, indent=1, sort_keys=True)
            f.write("\n")


def main():
    if "--references" in sys.argv:
        py = python_with_pyspark()
        write_references(py, sys.argv[sys.argv.index("--references") + 1])
        return 0
    if shutil.which("java") is None:
        print("no Java: the Spark runs are skipped")
        return 0
    py = python_with_pyspark()
    if py is None:
        print("no PySpark in target/venv-spark or target/venv-tools: the Spark runs are skipped")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        for codec in CODECS:
            out = os.path.join(tmp, codec or "plain")
            os.makedirs(out)
            log, events = run_app(py, codec, out)
            check_log(log, history_figures(events), codec or "plain")
            if KEEP:
                os.makedirs(KEEP, exist_ok=True)
                dest = os.path.join(KEEP, os.path.basename(log) if codec == "rolling" else "skewed-join" + ("." + codec if codec else ""))
                (shutil.copytree if os.path.isdir(log) else shutil.copy)(log, dest)
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        return 1
    print("spark: every figure matches the History Server's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
