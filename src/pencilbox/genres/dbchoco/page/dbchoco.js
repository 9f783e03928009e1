// The Double Choco page: an SVG board of white and gray cells with numbers; walls are drawn and
// erased by clicking or dragging along the grid lines. The server is the truth for the walls:
// every move (v3,4=1 the edge right of r3c4, h2,5=0 the edge below r2c5) goes to
// /api/games/{id}/move and is saved there. The state is one character per inner edge in the
// engine's order (vertical edges row by row, then horizontal ones): ? undecided, 1 wall, 0 open.
// "Solve (animated)" replays the solving trace with the common step player.
// /dbchoco?edit opens the editor instead (dbchoco-editor.js): a new puzzle on a blank board.
import { startEditor } from "/static/dbchoco-editor.js";
import {
  $, api, el, gameClient, GameTimer, setLabel, setMessage, showNotice, setupExport, setupShare, setupTheme, shareUrl, StepPlayer, openFromLocation,
} from "/static/common.js";
import { BoardView } from "/static/zoom.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 44;
const PAD = 6;
const SYMBOLS = "?10"; // value 0 undecided, 1 wall, 2 open (as in moves)

const page = {
  id: null,
  puzzle: null,
  width: 0,
  height: 0,
  state: [], // per inner edge: 0 undecided, 1 wall, 2 open
  game: null,
  pending: 0,
  queue: Promise.resolve(),
  hint: null,
  hintLevel: 0,
  marked: null, // { reasons: [[r, c]], change: [[r, c]], wrong: [[r, c]], edges: [e] }
  drag: null,
  cursor: { r: 0, c: 0 },
  mistakes: [], // the broken rules of closed blocks (mistakes mode): [{ message, cells }]
};
window.pencilbox = page; // for tests and the curious

const board = $("#board");
const info = $("#info");
const { post, play, action, reload } = gameClient(page, {
  applyGame: (game, options) => applyGame(game, options),
  forget: () => { forgetHint(); clearMarks(); },
  onError: (error) => setMessage(info, error.message, "error"),
});
const sentence = $("#sentence");
const timer = new GameTimer();
const view = new BoardView(board, { onGesture: () => cancelDrag() });

// -- edges ---------------------------------------------------------------------------------------
const verticalCount = () => (page.width - 1) * page.height;
const edgeCount = () => verticalCount() + page.width * (page.height - 1);

function edgeCells(e) {
  const v = verticalCount();
  if (e < v) {
    const r = Math.floor(e / (page.width - 1)), c = e % (page.width - 1);
    return [[r, c], [r, c + 1]];
  }
  const r = Math.floor((e - v) / page.width), c = (e - v) % page.width;
  return [[r, c], [r + 1, c]];
}

function edgeWord(e, value) {
  const [[r, c], [r2]] = edgeCells(e);
  return `${r === r2 ? "v" : "h"}${r + 1},${c + 1}=${value}`;
}

// The segment of an edge, in SVG coordinates.
function edgeLine(e) {
  const [[r, c], [r2]] = edgeCells(e);
  if (r === r2) {
    const x = PAD + (c + 1) * CELL;
    return [x, PAD + r * CELL, x, PAD + (r + 1) * CELL];
  }
  const y = PAD + (r + 1) * CELL;
  return [PAD + c * CELL, y, PAD + (c + 1) * CELL, y];
}

// The inner edge nearest to a point of the board (in cell units), or null when the point is
// near no grid line (the middle of a cell) or on the border.
function edgeAt(x, y) {
  const { width, height } = page;
  const dx = Math.abs(x - Math.round(x)), dy = Math.abs(y - Math.round(y));
  if (Math.min(dx, dy) > 0.3) return null;
  if (dx <= dy) {
    const k = Math.round(x), r = Math.floor(y);
    if (k < 1 || k > width - 1 || r < 0 || r >= height) return null;
    return r * (width - 1) + (k - 1);
  }
  const k = Math.round(y), c = Math.floor(x);
  if (k < 1 || k > height - 1 || c < 0 || c >= width) return null;
  return verticalCount() + (k - 1) * width + c;
}

