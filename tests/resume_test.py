#!/usr/bin/env python3
"""Resume tests of the job manager's checkpoints (docs/JOBS.md), through the
konobi program as a user runs it:

  sigint   a manager solve stopped by SIGINT at random moments (several
           seeds) exits 130 and leaves a checkpoint; --resume finishes with
           the values of a plain solve (--no-manager), and every proof
           passes verify-proof;
  sigkill  the same with SIGKILL (no chance to save: the last periodic
           checkpoint and the lock the kernel released are all there is);
  stale    a checkpoint older than the results file (kill -9 between the
           two saves) is carried on from, and goes once nothing in it is open;
  corrupt  a truncated or altered checkpoint makes --resume fail, naming the
           file, and leaves the results file as it was;
  lock     a second solve on the same checkpoint exits 2 with the lock's
           message naming the first's pid, and the first finishes correctly.

Every solve writes proofs, so the proof pieces of proven nodes (kept in a
folder beside the checkpoint, solver/jobs/piece_files.h) are exercised
throughout: a resume reads those a stop left, a finished solve leaves none,
and a damaged segment is refused like a damaged checkpoint.

Usage: resume_test.py KONOBI CASE [SIZE] [GAME] [store|no-store]. Each run
works in a fresh temporary folder, so nothing is left in the tree; with
`store` (the default) each results file has a store of proven positions
beside it, kept across its stops and resumes as a user's would be.
"""
import json
import lzma
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

KONOBI = os.path.abspath(sys.argv[1])
CASE = sys.argv[2]
SIZE = int(sys.argv[3]) if len(sys.argv) > 3 else 4
GAME = sys.argv[4] if len(sys.argv) > 4 else "konobi"
STORE = (sys.argv[5] if len(sys.argv) > 5 else "store") == "store"
# Fewer under the sanitizers (KONOBI_RESUME_SEEDS, set by CMakeLists.txt),
# where a Gonnect 4x4 manager solve takes 25 s instead of 2.
SEEDS = list(range(1, 1 + int(os.environ.get("KONOBI_RESUME_SEEDS", "5"))))
NAME = f"{GAME}-{SIZE}x{SIZE}"
LABEL = f"{CASE} {NAME}{'' if STORE else ' no-store'}"


def fail(msg):
    print(f"FAIL ({LABEL}): {msg}", flush=True)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def manager_args(d, out, proof, extra=()):
    store = ["--store", os.path.join(os.path.dirname(out), "store.sqlite")] if STORE else ["--no-store"]
    return [KONOBI, "solve", "--game", GAME, "--size", str(SIZE), "--manager", "--job-nodes", "300",
            "--checkpoint-every", "0.01", "--threads", "2", "--tt-mb", "64", "--out", out, "--proof", proof,
            *store, *extra]


def run(args, cwd, timeout=120):
    p = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def values(path):
    """What a results file says is proven: each opening's winner, and the
    file's completeness and the empty board's winner."""
    with open(path) as f:
        r = json.load(f)
    return {
        "complete": r["complete"],
        "empty_board": r["empty_board"]["winner"],
        "openings": {o["point"]: (o["winner"] if o["solved"] else None) for o in r["openings"]},
        "classes": sorted({o["class"] for o in r["openings"]}),
    }


def reference(d):
    """The values of a plain solve, once per run of this script."""
    out = os.path.join(d, "plain.json")
    rc, so, se = run([KONOBI, "solve", "--game", GAME, "--size", str(SIZE), "--no-manager", "--threads", "2",
                      "--tt-mb", "64", "--out", out], d)
    check(rc == 0, f"the plain solve exited {rc}: {se}")
    v = values(out)
    check(v["complete"], "the plain solve is not complete")
    return v


