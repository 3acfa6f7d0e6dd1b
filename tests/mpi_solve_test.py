#!/usr/bin/env python3
"""`konobi solve` under mpirun (docs/JOBS.md, "Workers on other machines"):
the job manager on rank 0 and a worker on every other rank give the values
of a plain solve, with proofs that verify-proof accepts, for 1, 2 and 3
ranks, and without mpirun (threads only).

Usage: mpi_solve_test.py KONOBI MPIEXEC GAME SIZE [OPENINGS]. OPENINGS
(such as c1,b2,a3,c3) keeps a 5x5 run to a few of its classes. Each run
works in a fresh temporary folder.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

KONOBI, MPIEXEC, GAME, SIZE = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
OPENINGS = sys.argv[5] if len(sys.argv) > 5 else None
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def fail(msg):
    print(f"FAIL ({GAME} {SIZE}x{SIZE}): {msg}", flush=True)
    sys.exit(1)


def solve(d, name, prefix, extra, threads=1):
    out, proofs = os.path.join(d, name + ".json"), os.path.join(d, name + "-proofs")
    args = [*prefix, KONOBI, "solve", "--game", GAME, "--size", str(SIZE), "--threads", str(threads), "--tt-mb", "64",
            "--quiet", "--out", out, "--proof", proofs, *extra]
    if OPENINGS:
        args += ["--openings", OPENINGS]
    p = subprocess.run(args, cwd=d, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=240)
    if p.returncode != 0:
        fail(f"{' '.join(args)} exited {p.returncode}:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    with open(out) as f:
        r = json.load(f)
    values = {o["point"]: o.get("winner") for o in r["openings"] if o["solved"]}
    for proof in sorted(os.listdir(proofs)):
        v = subprocess.run([KONOBI, "verify-proof", os.path.join(proofs, proof)], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=240)
        if v.returncode != 0 or not v.stdout.startswith("OK"):
            fail(f"{name}: verify-proof {proof}: {v.stdout.strip()}")
    print(f"{name}: {len(values)} openings proven, {len(os.listdir(proofs))} proofs verified", flush=True)
    return values


d = tempfile.mkdtemp(prefix="konobi-mpi-")
try:
    plain = solve(d, "plain", [], ["--no-manager"])
    if not plain:
        fail("the plain solve proved nothing")
    # Small jobs on 4x4 so that the trees grow; on 5x5 jobs worth a round
    # trip to another rank (docs/JOBS.md).
    manager = ["--manager", "--job-nodes", "500" if SIZE == 4 else "50000", "--no-store"]
    runs = {"threads": solve(d, "threads", [], manager, threads=2)}
    for ranks in (1, 2, 3):
        runs[f"np{ranks}"] = solve(d, f"np{ranks}", [MPIEXEC, "--oversubscribe", "-np", str(ranks)], manager)
    for name, values in runs.items():
        if values != plain:
            fail(f"{name} differs from the plain solve: {values} against {plain}")
    print("rank 0: all runs agree with the plain solve")
finally:
    shutil.rmtree(d, ignore_errors=True)