function pointAt(event) {
  const box = page.svg.getBoundingClientRect();
  const scale = box.width / (page.width * CELL + 2 * PAD);
  return [((event.clientX - box.left) / scale - PAD) / CELL, ((event.clientY - box.top) / scale - PAD) / CELL];
}

// -- the board -----------------------------------------------------------------------------------
function shape(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function render() {
  const { width, height, puzzle } = page;
  const svg = shape("svg", {
    width: width * CELL + 2 * PAD,
    height: height * CELL + 2 * PAD,
    viewBox: `0 0 ${width * CELL + 2 * PAD} ${height * CELL + 2 * PAD}`,
    role: "img",
    "aria-label": `${width} by ${height} Double Choco grid`,
  });
  const marked = page.marked || {};
  const tint = new Map();
  const blocks = closedBlocks();
  const shade = new Map();
  if ($("#shade").checked) blocks.forEach((block, k) => { for (const key of block) shade.set(key, k % 4); });
  for (const mistake of page.mistakes) for (const [r, c] of mistake.cells) tint.set(`${r},${c}`, "hl-wrong");
  for (const [r, c] of marked.reasons || []) tint.set(`${r},${c}`, "hl-reason");
  for (const [r, c] of marked.change || []) tint.set(`${r},${c}`, "hl-change");
  for (const [r, c] of marked.wrong || []) tint.set(`${r},${c}`, "hl-wrong");
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const x = PAD + c * CELL, y = PAD + r * CELL;
      const gray = puzzle.colors[r][c] === "g";
      svg.append(shape("rect", { x, y, width: CELL, height: CELL, class: `sq ${gray ? "gray" : "white"}`, "data-r": r, "data-c": c }));
      if (shade.has(`${r},${c}`)) svg.append(shape("rect", { x, y, width: CELL, height: CELL, class: `block b${shade.get(`${r},${c}`)}` }));
      const hl = tint.get(`${r},${c}`);
      if (hl) svg.append(shape("rect", { x, y, width: CELL, height: CELL, class: hl }));
      const number = puzzle.numbers[r][c];
      if (number !== null && number !== undefined) {
        const text = shape("text", { x: x + CELL / 2, y: y + CELL / 2 + 1, class: "num" });
        text.textContent = String(number);
        svg.append(text);
      }
    }
  }
  for (let c = 1; c < width; c++) svg.append(shape("line", { x1: PAD + c * CELL, y1: PAD, x2: PAD + c * CELL, y2: PAD + height * CELL, class: "grid" }));
  for (let r = 1; r < height; r++) svg.append(shape("line", { x1: PAD, y1: PAD + r * CELL, x2: PAD + width * CELL, y2: PAD + r * CELL, class: "grid" }));
  const hinted = new Set(marked.edges || []);
  const edges = player.active ? player.frame : page.state; // the replay's frame while it is open
  edges.forEach((value, e) => {
    const [x1, y1, x2, y2] = edgeLine(e);
    if (value === 1) {
      svg.append(shape("line", { x1, y1, x2, y2, class: hinted.has(e) ? "wall hint" : "wall", "data-edge": e }));
    } else if (value === 2) {
      const hint = hinted.has(e);
      svg.append(shape("circle", { cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, r: hint ? 4 : 2.5, class: hint ? "open hint" : "open", "data-edge": e }));
    } else if (hinted.has(e)) {
      svg.append(shape("line", { x1, y1, x2, y2, class: "hover" }));
    }
  });
  svg.append(shape("rect", { x: PAD, y: PAD, width: width * CELL, height: height * CELL, class: "border" }));
  if (document.activeElement === board && !player.active) {
    const { r, c } = page.cursor;
    svg.append(shape("rect", { x: PAD + c * CELL + 3, y: PAD + r * CELL + 3, width: CELL - 6, height: CELL - 6, class: "sel" }));
  }
  page.svg = svg;
  board.replaceChildren(svg);
  board.dataset.blocks = String(blocks.length);
}

