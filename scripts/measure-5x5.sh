#!/usr/bin/env bash
# The 5x5 measurements of docs/SOLVER.md: wall time and nodes of a full solve
# with 2 threads (three runs: this machine's speed drifts) and 1, without
# symmetry reduction, with 1/1 initial proof numbers, without replays,
# without must-play regions and with deeper ones;
# then bench with the alpha-beta comparison. Takes about four minutes on
# two cores. Usage: scripts/measure-5x5.sh [table MiB] (default: solve's own)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=()  # table size: solve's own unless given
if [[ $# -gt 0 ]]; then mb=(--tt-mb "$1"); fi
scripts/setup.sh build
out=$(mktemp -d)
row() {  # label, then konobi solve options
  local label=$1
  shift
  build/solver/konobi solve --size 5 "${mb[@]}" --quiet --out "$out/r.json" "$@" >/dev/null
  local nodes secs
  nodes=$(grep -m1 '^  "nodes"' "$out/r.json" | tr -dc 0-9)
  secs=$(grep -m1 '^  "seconds"' "$out/r.json" | sed 's/.*: //; s/,//')
  printf '%-28s %14s nodes %10s s\n' "$label" "$nodes" "$secs"
  rm -f "$out/r.json"
}
for run in 1 2 3; do row "2 threads (run $run)" --threads 2; done
row "1 thread" --threads 1
row "2 threads, no symmetry" --threads 2 --no-symmetry
row "2 threads, 1/1 init" --threads 2 --no-eval
row "2 threads, no replays" --threads 2 --simulation 0
for run in 1 2; do row "2 threads, no must-play ($run)" --threads 2 --no-must-play; done
row "1 thread, no must-play" --threads 1 --no-must-play
row "1 thread, must-play depth 2" --threads 1 --must-play-depth 2
row "1 thread, must-play depth 3" --threads 1 --must-play-depth 3
build/solver/konobi bench --alphabeta
rm -rf "$out"
