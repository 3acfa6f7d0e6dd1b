#!/usr/bin/env bash
# The main job: installs what is missing, builds, and proves every opening of
# a small board (default 4x4), writing results/konobi-NxN.json.
# Usage: scripts/solve.sh [size] [more konobi solve options]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4}
shift || true
scripts/setup.sh build
build/solver/konobi solve --size "$size" "$@"
