#!/usr/bin/env bash
# Instructions per event of `navstore import` (JSON Lines) and of the events CSV export, counted
# by valgrind's callgrind: repeatable on a busy machine, unlike times. Each is given in all
# threads and on the busiest one.
#
#   bash callgrind.sh [BENCHMARK-BINARY] [EVENTS]
#
# It builds this checkout's benchmarks with DWARF 4 debug info in .build-dwarf4 (valgrind 3.19
# cannot read the DWARF 5 that Swift 6.3 and clang emit by default). That build writes the input,
# the workload's first EVENTS events, and is the one measured unless another binary is given
# (an older checkout's, for a before-and-after). Each count has the same run with no events
# taken off (process start, store creation), then is divided by the event count.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --scratch-path .build-dwarf4 -Xswiftc -g -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4 >&2
current=.build-dwarf4/release/navstore-benchmarks
binary=${1:-$current}
events=${2:-3000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$current" --child workload "$events" "$work/events.jsonl" >/dev/null
: >"$work/empty.jsonl"

# Prints two counts for one run: the instructions of all threads, and of the busiest thread
# alone. The import and the export split their work over two threads, so the second bounds
# their time on two cores and the first is what they cost in all.
count() {
  rm -f "$work"/cg.*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.%p" "$@" >/dev/null 2>&1
  cat "$work"/cg.* | awk '/^totals:/ { all += $2; if ($2 > busiest) busiest = $2 } END { print all, busiest }'
}
per_event() { echo $(( ($1 - $2) / events )); }

read -r import_all import_all_busiest < <(count "$binary" --child import "$work/events.jsonl" "$work/full.sqlite")
read -r import_none import_none_busiest < <(count "$binary" --child import "$work/empty.jsonl" "$work/empty.sqlite")
read -r export_all export_all_busiest < <(count "$binary" --child export "$work/full.sqlite")
read -r export_none export_none_busiest < <(count "$binary" --child export "$work/empty.sqlite")
echo "events: $events"
echo "import, instructions per event: $(per_event "$import_all" "$import_none") in all, $(per_event "$import_all_busiest" "$import_none_busiest") on the busiest thread"
echo "export (events CSV), instructions per event: $(per_event "$export_all" "$export_none") in all, $(per_event "$export_all_busiest" "$export_none_busiest") on the busiest thread"
