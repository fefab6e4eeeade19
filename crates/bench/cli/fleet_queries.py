#!/usr/bin/env python3
"""DuckDB's time for each query of docs/fleet.md's cookbook over an export
folder (the median of 3 runs, after one to warm the file cache), then the
same over a compacted copy (docs/fleet.md's "Compacting": one file per
table and day) written to COMPACT.
Usage: fleet_queries.py FOLDER COMPACT"""

import os
import re
import statistics
import sys
import time

import duckdb

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
text = open(os.path.join(root, "docs", "fleet.md")).read()
queries = dict(re.findall(r"```sql\n-- cookbook: (\w+)\n(.*?)```", text, re.S))
compact = dict(re.findall(r"```sql\n-- compact: (\w+)\n(.*?)```", text, re.S))["compact"]
views = queries.pop("views")


def timed(folder, label):
    db = duckdb.connect()
    db.sql(views.replace("'fleet/", f"'{folder}/"))
    total = 0.0
    for name, sql in queries.items():
        sql = sql.replace("current_date", "DATE '2024-11-25'")
        times = []
        for _ in range(4):
            t = time.perf_counter()
            db.sql(sql).fetchall()
            times.append(time.perf_counter() - t)
        median = statistics.median(times[1:])
        total += median
        print(f"duckdb {duckdb.__version__} {label:9} {name:18} {median * 1000:8.1f} ms")
    print(f"duckdb {duckdb.__version__} {label:9} all {len(queries)} queries {total:8.2f} s")
    return db


db = timed(sys.argv[1], "per run")
os.makedirs(sys.argv[2], exist_ok=True)
t = time.perf_counter()
db.sql(compact.replace("'fleet-compact/", f"'{sys.argv[2]}/"))
print(f"duckdb {duckdb.__version__} compacting into one file per table and day: {time.perf_counter() - t:.2f} s")
timed(sys.argv[2], "compacted")
