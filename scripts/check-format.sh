#!/usr/bin/env bash
# Fails, listing the files, when a C++ file of the project is not in the form
# .clang-format gives it. Run by ctest (the `format` test); fix with
#   clang-format -i FILE...
# Usage: scripts/check-format.sh [clang-format binary]
set -euo pipefail
cd "$(dirname "$0")/.."
cf=${1:-clang-format}
mapfile -t files < <(git ls-files 'core/*.h' 'core/*.cpp' 'solver/*.h' 'solver/*.cpp' 'tests/*.h' 'tests/*.cpp' \
                       'fuzz/*.h' 'fuzz/*.cpp' 2>/dev/null ||
                     find core solver tests fuzz -name '*.h' -o -name '*.cpp')
bad=()
for f in "${files[@]}"; do
  "$cf" --style=file "$f" | cmp -s - "$f" || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) differ from .clang-format's form (fix: clang-format -i FILE):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files in form"
