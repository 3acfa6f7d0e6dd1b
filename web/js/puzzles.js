// Puzzle mode: the shipped puzzles of a size (`puzzles`), one at a time on the
// main board. Each move is checked by the server (`puzzle_move`); a right one
// is answered by the opponent's reply until the puzzle is solved, a wrong one
// by the refuting line, played out on the board.

import { parsePosition, splitRecord, capitalize } from "./notation.js";

const other = (color) => (color === "black" ? "white" : "black");
const STEP_MS = 600;

export class PuzzleMode {
  constructor(connection, board, elements, onChange) {
    this.connection = connection;
    this.board = board;
    this.el = elements; // {size, load, list, status, retry, next}
    this.onChange = onChange;
    this.puzzles = [];
    this.size = 0;
    this.current = null;
    this.moves = [];
    this.solvedSet = new Set();
    this.busy = false;
    this.done = false;
    this.highlight = null;
    elements.load.addEventListener("click", () => this.load());
    elements.retry.addEventListener("click", () => this.retry());
    elements.next.addEventListener("click", () => this.pick((this.currentIndex() + 1) % this.puzzles.length));
  }

  currentIndex() {
    return this.puzzles.indexOf(this.current);
  }

  async load() {
    const size = Number(this.el.size.value);
    this.setStatus("Loading…");
    let reply;
    try {
      reply = await this.connection.request({ type: "puzzles", size }, "puzzles");
    } catch (e) {
      this.setStatus(e.message, "wrong");
      return;
    }
    this.size = size;
    this.puzzles = reply.puzzles || [];
    this.el.list.textContent = "";
    if (!this.puzzles.length) {
      this.setStatus(`No puzzles for ${size}x${size}.`);
      return;
    }
    this.puzzles.forEach((p, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "listitem");
      b.dataset.index = String(p.index);
      b.textContent = `${i + 1}`;
      b.title = `Puzzle ${i + 1}: ${capitalize(p.to_move)} to play and win` +
        (p.remoteness ? ` (in ${p.remoteness} plies)` : "");
      b.setAttribute("aria-label", b.title);
      b.addEventListener("click", () => this.pick(i));
      this.el.list.appendChild(b);
    });
    this.pick(0);
  }

  pick(i) {
    this.current = this.puzzles[i];
    this.moves = [];
    this.done = false;
    this.busy = false;
    for (const b of this.el.list.children) {
      b.setAttribute("aria-current", String(b.dataset.index === String(this.current.index)));
    }
    this.el.retry.hidden = true;
    this.el.next.hidden = this.puzzles.length < 2;
    const p = this.current;
    this.setStatus(`${capitalize(p.to_move)} to play and win` +
      (p.remoteness ? ` in ${p.remoteness} plies` : "") + ". Click the winning move.");
    this.onChange();
  }

  active() {
    return !!this.current;
  }

  // The position: the puzzle's stones and the moves played since, in turn.
  stonesAndTurn() {
    const { stones } = parsePosition(this.current.position);
    let color = this.current.to_move;
    let last = null;
    for (const m of this.moves) {
      if (m !== "pass" && m !== "swap") stones.set(m, color);
      last = m;
      color = other(color);
    }
    return { stones, toMove: color, last };
  }

  boardView() {
    const { stones, toMove, last } = this.stonesAndTurn();
    this.el.status.dataset.line = this.moves.join(" ");
    const legal = new Set();
    const n = this.size;
    for (let r = 1; r <= n; r++)
      for (let c = 0; c < n; c++) {
        const name = "abcdefghijklmnopqrs"[c] + r;
        if (!stones.has(name)) legal.add(name);
      }
    return { size: n, game: "konobi", edges: null, stones, legal, illegal: new Map(), toMove,
             interactive: !this.busy && !this.done, lastMove: last, chain: new Set(), captured: [],
             highlight: this.highlight };
  }

  async place(point) {
    if (!this.current || this.busy || this.done) return;
    const { stones } = this.stonesAndTurn();
    if (stones.has(point)) {
      this.setStatus(`${point} is occupied.`);
      return;
    }
    this.busy = true;
    const moves = [...this.moves, point];
    let reply;
    try {
      reply = await this.connection.request(
        { type: "puzzle_move", size: this.size, index: this.current.index, moves }, "puzzle_reply");
    } catch (e) {
      this.busy = false;
      this.setStatus(e.message, "wrong");
      this.onChange();
      return;
    }
    this.moves = moves;
    this.onChange();
    if (reply.correct) {
      if (reply.solved) {
        this.done = true;
        this.busy = false;
        this.solvedSet.add(this.current.index);
        this.markSolved();
        this.setStatus(`Solved! ${point} wins.`, "right");
        this.onChange();
        return;
      }
      this.setStatus(`${point} is right.` + (reply.reply ? ` The opponent answers ${reply.reply}.` : ""), "right");
      if (reply.reply) {
        await sleep(STEP_MS);
        this.moves = [...this.moves, reply.reply];
      }
      this.busy = false;
      this.onChange();
      return;
    }
    const line = Array.isArray(reply.refutation) ? reply.refutation : splitRecord(reply.refutation || "");
    this.setStatus(`${point} is wrong.` + (line.length ? ` The refutation: ${line.join(" ")}.` : ""), "wrong");
    for (const m of line) {
      await sleep(STEP_MS);
      this.moves = [...this.moves, m];
      this.onChange();
    }
    this.done = true;
    this.busy = false;
    this.el.retry.hidden = false;
    this.onChange();
  }

  retry() {
    const i = this.currentIndex();
    if (i >= 0) this.pick(i);
  }

  markSolved() {
    for (const b of this.el.list.children) {
      if (this.solvedSet.has(Number(b.dataset.index))) b.classList.add("solved");
    }
  }

  setStatus(text, cls = "") {
    this.el.status.textContent = text;
    this.el.status.className = `pz-status ${cls}`;
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
