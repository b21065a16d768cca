#!/usr/bin/env bash
# Before and after, in turn: two builds of the benchmarks (an older checkout's and this one's)
# run each scenario one after the other, PAIRS times, and the median of each side's ratio to its
# anchor is printed with its range. Interleaving puts both sides under the same load.
#
#   bash ab.sh BEFORE-BINARY AFTER-BINARY [PAIRS] [SCENARIO ...]
#
# For example, with the checkout before a change in ../before:
#   (cd ../before/Benchmarks && swift build -c release --product navstore-benchmarks)
#   swift build -c release --product navstore-benchmarks
#   bash ab.sh ../before/Benchmarks/.build/release/navstore-benchmarks .build/release/navstore-benchmarks 5 1 2 4
set -euo pipefail
before=$1
after=$2
pairs=${3:-5}
if [ $# -gt 3 ]; then scenarios=("${@:4}"); else scenarios=(1 2 4); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for pair in $(seq "$pairs"); do
  for scenario in "${scenarios[@]}"; do
    echo "pair $pair, scenario $scenario" >&2
    "$before" --only "$scenario" --json "$work/before-$scenario-$pair.json" >/dev/null
    "$after" --only "$scenario" --json "$work/after-$scenario-$pair.json" >/dev/null
  done
done
python3 - "$work" <<'PY'
import glob, json, statistics, sys
runs = {}
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    side = path.rsplit("/", 1)[1].split("-")[0]
    for row in json.load(open(path)):
        if row.get("ratio") is None:
            continue
        key = (row["scenario"], row["anchor_name"])
        runs.setdefault(key, {}).setdefault(side, []).append((row["ours"], row["ratio"]))
for (scenario, anchor), sides in runs.items():
    line = f"{scenario} (against {anchor}):"
    for side in ("before", "after"):
        ratios = [r for _, r in sides.get(side, [])]
        ours = [o for o, _ in sides.get(side, [])]
        if ratios:
            line += f"  {side} {statistics.median(ratios):.2f}x ({min(ratios):.2f} to {max(ratios):.2f}), ours {statistics.median(ours):.3g}"
    print(line)
PY
