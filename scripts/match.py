#!/usr/bin/python3
"""Plays two GTP programs against each other and reports win rates.

    /usr/bin/python3 scripts/match.py \
        --first "build/solver/konobi gtp --think 0.3" \
        --second "build/solver/konobi gtp --player greedy" \
        --size 9 --games 40 [--game gonnect [--ko simple] [--edges own]]

The programs alternate colours: in even games the first program starts as
Black. The pie rule is the programs' own business: when White answers
`swap`, the players exchange colours (the board and the colour to move
stay), so the program that held White now holds Black and the other one,
now White, moves next. Forced passes are played as `pass`. After every
move both programs are asked `konobi-winner` and must agree (the referee
check); with --referee the finished record is also replayed by `konobi show`
and its winner compared. Win rates come with a 95% Wilson interval. Only the
standard library is used.
"""

import argparse
import json
import math
import shlex
import subprocess
import sys
import time


class GtpError(Exception):
    pass


class Program:
    def __init__(self, command, name):
        self.name = name
        self.command = command
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise GtpError(f"{self.name} ({self.command}) ended while answering {line!r}")
            out = out.rstrip("\n")
            if out == "" and lines:
                break
            if out == "" and not lines:
                continue
            lines.append(out)
        head = lines[0]
        body = "\n".join([head[1:].strip()] + lines[1:]).strip()
        if head.startswith("?"):
            raise GtpError(f"{self.name} refused {line!r}: {body}")
        if not head.startswith("="):
            raise GtpError(f"{self.name} answered {line!r} with {head!r}")
        return body

    def close(self):
        try:
            self.send("quit")
        except (GtpError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def wilson(wins, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def referee_winner(referee, args, moves):
    cmd = [referee, "show", "--json", "--size", str(args.size)]
    if args.game == "gonnect":
        cmd += ["--game", "gonnect", "--ko", args.ko, "--edges", args.edges]
    cmd += moves
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out).get("winner")


def play_game(programs, first, args):
    """Plays one game; programs[first] starts as Black. Returns (winner index
    or None when the move bound was reached, the moves, seconds per program)."""
    holder = {"b": first, "w": 1 - first}  # colour -> program index
    moves = []
    spent = [0.0, 0.0]
    to_move = "b"
    for p in programs:
        p.send(f"boardsize {args.size}")
        p.send("clear_board")
        if args.game == "gonnect":
            p.send(f"konobi-game gonnect {args.ko} {args.edges}")
        else:
            p.send("konobi-game konobi")
    while len(moves) < args.max_moves:
        mover = holder[to_move]
        t0 = time.monotonic()
        move = programs[mover].send(f"genmove {to_move}").lower()
        spent[mover] += time.monotonic() - t0
        if move == "resign":
            return 1 - mover, moves, spent
        programs[1 - mover].send(f"play {to_move} {move}")
        moves.append(move)
        if move == "swap":
            # The board and the colour to move stay; the players exchange
            # colours, so the first player now holds White and moves next.
            holder = {"b": holder["w"], "w": holder["b"]}
        else:
            to_move = "w" if to_move == "b" else "b"
        verdicts = [p.send("konobi-winner") for p in programs]
        if verdicts[0] != verdicts[1]:
            raise GtpError(f"the programs disagree on the game's end: {verdicts} after {' '.join(moves)}")
        if verdicts[0] != "none":
            winner_colour = verdicts[0][0]
            if args.referee:
                ref = referee_winner(args.referee, args, moves)
                if ref != verdicts[0]:
                    raise GtpError(f"konobi show says {ref}, the programs {verdicts[0]}: {' '.join(moves)}")
            return holder[winner_colour], moves, spent
    return None, moves, spent


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", required=True, help="the first GTP program's command line")
    ap.add_argument("--second", required=True, help="the second GTP program's command line")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--game", choices=["konobi", "gonnect"], default="konobi")
    ap.add_argument("--ko", choices=["simple", "superko"], default="superko")
    ap.add_argument("--edges", choices=["either", "own"], default="either")
    ap.add_argument("--max-moves", type=int, default=0, help="unfinished past this many moves (default 4*N*N)")
    ap.add_argument("--referee", help="a konobi binary: replay each finished record with `konobi show`")
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    args = ap.parse_args()
    if not 3 <= args.size <= 19:
        ap.error("--size must be from 3 to 19")
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.max_moves <= 0:
        args.max_moves = 4 * args.size * args.size
    programs = [Program(args.first, "first"), Program(args.second, "second")]
    wins = [0, 0]
    as_black = [[0, 0], [0, 0]]  # [program][games started as Black, won]
    unfinished = 0
    lengths = []
    spent = [0.0, 0.0]
    moves_made = [0, 0]
    try:
        for g in range(args.games):
            first = g % 2
            winner, moves, secs = play_game(programs, first, args)
            for i in (0, 1):
                spent[i] += secs[i]
            moves_made[first] += (len(moves) + 1) // 2
            moves_made[1 - first] += len(moves) // 2
            as_black[first][0] += 1
            if winner is None:
                unfinished += 1
            else:
                wins[winner] += 1
                if winner == first:
                    as_black[first][1] += 1
                lengths.append(len(moves))
            if not args.quiet:
                who = "unfinished" if winner is None else ("first" if winner == 0 else "second") + " wins"
                print(f"game {g + 1}: {'first' if first == 0 else 'second'} starts, {who} "
                      f"after {len(moves)} moves: {' '.join(moves)}", flush=True)
    finally:
        for p in programs:
            p.close()
    decided = wins[0] + wins[1]
    lo, hi = wilson(wins[0], decided)
    game = args.game if args.game == "konobi" else f"gonnect ({args.ko}, {args.edges})"
    print(f"{game} {args.size}x{args.size}: {args.games} games, {unfinished} unfinished")
    print(f"first  {args.first}")
    print(f"second {args.second}")
    rate = wins[0] / decided if decided else 0
    print(f"first wins {wins[0]}/{decided} = {100 * rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
    for i, name in enumerate(("first", "second")):
        started, won = as_black[i]
        per_move = spent[i] / moves_made[i] if moves_made[i] else 0
        print(f"{name} started {started} games and won {won} of them; {per_move:.3f} s per move")
    if lengths:
        print(f"moves per game: mean {sum(lengths) / len(lengths):.1f}, min {min(lengths)}, max {max(lengths)}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except GtpError as e:
        print(f"match.py: {e}", file=sys.stderr)
        sys.exit(1)
