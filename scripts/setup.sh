#!/usr/bin/env bash
# Installs what the build needs (Debian 12 packages) when it is missing, then
# configures and builds: everything, or only the target named by
# KONOBI_TARGET (solve.sh builds just the program; test.sh, in the same build
# folder, then builds the rest). Usage: scripts/setup.sh [build-dir] [extra cmake args]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config git libtbb-dev libxxhash-dev libboost-program-options-dev catch2
          nlohmann-json3-dev liblzma-dev zlib1g-dev clang-format
          libboost-dev libsqlite3-dev chromium chromium-driver python3-selenium python3-websockets
          libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build=${1:-build}
shift || true
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
target=()
if [ -n "${KONOBI_TARGET:-}" ]; then target=(--target "$KONOBI_TARGET"); fi
cmake --build "$build" -j"$(nproc)" "${target[@]}"