// -- closed blocks -------------------------------------------------------------------------------
// The areas the walls drawn so far cut the grid into (undecided and open edges join cells).
// Every such area is closed by walls; the grid as one area is not a block yet.
function closedBlocks() {
  const { width, height } = page;
  const edges = player.active ? player.frame : page.state;
  const parent = Array.from({ length: width * height }, (_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  edges.forEach((value, e) => {
    if (value === 1) return;
    const [[r, c], [r2, c2]] = edgeCells(e);
    parent[find(r * width + c)] = find(r2 * width + c2);
  });
  const groups = new Map();
  for (let i = 0; i < width * height; i++) {
    const root = find(i);
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root).push(`${Math.floor(i / width)},${i % width}`);
  }
  // the rest of the grid around the first closed blocks is no block yet
  const half = (width * height) / 2;
  return groups.size > 1 ? [...groups.values()].filter((g) => g.length <= half) : [];
}

// -- drawing what the server answers ------------------------------------------------------

function forgetHint() {
  page.hint = null;
  page.hintLevel = 0;
  setLabel($("#hint"), "Hint");
  $("#hint-actions").classList.add("hidden");
}

function clearMarks() {
  page.marked = null;
  $("#problems").replaceChildren();
}

function applyGame(game, { force = false } = {}) {
  const wasSolved = page.game && page.game.solved;
  page.game = game;
  if (game.solved && !wasSolved) setMessage(info, "Solved: every block is a white half and a gray half of one shape.", "ok");
  else if (!game.solved && wasSolved) setMessage(info, "");
  showNotice(game, info);
  $("#undo").disabled = !game.can_undo;
  $("#redo").disabled = !game.can_redo;
  timer.setSolved(game.solved);
  if (page.pending > 0 && !force) return; // newer local moves are on their way
  page.state = [...game.state].map((s) => Math.max(0, SYMBOLS.indexOf(s)));
  render();
  if ($("#mistakes").checked) showMistakes();
}

// Mistakes mode: after every move, the rules that closed blocks break (a block whose halves
// differ, a number that does not fit its half...) are shown on the board and listed. Rules
// about areas not closed yet wait until they are.
async function showMistakes() {
  const id = page.id;
  let answer;
  try {
    answer = await api(`/api/games/${id}/check`);
  } catch {
    return;
  }
  if (page.id !== id || page.pending > 0 || !$("#mistakes").checked) return;
  const blockOf = new Map();
  closedBlocks().forEach((block, k) => { for (const key of block) blockOf.set(key, k); });
  page.mistakes = (answer.blocks || []).filter((b) => {
    const inside = new Set(b.cells.map(([r, c]) => blockOf.get(`${r},${c}`)));
    return b.cells.length > 0 && inside.size === 1 && !inside.has(undefined);
  });
  $("#problems").replaceChildren(...page.mistakes.map((b) => el("li", { text: b.message })));
  render();
}

// -- drawing with the pointer ----------------------------------------------------------------------
// A press on an edge decides the mode: a wall there erases, anything else draws (Shift marks
// open); dragging applies the same to every edge the pointer passes; the release sends one move.
board.addEventListener("pointerdown", (event) => {
  if (!page.puzzle || event.button !== 0 || player.active || !event.isPrimary || view.gesturing) return;
  const edge = edgeAt(...pointAt(event));
  if (edge === null) return;
  event.preventDefault();
  board.setPointerCapture?.(event.pointerId);
  const current = page.state[edge];
  const target = event.shiftKey ? (current === 2 ? 0 : 2) : current === 1 ? 0 : 1;
  page.drag = { target, edges: new Map(), before: page.state.slice() };
  paint(edge);
});

board.addEventListener("pointermove", (event) => {
  if (!page.drag) return;
  const edge = edgeAt(...pointAt(event));
  if (edge !== null) paint(edge);
});

function paint(edge) {
  const { drag } = page;
  if (drag.edges.has(edge) || page.state[edge] === drag.target) return;
  drag.edges.set(edge, drag.target);
  page.state[edge] = drag.target;
  render();
}

/** Two fingers landed: the stroke the first one began is undone (nothing was sent yet). */
function cancelDrag() {
  if (!page.drag) return;
  page.state = page.drag.before;
  page.drag = null;
  render();
}

function finishDrag() {
  const drag = page.drag;
  page.drag = null;
  if (!drag || !drag.edges.size) return;
  play([...drag.edges].map(([e, v]) => edgeWord(e, v)).join(" "));
}

board.addEventListener("pointerup", finishDrag);
board.addEventListener("pointercancel", finishDrag);

// The keyboard: arrows move the cursor cell, Shift+arrow draws or erases the wall on that side,
// Alt+Shift+arrow marks that edge open (or clears the mark).
const SIDES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function sideEdge({ r, c }, [dr, dc]) {
  const { width, height } = page;
  const r2 = r + dr, c2 = c + dc;
  if (r2 < 0 || c2 < 0 || r2 >= height || c2 >= width) return null;
  if (dr === 0) return r * (width - 1) + Math.min(c, c2);
  return verticalCount() + Math.min(r, r2) * width + c;
}

board.addEventListener("keydown", (event) => {
  if (!page.puzzle || player.active || !SIDES[event.key] || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  const side = SIDES[event.key];
  if (!event.shiftKey) {
    page.cursor = {
      r: Math.min(page.height - 1, Math.max(0, page.cursor.r + side[0])),
      c: Math.min(page.width - 1, Math.max(0, page.cursor.c + side[1])),
    };
    render();
    return;
  }
  const edge = sideEdge(page.cursor, side);
  if (edge === null) return;
  const current = page.state[edge];
  const value = event.altKey ? (current === 2 ? 0 : 2) : current === 1 ? 0 : 1;
  page.state[edge] = value;
  render();
  play(edgeWord(edge, value));
});
board.addEventListener("focus", () => render());
board.addEventListener("blur", () => page.puzzle && render());

document.addEventListener("keydown", (event) => {
  if (!page.puzzle || event.target.matches("input, textarea, select")) return;
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "y")) player.close();
  if ((event.ctrlKey || event.metaKey) && key === "z") {
    event.preventDefault();
    action(event.shiftKey ? "redo" : "undo");
  } else if ((event.ctrlKey || event.metaKey) && key === "y") {
    event.preventDefault();
    action("redo");
  }
});

