#!/usr/bin/env python3
"""The fleet tables read by Spark: PySpark in local mode reads an export of
the test corpus (tests/data) and simulated builds (`dt` discovered from the folders),
and runs every query of docs/fleet.md's DuckDB cookbook in Spark SQL
(`percentile` for `quantile_cont`, as docs/fleet.md says); each answer must
equal DuckDB's over the same files, which tests/fleet/duckdb_test.py checks
against the CLI. The types must be Spark's timestamp, bigint and date.

Opt-in, as a JVM is heavy for every CI run: LONGPOLE_SPARK=1
scripts/setup.sh installs pyspark (and OpenJDK when there is no Java), then
LONGPOLE_SPARK=1 target/venv-tools/bin/python tests/fleet/spark_check.py [BIN_DIR].
"""

import datetime
import os
import shutil
import subprocess
import sys
import tempfile

if os.environ.get("LONGPOLE_SPARK") != "1":
    print("spark_check: skipped (set LONGPOLE_SPARK=1 to run it)")
    sys.exit(0)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import duckdb  # noqa: E402
import duckdb_test as fleet  # noqa: E402
import pyspark  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

fleet.RERUNS, fleet.OWN_BUILDS = 40, 10


def plain(v):
    """A Spark or DuckDB value as Python compares it."""
    if isinstance(v, datetime.datetime):
        return v.astimezone(datetime.timezone.utc) if v.tzinfo else v
    if hasattr(v, "__float__") and not isinstance(v, (int, bool)):
        return float(v)
    return v


def main():
    tmp = tempfile.mkdtemp(prefix="longpole-spark-")
    try:
        fleet.simulate(os.path.join(tmp, "sim"))
        out = os.path.join(tmp, "fleet")
        subprocess.run(
            [fleet.LONGPOLE, "export", fleet.CORPUS, os.path.join(tmp, "sim"), "--to", "parquet", "--output", out],
            capture_output=True,
        )
        spark = (
            SparkSession.builder.master("local[2]")
            .appName("longpole-fleet")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
        for table in ("runs", "tasks", "critical_path"):
            spark.read.parquet(os.path.join(out, table)).createOrReplaceTempView(table)
        types = dict(spark.table("tasks").dtypes)
        fleet.check(types["started_at"] == "timestamp", f"Spark reads started_at as {types['started_at']}")
        fleet.check(types["duration_us"] == "bigint", f"Spark reads duration_us as {types['duration_us']}")
        fleet.check(types["dt"] == "date", f"Spark reads dt as {types['dt']}")
        undated = spark.sql("SELECT count(*) FROM runs WHERE dt IS NULL").collect()[0][0]
        fleet.check(undated > 0, "Spark reads no run of __HIVE_DEFAULT_PARTITION__ as a null dt")

        db = duckdb.connect()
        queries = fleet.cookbook()
        db.sql(queries.pop("views").replace("'fleet/", f"'{out}/"))
        for name, sql in queries.items():
            sql = sql.replace("current_date", fleet.DATA_WEEK_END)
            want = [tuple(plain(v) for v in row) for row in db.sql(sql).fetchall()]
            got = [tuple(plain(v) for v in row) for row in spark.sql(sql.replace("quantile_cont(", "percentile(")).collect()]
            fleet.check(fleet.same(got, want, 1e-9), f"{name}: Spark says {got[:3]}…, DuckDB {want[:3]}…")
            print(f"spark {name}: {len(got)} rows, as DuckDB")
        runs = spark.sql("SELECT count(*) FROM runs").collect()[0][0]
        print(f"Spark {pyspark.__version__} ({spark.sparkContext._jvm.java.lang.System.getProperty('java.version')} JVM) read {runs} runs")
        spark.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if fleet.failures:
        sys.exit(f"{len(fleet.failures)} checks failed")
    print("spark_check: all checks passed")


if __name__ == "__main__":
    main()
