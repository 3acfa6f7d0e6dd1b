// The page: wires the connection, the game view, the board, the controls,
// the analysis, the puzzles and the knowledge panel together.

import { Connection } from "./connection.js";
import { Board } from "./board.js";
import { GameView } from "./game.js";
import { Analysis } from "./analysis.js";
import { PuzzleMode } from "./puzzles.js";
import { KnowledgePanel } from "./knowledge.js";
import { playerToken, savedName, saveName } from "./identity.js";
import { looksLikePosition, splitRecord } from "./notation.js";
import * as ui from "./ui.js";

const $ = (id) => document.getElementById(id);

const conn = new Connection();
const view = new GameView();
const analysis = new Analysis(conn);
let gameId = new URLSearchParams(location.search).get("game");
let tab = "play";
let highlight = null; // {stone, alternative} of the point last asked about
let pieDismissed = null;
let captureTimer = null;
const stateWaiters = [];

const board = new Board($("board"), { onPlace: place, onInspect: inspect });
const puzzles = new PuzzleMode(conn, board, {
  size: $("pz-size"), load: $("pz-load"), list: $("pz-list"), status: $("pz-status"),
  retry: $("pz-retry"), next: $("pz-next"),
}, () => draw());
const knowledge = new KnowledgePanel(conn, {
  game: $("kn-game"), size: $("kn-size"), show: $("kn-show"), board: $("kn-board"), facts: $("kn-facts"),
});

ui.fillSizes($("ng-size"), 3, 19, 9);
ui.fillSizes($("pz-size"), 3, 19, 5);
ui.fillSizes($("kn-size"), 3, 19, 5);
$("ng-name").value = savedName();

// --- drawing --------------------------------------------------------------

// The game's lines and buttons under the board give way to the puzzle's.
function showGameChrome(on) {
  for (const id of ["status", "detail", "game-controls"]) $(id).hidden = !on;
  if (!on) {
    $("pie").hidden = true;
    $("engine-said").hidden = true;
  } else if (view.state) {
    ui.renderPie(view, pieDismissed);
    ui.renderControls(view, analysis.active);
  }
}

function draw() {
  const puzzleBoard = tab === "puzzles" && puzzles.active();
  showGameChrome(!puzzleBoard);
  if (puzzleBoard) {
    board.render(puzzles.boardView());
    return;
  }
  if (!view.state) {
    const size = Number($("ng-size").value) || 9;
    board.render({ size, game: $("ng-game").value, edges: $("ng-edges").value, stones: new Map(), legal: new Set(),
                   illegal: new Map(), chain: new Set(), captured: [] });
    return;
  }
  board.render(view.boardView({ overlay: analysis.overlay(view.state), highlight }));
}

function setDetail(text, bad = false) {
  $("detail").textContent = text;
  $("detail").className = bad ? "detail bad" : "detail";
}

function setStatus(text, over = false) {
  $("status").textContent = text;
  $("status").className = over ? "status over" : "status";
}

function showState(state) {
  // A new game closes the new-game form; later states leave it as the person set it.
  const newGame = !view.state || view.state.id !== state.id;
  const fresh = view.update(state);
  if (fresh) {
    highlight = null;
    const events = ui.addEvents(view);
    setStatus([view.summary(), ...events].join(" "), view.over());
    if (events.length) setDetail(events.join(" "));
    else if (!view.over()) setDetail("");
    clearTimeout(captureTimer);
    if (view.captured.length) {
      captureTimer = setTimeout(() => {
        view.captured = [];
        draw();
      }, 2500);
    }
  } else {
    setStatus(view.summary(), view.over());
  }
  $("game-info").hidden = false;
  if (newGame) $("new-game").open = false;
  ui.renderPlayers(view);
  ui.renderMoves(view);
  ui.renderPie(view, pieDismissed);
  ui.renderControls(view, analysis.active);
  ui.renderShare(view);
  refreshAnalysis();
  draw();
  for (let i = stateWaiters.length - 1; i >= 0; i--) {
    if (stateWaiters[i].pred(state)) stateWaiters.splice(i, 1)[0].resolve(state);
  }
}

function waitForState(pred) {
  let waiter;
  const promise = new Promise((resolve) => {
    waiter = { pred, resolve };
    stateWaiters.push(waiter);
  });
  promise.cancel = () => {
    const i = stateWaiters.indexOf(waiter);
    if (i >= 0) stateWaiters.splice(i, 1);
  };
  return promise;
}

// --- the connection -------------------------------------------------------

