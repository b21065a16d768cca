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

# Prints, for one run, each thread's instruction count in the order the threads began (the
# main thread first). The import and the export split their work over two threads: the sum is
# what they cost in all, and the busiest thread (each thread's count minus the same thread's in
# the run on no events) bounds their time on two cores.
count() {
  rm -f "$work"/cg.*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>&1
  for file in $(ls "$work"/cg.out-* | sort); do awk '/^totals:/ { print $2 }' "$file"; done | paste -sd' '
}
# per_event FULL NONE: "N in all, M on the busiest thread", per event.
per_event() {
  python3 - "$1" "$2" "$events" <<'PY'
import sys
full = [int(x) for x in sys.argv[1].split()]
none = [int(x) for x in sys.argv[2].split()]
events = int(sys.argv[3])
none += [0] * (len(full) - len(none))
each = [f - n for f, n in zip(full, none)]
print(f"{(sum(full) - sum(none)) // events} in all, {max(each) // events} on the busiest thread")
PY
}

import_all=$(count "$binary" --child import "$work/events.jsonl" "$work/full.sqlite")
import_none=$(count "$binary" --child import "$work/empty.jsonl" "$work/empty.sqlite")
export_all=$(count "$binary" --child export "$work/full.sqlite")
export_none=$(count "$binary" --child export "$work/empty.sqlite")
echo "events: $events"
echo "import, instructions per event: $(per_event "$import_all" "$import_none")"
echo "export (events CSV), instructions per event: $(per_event "$export_all" "$export_none")"
