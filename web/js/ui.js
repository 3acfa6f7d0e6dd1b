// The controls and lists around the board for a game: players, the share
// link, the move list, the events, the pie offer, the buttons that apply.

import { capitalize } from "./notation.js";

const $ = (id) => document.getElementById(id);

export function fillSizes(select, from, to, chosen) {
  select.textContent = "";
  for (let n = from; n <= to; n++) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = `${n}x${n}`;
    if (n === chosen) o.selected = true;
    select.appendChild(o);
  }
}

export function renderPlayers(view) {
  const list = $("players");
  list.textContent = "";
  const s = view.state;
  for (const p of s.players || []) {
    const li = document.createElement("li");
    const dot = document.createElement("span");
    dot.className = `dot ${p.color}`;
    dot.setAttribute("aria-hidden", "true");
    const mine = s.you === "both" || s.you === p.seat;
    const name = p.name || (p.kind === "engine" ? "Engine" : p.free ? "(free seat)" : s.mode === "local" ? "this screen" : "anonymous");
    const label = document.createElement("span");
    label.textContent = `${capitalize(p.color)}: ${name}` + (p.kind === "engine" ? " (engine)" : "") +
      (mine && s.you !== "both" ? " — you" : "") + (p.connected === false && p.kind !== "engine" && !p.free ? " (away)" : "");
    if (mine && s.you !== "both") label.classList.add("you");
    if ((p.connected === false && p.kind !== "engine") || p.free) label.classList.add("away");
    li.append(dot, label);
    if (s.to_move === p.color && !s.winner) li.append(" ◀");
    list.appendChild(li);
  }
  if (s.you === "watcher") {
    const li = document.createElement("li");
    li.textContent = "You are watching.";
    list.appendChild(li);
  }
}

export function renderMoves(view) {
  const list = $("moves");
  const moves = view.state.moves || [];
  list.textContent = "";
  // The colour of each move: Black first, then turn about (a swap is White's move too).
  let color = "black";
  moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = `${i + 1}. ${m}`;
    li.dataset.move = m;
    li.classList.add(color);
    li.setAttribute("aria-label", `${i + 1}: ${capitalize(color)} ${m}`);
    color = color === "black" ? "white" : "black";
    if (i === moves.length - 1) li.classList.add("last");
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}

// Adds the state's events (forced passes and the like) to the event list;
// returns them so the status line can announce them.
export function addEvents(view) {
  const events = view.state.events || [];
  const list = $("events");
  for (const e of events) {
    const li = document.createElement("li");
    li.textContent = e.charAt(0).toUpperCase() + e.slice(1);
    list.appendChild(li);
  }
  while (list.children.length > 30) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
  return events.map((e) => e.charAt(0).toUpperCase() + e.slice(1) + (/[.!?]$/.test(e) ? "" : "."));
}

export function clearEvents() {
  $("events").textContent = "";
}

// The pie offer: on White's first turn, to the connection that plays White.
export function renderPie(view, dismissedPly) {
  const s = view.state;
  const offer = s.swap_available && !s.winner && view.myTurn() && s.to_move === "white" &&
    dismissedPly !== `${s.id}:${s.ply}`;
  $("pie").hidden = !offer;
}

export function renderControls(view, analysisActive) {
  const s = view.state;
  const seated = s.you !== "watcher";
  $("undo").hidden = !(s.mode === "local" || s.mode === "engine") || !seated;
  $("undo").disabled = (s.moves || []).length === 0;
  $("resign").hidden = !seated || !!s.winner;
  $("analyze").hidden = false;
  $("analyze").setAttribute("aria-pressed", String(analysisActive));
  $("analyze").textContent = analysisActive ? "Hide analysis" : "Analysis";
  $("copy-record").hidden = false;
  const said = s.engine && s.engine.said;
  $("engine-said").hidden = !said;
  $("engine-said").textContent = said ? `Engine: ${said}` : "";
}

export function renderShare(view) {
  const s = view.state;
  const link = `${location.origin}/?game=${encodeURIComponent(s.id)}`;
  $("share").hidden = s.mode !== "online";
  $("share-link").value = link;
}

export async function copyText(text, fallbackInput) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallbackInput) {
      fallbackInput.value = text;
      fallbackInput.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}