// -- hint, check, solve ----------------------------------------------------------------------------
// The hint endpoint gives one step; repeated presses reveal more of it, as on the Sudoku page:
// 1 the technique, 2 where to look (its cells), 3 the whole step with its edges.
async function hint() {
  if (page.hint && page.hintLevel < 3) {
    page.hintLevel++;
    showHint();
    return;
  }
  if (page.hintAsked) {
    page.hintAsked++; // pressed again before the answer came: show more of it at once
    return;
  }
  page.hintAsked = 1;
  try {
    const answer = await post(`/api/games/${page.id}/hint`);
    clearMarks();
    if (!answer.step) {
      forgetHint();
      setMessage(sentence, answer.message || "No hint found.");
      render();
      return;
    }
    page.hint = { ...answer.step, move: answer.move };
    page.hintLevel = Math.min(3, page.hintAsked);
    showHint();
  } catch (error) {
    setMessage(info, error.message, "error");
  } finally {
    page.hintAsked = 0;
  }
}

const techniqueName = (step) => step.technique.replaceAll("_", " ");
const stepEdges = (step) => ((step.extra && step.extra.edges) || []).map(([e]) => e);

function showHint() {
  const step = page.hint;
  const level = page.hintLevel;
  sentence.dataset.level = String(level);
  if (level === 1) {
    page.marked = null;
    setMessage(sentence, `Hint 1/3 · technique: ${techniqueName(step)}`);
    setLabel($("#hint"), "Hint: where?");
  } else if (level === 2) {
    page.marked = { reasons: step.reasons };
    const cells = step.reasons.map(([r, c]) => `r${r + 1}c${c + 1}`).join(", ");
    setMessage(sentence, `Hint 2/3 · ${techniqueName(step)}: look at ${cells || "the marked cells"}`);
    setLabel($("#hint"), "Hint: show step");
  } else {
    page.marked = { reasons: step.reasons, edges: stepEdges(step) };
    setMessage(sentence, `Hint 3/3 · ${techniqueName(step)}: ${step.sentence}`);
    setLabel($("#hint"), "Hint");
    $("#hint-actions").classList.toggle("hidden", !step.move);
  }
  render();
}

