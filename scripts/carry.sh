#!/usr/bin/env bash
# Carries a long solve on for a while and leaves its results ready to
# commit: `konobi solve --resume` on the committed checkpoint for MINUTES,
# then one Ctrl-C (which saves; a part of a proof in hand is finished
# first, docs/JOBS.md), then `konobi verify-proof` on every proof file the
# run wrote or changed, then the paper regenerated when the results file
# changed. It commits nothing; it ends by listing what changed.
#
# Usage: scripts/carry.sh [--game G] [--results DIR] SIZE MINUTES [more konobi solve options]
#   scripts/carry.sh 6 150 --openings c3 --threads 2 --tt-mb 10240 --no-store
#
# MINUTES may be a fraction. A Ctrl-C of yours, from a terminal or as a
# kill -INT of carry.sh, stops the solve the same way (a second one stops
# it at once); a hang-up or SIGTERM stops it at once, with a save. The
# checks still run. The solve runs from a copy of the program, so the
# build may change meanwhile. KONOBI names another program (the tests'
# build); `--results DIR` works on DIR instead of results/ and leaves the
# paper alone.
# Exit status: 0 when the solve finished or stopped and saved and every
# proof checked passed; 1 when a proof failed (do not commit it); the
# solve's own status when it failed; 2 for a usage error.
set -euo pipefail
# Started in the background by a shell without job control
# (`scripts/carry.sh ... &` in a script), bash ignores SIGINT, and a
# signal ignored on entry cannot be trapped: the Ctrl-C handling below
# would be dead, and a kill -INT of carry.sh would do nothing. So start
# again with SIGINT restored.
if [ -z "${KONOBI_CARRY_INT:-}" ] && [ -r "/proc/$$/status" ] &&
  (((0x$(awk '/^SigIgn:/ { print $2 }' "/proc/$$/status") >> 1) & 1)); then
  KONOBI_CARRY_INT=1 exec env --default-signal=INT "$0" "$@"
fi
root=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  echo "usage: scripts/carry.sh [--game G] [--results DIR] SIZE MINUTES [konobi solve options]" >&2
  exit 2
}
game=konobi
results="$root/results"
while [ $# -gt 0 ]; do
  case "$1" in
    --game) [ $# -ge 2 ] || usage; game=$2; shift 2 ;;
    --results) [ $# -ge 2 ] || usage; results=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || usage
size=$1 minutes=$2
shift 2
case "$game" in konobi|gonnect) ;; *) echo "carry.sh: --game must be konobi or gonnect, not '$game'" >&2; exit 2 ;; esac
[[ "$size" =~ ^[0-9]+$ ]] || { echo "carry.sh: SIZE must be a board size such as 6, not '$size'" >&2; exit 2; }
[[ "$minutes" =~ ^[0-9]+([.][0-9]+)?$ ]] && awk -v m="$minutes" 'BEGIN { exit !(m > 0) }' ||
  { echo "carry.sh: MINUTES must be a number above 0, not '$minutes'" >&2; exit 2; }
for a in "$@"; do
  case "$a" in
    --out|--out=*|-o|--proof|--proof=*|--resume|--size|--size=*|--game|--game=*)
      echo "carry.sh: $a is carry.sh's to give (the results folder's file, its proofs folder, --resume); leave it out" >&2
      exit 2 ;;
  esac
done
[ -d "$results" ] || { echo "carry.sh: no folder $results" >&2; exit 2; }
results=$(cd "$results" && pwd)

name="$game-${size}x${size}"
out="$results/$name.json"
if [ "$game" = konobi ]; then proofs="$results/proofs-${size}x${size}"; else proofs="$results/proofs-$name"; fi
[ -f "$out" ] || { echo "carry.sh: no results file $out to carry on (start the solve with konobi solve first)" >&2; exit 2; }

# The program, copied so that a build during the run does not replace it.
konobi=${KONOBI:-}
if [ -z "$konobi" ]; then
  konobi="$root/build/solver/konobi"
  if [ ! -x "$konobi" ]; then
    (cd "$root" && KONOBI_TARGET=konobi scripts/setup.sh build)
  else
    cmake --build "$root/build" -j2 --target konobi >/dev/null
  fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$konobi" "$work/konobi"

# Every proof file with its size and time, before and after.
proof_files() {
  [ -d "$proofs" ] || return 0
  find "$proofs" -name '*.proof.xz' -type f -printf '%p %s %T@\n' | LC_ALL=C sort
}
proof_files > "$work/before"
results_before=$(sha256sum "$out" | cut -d' ' -f1)

mkdir -p "$proofs"
echo "carry.sh: konobi solve --game $game --size $size --resume for $minutes minutes ($*)" >&2
# The paths are given relative to where carry.sh runs (from the top of
# the repository: results/konobi-6x6.json, as a user types them): the
# solve writes its command line into the results file's provenance, which
# should not name this machine's folders. The solve runs in a session of
# its own (setsid, which keeps the pid), so that carry.sh alone decides
# what reaches it: a Ctrl-C is passed on once, whether a terminal sent it
# to carry.sh's process group or a kill -INT to carry.sh alone, and a
# hang-up or SIGTERM of carry.sh stops it with a save.
setsid "$work/konobi" solve --game "$game" --size "$size" --resume --out "$(realpath --relative-to=. "$out")" \
  --proof "$(realpath --relative-to=. "$proofs")" "$@" &
