#!/usr/bin/env python3
"""Writes longpole's hostile inputs into a directory, with what each must give.

    python3 tests/hostile/generate.py OUT_DIR

writes the inputs and OUT_DIR/expected.json: a list of {"file", "outcome",
"message"}, where outcome is "error" (one error naming the format, the
position or the offending bytes, matching the regular expression
"message") or "read" (a result; "message" matches the CLI's text report,
diagnostics included). The CLI tests (crates/cli/tests/hostile.rs) and the
end-to-end test (tests/e2e/hostile.test.mjs) read both. Everything is
deterministic: the "random" bytes come from a fixed seed.
"""

import bz2
import gzip
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def chrome(events):
    return json.dumps({"traceEvents": events}).encode()


def x(name, ts, dur, tid=1):
    return {"ph": "X", "name": name, "ts": ts, "dur": dur, "pid": 1, "tid": tid}


def inputs():
    rnd = random.Random(17)
    distbuild = (SAMPLES / "distbuild-example.log").read_bytes()
    zst = (SAMPLES / "evobench-sum_of_fibs.log.zstd").read_bytes()
    ghc = (SAMPLES / "ghc-testlog.eventlog").read_bytes()
    starrocks = (SAMPLES / "starrocks-profile1.txt").read_bytes()
    ninja = (SAMPLES / "ninja-kati.ninja_log").read_bytes()
    long_name = b"a" * (64 << 20)
    yield "empty.log", b"", "error", r"^empty\.log: the file is empty$"
    yield "random.bin", bytes(rnd.randrange(256) for _ in range(100_000)), "error", r"^random\.bin: not a format longpole reads; no reader recognises its first bytes \""
    yield "zeros.bin", bytes(100_000), "error", r"^zeros\.bin: not a format longpole reads; no reader recognises its first bytes \"\\x00"
    yield "cut.log.gz", gzip.compress(distbuild)[:200], "read", r"truncated gzip data after 200 bytes"
    yield "cut.log.bz2", bz2.compress(distbuild)[:200], "error", r"^cut\.log\.bz2: truncated bzip2 data after 200 bytes"
    yield "cut.log.zst", zst[:200], "error", r"^cut\.log\.zst: truncated zstd data after 200 bytes"
    yield "garbage.zst", b"\x28\xb5\x2f\xfd" + bytes(rnd.randrange(256) for _ in range(4096)), "error", r"^garbage\.zst: corrupt zstd data"
    yield "long-line.json", b'[{"name":"' + long_name + b'","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}]', "error", r"^long-line\.json: it looks like a Chrome trace, but line 1 is longer than the 64 KiB read to recognise a format; gave up at line 1, byte 65536$"
    yield "invalid-utf8.log", distbuild.replace(b"host1", b"h\xff\xfeost", 1), "read", r"line 8: warning \[distbuild\.invalid-utf8\]"
    yield "crlf.log", distbuild.replace(b"\n", b"\r\n"), "read", r"distbuild execution log"
    yield "nul.log", distbuild[:300] + b"\x00\x00\x00" + distbuild[300:], "error", r"^nul\.log: not a valid distbuild execution log at line 12: a NUL byte"
    yield "deep.json", b'{"traceEvents":[' + b"[" * 200_000 + b"]" * 200_000 + b"]}", "error", r"^deep\.json: it looks like a Chrome trace, but line 1 is longer than"
    yield "times.json", chrome([x("huge", 1e300, 5), x("negative", -5_000_000, -7), x("nan", "soon", 1), x("fine", 10, 10)]), "read", r"warning \[chrome\.time-range\]: a \"X\" event at or lasting 1e300 µs"
    cycle = [{"uid": u, "deps": d, "kv": {"p": "CC"}, "cmds": [], "outputs": [u]} for u, d in [("a", ["b"]), ("b", ["c"]), ("c", ["a"])]]
    yield "cycle.graph.json", json.dumps({"graph": cycle, "result": ["a"]}).encode(), "read", r"ya build graph, 262 bytes"
    yield "mixed.log", distbuild + ninja, "read", r"line 24: warning \[distbuild\.bad-time\]: the time \"#\" is not an integer"
    yield "threads.json", chrome([x("t", i, 1, tid=i) for i in range(200_000)]), "read", r"200,000 tasks .* on 200,000 lanes"
    yield "markup.json", chrome([x('<script>window.pwned=1</script>"><img src=x onerror="window.pwned=2">', 0, 10)]), "read", r"<script>window\.pwned=1</script>"
    yield "cut-header.eventlog", ghc[:40], "error", r"^cut-header\.eventlog: not a valid GHC eventlog at byte 8: the header ends before its event types do"
    yield "cut.eventlog", ghc[: len(ghc) // 2], "read", r"byte \d+: warning \[ghc-eventlog\.truncated\]: the eventlog stops without its end marker"
    etb = ghc.index(b"etb\x00") + 4
    yield "huge-description.eventlog", ghc[: etb + 4] + b"\xff\xff\xff\xf0" + ghc[etb + 8 :], "error", r"^huge-description\.eventlog: not a valid GHC eventlog at byte 8: the header ends before its event types do: event type 0 at byte 8 declares a description of 4294967280 bytes; the file ends after \d+ bytes"
    yield "huge-event.eventlog", ghc[: etb + 2] + b"\x7f\xff" + ghc[etb + 4 :], "read", r"warning \[ghc-eventlog\.truncated\]: the eventlog stops without its end marker, inside an event of type 0 at byte \d+ that declares 32767 bytes of payload, with \d+ left: the file was cut, or that size is wrong"
    yield "huge-window.log.zst", b"\x28\xb5\x2f\xfd\x00\xf8\x01\x00\x00" + b"x" * 100, "error", r"^huge-window\.log\.zst: corrupt zstd data near compressed byte 0: .*window_size is too big; Requested: 2199023255552"
    yield "cut.profile.txt", starrocks[: len(starrocks) // 3], "read", r"StarRocks query profile, [\d,]+ bytes"
    yield "bad-version.ninja_log", b"# ninja log v99\n1\t2\t0\tout\tdeadbeef\n", "read", r"line 1: warning \[ninja\.version\]: version 99"
    yield "bad-line.ninja_log", b"# ninja log v5\n1\t2\n", "read", r"line 2: warning \[ninja\.fields\]: 2 tab-separated fields instead of 5"


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    expected = []
    for name, data, outcome, message in inputs():
        (out / name).write_bytes(data)
        expected.append({"file": name, "outcome": outcome, "message": message})
    (out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main()
