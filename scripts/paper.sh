#!/usr/bin/env bash
# Regenerates the paper's tables and figures from results/: builds the
# program if needed, rewrites every BEGIN GENERATED / END GENERATED block of
# papers/konobi-small-boards.md, and redraws results/figures/*.svg. Also
# writes papers/konobi-small-boards.html when pandoc is installed.
# Usage: scripts/paper.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
if [ ! -x "$build/solver/konobi" ]; then
  scripts/setup.sh "$build"
else
  cmake --build "$build" -j2 --target konobi >/dev/null
fi
konobi="$build/solver/konobi"
paper=papers/konobi-small-boards.md
rm -f results/figures/*.svg
"$konobi" paper --results results --figures results/figures
"$konobi" paper --results results --update "$paper"
"$konobi" paper --results results --check "$paper"
if command -v pandoc >/dev/null; then
  pandoc --standalone --metadata title="Konobi on small boards" "$paper" -o papers/konobi-small-boards.html
  echo "wrote papers/konobi-small-boards.html"
fi
echo "updated $paper"
