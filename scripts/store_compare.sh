#!/usr/bin/env bash
# Builds and runs scripts/store_compare.cpp, the measurement behind the
# choice of database for the store of proven positions (docs/JOBS.md, "The
# store"): SQLite against LMDB. Installs liblmdb-dev when missing (only this
# script needs it; the program itself uses SQLite).
# Usage: scripts/store_compare.sh [entries] [scratch-folder]   (default 2000000, /tmp/store_compare)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential libsqlite3-dev liblmdb-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "store_compare: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

mkdir -p build
g++ -std=c++20 -O2 -Wall -Wextra -o build/store_compare scripts/store_compare.cpp -lsqlite3 -llmdb -lpthread
exec build/store_compare "$@"
