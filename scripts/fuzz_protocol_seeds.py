#!/usr/bin/env python3
"""Seeds the `protocol` fuzz target: one message of each kind, as the page
and the worker send them (see src/protocol.rs)."""

import json
import sys
from pathlib import Path

viewport = {"start": 0, "end": 1000, "width": 900.0}
MESSAGES = [
    {"type": "Analyze", "run": 1},
    {"type": "ReadGraph"},
    {"type": "Cancel", "run": 1},
    {"type": "Bars", "run": 1, "seq": 2, "viewport": viewport, "lanes": [0, 10]},
    {"type": "Details", "run": 1, "task": 3},
    {"type": "ReportText", "run": 1},
    {"type": "Graph", "run": 1, "unfold": [1, 2], "chain": False, "export": False},
    {"type": "ExportSvg", "run": 1, "viewport": viewport, "chain": True},
    {"type": "Flame", "run": 1, "kind": 0, "root": 0, "icicle": False, "export": False},
    {"type": "Export", "run": 1, "what": {"Run": "Chrome"}},
    {"type": "Summary", "run": 1, "field": "median"},
    {"type": "Compare", "run": 1, "a": [0], "b": [1], "kind": 0, "field": "mean"},
    {"type": "Ready"},
    {"type": "WarmedUp", "json": "{\"type\":\"Ready\"}"},
    {"type": "Failed", "run": 1, "message": "x"},
    {"type": "Cancelled", "run": 1},
]

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
for i, m in enumerate(MESSAGES):
    (out / f"{i}.json").write_text(json.dumps(m))
