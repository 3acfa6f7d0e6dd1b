// The view of one game: the server's latest `state` message and what the page
// derives from it for drawing (stones, marks, whose turn, which colours this
// browser may play, the sentence for a point). No rule is judged here.

import { parsePosition, capitalize } from "./notation.js";
import { MARK_NAMES } from "./board.js";

export class GameView {
  constructor() {
    this.state = null;
    this.stones = new Map();
    this.captured = []; // [{point, color}] of the last move, while shown
  }

  get id() {
    return this.state ? this.state.id : null;
  }

  // Takes a new state; returns true when it is a new position (not a repeat).
  update(state) {
    const before = this.state;
    const previousStones = this.stones;
    this.state = state;
    this.stones = parsePosition(state.position).stones;
    this.illegal = new Map((state.illegal || []).map((i) => [i.point, i]));
    this.legal = new Set(state.legal || []);
    const fresh = !before || before.id !== state.id || before.ply !== state.ply;
    if (fresh) {
      this.captured = (state.captured || []).map((point) => ({ point, color: previousStones.get(point) }));
    }
    return fresh;
  }

  // The colours this connection may move for.
  myColors() {
    const s = this.state;
    if (!s) return new Set();
    if (s.you === "both") return new Set(["black", "white"]);
    const seat = (s.players || []).find((p) => p.seat === s.you);
    return new Set(seat && seat.color ? [seat.color] : []);
  }

  over() {
    return !!(this.state && this.state.winner);
  }

  myTurn() {
    return !!this.state && !this.over() && this.myColors().has(this.state.to_move);
  }

  engineThinking() {
    return !!(this.state && this.state.engine && this.state.engine.thinking);
  }

  boardView(extra = {}) {
    const s = this.state;
    return {
      size: s.size,
      game: s.game,
      edges: s.edges,
      stones: this.stones,
      legal: this.legal,
      illegal: this.illegal,
      toMove: s.to_move,
      interactive: this.myTurn() && !s.must_pass,
      lastMove: s.last_move,
      chain: new Set(s.winning_chain || []),
      captured: this.captured,
      ...extra,
    };
  }

  // The sentence for one point: what is there, or why it is not playable.
  describe(point) {
    const color = this.stones.get(point);
    if (color) return `${point}: ${capitalize(color)} stone.`;
    const bad = this.illegal.get(point);
    if (bad) return `${point} is illegal (${MARK_NAMES[bad.reason] || bad.reason}): ${bad.text || bad.reason}`;
    if (this.legal.has(point)) return `${point}: legal for ${capitalize(this.state.to_move)}.`;
    return `${point}: empty.`;
  }

  // The one line saying where the game stands.
  summary() {
    const s = this.state;
    if (!s) return "";
    if (s.winner) {
      const how = { connection: "by connection", "no-move": "(the opponent has no move)", resign: "by resignation" };
      return `${capitalize(s.winner)} wins ${how[s.reason] || ""}`.trim() + ".";
    }
    let line = `${capitalize(s.to_move)} to move`;
    if (this.myTurn()) line += s.you === "both" ? "." : " (you).";
    else if (this.engineThinking()) line += ": the engine is thinking.";
    else if (this.playerOf(s.to_move) && this.playerOf(s.to_move).free) {
      line += ": waiting for a second player to open the game's link.";
    }
    else line += ".";
    return line;
  }

  playerOf(color) {
    return (this.state.players || []).find((p) => p.color === color);
  }
}