async function check() {
  try {
    const answer = await api(`/api/games/${page.id}/check`);
    forgetHint();
    clearMarks();
    const wrong = [];
    const list = [];
    for (const block of answer.blocks || []) {
      wrong.push(...block.cells);
      list.push(el("li", {
        text: block.message,
        title: "Show this block",
        onclick: () => { page.marked = { wrong: block.cells }; render(); },
      }));
    }
    page.marked = { wrong, reasons: answer.wrong };
    $("#problems").replaceChildren(...list);
    render();
    if (answer.solved) setMessage(info, "Solved: every block is a white half and a gray half of one shape.", "ok");
    else {
      const count = answer.violations.length;
      setMessage(info, `${count} problem${count === 1 ? "" : "s"} (blocks marked red): ${answer.violations[0]}`, "error");
    }
  } catch (error) {
    setMessage(info, error.message, "error");
  }
}

async function solve() {
  const started = performance.now();
  const answer = await action("solve", { apply: true });
  if (!answer) return;
  const result = answer.result;
  const took = performance.now() - started;
  const words = { unique: "one solution", multiple: "more than one solution", none: "no solution", timeout: "no answer in time" };
  setMessage(info, `Solve: ${words[result.status] || result.status} · solver ${(result.time_s * 1000).toFixed(1)} ms · round trip ${took.toFixed(0)} ms`, result.status === "unique" ? "ok" : "error");
}

// -- solve (animated): the common step player -----------------------------------------------------
// A frame is one value per inner edge (0 undecided, 1 wall, 2 open); a step sets the edges of
// its `extra.edges` ("1" wall, "0" open). The trace starts from no walls at all.
const EDGE_VALUES = { "?": 0, "1": 1, "0": 2 };
const player = new StepPlayer({
  initial: () => new Array(edgeCount()).fill(0),
  apply: (frame, step) => {
    for (const [e, v] of (step.extra && step.extra.edges) || []) frame[e] = EDGE_VALUES[String(v)] ?? 0;
  },
  clone: (frame) => frame.slice(),
  draw: (frame, step) => {
    page.marked = step ? { reasons: step.reasons, edges: stepEdges(step) } : null;
    render();
  },
  end: (frame) => commitSolution(frame),
  closed: () => {
    clearMarks();
    render();
  },
}, sentence);
window.pencilbox.player = player;

function animatedSolve() {
  forgetHint();
  clearMarks();
  player.open(page.id);
}

// A finished replay becomes a move (it can be undone), as the Solve button does.
async function commitSolution(frame) {
  if (frame.includes(0)) return;
  try {
    applyGame(await post(`/api/games/${page.id}/move`, { move: `grid ${frame.map((v) => SYMBOLS[v]).join("")}` }));
  } catch (error) {
    setMessage(info, error.message, "error");
  }
}

// -- import / export, generate ------------------------------------------------------------------------
async function load() {
  const text = $("#url").value.trim();
  const msg = $("#url-msg");
  if (!text) {
    setMessage(msg, "Paste a puzz.link URL (https://puzz.link/p?dbchoco/…) first.", "error");
    return;
  }
  try {
    const made = await api("/api/puzzles", { method: "POST", body: { text, genre: "dbchoco" } });
    history.pushState(null, "", `/dbchoco?id=${made.id}`);
    await open(made.id);
    setMessage(msg, made.new ? "A new puzzle: added to the library." : "This puzzle is in the library already.", "ok");
  } catch (error) {
    setMessage(msg, error.message, "error");
  }
}

async function copyUrl() {
  const msg = $("#url-msg");
  try {
    await navigator.clipboard.writeText($("#url").value);
    setMessage(msg, "Copied.", "ok");
  } catch {
    $("#url").select();
    setMessage(msg, "Select and copy the URL (the clipboard is not available here).");
  }
}