conn.onStatus((status) => {
  $("net").textContent = status === "connected" ? "connected" : "reconnecting…";
  $("net").classList.toggle("down", status !== "connected");
});

conn.onOpen(() => {
  if (gameId) joinGame(gameId);
  else if (!view.state) setStatus("Start a new game, or open a game's link.");
});

conn.onMessage((msg) => {
  if (msg.type === "created") {
    setGame(msg.id);
  } else if (msg.type === "state") {
    if (msg.id === gameId) showState(msg);
  }
});

async function joinGame(id) {
  try {
    await conn.request({ type: "join", id, player: playerToken(), name: $("ng-name").value || undefined }, "state");
  } catch (e) {
    if (e.message === "connection lost") return;
    setStatus(`Could not join game ${id}: ${e.message}`);
    if (gameId === id) setGame(null);
  }
}

function setGame(id) {
  if (gameId && gameId !== id) conn.send({ type: "leave", id: gameId });
  gameId = id;
  const url = new URL(location.href);
  if (id) url.searchParams.set("game", id);
  else url.searchParams.delete("game");
  history.replaceState(null, "", url);
  if (!id || (view.state && view.state.id !== id)) {
    view.state = null;
    ui.clearEvents();
    if (!id) $("game-info").hidden = true;
  }
  pieDismissed = null;
  analysis.reply = null;
}

// Sends a message about the game and waits for the state it brings (or the
// server's error, which rejects).
async function act(msg, pred) {
  const request = conn.request(msg, "state");
  const changed = waitForState(pred);
  try {
    return await Promise.race([request, changed]);
  } finally {
    conn.forget(request.req);
    changed.cancel();
  }
}

// --- playing --------------------------------------------------------------

function inspect(point) {
  if (tab === "puzzles" && puzzles.active()) return;
  if (!view.state) return;
  const bad = view.illegal.get(point);
  highlight = bad && bad.reason === "weak-connection" ? { stone: bad.stone, alternative: bad.alternative } : null;
  setDetail(view.describe(point), !!bad);
  draw();
}

async function place(point) {
  if (tab === "puzzles" && puzzles.active()) {
    puzzles.place(point);
    return;
  }
  const s = view.state;
  if (!s) {
    setDetail("Start a new game first.");
    return;
  }
  if (view.stones.has(point) || view.illegal.has(point) || !view.legal.has(point)) {
    inspect(point);
    return;
  }
  if (view.over()) return setDetail("The game is over.");
  if (!view.myTurn()) {
    return setDetail(s.you === "watcher" ? "You are watching this game." :
                     view.engineThinking() ? "The engine is thinking." : "It is not your turn.");
  }
  const ply = s.ply;
  try {
    await act({ type: "move", id: s.id, move: point, ply }, (st) => st.id === s.id && st.ply > ply);
  } catch (e) {
    setDetail(e.message, true);
  }
}

$("swap").addEventListener("click", async () => {
  const s = view.state;
  try {
    await act({ type: "move", id: s.id, move: "swap", ply: s.ply }, (st) => st.id === s.id && st.ply > s.ply);
  } catch (e) {
    setDetail(e.message, true);
  }
});
$("keep").addEventListener("click", () => {
  pieDismissed = `${view.state.id}:${view.state.ply}`;
  ui.renderPie(view, pieDismissed);
  setDetail("You keep White: place a stone.");
  board.svg.focus();
});

$("undo").addEventListener("click", async () => {
  const s = view.state;
  try {
    await act({ type: "undo", id: s.id }, (st) => st.id === s.id && st.ply < s.ply);
  } catch (e) {
    setDetail(e.message, true);
  }
});

let resignArmed = null;
$("resign").addEventListener("click", async () => {
  const button = $("resign");
  if (!resignArmed) {
    button.textContent = "Really resign?";
    resignArmed = setTimeout(() => {
      resignArmed = null;
      button.textContent = "Resign";
    }, 4000);
    return;
  }
  clearTimeout(resignArmed);
  resignArmed = null;
  button.textContent = "Resign";
  const s = view.state;
  try {
    await act({ type: "resign", id: s.id }, (st) => st.id === s.id && !!st.winner);
  } catch (e) {
    setDetail(e.message, true);
  }
});

$("analyze").addEventListener("click", async () => {
  analysis.active = !analysis.active;
  ui.renderControls(view, analysis.active);
  if (analysis.active) setDetail("Analysing…");
  else setDetail("");
  draw();
  await refreshAnalysis();
});