pid=$!
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%.3f", m * 60 }')
# The timer waits on its sleep in the background, so that a SIGTERM to it
# runs its trap at once, which ends the sleep and reaps it before the timer
# exits; carry.sh then reaps the timer. Killed together instead, the sleep
# outlived its parent and stayed a zombie in carry.sh's process group until
# init reaped it, which in some containers it never did (CI's carry.term
# and carry.int_own failed so). (Its own stderr, where bash reports the
# sleep ended early, goes nowhere.)
(
  trap 'kill "$nap" 2>/dev/null; wait "$nap"; exit 0' TERM
  sleep "$seconds" &
  nap=$!
  wait "$nap" && : > "$work/timer-fired" && kill -INT "$pid" &&
    echo "carry.sh: $minutes minutes are up: stopping the solve (it saves first)" >&3
) 3>&2 2>/dev/null &
timer=$!
disown "$timer"  # its end is not news
# Ends the timer without its Ctrl-C (a second one would stop the solve at
# once), and waits until it has gone (five seconds at most, for a loaded
# machine), so that nothing of the carry outlives it.
stop_timer() {
  kill "$timer" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$timer" 2>/dev/null || break; sleep 0.05; done
}
# A Ctrl-C ends the timer (whose own Ctrl-C would be a second one) and is
# passed on; a second is passed on too, and stops the solve at once. The
# wait below is ended by each, and waits again.
interrupts=0
on_interrupt() {
  # The timer's Ctrl-C, if it came first, was the first. (Whether the
  # timer is still running is no sign of that: the tests saw it ended by
  # a Ctrl-C to the process group.)
  if [ "$interrupts" -eq 0 ] && [ -e "$work/timer-fired" ]; then interrupts=1; fi
  stop_timer
  interrupts=$((interrupts + 1))
  kill -INT "$pid" 2>/dev/null || true
  if [ "$interrupts" -eq 1 ]; then
    echo "carry.sh: the solve saves and stops (Ctrl-C again stops it at once)" >&2
  else
    echo "carry.sh: the solve stops at once" >&2
  fi
}
trap on_interrupt INT
trap 'stop_timer; kill -TERM "$pid" 2>/dev/null || true; echo "carry.sh: stopping the solve at once (it saves)" >&2' HUP TERM
set +e
while :; do
  wait "$pid"
  status=$?
  kill -0 "$pid" 2>/dev/null || break
done
set -e
stop_timer
trap - INT HUP TERM
case "$status" in
  0) echo "carry.sh: the solve finished" >&2 ;;
  130) echo "carry.sh: the solve stopped and saved; the same command carries it on" >&2 ;;
  *) echo "carry.sh: konobi solve failed (exit status $status); nothing is checked" >&2; exit "$status" ;;
esac

# The proofs to check: those new or changed. A class's file in parts
# (format 3) checks all its parts, so these are not checked again alone.
proof_files > "$work/after"
LC_ALL=C comm -13 "$work/before" "$work/after" | cut -d' ' -f1 > "$work/changed"
failed=0
checked=0
while read -r f; do
  case "$f" in
    */*.parts/*) grep -qxF "${f%.parts/*}.proof.xz" "$work/changed" && continue ;;
  esac
  checked=$((checked + 1))
  # Its stdout (the verdict) is kept; its stderr (each part of a proof in
  # parts as it holds, over an hour's check for a hard class) is shown as it comes.
  if "$work/konobi" verify-proof "$f" 2>&1 > "$work/verify.out" | sed -u "s|$root/||" >&2; then
    sed "s|$root/||" "$work/verify.out" | tail -n 1 >&2
  else
    failed=1
    echo "carry.sh: verify-proof ${f#"$root"/} FAILED; do not commit it:" >&2
    sed 's/^/  /' "$work/verify.out" >&2
  fi
done < "$work/changed"
[ "$checked" -gt 0 ] || echo "carry.sh: no proof file was written or changed" >&2

# The paper and git speak of the shipped results/ alone.
if [ "$results" = "$root/results" ]; then
  if [ "$(sha256sum "$out" | cut -d' ' -f1)" != "$results_before" ]; then
    echo "carry.sh: ${out#"$root"/} changed: regenerating the paper" >&2
    (cd "$root" && scripts/paper.sh >&2)
  fi
  echo "carry.sh: to commit (after reading the solve's last lines above):" >&2
  (cd "$root" && git status --short --untracked-files=all -- results papers) >&2
fi
[ "$failed" -eq 0 ] || { echo "carry.sh: a proof failed its check (above)" >&2; exit 1; }