async function generate() {
  const width = Number($("#gen-width").value), height = Number($("#gen-height").value);
  setMessage(info, "Generating…");
  $("#generate").disabled = true;
  try {
    const made = await api("/api/generate", { method: "POST", body: { genre: "dbchoco", options: { width, height } } });
    history.pushState(null, "", `/dbchoco?id=${made.id}`);
    await open(made.id);
  } catch (error) {
    setMessage(info, error.message, "error");
  } finally {
    $("#generate").disabled = false;
  }
}

// -- opening a puzzle ----------------------------------------------------------------------------------
async function open(id) {
  player.close();
  page.id = id;
  forgetHint();
  clearMarks();
  const [row, game] = await Promise.all([api(`/api/puzzles/${id}`), api(`/api/games/${id}`)]);
  const p = row.puzzle;
  page.puzzle = p;
  page.width = p.width;
  page.height = p.height;
  page.game = null;
  document.title = `pencilbox · ${row.title || "Double Choco"}`;
  $("#title").textContent = `${row.title || "Double Choco"} · ${p.width}×${p.height}`;
  $("#url").value = p.url || "";
  $("#gen-width").value = String(p.width);
  $("#gen-height").value = String(p.height);
  page.cursor = { r: 0, c: 0 };
  page.mistakes = [];
  timer.open(id, game.solved);
  applyGame(game, { force: true });
  view.fit();
  for (const b of document.querySelectorAll(".toolbar button, .toolbar select")) b.disabled = false;
  $("#undo").disabled = !game.can_undo;
  $("#redo").disabled = !game.can_redo;
  if (!game.solved) setMessage(info, row.status ? `Verdict: ${row.status}${row.grade ? ` · grade ${row.grade}` : ""}` : "");
  setMessage(sentence, "Click or drag along the grid lines to draw walls, or press Hint.");
  document.body.dataset.ready = "1";
}

async function start() {
  setupTheme($("#theme"));
  if (new URLSearchParams(location.search).has("edit")) {
    startEditor();
    return;
  }
  setupExport("dbchoco", page, (error) => setMessage(info, error.message, "error"));
  setupShare(() => page.puzzle && page.puzzle.url && shareUrl("dbchoco", "puzzle", page.puzzle.url, page.puzzle.title), info);
  await openFromLocation({
    genre: "dbchoco", key: "puzzle", open, info, sentence,
    idle: "Paste a puzz.link URL on the right and press Load, or generate one.",
  });
}

// -- buttons ---------------------------------------------------------------------------------------------
// Buttons that change or judge the game take the board back from the replay first.
const leaving = (fn) => (...args) => { player.close(); return fn(...args); };
$("#undo").addEventListener("click", leaving(() => action("undo")));
$("#redo").addEventListener("click", leaving(() => action("redo")));
$("#reset").addEventListener("click", leaving(() => play("clear")));
$("#hint").addEventListener("click", leaving(hint));
$("#hint-apply").addEventListener("click", () => { if (page.hint && page.hint.move) play(page.hint.move); });
$("#check").addEventListener("click", leaving(check));
$("#mistakes").checked = localStorage.getItem("pencilbox-mistakes") === "1";
$("#mistakes").addEventListener("change", () => {
  localStorage.setItem("pencilbox-mistakes", $("#mistakes").checked ? "1" : "0");
  page.mistakes = [];
  if ($("#mistakes").checked && page.id) showMistakes();
  else if (page.puzzle) { $("#problems").replaceChildren(); render(); }
});
$("#shade").addEventListener("change", () => page.puzzle && render());
$("#solve").addEventListener("click", leaving(solve));
$("#animate-solve").addEventListener("click", animatedSolve);
$("#load").addEventListener("click", load);
$("#copy").addEventListener("click", copyUrl);
$("#generate").addEventListener("click", generate);
window.addEventListener("popstate", () => {
  const id = new URLSearchParams(location.search).get("id");
  if (id) open(Number(id));
});

start();