def check_finished(d, out, proof, ref, what):
    v = values(out)
    check(v["complete"], f"{what}: the results are not complete")
    check(v["openings"] == ref["openings"], f"{what}: values differ from the plain solve:\n"
          f"  got  {v['openings']}\n  want {ref['openings']}")
    check(v["empty_board"] == ref["empty_board"], f"{what}: the empty board's winner differs")
    # A kill -9 in the middle of an atomic write leaves its temporary file
    # (NAME.tmp-XXXXXX) beside the target, never a half file under the name.
    entries = sorted(f for f in os.listdir(proof) if ".tmp-" not in f)
    files = [f for f in entries if f.endswith(".proof.xz")]
    want = sorted(f"{NAME}-{c}.proof.xz" for c in ref["classes"])
    check(files == want, f"{what}: proof files {files}, want {want}")
    # Beside them only the folders of proofs in parts (a class carried over
    # from an earlier run), each named after its class's file.
    for f in entries:
        if f not in files:
            check(f.endswith(".parts") and f[:-len(".parts")] + ".proof.xz" in want and
                  os.path.isdir(os.path.join(proof, f)), f"{what}: {f} beside the proofs")
    rc, so, se = run([KONOBI, "verify-proof", *[os.path.join(proof, f) for f in files]], d, timeout=300)
    check(rc == 0, f"{what}: verify-proof exited {rc}:\n{so}{se}")
    # Each class's proof pieces go once its proof is written, and the
    # folder with the last of them.
    check(not os.path.exists(pieces_of(out)), f"{what}: the finished solve left {pieces_of(out)}")


def pieces_of(out):
    return out.replace(".json", ".pieces")


