#!/usr/bin/env bash
# Instructions per event of `navstore import` (JSON Lines) and of the events CSV export, counted
# by valgrind's callgrind: repeatable on a busy machine, unlike times.
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

count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | awk '/I +refs:/ { gsub(",", "", $NF); print $NF }'; }

import_all=$(count "$binary" --child import "$work/events.jsonl" "$work/full.sqlite")
import_none=$(count "$binary" --child import "$work/empty.jsonl" "$work/empty.sqlite")
export_all=$(count "$binary" --child export "$work/full.sqlite")
export_none=$(count "$binary" --child export "$work/empty.sqlite")
echo "events: $events"
echo "import, instructions per event: $(( (import_all - import_none) / events ))"
echo "export (events CSV), instructions per event: $(( (export_all - export_none) / events ))"
