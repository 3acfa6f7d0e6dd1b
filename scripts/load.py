#!/usr/bin/python3
"""Load benchmark of `konobi serve` (a benchmark, not a test).

    /usr/bin/python3 scripts/load.py [--konobi build/solver/konobi] [--games 200]
        [--seconds 30] [--size 9] [--game konobi] [--swap 0.3]
    /usr/bin/python3 scripts/load.py --url http://127.0.0.1:8080/ ...   (a running server)

Starts `konobi serve` on a free loopback port with a fresh data folder (or
targets --url, which must allow 2 x games connections from one address and
the message rate below), then plays --games online games at once, two
WebSocket clients per game, for --seconds: each client answers every state
in which it is to move with a random move of the state's `legal` list (or,
with probability --swap, `swap` when offered). A finished game is followed
by a new one at the same table, so the load stays constant.

Reports moves per second, the latency of a move's reply (from sending the
move to receiving the state that holds it: p50, p99, max), and checks that
no move was lost: after the run a fresh connection joins every game as a
watcher, and the server's moves must be exactly the moves the clients sent
and saw acknowledged (forced passes, played by the server, aside); for the
finished games the record at /records/ID.txt must hold the same moves.
Uses Debian's python3-websockets and the standard library only.
"""

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUB_PAGE = "<!doctype html><title>load</title>\n"


class Stats:
    def __init__(self):
        self.latencies = []  # seconds, one per acknowledged move
        self.moves = 0
        self.errors = []
        self.games = []  # every Table's games: (id, {ply: move})


def token(prefix, i):
    return f"{prefix}-{i:06d}-" + "".join(random.choice("abcdefghijkmnpqrstuvwxyz0123456789") for _ in range(16))


class Table:
    """Two clients playing one game after another."""

    def __init__(self, index, args, ws_url, stats, deadline):
        self.index, self.args, self.ws_url, self.stats, self.deadline = index, args, ws_url, stats, deadline
        self.rng = random.Random(args.seed * 100003 + index)
        self.tokens = [token("first", index), token("second", index)]

    async def run(self):
        async with websockets.connect(self.ws_url, max_size=1 << 22, ping_interval=None) as a, \
                websockets.connect(self.ws_url, max_size=1 << 22, ping_interval=None) as b:
            while time.monotonic() < self.deadline:
                await self.play(a, b)

    async def play(self, a, b):
        args = self.args
        await a.send(json.dumps({"type": "create", "req": 0, "game": args.game, "size": args.size,
                                 "mode": "online", "player": self.tokens[0], "name": f"A{self.index}"}))
        game_id = None
        while game_id is None:
            m = json.loads(await a.recv())
            if m["type"] == "created":
                game_id = m["id"]
            elif m["type"] == "error":
                raise RuntimeError(f"create refused: {m['message']}")
        acked = {}  # ply -> move, as acknowledged to the client that sent it
        self.stats.games.append((game_id, acked))
        await b.send(json.dumps({"type": "join", "id": game_id, "player": self.tokens[1], "name": f"B{self.index}"}))
        await asyncio.gather(self.client(a, game_id, acked), self.client(b, game_id, acked))

    async def client(self, ws, game_id, acked):
        """Answers every state where this client is to move; returns when the
        game is over or the time is up (with no move of its own in flight)."""
        pending = None  # (req, ply, move, sent_at)
        req = 0
        while True:
            # Past the deadline a client with no move in flight stops; the
            # other may be waiting for a move that will not come.
            wait = 60 if pending else max(0.05, self.deadline - time.monotonic())
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), wait))
            except asyncio.TimeoutError:
                if pending:
                    self.stats.errors.append(f"{game_id}: no reply to {pending[2]} at ply {pending[1]} in 60 s")
                    return
                if time.monotonic() >= self.deadline:
                    return
                continue
            if m["type"] == "error":
                self.stats.errors.append(f"{game_id}: {m['message']}")
                if pending and m.get("req") == pending[0]:
                    pending = None
                continue
            if m.get("id") != game_id:
                continue
            if m["type"] != "state":
                continue
            if pending and m.get("req") == pending[0]:
                _, ply, move, sent = pending
                if m["ply"] >= ply + 1 and m["moves"][ply] == move:
                    self.stats.latencies.append(time.monotonic() - sent)
                    self.stats.moves += 1
                    acked[ply] = move
                else:
                    self.stats.errors.append(f"{game_id}: reply to {move} at ply {ply} does not hold it")
                pending = None
            if m["winner"] is not None:
                return
            if pending:
                continue
            if time.monotonic() >= self.deadline:
                return
            me = [p for p in m["players"] if p["seat"] == m["you"]]
            if not me or me[0]["color"] != m["to_move"] or m.get("must_pass"):
                continue
            if m["swap_available"] and self.rng.random() < self.args.swap:
                move = "swap"
            elif m["legal"]:
                move = self.rng.choice(m["legal"])
            else:
                continue
            req += 1
            pending = (req, m["ply"], move, time.monotonic())
            await ws.send(json.dumps({"type": "move", "req": req, "id": game_id, "move": move, "ply": m["ply"]}))