def start_over(out, ckpt, proof):
    """Removes what a solve that ran to its end left, for another try under
    the same conditions: the results, checkpoint, proofs, pieces and store
    (a store filled by the finished try makes the next one end sooner)."""
    store = os.path.join(os.path.dirname(out), "store.sqlite")
    for f in (out, ckpt, store, store + "-wal", store + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    for folder in (proof, pieces_of(out)):
        shutil.rmtree(folder, ignore_errors=True)


def piece_segments(out):
    d = pieces_of(out)
    return sorted(f for f in os.listdir(d) if f.endswith(".xz")) if os.path.isdir(d) else []


def start(args, cwd):
    return subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def interrupted_run(d, out, proof, ckpt, sig, delay):
    """Starts a manager solve, waits for its first checkpoint (so that it is
    past its start), then `delay` seconds more, and sends `sig`. Returns the
    exit code, or None when it finished before the signal could be sent."""
    p = start(manager_args(d, out, proof), d)
    t0 = time.monotonic()
    while not os.path.exists(ckpt) and p.poll() is None:
        check(time.monotonic() - t0 < 60, "no checkpoint after 60 s")
        time.sleep(0.002)
    if p.poll() is None:
        time.sleep(delay)
    if p.poll() is not None:
        so, se = p.communicate()
        check(p.returncode == 0, f"the solve exited {p.returncode} before it was stopped: {se}")
        return None
    p.send_signal(sig)
    so, se = p.communicate(timeout=60)
    return p.returncode, se


def case_interrupt(sig):
    ref = reference(WORK)
    # How long an uninterrupted manager solve goes on after its first
    # checkpoint, to spread the signals over that time; and it must itself
    # give the plain solve's values.
    d = os.path.join(WORK, "whole")
    os.mkdir(d)
    out, proof = os.path.join(d, f"{NAME}.json"), os.path.join(d, "proofs")
    ckpt = out.replace(".json", ".checkpoint.xz")
    p = start(manager_args(d, out, proof), d)
    t0 = time.monotonic()
    first = None
    while p.poll() is None:
        if first is None and os.path.exists(ckpt):
            first = time.monotonic()
        time.sleep(0.001)
    end = time.monotonic()
    so, se = p.communicate()
    check(p.returncode == 0, f"the uninterrupted manager solve exited {p.returncode}: {se}")
    check(first is not None, "the uninterrupted manager solve ended before its first checkpoint")
    window = end - first
    check(not os.path.exists(ckpt), "a finished solve left its checkpoint")
    check_finished(d, out, proof, ref, "uninterrupted manager solve")
    print(f"uninterrupted manager solve: {end - t0:.2f} s, {window:.3f} s of it after the first checkpoint",
          flush=True)

    stopped = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        d = os.path.join(WORK, f"seed{seed}")
        os.mkdir(d)
        out, proof = os.path.join(d, f"{NAME}.json"), os.path.join(d, "proofs")
        ckpt = out.replace(".json", ".checkpoint.xz")
        delay = rng.uniform(0, 0.6 * window)
        r = None
        for attempt in range(4):  # a run that ended first: again, earlier
            r = interrupted_run(d, out, proof, ckpt, sig, delay)
            if r is not None and r[0] == 0:
                # The signal came as the solve was ending (SIGINT), or the
                # solve ended between the last look and the signal (either):
                # it must have finished its work. Not a stop: again, earlier.
                check(values(out)["complete"] and not os.path.exists(ckpt),
                      f"seed {seed}: {sig.name} gave exit 0 with work left: {r[1]}")
                print(f"seed {seed}: {sig.name} after {delay:.3f} s came as the solve ended (exit 0, complete)",
                      flush=True)
                r = None
            if r is not None:
                break
            delay /= 4
            start_over(out, ckpt, proof)
        if r is None:
            print(f"seed {seed}: the solve ended before every signal", flush=True)
            continue
        rc, se = r
        stopped += 1
        if sig == signal.SIGINT:
            check(rc == 130, f"seed {seed}: SIGINT after {delay:.3f} s gave exit {rc}, want 130: {se}")
        else:
            check(rc == -signal.SIGKILL, f"seed {seed}: SIGKILL gave {rc}")
        if not os.path.exists(ckpt):
            # Stopped just after its last class was proven: nothing is left
            # open, so there is no checkpoint, and the results are complete.
            check(values(out)["complete"], f"seed {seed}: no checkpoint after the stop, and the results are "
                  "not complete")
            print(f"seed {seed}: stopped after {delay:.3f} s, as the last class was proven", flush=True)
        held = "no checkpoint"
        ckpt_text = ""
        if os.path.exists(ckpt):
            with lzma.open(ckpt, "rt") as f:
                ckpt_text = f.read()
            lines = ckpt_text.splitlines()
            classes = sum(1 for line in lines if line.startswith("class "))
            held = f"a checkpoint of {classes} open classes, {len(lines) - 7 - classes} tree nodes"
        segments = piece_segments(out)
        if segments:
            held += f", {len(segments)} proof piece segments"
        rc, so, se2 = run(manager_args(d, out, proof, ["--resume"]), d)
        check(rc == 0, f"seed {seed}: --resume exited {rc}: {se2}")
        # Pieces of classes still open are read back (those of a class
        # proven just before the stop are dropped unread).
        if any(s.split("-")[0] in open_classes_of(ckpt_text) for s in segments):
            check("proof piece entries from" in se2, f"seed {seed}: the resume did not read the pieces "
                  f"{segments}: {se2}")
        check(not os.path.exists(ckpt), f"seed {seed}: the finished resume left its checkpoint")
        check_finished(d, out, proof, ref, f"seed {seed} (stopped after {delay:.3f} s)")
        print(f"seed {seed}: stopped {delay:.3f} s past the first checkpoint with {held}; resumed: same values, "
              "proofs verified", flush=True)
    check(stopped >= len(SEEDS) // 2 + 1, f"only {stopped} of {len(SEEDS)} runs were stopped before they ended")


def open_classes_of(ckpt_text):
    return [line.split()[1] for line in ckpt_text.splitlines() if line.startswith("class ")]


def case_corrupt():
    d = WORK
    out, proof = os.path.join(d, f"{NAME}.json"), os.path.join(d, "proofs")
    ckpt = out.replace(".json", ".checkpoint.xz")
    r = interrupted_run(d, out, proof, ckpt, signal.SIGINT, 0)
    check(r is not None and r[0] == 130, f"the stopped solve gave {r}")
    check(os.path.exists(ckpt), "no checkpoint after the stop")
    with open(ckpt, "rb") as f:
        good = f.read()
    with open(out, "rb") as f:
        results = f.read()
    damaged = {
        "truncated to half": good[: len(good) // 2],
        "truncated by one byte": good[:-1],
        "empty": b"",
        "a byte flipped in the middle": good[: len(good) // 2] + bytes([good[len(good) // 2] ^ 0x20]) +
                                        good[len(good) // 2 + 1:],
        "not xz": b"konobi-checkpoint 1\n",
    }
    def refused(what, damaged_file, data, ckpt_data):
        """--resume with `data` in `damaged_file` fails naming it, and leaves
        the results file and the checkpoint (`ckpt_data`) as they were."""
        with open(damaged_file, "wb") as f:
            f.write(data)
        rc, so, se = run(manager_args(d, out, proof, ["--resume"]), d)
        check(rc != 0, f"{what}: --resume exited 0")
        check(damaged_file in se, f"{what}: the message does not name {damaged_file}: {se!r}")
        with open(out, "rb") as f:
            check(f.read() == results, f"{what}: the results file changed")
        with open(ckpt, "rb") as f:
            check(f.read() == ckpt_data, f"{what}: the checkpoint was replaced")
        print(f"{what}: exit {rc}, {se.strip().splitlines()[-1]}", flush=True)

    for what, data in damaged.items():
        refused(what, ckpt, data, data)
    # A damaged proof piece segment of an open class: refused, naming it,
    # with the results file and the checkpoint left as they were.
    with open(ckpt, "wb") as f:
        f.write(good)
    with lzma.open(ckpt, "rt") as f:
        open_class = open_classes_of(f.read())[0]
    os.makedirs(pieces_of(out), exist_ok=True)
    bad_segment = os.path.join(pieces_of(out), f"{open_class}-9999.xz")
    for what, data in {"not xz": b"pieces 1\n", "truncated": lzma.compress(b"pieces 1\ngame x\n"),
                       "another solve's": lzma.compress(f"pieces 1\ngame gonnect 9x9\nclass {open_class}\n"
                                                        "entries 0\nend\n".encode())}.items():
        refused(f"a proof piece segment {what}", bad_segment, data, good)
    os.remove(bad_segment)

    # A whole, valid checkpoint of another game (a Gonnect solve's): refused
    # by its header, naming the file.
    g = os.path.join(d, "gonnect")
    os.mkdir(g)
    gout = os.path.join(g, "gonnect-4x4.json")
    gckpt = gout.replace(".json", ".checkpoint.xz")
    p = start([KONOBI, "solve", "--game", "gonnect", "--size", "4", "--manager", "--job-nodes", "300",
               "--checkpoint-every", "0.01", "--threads", "2", "--tt-mb", "64", "--no-store", "--out", gout], g)
    t0 = time.monotonic()
    while not os.path.exists(gckpt) and p.poll() is None and time.monotonic() - t0 < 60:
        time.sleep(0.002)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    check(os.path.exists(gckpt), f"the Gonnect solve left no checkpoint (exit {p.returncode})")
    with open(ckpt, "wb") as f:
        f.write(good)
    rc, so, se = run(manager_args(d, out, proof, ["--resume", "--checkpoint", gckpt]), d)
    check(rc == 2, f"a Gonnect checkpoint for a Konobi solve: exit {rc}, want 2: {se}")
    check(gckpt in se and "not of this solve" in se, f"a Gonnect checkpoint for a Konobi solve: {se!r}")
    with open(out, "rb") as f:
        check(f.read() == results, "a Gonnect checkpoint for a Konobi solve: the results file changed")
    print(f"another game's checkpoint: exit {rc}, {se.strip().splitlines()[-1]}", flush=True)

    # The good one still carries on.
    with open(ckpt, "wb") as f:
        f.write(good)
    rc, so, se = run(manager_args(d, out, proof, ["--resume"]), d)
    check(rc == 0, f"--resume from the intact checkpoint exited {rc}: {se}")
    check_finished(d, out, proof, reference(WORK), "resume from the intact checkpoint")


def case_stale():
    """A kill -9 between saving the results and replacing the checkpoint
    leaves a checkpoint older than the results: classes open in it are
    proven in the file. A resume goes by the results and lets the checkpoint
    go once nothing in it is open, here built without timing luck: the
    checkpoint of a stopped run is put back after a resume proved one of its
    classes, then after a resume proved them all."""
    ref = reference(WORK)
    d = WORK
    out, proof = os.path.join(d, f"{NAME}.json"), os.path.join(d, "proofs")
    ckpt = out.replace(".json", ".checkpoint.xz")
    open_classes = []
    for attempt in range(5):  # stopped at its first checkpoint, a solve has classes open, mostly
        start_over(out, ckpt, proof)
        r = interrupted_run(d, out, proof, ckpt, signal.SIGINT, 0)
        if r is None or not os.path.exists(ckpt):
            continue
        check(r[0] == 130, f"the stopped solve gave {r}")
        with lzma.open(ckpt, "rt") as f:
            open_classes = [line.split()[1] for line in f.read().splitlines() if line.startswith("class ")]
        if len(open_classes) >= 2:
            break
    check(len(open_classes) >= 2, f"five stops left {open_classes} open; the test needs two")
    with open(ckpt, "rb") as f:
        stale = f.read()
    # One class proven, then the old checkpoint back.
    rc, so, se = run(manager_args(d, out, proof, ["--resume", "--openings", open_classes[0]]), d)
    check(rc == 0, f"--resume --openings {open_classes[0]} exited {rc}: {se}")
    with open(ckpt, "wb") as f:
        f.write(stale)
    rc, so, se = run(manager_args(d, out, proof, ["--resume"]), d)
    check(rc == 0, f"--resume over a checkpoint older than the results exited {rc}: {se}")
    check(not os.path.exists(ckpt), "a finished resume left a checkpoint older than its results")
    check_finished(d, out, proof, ref, "resume over an older checkpoint")
    # Everything proven, and the old checkpoint back.
    with open(ckpt, "wb") as f:
        f.write(stale)
    rc, so, se = run(manager_args(d, out, proof, ["--resume"]), d)
    check(rc == 0, f"--resume with every class proven exited {rc}: {se}")
    check(not os.path.exists(ckpt), "a resume with nothing left to do kept a checkpoint of proven classes")
    check_finished(d, out, proof, ref, "resume with nothing left")
    print(f"checkpoint with {open_classes} open, older than the results: resumed, then removed", flush=True)


def case_lock():
    ref = reference(WORK)
    d = WORK
    ckpt = os.path.join(d, "shared.checkpoint.xz")
    # Results in folders of their own: the stopped first solve may hold its
    # results folder's lock (atomic_file.h), which is not what is tested.
    os.mkdir(os.path.join(d, "one"))
    os.mkdir(os.path.join(d, "two"))
    out1, proof1 = os.path.join(d, "one", "one.json"), os.path.join(d, "one", "proofs")
    out2, proof2 = os.path.join(d, "two", "two.json"), os.path.join(d, "two", "proofs")
    first = start(manager_args(d, out1, proof1, ["--checkpoint", ckpt]), d)
    # Once the lock file holds its pid, the first holds the lock; stopped
    # (SIGSTOP) it stays in the middle of its solve however fast it is.
    t0 = time.monotonic()
    while True:
        check(first.poll() is None, f"the first solve ended ({first.returncode}) before it was seen holding the lock")
        check(time.monotonic() - t0 < 60, "the first solve took no lock in 60 s")
        try:
            with open(ckpt + ".lock") as f:
                if f.read().strip() == str(first.pid):
                    break
        except FileNotFoundError:
            pass
        time.sleep(0.001)
    os.kill(first.pid, signal.SIGSTOP)
    try:
        rc, so, se = run(manager_args(d, out2, proof2, ["--checkpoint", ckpt]), d)
        want = (f"another solve is using {ckpt} (process {first.pid}); "
                "wait for it to end or give another --checkpoint")
        check(rc == 2, f"the second solve exited {rc}, want 2: {se}")
        check(want in se, f"the second solve's message {se!r} lacks {want!r}")
        check(not os.path.exists(out2), "the second solve wrote a results file")
    finally:
        os.kill(first.pid, signal.SIGCONT)
    so, se = first.communicate(timeout=120)
    check(first.returncode == 0, f"the first solve exited {first.returncode}: {se}")
    check_finished(d, out1, proof1, ref, "the first solve")
    # With the first gone, the lock is free.
    rc, so, se = run(manager_args(d, out2, proof2, ["--checkpoint", ckpt]), d)
    check(rc == 0, f"a solve after the first ended exited {rc}: {se}")
    check_finished(d, out2, proof2, ref, "the solve after the first")
    print(f"second solve refused with the lock's message naming {first.pid}; the first finished correctly", flush=True)


WORK = tempfile.mkdtemp(prefix="konobi_resume_")
try:
    if CASE == "sigint":
        case_interrupt(signal.SIGINT)
    elif CASE == "sigkill":
        case_interrupt(signal.SIGKILL)
    elif CASE == "corrupt":
        case_corrupt()
    elif CASE == "stale":
        case_stale()
    elif CASE == "lock":
        case_lock()
    else:
        fail(f"unknown case {CASE}")
    print(f"PASS ({LABEL})")
finally:
    shutil.rmtree(WORK, ignore_errors=True)
