#!/usr/bin/env bash
# The main job: installs what is missing, builds, and proves every opening of
# a small board (default 4x4). It writes build/results/konobi-NxN.json, not
# the shipped results/ (which the paper and the tests are checked against),
# unless --out says otherwise.
# Usage: scripts/solve.sh [size] [more konobi solve options]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4}
shift || true
scripts/setup.sh build
out=()
if [[ " $* " != *" --out "* && " $* " != *" --out="* ]]; then
  mkdir -p build/results
  out=(--out "build/results/konobi-${size}x${size}.json")
fi
build/solver/konobi solve --size "$size" "${out[@]}" "$@"
