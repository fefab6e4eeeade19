#!/usr/bin/env python3
"""DuckDB's time for each query of docs/fleet.md's cookbook over an export
folder: the median of 3 runs, after one to warm the file cache.
Usage: fleet_queries.py FOLDER"""

import os
import re
import statistics
import sys
import time

import duckdb

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
queries = dict(re.findall(r"```sql\n-- cookbook: (\w+)\n(.*?)```", open(os.path.join(root, "docs", "fleet.md")).read(), re.S))
db = duckdb.connect()
db.sql(queries.pop("views").replace("'fleet/", f"'{sys.argv[1]}/"))
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
    print(f"duckdb {duckdb.__version__} {name:20} {median * 1000:8.1f} ms")
print(f"duckdb, all {len(queries)} queries: {total:.2f} s")
