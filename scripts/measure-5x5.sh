#!/usr/bin/env bash
# The 5x5 measurements of docs/SOLVER.md: wall time and nodes of a full solve
# with 2 threads and 1, without symmetry reduction, and with 1/1 initial
# proof numbers; then bench with the alpha-beta comparison. Takes about half
# an hour on two cores. Usage: scripts/measure-5x5.sh [table MiB]
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-4096}
scripts/setup.sh build
out=$(mktemp -d)
row() {  # label, then konobi solve options
  local label=$1
  shift
  build/solver/konobi solve --size 5 --tt-mb "$mb" --quiet --out "$out/r.json" "$@" >/dev/null
  local nodes secs
  nodes=$(grep -m1 '^  "nodes"' "$out/r.json" | tr -dc 0-9)
  secs=$(grep -m1 '^  "seconds"' "$out/r.json" | sed 's/.*: //; s/,//')
  printf '%-28s %14s nodes %10s s\n' "$label" "$nodes" "$secs"
  rm -f "$out/r.json"
}
row "2 threads" --threads 2
row "1 thread" --threads 1
row "2 threads, no symmetry" --threads 2 --no-symmetry
row "2 threads, 1/1 init" --threads 2 --no-eval
build/solver/konobi bench --alphabeta
rm -rf "$out"
