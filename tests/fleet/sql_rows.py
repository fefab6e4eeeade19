#!/usr/bin/env python3
"""The DuckDB cookbook of docs/fleet.md answered over a folder of fleet
tables (`longpole export --to parquet` output), with PyPI's `duckdb`: the
reference the SQL tab's answers are checked against
(tests/e2e/sql.test.mjs). Prints JSON: {query name: rows}, each value as
JSON has it (a date as YYYY-MM-DD, a decimal as a number).

Usage: tests/fleet/sql_rows.py EXPORT_DIR [DATA_WEEK_END]
(DATA_WEEK_END, a SQL date, stands for `current_date`, as in duckdb_test.py.)
"""

import datetime
import decimal
import json
import os
import re
import sys

import duckdb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cookbook():
    text = open(os.path.join(ROOT, "docs", "fleet.md"), encoding="utf-8").read()
    return dict(re.findall(r"```sql\n-- cookbook: (\w+)\n(.*?)```", text, re.S))


def value(v):
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return float(v)
    return v


def main():
    folder = sys.argv[1]
    week_end = sys.argv[2] if len(sys.argv) > 2 else "current_date"
    queries = cookbook()
    db = duckdb.connect()
    db.sql(queries.pop("views").replace("'fleet/", f"'{folder}/"))
    out = {}
    for name, sql in queries.items():
        rows = db.sql(sql.replace("current_date", week_end)).fetchall()
        out[name] = [[value(v) for v in row] for row in rows]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
