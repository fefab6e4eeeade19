//! The bundled samples behind "Try a sample", one per format, each a file
//! under `samples/` served with the app and credited in docs/samples.md.

/// A bundled sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Stable id, used in test hooks.
    pub id: &'static str,
    /// Button label.
    pub label: &'static str,
    /// File names under `samples/`, opened together.
    pub files: &'static [&'static str],
    /// Where it comes from.
    pub credit: &'static str,
}

/// Every sample, in menu order.
pub const SAMPLES: &[Sample] = &[
    Sample {
        id: "distbuild",
        label: "distbuild build",
        files: &["simulated-build.log.gz", "simulated-build.graph.json.gz"],
        credit:
            "a simulated distributed build: 3,000 nodes on 20 hosts, with its graph.json (made by crates/distbuild-sim)",
    },
    Sample {
        id: "distbuild-tiny",
        label: "distbuild, 3 tasks",
        files: &["distbuild-example.log"],
        credit: "a hand-made distbuild log with ya's own results (shared corpus)",
    },
    Sample {
        id: "ghc",
        label: "GHC eventlog",
        files: &["ghc-stop.hT.eventlog.gz"],
        credit:
            "stop.hT.eventlog from haskell/ghc-events' tests: 29,492 thread runs, 4,788 collections (shared corpus)",
    },
    Sample {
        id: "ghc-parallel",
        label: "GHC, several capabilities",
        files: &["ghc-testlog.eventlog"],
        credit: "testlog.eventlog from haskell/ghc-events' tests: a parallel program on an early GHC (shared corpus)",
    },
    Sample {
        id: "monetdb",
        label: "MonetDB TPC-H Q1",
        files: &["monetdb-tpch-q01.json.gz"],
        credit: "a MAL trace of TPC-H Q1 at SF10 on 10 threads, from MonetDBSolutions/mal_analytics' tests (shared corpus)",
    },
    Sample {
        id: "monetdb-distributed",
        label: "MonetDB distributed query",
        files: &["monetdb-supervisor.json", "monetdb-worker1.json"],
        credit: "a remote-table query's supervisor and one worker, from MonetDBSolutions/mal_analytics' tests (shared corpus)",
    },
    Sample {
        id: "evobench",
        label: "evobench benchmark log",
        files: &["evobench-sum_of_fibs.log.zstd"],
        credit: "evobench's own example program (sum_of_fibs) run with its probes, zstd-compressed (shared corpus)",
    },
    Sample {
        id: "evobench-two-runs",
        label: "evobench, two runs compared",
        files: &["evobench-v1-sum_of_fibs.log.gz", "evobench-sum_of_fibs.log.zstd"],
        credit: "the bench.log committed to GenSpectrum/evobench (old dialect) and the current example run (shared corpus)",
    },
    Sample {
        id: "ninja",
        label: "ninja log, 3 builds",
        files: &["ninja-kati.ninja_log"],
        credit: "the .ninja_log committed to an archive of google/kati: three builds of kati (shared corpus)",
    },
    Sample {
        id: "ninja-graph",
        label: "ninja build with its graph",
        files: &["ninja-cmake.ninja_log", "ninja-cmake-build.ninja", "rules.ninja", "ninja-cmake.ninja_deps"],
        credit: "a CMake project with a generated header every object waits for, built with ninja -j2 by crates/cli/tests/ninja_real.rs",
    },
    Sample {
        id: "starrocks",
        label: "StarRocks query profile",
        files: &["starrocks-profile1.txt"],
        credit: "a 9m41s query on a StarRocks 3.5.2 shared-data cluster, from jlon/starrocks-admin's test fixtures (shared corpus)",
    },
    Sample {
        id: "chrome",
        label: "Chrome trace",
        files: &["chrome-x_event_trace.json.gz"],
        credit: "a real Chrome trace from catapult-project/catapult's test data: 2,799 complete events (shared corpus)",
    },
    Sample {
        id: "chrome-bazel",
        label: "Bazel build profile",
        files: &["bazel-tiny.json.gz"],
        credit: "a Bazel --generate_json_trace_profile output from EngFlow/bazel_invocation_analyzer's tests (shared corpus)",
    },
    Sample {
        id: "cargo",
        label: "Cargo build timings",
        files: &["cargo-longpole.html"],
        credit: "longpole's own CLI built from nothing with cargo build --release --timings (made by scripts/make-samples.sh)",
    },
    Sample {
        id: "dbt",
        label: "dbt build",
        files: &["dbt-build-run_results.json", "dbt-build-manifest.json.gz"],
        credit: "a dbt build of 23 models, a seed and 6 tests on DuckDB with 4 threads, by tests/dbt/dbt_test.py (the same files as crates/core/tests/fixtures/dbt/build/)",
    },
    Sample {
        id: "spark",
        label: "Spark application",
        files: &["spark-skewed-join.zstd"],
        credit: "a PySpark application with a skewed join whose shuffle a later job reuses, its event log compressed with zstd, by tests/spark/spark_test.py (the same file as crates/core/tests/fixtures/spark/skewed-join.zstd)",
    },
];

/// The URL of a sample file, relative to the page so any base path works.
pub fn url(file: &str) -> String {
    format!("samples/{file}")
}
