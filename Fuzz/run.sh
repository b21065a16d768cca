#!/usr/bin/env bash
# Coverage-guided fuzzing of NavStore's input surfaces: builds every target with libFuzzer and
# AddressSanitizer, runs each for SECONDS (as many at a time as the machine has cores) from the
# seed corpus in Corpus/TARGET/, and prints each target's executions, coverage and findings.
#
#   bash run.sh SECONDS [TARGET ...]      # e.g. bash run.sh 600 (the long run), bash run.sh 12 (CI)
#   bash run.sh --build-only [TARGET ...] # builds them, runs nothing
#   bash run.sh --no-build SECONDS [TARGET ...]   # runs what --build-only built
#
# FUZZ_UNOPTIMIZED=1 compiles the Swift without the optimizer (-Onone, in the release build's
# folder): the build takes a fraction of the optimized one's time and each execution runs slower,
# the trade CI's short runs want. The long run keeps the optimizer.
#
# New inputs the fuzzer finds interesting go to .work/corpus/TARGET (not committed); a crash,
# leak, timeout or sanitizer report is written to .work/artifacts/ and makes the script fail.
# Replay one with .build/release/fuzz-TARGET FILE.
set -euo pipefail
cd "$(dirname "$0")"
usage="usage: bash run.sh [--build-only | --no-build SECONDS | SECONDS] [TARGET ...]"
build=yes
run=yes
case ${1:?$usage} in
  --build-only) run=no; shift ;;
  --no-build) build=no; shift ;;
esac
if [ $run = yes ]; then
  seconds=${1:?$usage}
  shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json event-line apply planner checkpoint store-file report upload)

# Swift's libFuzzer support; lld, because gold fails on the sanitizers' debug information. The
# targets are NavStore's own (the upload's parsing is no product), built from the repository's
# root with the Fuzzing trait alone (none of the server's packages), in a build folder of their
# own: NavStore's modules and swift-crypto are compiled once for all of them.
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --traits Fuzzing --scratch-path Fuzz/.build)
# (A debug build cannot stand in: it builds the migrations' embedding tool, a plain executable,
# with the fuzzer's flags, and its link fails for want of a fuzz entry point.)
if [ "${FUZZ_UNOPTIMIZED:-0}" = 1 ]; then flags+=(-Xswiftc -Onone -Xcc -O0); fi
if [ $build = yes ]; then
  for target in "${targets[@]}"; do
    (cd .. && swift build "${flags[@]}" --product "fuzz-$target") >&2
  done
fi
[ $run = yes ] || exit 0

binary() { echo ".build/release/fuzz-$1"; }

max_len() {
  case $1 in
    store-file) echo 131072 ;;  # a store file is several pages of 4 KiB
    *) echo 16384 ;;
  esac
}

# Swift's own crash reporter would run inside AddressSanitizer after a violated property and
# add a report of its own; libFuzzer's is the one that matters.
export SWIFT_BACKTRACE=enable=no
mkdir -p .work/artifacts

# One target's run: its log in .work/TARGET.log, its status in .work/TARGET.status. Each run
# starts from the committed seeds and what earlier runs found. Leaks are checked.
fuzz() {
  local target=$1
  mkdir -p ".work/corpus/$target"
  rm -f ".work/$target.status"
  local status=0
  "$(binary "$target")" -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=20 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=".work/artifacts/$target-" \
    ".work/corpus/$target" "Corpus/$target" >".work/$target.log" 2>&1 || status=$?
  echo $status >".work/$target.status"
}

# The targets run as many at a time as the machine has cores, each on one; an interrupted
# script stops them.
jobs=$(nproc 2>/dev/null || echo 1)
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz "$target" &
done
wait

status=0
for target in "${targets[@]}"; do
  log=".work/$target.log"
  if [ "$(cat ".work/$target.status" 2>/dev/null || echo missing)" != 0 ]; then
    status=1
    echo "fuzz-$target: FOUND A PROBLEM (see $log and .work/artifacts/)" >&2
    grep -E "ERROR|violated|Fatal|SUMMARY" "$log" | head -5 >&2 || true
  fi
  executions=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  speed=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$log")
  coverage=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{ print $2 }')
  features=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | awk '{ print $2 }')
  corpus=$(ls ".work/corpus/$target" | wc -l)
  echo "fuzz-$target: ${executions:-?} executions in ${seconds}s (${speed:-?}/s), cov ${coverage:-?}, ft ${features:-?}, corpus ${corpus} new inputs"
done
exit $status
