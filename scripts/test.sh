#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs the whole
# suite through ctest twice: a Release build, then an AddressSanitizer +
# UndefinedBehaviorSanitizer build. Usage: scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

scripts/setup.sh build
(cd build && ctest --output-on-failure -j"$jobs")

scripts/setup.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKONOBI_SANITIZE=ON
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j"$jobs")
