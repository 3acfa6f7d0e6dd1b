// The SVG board: grid, owned edges in the players' colours, stones, the marks
// of illegal points (a distinct shape per reason), the last move, the winning
// chain, captures fading out, analysis values, and a keyboard cursor. It draws
// what it is given and reports clicks, taps and keys; it judges nothing.

import { pointName, parsePoint } from "./notation.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

export const MARK_NAMES = {
  crosscut: "crosscut",
  "weak-connection": "weak connection",
  suicide: "suicide",
  ko: "ko",
  superko: "superko",
};

export class Board {
  // svg: the <svg> element; options: {mini, onPlace(point), onInspect(point)}.
  constructor(svg, options = {}) {
    this.svg = svg;
    this.mini = !!options.mini;
    this.onPlace = options.onPlace || (() => {});
    this.onInspect = options.onInspect || (() => {});
    this.size = 0;
    this.cursor = null; // {col, row}
    this.view = null;
    if (!this.mini) {
      svg.setAttribute("tabindex", "0");
      svg.setAttribute("role", "application");
      svg.setAttribute("aria-roledescription", "board");
      svg.addEventListener("click", (e) => this.clicked(e));
      svg.addEventListener("keydown", (e) => this.key(e));
      // Keyboard focus describes the cursor's point; a click's focus does not,
      // so that the click lands on the board it was aimed at.
      svg.addEventListener("focus", () => {
        if (this.cursor && svg.matches(":focus-visible")) this.onInspect(this.cursorName());
      });
    }
  }

  margin() {
    return this.mini ? 26 : 56;
  }

  xy(name) {
    const p = parsePoint(name, this.size);
    const m = this.margin();
    return { x: m + p.col * CELL, y: m + (this.size - p.row) * CELL };
  }

  // view: {size, game, edges, stones: Map(point -> color), legal: Set,
  // illegal: Map(point -> {reason, text, stone, alternative}), toMove,
  // interactive, lastMove, chain: Set, captured: [{point, color}],
  // overlay: Map(point -> {label, cls, title}), highlight: {stone, alternative}}
  render(view) {
    this.view = view;
    if (view.size !== this.size) {
      this.size = view.size;
      const mid = Math.floor((view.size - 1) / 2);
      this.cursor = { col: mid, row: mid + 1 };
    }
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const n = this.size;
    const m = this.margin();
    const span = (n - 1) * CELL;
    const full = span + 2 * m;
    svg.setAttribute("viewBox", `0 0 ${full} ${full}`);
    svg.classList.toggle("interactive", !!view.interactive);
    svg.dataset.size = String(n);

    el("rect", { x: 0, y: 0, width: full, height: full, rx: 8, class: "wood" }, svg);
    this.drawEdges(view, m, span);
    const grid = el("g", { class: "grid" }, svg);
    for (let i = 0; i < n; i++) {
      const t = m + i * CELL;
      el("line", { x1: m, y1: t, x2: m + span, y2: t }, grid);
      el("line", { x1: t, y1: m, x2: t, y2: m + span }, grid);
    }
    if (!this.mini) this.drawLabels(m, span);
    if (view.chain && view.chain.size) this.drawChainLinks(view.chain);

    const points = el("g", { class: "points" }, svg);
    for (let row = n; row >= 1; row--) {
      for (let col = 0; col < n; col++) this.drawPoint(points, view, pointName(col, row));
    }
    for (const cap of view.captured || []) this.drawCapture(cap);
    if (view.highlight) this.drawHighlight(view.highlight);
    if (!this.mini && this.cursor) {
      const { x, y } = this.xy(this.cursorName());
      el("rect", { x: x - CELL / 2 + 2, y: y - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, rx: 6,
                   class: "cursor" }, svg);
      svg.setAttribute("aria-label", `${n} by ${n} board. Cursor at ${this.cursorName()}. ` +
                       "Arrow keys move the cursor, Enter or Space places a stone.");
    }
  }

