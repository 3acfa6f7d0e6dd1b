// The knowledge panel: the shipped results of one board, as the server
// reports them: each opening's value on a small board, the empty board's
// value and the pie rule's verdict.

import { Board } from "./board.js";

function text(value) {
  if (value === null || value === undefined) return "not known";
  if (typeof value !== "object") return String(value);
  return Object.entries(value)
    .filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`)
    .join("; ");
}

function openingMark(opening) {
  const v = String(opening.value || "");
  if (/win/i.test(v)) return { label: "W", cls: "win", title: `${v}${opening.class ? ` (${opening.class})` : ""}` };
  if (/loss|lose/i.test(v)) return { label: "L", cls: "loss", title: `${v}${opening.class ? ` (${opening.class})` : ""}` };
  return { label: "?", cls: "unknown", title: v || "not known" };
}

export class KnowledgePanel {
  constructor(connection, elements) {
    this.connection = connection;
    this.el = elements; // {game, size, show, board, facts}
    this.board = new Board(elements.board, { mini: true });
    elements.show.addEventListener("click", () => this.show());
  }

  async show() {
    const game = this.el.game.value;
    const size = Number(this.el.size.value);
    const facts = this.el.facts;
    facts.textContent = "Asking the server…";
    let reply;
    try {
      reply = await this.connection.request({ type: "knowledge", game, size }, "knowledge");
    } catch (e) {
      facts.textContent = e.message;
      return;
    }
    const overlay = new Map((reply.openings || []).map((o) => [o.point, openingMark(o)]));
    this.board.render({ size, game, edges: null, stones: new Map(), legal: new Set(), illegal: new Map(),
                        overlay, chain: new Set(), captured: [] });
    this.el.board.setAttribute("aria-label", `Opening map of ${game} ${size}x${size}: ` +
      (reply.openings || []).map((o) => `${o.point} ${o.value}`).join(", "));
    facts.textContent = "";
    const add = (term, value) => {
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.textContent = text(value);
      facts.append(dt, dd);
    };
    const empty = reply.empty_board;
    add("Empty board", typeof empty === "string" ? `${empty[0].toUpperCase()}${empty.slice(1)} wins ` +
        "with perfect play (Black moves first; no pie rule)" : empty);
    const pie = reply.pie;
    add("Pie rule", pie && typeof pie === "object" && pie.verdict
      ? `${pie.verdict.charAt(0).toUpperCase()}${pie.verdict.slice(1)}${pie.black_wins !== undefined ? ` (openings that win for Black: ${pie.black_wins}, ` +
        `for White: ${pie.white_wins})` : ""}` : pie);
    add("Openings known", `${(reply.openings || []).filter((o) => o.value).length} of ${size * size}` +
        " (W: the opening wins for Black, L: it loses)");
  }
}