async function refreshAnalysis() {
  try {
    if (await analysis.refresh(view.state)) {
      const said = analysis.said();
      setDetail("Analysis: W wins, L loses, with the plies to the end; ? not known." + (said ? ` ${said}` : ""));
      draw();
    }
  } catch (e) {
    setDetail(`Analysis: ${e.message}`, true);
  }
}

$("copy-record").addEventListener("click", async () => {
  // A game set up from a position has no record from the empty board: its
  // current position string is what pastes back into the same game.
  const record = view.state.start ? view.state.position : (view.state.moves || []).join(" ");
  $("record-text").value = record;
  const ok = await ui.copyText(record, null);
  setDetail(ok ? `Record copied: ${record || "(no moves)"}` : `The record: ${record || "(no moves)"}`);
  if (!ok) $("record-box").open = true;
});

$("copy-link").addEventListener("click", async () => {
  const ok = await ui.copyText($("share-link").value, $("share-link"));
  setDetail(ok ? "Link copied." : "Select the link and copy it.");
});

// --- new games --------------------------------------------------------------

function modeChanged() {
  const mode = $("ng-mode").value;
  const gonnect = $("ng-game").value === "gonnect";
  $("ng-ko").closest("label").hidden = !gonnect;
  $("ng-edges").closest("label").hidden = !gonnect;
  $("ng-seat").closest("label").hidden = mode === "local";
  $("ng-seconds").closest("label").hidden = mode !== "engine";
}
$("ng-mode").addEventListener("change", modeChanged);
$("ng-size").addEventListener("change", () => draw());
$("ng-game").addEventListener("change", () => {
  modeChanged();
  draw();
});
modeChanged();

function createMessage(extra = {}) {
  const mode = extra.mode || $("ng-mode").value;
  const name = $("ng-name").value.trim();
  saveName(name);
  const msg = { type: "create", game: $("ng-game").value, size: Number($("ng-size").value), mode,
                player: playerToken() };
  if (name) msg.name = name;
  if (mode !== "local") msg.seat = $("ng-seat").value;
  if (msg.game === "gonnect") {
    msg.ko = $("ng-ko").value;
    msg.edges = $("ng-edges").value;
  }
  if (mode === "engine") msg.engine_seconds = Number($("ng-seconds").value) || 1;
  return { ...msg, ...extra };
}

async function create(msg) {
  const reply = await conn.request(msg, "created");
  setGame(reply.id);
  return reply.id;
}

$("new-game-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showTab("play");
  try {
    await create(createMessage());
    board.svg.focus();
  } catch (e) {
    setStatus(`Could not start the game: ${e.message}`);
  }
});

// A pasted record is replayed move by move by the server in a new local game
// of the form's game and size; a position string starts one from that position.
$("record-start").addEventListener("click", async () => {
  const text = $("record-text").value.trim();
  showTab("play");
  try {
    if (looksLikePosition(text)) {
      const size = text.split(/[\s,]+/)[0].split("/").length;
      await create(createMessage({ mode: "local", size, position: text }));
      return;
    }
    const moves = splitRecord(text);
    const id = await create(createMessage({ mode: "local" }));
    if (!view.state || view.state.id !== id) await waitForState((st) => st.id === id);
    for (let i = 0; i < moves.length; i++) {
      const ply = view.state.ply;
      try {
        await act({ type: "move", id, move: moves[i], ply }, (st) => st.id === id && st.ply > ply);
      } catch (e) {
        setDetail(`Move ${i + 1} (${moves[i]}): ${e.message}`, true);
        return;
      }
    }
    setDetail(`Record loaded: ${moves.length} moves.`);
  } catch (e) {
    setDetail(`Could not start from it: ${e.message}`, true);
  }
});

// --- tabs -------------------------------------------------------------------

function showTab(name) {
  tab = name;
  for (const t of ["play", "puzzles", "knowledge"]) {
    $(`tab-${t}`).setAttribute("aria-pressed", String(t === name));
    $(`${t === "play" ? "play" : t === "puzzles" ? "puzzle" : "knowledge"}-panel`).hidden = t !== name;
  }
  draw();
}
$("tab-play").addEventListener("click", () => showTab("play"));
$("tab-puzzles").addEventListener("click", () => showTab("puzzles"));
$("tab-knowledge").addEventListener("click", () => {
  showTab("knowledge");
  // The board of the game on the screen, when the panel shows nothing yet.
  if (view.state && !$("kn-facts").textContent) {
    $("kn-game").value = view.state.game;
    $("kn-size").value = String(view.state.size);
    knowledge.show();
  }
});
$("pz-load").addEventListener("click", () => showTab("puzzles"), { capture: false });

draw();