  drawEdges(view, m, span) {
    // Konobi: Black owns top and bottom, White left and right. Gonnect with
    // own edges likewise; Gonnect's usual rule lets either colour join either
    // pair, so its edges are drawn neutral.
    const owned = view.game !== "gonnect" || view.edges === "own";
    const d = this.mini ? 17 : 27;
    const w = this.mini ? 5 : 8;
    const g = el("g", { class: "edges" }, this.svg);
    const black = owned ? "edge-black" : "edge-neutral";
    const white = owned ? "edge-white" : "edge-neutral";
    el("rect", { x: m, y: m - d - w / 2, width: span, height: w, rx: w / 2, class: black }, g);
    el("rect", { x: m, y: m + span + d - w / 2, width: span, height: w, rx: w / 2, class: black }, g);
    el("rect", { x: m - d - w / 2, y: m, width: w, height: span, rx: w / 2, class: white }, g);
    el("rect", { x: m + span + d - w / 2, y: m, width: w, height: span, rx: w / 2, class: white }, g);
  }

  drawLabels(m, span) {
    const g = el("g", { class: "labels", "aria-hidden": "true" }, this.svg);
    for (let i = 0; i < this.size; i++) {
      const t = m + i * CELL;
      const letter = "abcdefghijklmnopqrs"[i];
      el("text", { x: t, y: m + span + 49, "text-anchor": "middle" }, g).textContent = letter;
      el("text", { x: t, y: m - 41, "text-anchor": "middle" }, g).textContent = letter;
      const num = String(this.size - i);
      el("text", { x: m - 45, y: t + 5, "text-anchor": "middle" }, g).textContent = num;
      el("text", { x: m + span + 45, y: t + 5, "text-anchor": "middle" }, g).textContent = num;
    }
  }

