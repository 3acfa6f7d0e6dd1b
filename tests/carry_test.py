#!/usr/bin/env python3
"""Tests of scripts/carry.sh, the command that carries a long solve on for a
while and checks what it wrote (docs/JOBS.md, "Carrying a solve on"), run as
a user runs it, on a results folder of its own (--results):

  stop     a 5x5 solve stopped by its time limit: exit 0, the solve saved
           (its checkpoint newer), every proof it wrote checked by
           verify-proof and said OK, none of the others;
  finish   a 4x4 solve carried to its end: every class proven, each proof
           checked once, the values those of the shipped results;
  tampered a proof that fails its check (the program stands in for konobi
           and cuts the proof the solve wrote short): exit 1, the file
           named, "do not commit";
  ctrl_c   a Ctrl-C to the whole process group, as a terminal sends it,
           long before the time limit: the solve saves and stops, exit 0,
           and no process of the carry is left (a timer left running would
           send a second Ctrl-C, which stops a solve at once);
  int_own  SIGINT to carry.sh alone (kill -INT, not a terminal): the same
           (it used to end the timer and leave the solve running, with no
           end, and carry.sh waiting on it);
  int_bg   the same for a carry started with SIGINT ignored, as a shell
           without job control starts `carry.sh ... &` (bash cannot trap
           a signal ignored on entry: the Ctrl-C did nothing at all);
  term     SIGTERM to carry.sh alone: the solve stops at once with a save
           (its checkpoint newer), exit 0, nothing left running;
  usage    bad arguments and a missing results file: exit 2, said why.

Usage: carry_test.py KONOBI CARRY_SH CASE
"""
import ctypes
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

KONOBI = os.path.abspath(sys.argv[1])
CARRY = os.path.abspath(sys.argv[2])
CASE = sys.argv[3]


