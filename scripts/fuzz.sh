#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (docs/FUZZING.md): installs clang and
# its fuzzer runtime when missing, builds build-fuzz/ with clang, ASan and
# UBSan, and fuzzes each target for the given time on a working copy of its
# corpus (build-fuzz/corpus/), so the committed corpus does not fill with
# noise. Every crashing input is copied into tests/fuzz-corpus/<target>/,
# where ctest replays it once the bug is fixed, and the run ends with a
# non-zero status.
# Usage: scripts/fuzz.sh [seconds-per-target] [target...]   (default 60, all)
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(position record results puzzles nodraw compressed proof gonnect_proof)
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
[[ $seconds =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh [seconds-per-target] [target...]" >&2; exit 2; }
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz: no target '$t' (${all_targets[*]})" >&2; exit 2; }
done

# What setup.sh installs, plus clang and the libFuzzer and sanitizer
# runtimes: only this script needs them.
packages=(build-essential cmake pkg-config libtbb-dev libxxhash-dev libboost-program-options-dev clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fuzz: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build=build-fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKONOBI_FUZZ=ON -DKONOBI_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

# The longest input per target: a little over what the program reads in
# practice, so libFuzzer explores rather than grows inputs it never needs.
max_len() {
  case $1 in
    position|record) echo 4096 ;;
    proof|gonnect_proof) echo 32768 ;;
    *) echo 65536 ;;
  esac
}

found=0
summary=()
for t in "${targets[@]}"; do
  work=$build/corpus/$t
  crashes=$build/crashes/$t
  rm -rf "$crashes"  # an earlier run's findings are in tests/fuzz-corpus already
  mkdir -p "$work" "$crashes"
  cp -n tests/fuzz-corpus/"$t"/* "$work"/ 2>/dev/null || true
  log=$build/fuzz-$t.log
  echo "fuzz: $t for ${seconds}s (log $log)" >&2
  # -fork with -ignore_crashes keeps fuzzing after a finding, so one known
  # bug does not end the run; each crashing input lands in $crashes.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build"/fuzz/fuzz_"$t" "$work" -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 \
    -rss_limit_mb=2048 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="$crashes"/ -print_funcs=0 >"$log" 2>&1 || true
  # The last status line: executions, coverage, corpus, exec/s, findings.
  stats=$(grep -E '^#[0-9]+' "$log" | tail -1)
  # One bug is often hit by many inputs: at most 5 are copied per run.
  new=0 more=0
  for f in "$crashes"/*; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    [ -e tests/fuzz-corpus/"$t"/"$name" ] && continue
    if ((new < 5)); then
      cp "$f" tests/fuzz-corpus/"$t"/"$name"
      echo "fuzz: $t: $name found a bug; copied to tests/fuzz-corpus/$t/ (replay: $build/fuzz/fuzz_$t $f)" >&2
      new=$((new + 1))
    else
      more=$((more + 1))
    fi
  done
  ((new)) && found=1
  extra=""
  ((more)) && extra=", $more more left in $crashes"
  summary+=("$t: ${stats:-no stats (see $log)}; crashing inputs: $new copied$extra")
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $found