async def verify(ws_url, http_url, stats):
    """Joins every game as a watcher and compares the server's moves with
    the acknowledged ones; fetches the records of the finished games."""
    lost, checked, records, finished = [], 0, 0, 0
    # The server's rate limit holds for the watcher too: a fresh connection
    # per 200 games (400 messages) stays within its burst.
    games = list(stats.games)
    for first in range(0, len(games), 200):
        async with websockets.connect(ws_url, max_size=1 << 22, ping_interval=None) as w:
            for game_id, acked in games[first:first + 200]:
                await w.send(json.dumps({"type": "join", "id": game_id, "player": token("watcher", 0)}))
                while True:
                    m = json.loads(await w.recv())
                    if m["type"] == "error":
                        raise RuntimeError(f"join {game_id}: {m['message']}")
                    if m["type"] == "state" and m["id"] == game_id:
                        break
                await w.send(json.dumps({"type": "leave", "id": game_id}))
                moves = m["moves"]
                checked += 1
                if m["ply"] != len(moves):
                    lost.append(f"{game_id}: ply {m['ply']} but {len(moves)} moves")
                for ply, move in acked.items():
                    if ply >= len(moves) or moves[ply] != move:
                        lost.append(f"{game_id}: acknowledged {move} at ply {ply} is not in the game")
                for ply, move in enumerate(moves):
                    if ply not in acked and move != "pass":
                        lost.append(f"{game_id}: {move} at ply {ply} was never acknowledged to a client")
                if m["winner"] is not None:
                    finished += 1
                    try:
                        with urllib.request.urlopen(f"{http_url}records/{game_id}.txt", timeout=10) as r:
                            text = r.read().decode()
                    except urllib.error.URLError as e:
                        lost.append(f"{game_id}: no record ({e})")
                        continue
                    records += 1
                    if text.rstrip("\n").split("\n")[-1].split() != moves:
                        lost.append(f"{game_id}: the record's moves differ from the game's")
    return lost, checked, records, finished


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def start_server(args, data):
    web = args.web or os.path.join(ROOT, "web")
    if not os.path.isfile(os.path.join(web, "index.html")):
        web = os.path.join(data, "web")  # no page in this tree: a stub, the benchmark needs none
        os.makedirs(web)
        with open(os.path.join(web, "index.html"), "w") as f:
            f.write(STUB_PAGE)
    cmd = [args.konobi, "serve", "--port", "0", "--data", os.path.join(data, "store"), "--web", web,
           "--threads", str(args.threads),
           "--max-connections", str(2 * args.games + 10),
           "--max-connections-per-address", str(2 * args.games + 10),
           "--messages-per-second", "1000", "--message-burst", "1000",
           "--max-games-per-player", "1000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.match(r"Serving (http://\S+/) ", line)
    if not match:
        proc.kill()
        sys.exit(f"load.py: konobi serve did not start: {line!r}")
    return proc, match.group(1), cmd


async def main_async(args, http_url):
    ws_url = "ws" + http_url[len("http"):] + "ws"
    stats = Stats()
    deadline = time.monotonic() + args.seconds
    start = time.monotonic()
    tables = [Table(i, args, ws_url, stats, deadline) for i in range(args.games)]
    results = await asyncio.gather(*(t.run() for t in tables), return_exceptions=True)
    elapsed = time.monotonic() - start
    failures = [r for r in results if isinstance(r, BaseException)]
    lost, checked, records, finished = await verify(ws_url, http_url, stats)
    return stats, elapsed, failures, lost, checked, records, finished


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--konobi", default=os.path.join(ROOT, "build", "solver", "konobi"))
    p.add_argument("--url", help="a running server (http://HOST:PORT/) instead of starting one")
    p.add_argument("--web", help="the page's folder for the started server (default: the tree's web/)")
    p.add_argument("--threads", type=int, default=2, help="the started server's I/O threads")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--game", default="konobi", choices=["konobi", "gonnect"])
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--swap", type=float, default=0.3, help="chance of swapping when offered")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    random.seed(args.seed)

    proc, data = None, None
    try:
        if args.url:
            http_url = args.url if args.url.endswith("/") else args.url + "/"
        else:
            data = tempfile.mkdtemp(prefix="konobi-load-")
            proc, http_url, cmd = start_server(args, data)
            print("server:", " ".join(cmd))
        stats, elapsed, failures, lost, checked, records, finished = asyncio.run(main_async(args, http_url))
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=30)
        if data:
            shutil.rmtree(data, ignore_errors=True)

    lat = stats.latencies
    print(f"{args.games} tables ({2 * args.games} connections), {args.game} {args.size}x{args.size}, "
          f"{elapsed:.1f} s")
    print(f"games: {len(stats.games)} started, {finished} finished, {checked} checked, "
          f"{records} records compared")
    print(f"moves: {stats.moves} acknowledged, {stats.moves / elapsed:.0f} moves/s")
    print(f"reply latency: p50 {percentile(lat, 50) * 1000:.1f} ms, p99 {percentile(lat, 99) * 1000:.1f} ms, "
          f"max {max(lat) * 1000 if lat else float('nan'):.1f} ms")
    print(f"errors: {len(stats.errors)}, client failures: {len(failures)}, lost moves: {len(lost)}")
    for line in (stats.errors[:5] + [repr(f) for f in failures[:5]] + lost[:10]):
        print("  " + line)
    return 0 if not (stats.errors or failures or lost) else 1


if __name__ == "__main__":
    sys.exit(main())
