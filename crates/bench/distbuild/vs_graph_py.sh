#!/bin/sh
# Whole processes side by side in one run, on one distbuild log and its
# graph.json: `longpole analyze` (target/release/longpole), ya's own
# analyser (devtools/ya/build/stat/graph.py of yandex/yatool: load the
# graph.json, read the log, link the tasks, find the critical path) and
# `wc -l` on both files (the I/O floor). Each is run RUNS times, in turn;
# prints median and spread (min-max) of wall time and peak RSS
# (/usr/bin/time -f '%e %M') and the ratios.
#
# graph.py is not part of this repository: give a yatool checkout or git
# directory. It is run unchanged; the modules it imports for what this run
# does not do (an HTTP client for logs given as URLs, type aliases, roman
# numerals, and test-size names, taken as none, which only changes the
# description picked for a test node) are stood in for by stubs written
# into a temporary directory, and its `format_paths` comes from yatool's
# own helpers.py.
#
# Usage: vs_graph_py.sh YATOOL LOG GRAPH.json [RUNS]
#   YATOOL: a checkout of github.com/yandex/yatool, or its git directory
#   (read at HEAD). Inputs: `distbuild-sim --nodes 110000 --hosts 500
#   --slots 8 --log LOG --graph GRAPH.json` writes a 135 MB log and a 49 MB
#   graph.
set -eu
yatool=${1:?usage: vs_graph_py.sh YATOOL LOG GRAPH.json [RUNS]}
log=${2:?usage: vs_graph_py.sh YATOOL LOG GRAPH.json [RUNS]}
graph=${3:?usage: vs_graph_py.sh YATOOL LOG GRAPH.json [RUNS]}
runs=${4:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
longpole="$root/target/release/longpole"
[ -x "$longpole" ] || (cd "$root" && cargo build --release -q -p longpole-cli)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ya's sources, from a checkout or a git directory.
ya_file() {
  if [ -f "$yatool/$1" ]; then cat "$yatool/$1"; else git --git-dir="$yatool" show "HEAD:$1"; fi
}
py="$tmp/py"
for d in yalibrary/fetcher yalibrary/status_view library/python devtools/ya/build/stat devtools/ya/test; do
  mkdir -p "$py/$d"
done
for d in yalibrary yalibrary/fetcher yalibrary/status_view library library/python devtools devtools/ya \
  devtools/ya/build devtools/ya/build/stat devtools/ya/test; do
  : >"$py/$d/__init__.py"
done
ya_file devtools/ya/build/stat/graph.py >"$py/devtools/ya/build/stat/graph.py"
ya_file devtools/ya/yalibrary/status_view/helpers.py >"$py/yalibrary/status_view/helpers.py"
# Stubs: what graph.py and helpers.py import but this run never needs.
cat >"$py/yalibrary/fetcher/http_client.py" <<'PY'
def download_file(url, path):
    raise RuntimeError("logs given as URLs are not used in this benchmark")
PY
printf 'def to_roman(x):\n    return str(x)\n' >"$py/yalibrary/roman.py"
printf 'def lazy(f):\n    return f\n' >"$py/library/python/func.py"
cat >"$py/devtools/ya/test/const.py" <<'PY'
class TestSize:
    @staticmethod
    def is_test_shorthand(p):
        return False
PY
printf 'GraphNodeUid = str\nGraphNode = dict\nDictGraph = dict\n' >"$py/devtools/ya/build/graph_description.py"
# What `ya --stat` does with them: load both, link, find the critical path.
cat >"$tmp/ya_stat.py" <<'PY'
import json, sys, threading
from devtools.ya.build.stat import graph as ya_graph

def main():
    log_path, graph_path = sys.argv[1], sys.argv[2]
    with open(graph_path) as f:
        graph_json = json.load(f)
    with open(log_path) as f:
        log_text = f.read()
    stats = ya_graph.create_graph_with_distbuild_log(graph_json, {'log': log_text})
    length, path = stats.get_critical_path()
    print(f"critical path: {length} ms, {len(path)} tasks")

# The critical path is found by recursion as deep as the path.
sys.setrecursionlimit(10_000_000)
threading.stack_size(1 << 29)
t = threading.Thread(target=main)
t.start()
t.join()
PY

cat >"$tmp/longpole_path.py" <<'PY'
import json, sys
p = json.load(sys.stdin)["critical_path"]
print(f"longpole says: critical path: {p['total_ms']} ms, {len(p['tasks'])} tasks")
PY

i=0
while [ "$i" -lt "$runs" ]; do
  /usr/bin/time -a -o "$tmp/longpole" -f '%e %M' "$longpole" analyze "$log" "$graph" >/dev/null
  PYTHONPATH="$py" /usr/bin/time -a -o "$tmp/graph.py" -f '%e %M' python3 "$tmp/ya_stat.py" "$log" "$graph" >"$tmp/graph.py.out"
  /usr/bin/time -a -o "$tmp/wc" -f '%e %M' wc -l "$log" "$graph" >/dev/null
  i=$((i + 1))
done
. "$root/crates/bench/timing.sh"
mb() { echo $(($(stat -c %s "$1") / 1000000)); }
echo "log: $log ($(mb "$log") MB), graph: $graph ($(mb "$graph") MB); $runs runs each, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "graph.py says: $(cat "$tmp/graph.py.out")"
"$longpole" analyze --format json "$log" "$graph" | python3 "$tmp/longpole_path.py"
header 10 tool
for t in longpole graph.py wc; do row 10 "$t" "$tmp/$t"; done
lp=$(median "$tmp/longpole")
ya=$(median "$tmp/graph.py")
wcm=$(median "$tmp/wc")
awk -v lp="$lp" -v ya="$ya" -v wc="$wcm" 'BEGIN {
  printf "graph.py / longpole (median wall): %.1fx\n", ya / lp
  if (wc > 0) printf "longpole / wc -l (median wall): %.1fx\n", lp / wc }'