def fail(msg):
    print(f"FAIL ({CASE}): {msg}", flush=True)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def first_run(d, size):
    """The results file (and checkpoint) a carry starts from. 5x5: a manager
    solve that the memory guard stops at its first look, as in the CLI
    tests. 4x4, too quick for that: its a1 class alone."""
    more = ["--memory-floor-mb", "100000000"] if size == 5 else ["--openings", "a1"]
    p = subprocess.run([KONOBI, "solve", "--size", str(size), "--manager", "--no-store", "--tt-mb", "64",
                        "--threads", "1", "--out", os.path.join(d, f"konobi-{size}x{size}.json"), "--proof",
                        os.path.join(d, f"proofs-{size}x{size}"), *more],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    check(p.returncode == (130 if size == 5 else 0), f"first run: exit {p.returncode}: {p.stderr}")
    if size == 5:
        check(os.path.exists(os.path.join(d, "konobi-5x5.checkpoint.xz")), "the first run left no checkpoint")


SOLVE = ["--manager", "--no-store", "--tt-mb", "64", "--threads", "1", "--memory-floor-mb", "0", "-q"]


def carry(d, size, minutes, konobi=KONOBI, extra=SOLVE, timeout=600):
    env = dict(os.environ, KONOBI=konobi)
    p = subprocess.run([CARRY, "--results", d, str(size), str(minutes), *extra], env=env,
                       cwd=d if os.path.isdir(d) else None,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p.returncode, p.stderr


def proofs(d, size):
    """The proof files that carry.sh checks, relative to the proofs folder:
    every .proof.xz, but not one inside NAME.parts/ when NAME.proof.xz is
    there too (a proof in parts is checked from its file, parts and all;
    parts below a winning move are one level down, NAME.parts/M.parts/)."""
    folder = os.path.join(d, f"proofs-{size}x{size}")
    files = set()
    for top, _, names in os.walk(folder):
        files.update(os.path.relpath(os.path.join(top, n), folder) for n in names if n.endswith(".proof.xz"))

    def covered(f):
        cut = f.rfind(".parts/")
        return cut >= 0 and f[:cut] + ".proof.xz" in files
    return sorted(f for f in files if not covered(f))


def ok_lines(err):
    return [l for l in err.splitlines() if l.startswith("OK ")]


def case_stop():
    with tempfile.TemporaryDirectory() as d:
        first_run(d, 5)
        checkpoint = os.path.join(d, "konobi-5x5.checkpoint.xz")
        before = os.path.getmtime(checkpoint)
        time.sleep(0.05)
        rc, err = carry(d, 5, 0.05)
        check(rc == 0, f"exit {rc}: {err}")
        check("0.05 minutes are up" in err and "the solve stopped and saved" in err, err)
        check(os.path.getmtime(checkpoint) > before, "the checkpoint was not saved again")
        written = proofs(d, 5)
        oks = ok_lines(err)
        # Each proof the solve wrote is checked, once.
        check(len(oks) == len(written), f"{len(oks)} checks for {len(written)} proofs: {err}")
        for f in written:
            check(sum(f in l for l in oks) == 1, f"{f} not checked once: {err}")
        if not written:
            check("no proof file was written or changed" in err, err)
        # A second short carry checks only what it adds.
        rc, err = carry(d, 5, 0.05)
        check(rc == 0, f"second carry: exit {rc}: {err}")
        # (A class file it writes is checked with its parts, each told on
        # stderr as it holds; what counts is a check of its own, an OK line.)
        for f in written:
            check(not any(f in l for l in ok_lines(err)), f"{f}, written before, checked again: {err}")


def case_finish():
    with tempfile.TemporaryDirectory() as d:
        first_run(d, 4)
        # The timer of 10 minutes ends with the solve: left running, it
        # would hold the output open, and this would time out.
        rc, err = carry(d, 4, 10, timeout=200)
        check(rc == 0, f"exit {rc}: {err}")
        check("the solve finished" in err, err)
        with open(os.path.join(d, "konobi-4x4.json")) as f:
            mine = json.load(f)
        shipped_path = os.path.join(os.path.dirname(CARRY), "..", "results", "konobi-4x4.json")
        with open(shipped_path) as f:
            shipped = json.load(f)
        check(mine["complete"], "the results are not complete")
        # The command on record names the files as typed where carry.sh ran,
        # not by this machine's folders.
        command = mine["provenance"]["command"]
        check("--out konobi-4x4.json --proof proofs-4x4" in command and d not in command, command)
        check([o["winner"] for o in mine["openings"]] == [o["winner"] for o in shipped["openings"]],
              "the values differ from the shipped 4x4 results")
        # The proofs the carry wrote (a1's was there before) are checked, once each.
        written = [f for f in proofs(d, 4) if "-a1." not in f]
        check(len(written) >= 2, f"proofs: {written}")
        oks = ok_lines(err)
        check(len(oks) == len(written), err)
        for f in written:
            check(sum(f in l for l in oks) == 1, f"{f} not checked once: {err}")
        check(not os.path.exists(os.path.join(d, "konobi-4x4.checkpoint.xz")), "the checkpoint outlived the solve")


def case_tampered():
    with tempfile.TemporaryDirectory() as d:
        first_run(d, 4)
        # konobi, but a solve's first proof is cut short after it is written.
        fake = os.path.join(d, "konobi")
        with open(fake, "w") as f:
            f.write(f"""#!/bin/bash
"{KONOBI}" "$@"
rc=$?
if [ "$1" = solve ]; then
  p=$(ls "{d}/proofs-4x4"/*.proof.xz | grep -v -- -a1. | head -n 1)
  head -c 100 "$p" > "$p.cut" && mv "$p.cut" "$p"
fi
exit $rc
""")
        os.chmod(fake, 0o755)
        rc, err = carry(d, 4, 10, konobi=fake)
        check(rc == 1, f"exit {rc}: {err}")
        first = [f for f in proofs(d, 4) if "-a1." not in f][0]
        check(f"verify-proof {os.path.join(d, 'proofs-4x4', first)} FAILED; do not commit it" in err, err)
        check("a proof failed its check" in err, err)


def solves_running(d):
    """The konobi solves whose command line names folder d (carry.sh runs
    its solve in a session of its own, so the carry's process group does
    not hold it)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if b"solve" in args and any(os.path.basename(d).encode() in a for a in args):
            found.append(int(pid))
    return found


def stopped_by(sig, to_group, says, int_ignored=False):
    """A 10-minute carry sent sig after 3 s, to its whole process group or
    to carry.sh alone: it ends well within the limit, having saved, with
    exit 0 and nothing of it left running. int_ignored: started with SIGINT
    ignored, as `carry.sh ... &` in a script is."""
    # The test is the carry's subreaper and never reaps what it is given,
    # as the init of some containers does not: a process of the carry
    # orphaned on the way out stays a zombie in its process group, found
    # below, instead of being reaped by chance before the check.
    PR_SET_CHILD_SUBREAPER = 36
    check(ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0,
          "prctl(PR_SET_CHILD_SUBREAPER) failed")
    with tempfile.TemporaryDirectory() as d:
        first_run(d, 5)
        checkpoint = os.path.join(d, "konobi-5x5.checkpoint.xz")
        before = os.path.getmtime(checkpoint)
        env = dict(os.environ, KONOBI=KONOBI)
        start = time.monotonic()
        p = subprocess.Popen([CARRY, "--results", d, "5", "10", *SOLVE], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True,
                             preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if int_ignored
                             else None)
        time.sleep(3)
        check(solves_running(d), "no solve is running after 3 s")
        if to_group:
            os.killpg(p.pid, sig)
        else:
            os.kill(p.pid, sig)
        _, err = p.communicate(timeout=600)
        took = time.monotonic() - start
        check(p.returncode == 0, f"exit {p.returncode}: {err}")
        check(says in err and "the solve stopped and saved" in err, err)
        check(took < 300, f"took {took:.0f} s after a signal at 3 s")
        check(os.path.getmtime(checkpoint) > before, "the checkpoint was not saved again")
        # Nothing of it is left, the timer's sleep included: a timer left
        # running would Ctrl-C the solve a second time, stopping it at once.
        try:
            os.killpg(p.pid, 0)
            fail("a process of the carry outlived it")
        except ProcessLookupError:
            pass
        check(not solves_running(d), f"the solve outlived the carry: {solves_running(d)}")


def case_ctrl_c():
    stopped_by(signal.SIGINT, True, "the solve saves and stops")  # what a terminal's Ctrl-C does


def case_int_own():
    stopped_by(signal.SIGINT, False, "the solve saves and stops")


def case_int_bg():
    stopped_by(signal.SIGINT, False, "the solve saves and stops", int_ignored=True)


def case_term():
    stopped_by(signal.SIGTERM, False, "stopping the solve at once (it saves)")


def case_usage():
    with tempfile.TemporaryDirectory() as d:
        for args, says in [([], "usage: scripts/carry.sh"), (["5"], "usage: scripts/carry.sh"),
                           (["five", "1"], "SIZE must be"), (["5", "0"], "MINUTES must be"),
                           (["5", "-1"], "MINUTES must be"), (["5", "soon"], "MINUTES must be"),
                           (["--game", "go", "5", "1"], "--game must be"),
                           (["5", "1", "--proof", d], "--proof is carry.sh's to give"),
                           (["5", "1", "--resume"], "--resume is carry.sh's to give")]:
            p = subprocess.run([CARRY, "--results", d, *args], env=dict(os.environ, KONOBI=KONOBI),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
            check(p.returncode == 2, f"{args}: exit {p.returncode}")
            check(says in p.stderr, f"{args}: {p.stderr}")
        rc, err = carry(d, 5, 1)
        check(rc == 2 and "no results file" in err and "konobi-5x5.json" in err, f"exit {rc}: {err}")
        rc, err = carry(os.path.join(d, "nowhere"), 5, 1)
        check(rc == 2 and "no folder" in err, f"exit {rc}: {err}")


{"stop": case_stop, "finish": case_finish, "tampered": case_tampered, "ctrl_c": case_ctrl_c,
 "int_own": case_int_own, "int_bg": case_int_bg, "term": case_term, "usage": case_usage}[CASE]()
print(f"ok ({CASE})")
