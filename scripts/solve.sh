#!/usr/bin/env bash
# The main job: installs what is missing, builds the konobi program (only it:
# scripts/test.sh builds the tests), and proves every opening of a small
# board (default 4x4). It writes build/results/konobi-NxN.json, a scratch
# file each run starts afresh (or continues with --resume), not the shipped
# results/ (which the paper and the tests are checked against), unless --out
# says otherwise.
# Usage: scripts/solve.sh [size] [more konobi solve options]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4}
shift || true
KONOBI_TARGET=konobi scripts/setup.sh build
out=()
if [[ " $* " != *" --out "* && " $* " != *" --out="* && " $* " != *" -o "* ]]; then
  mkdir -p build/results
  out=(--out "build/results/konobi-${size}x${size}.json")
  [[ " $* " == *" --resume "* || " $* " == *" --overwrite "* ]] || out+=(--overwrite)
fi
build/solver/konobi solve --size "$size" "${out[@]}" "$@"
echo "Next: build/solver/konobi serve, then open http://127.0.0.1:8080/ to play on the board (README: Play in the browser)." >&2