  drawChainLinks(chain) {
    const g = el("g", { class: "chain-links" }, this.svg);
    const has = (c, r) => c >= 0 && r >= 1 && c < this.size && r <= this.size && chain.has(pointName(c, r));
    for (const name of chain) {
      const p = parsePoint(name, this.size);
      if (!p) continue;
      const a = this.xy(name);
      const link = (c, r) => {
        const b = this.xy(pointName(c, r));
        el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }, g);
      };
      if (has(p.col + 1, p.row)) link(p.col + 1, p.row);
      if (has(p.col, p.row + 1)) link(p.col, p.row + 1);
      // A diagonal link only where no orthogonal path joins the two stones.
      for (const dc of [-1, 1]) {
        if (has(p.col + dc, p.row + 1) && !has(p.col + dc, p.row) && !has(p.col, p.row + 1)) {
          link(p.col + dc, p.row + 1);
        }
      }
    }
  }

  drawPoint(parent, view, name) {
    const { x, y } = this.xy(name);
    const color = view.stones.get(name);
    const illegal = view.illegal ? view.illegal.get(name) : null;
    const legal = view.legal ? view.legal.has(name) : false;
    const g = el("g", { class: "pt", "data-point": name }, parent);
    let title = name;
    if (color) {
      g.classList.add("stone", color);
      g.dataset.state = color;
      el("circle", { cx: x, cy: y, r: CELL * 0.44, class: `stone-disc ${color}` }, g);
      if (view.chain && view.chain.has(name)) {
        g.classList.add("chain");
        el("circle", { cx: x, cy: y, r: CELL * 0.44, class: "chain-ring" }, g);
      }
      if (view.lastMove === name) {
        g.classList.add("last");
        el("circle", { cx: x, cy: y, r: CELL * 0.14, class: `last-mark on-${color}` }, g);
      }
      title = `${name}: ${color} stone${view.lastMove === name ? " (last move)" : ""}`;
    } else if (illegal) {
      g.classList.add("illegal", `reason-${illegal.reason}`);
      g.dataset.state = "illegal";
      g.dataset.reason = illegal.reason;
      this.drawMark(g, x, y, illegal.reason);
      title = `${name}: ${illegal.text || MARK_NAMES[illegal.reason] || illegal.reason}`;
    } else if (legal) {
      g.classList.add("legal");
      g.dataset.state = "legal";
      if (view.interactive && view.toMove) {
        el("circle", { cx: x, cy: y, r: CELL * 0.42, class: `ghost ${view.toMove}` }, g);
      }
      title = `${name}: legal`;
    } else {
      g.dataset.state = "empty";
    }
    const info = view.overlay ? view.overlay.get(name) : null;
    if (info) {
      g.classList.add("valued", info.cls);
      el("circle", { cx: x, cy: y, r: CELL * 0.34, class: `value ${info.cls}` }, g);
      el("text", { x, y: y + 5, "text-anchor": "middle", class: `value-label ${info.cls}` }, g).textContent =
        info.label;
      if (info.title) title += ` (${info.title})`;
    }
    // The hit area: the whole cell, so a finger finds the point.
    el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: "hit" }, g);
    el("title", {}, g).textContent = title;
  }

  // One shape per reason, so the marks differ by more than colour.
  drawMark(g, x, y, reason) {
    const s = this.mini ? 5 : 7;
    const mark = el("g", { class: "mark" }, g);
    if (reason === "crosscut") {
      el("line", { x1: x - s, y1: y - s, x2: x + s, y2: y + s }, mark);
      el("line", { x1: x - s, y1: y + s, x2: x + s, y2: y - s }, mark);
    } else if (reason === "weak-connection") {
      el("polygon", { points: `${x},${y - s - 1} ${x + s + 1},${y + s} ${x - s - 1},${y + s}` }, mark);
    } else if (reason === "suicide") {
      el("rect", { x: x - s, y: y - s, width: 2 * s, height: 2 * s }, mark);
    } else if (reason === "ko" || reason === "superko") {
      el("polygon", { points: `${x},${y - s - 2} ${x + s + 2},${y} ${x},${y + s + 2} ${x - s - 2},${y}` }, mark);
      if (reason === "superko") el("circle", { cx: x, cy: y, r: 2 }, mark);
    } else {
      el("circle", { cx: x, cy: y, r: s }, mark);
    }
  }

  drawCapture({ point, color }) {
    if (!parsePoint(point, this.size)) return;
    const { x, y } = this.xy(point);
    const g = el("g", { class: "captured", "data-point": point }, this.svg);
    el("circle", { cx: x, cy: y, r: CELL * 0.44, class: `stone-disc ${color || "black"}` }, g);
    el("line", { x1: x - 10, y1: y - 10, x2: x + 10, y2: y + 10 }, g);
    el("line", { x1: x - 10, y1: y + 10, x2: x + 10, y2: y - 10 }, g);
  }

  drawHighlight({ stone, alternative }) {
    if (stone && parsePoint(stone, this.size)) {
      const { x, y } = this.xy(stone);
      el("circle", { cx: x, cy: y, r: CELL * 0.5, class: "hl-stone" }, this.svg);
    }
    if (alternative && parsePoint(alternative, this.size)) {
      const { x, y } = this.xy(alternative);
      el("circle", { cx: x, cy: y, r: CELL * 0.36, class: "hl-alt" }, this.svg);
    }
  }

  cursorName() {
    return pointName(this.cursor.col, this.cursor.row);
  }

  // The point under a click or tap, from its coordinates (the elements under
  // it may have been redrawn since the press).
  clicked(event) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm || !this.size) return;
    const pt = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    const m = this.margin();
    const col = Math.round((pt.x - m) / CELL);
    const row = this.size - Math.round((pt.y - m) / CELL);
    if (col < 0 || col >= this.size || row < 1 || row > this.size) return;
    this.cursor = { col, row };
    this.onPlace(pointName(col, row));
  }

  key(event) {
    if (!this.cursor) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[event.key]) {
      const [dc, dr] = moves[event.key];
      this.cursor = {
        col: Math.min(this.size - 1, Math.max(0, this.cursor.col + dc)),
        row: Math.min(this.size, Math.max(1, this.cursor.row + dr)),
      };
      event.preventDefault();
      if (this.view) this.render(this.view);
      this.onInspect(this.cursorName());
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.onPlace(this.cursorName());
    }
  }
}
