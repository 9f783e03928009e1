// The Nonogram page: clue boxes, a playable grid, hints, single pass, animated full solve.
// The server is the truth: every move goes to /api/games/{id}/move and is saved there.
// Colour puzzles play on the same page: a cell value per colour (0 unknown, 1 the first
// colour, 2 crossed, 3.. the second colour on; black-and-white is the one-colour case), a
// palette to choose the colour, clue numbers drawn on their colours.
import {
  $, api, el, gameClient, GameTimer, setMessage, showNotice, setupExport, setupShare, setupTheme, shareUrl, StepPlayer, openFromLocation,
  openShared,
} from "/static/common.js";
import { BoardView } from "/static/zoom.js";

const UNKNOWN = 0, FILLED = 1, EMPTY = 2;
let SYMBOLS = "?#."; // one character per cell value in state texts (more for colour puzzles)

const page = {
  id: null,
  puzzle: null,
  state: null, // Uint8Array of the game (or the animation frame while animating)
  game: null,
  cells: [],
  rowClues: [],
  colClues: [],
  mode: "fill",
  cursor: { r: 0, c: 0 },
  pending: 0,
  queue: Promise.resolve(),
  hint: null,
  passes: 0,
  player: null,
  verdict: null,
  colours: null, // a colour puzzle's palette: [{name, hex, value, ink}], index 0 the background
  colour: 1, // the colour a click or Space paints (1 on a black-and-white puzzle)
  clues: { rows: [], cols: [] }, // every clue as runs {n, c} (c: colour index, 1 on black-and-white)
};
window.pencilbox = page; // for tests and the curious

const board = $("#board");
const info = $("#info");
const { post, play, action, reload } = gameClient(page, {
  applyGame: (game, options) => applyGame(game, options),
  forget: () => {
    page.hint = null;
    $("#hint-actions").classList.add("hidden");
    clearMarks();
  },
  onError: (error) => setMessage(info, error.message, "error"),
});
const sentence = $("#sentence");
const timer = new GameTimer();
// The board fits the screen; two fingers zoom and pan it (and drop the stroke the first began).
const view = new BoardView(board, { onGesture: () => cancelDrag(), onChange: () => showStrip() });
// While zoomed, the clues of the row and column under the finger (or the cursor) stay in sight.
const strip = el("div", { class: "clue-strip hidden", "aria-hidden": "true" });
view.viewport.append(strip);
let stripCell = null;

// -- state text <-> cells ------------------------------------------------------------------
function parseState(text) {
  const flat = text.replaceAll("/", "");
  const cells = new Uint8Array(flat.length);
  for (let i = 0; i < flat.length; i++) cells[i] = SYMBOLS.indexOf(flat[i]);
  return cells;
}

function stateText(cells) {
  const { width, height } = page.puzzle;
  const rows = [];
  for (let r = 0; r < height; r++) {
    let row = "";
    for (let c = 0; c < width; c++) row += SYMBOLS[cells[r * width + c]];
    rows.push(row);
  }
  return rows.join("/");
}

// -- colours -------------------------------------------------------------------------------
// A cell value's colour (0 for unknown and crossed: no colour) and the value of a colour.
const colourOf = (value) => (value === FILLED ? 1 : value > EMPTY ? value - 1 : 0);
const valueOf = (colour) => (colour === 1 ? FILLED : colour + 1);

// The animation of a colour puzzle works on masks (as the solver does): bit k set while colour
// k (0: the background) is still possible. Plain arithmetic, not bit operators: a palette of
// 32 colours needs 33 bits.
const bitSet = (mask, k) => Math.floor(mask / 2 ** k) % 2 === 1;
function valueOfMask(mask) {
  const k = Math.log2(mask);
  if (!Number.isInteger(k)) return UNKNOWN;
  return k === 0 ? EMPTY : valueOf(k);
}

function runsOf(clue) {
  return clue.map((run) => (Array.isArray(run) ? { n: run[0], c: run[1] } : { n: run, c: 1 }));
}

// WCAG relative luminance of "#rrggbb"; the ink (black or white) that reads best on it.
function luminance(hex) {
  const channel = (i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}
const inkOn = (hex) => (luminance(hex) > 0.179 ? "#000000" : "#ffffff");
// Colours this light hardly show on the light board (under 1.6:1 on white), this dark on the
// dark one: their cells and clue boxes get a ring (nonogram.css, classes lt and dk).
const LIGHT = 0.6, DARK = 0.04;

function setupColours(puzzle) {
  SYMBOLS = puzzle.symbols || "?#.";
  page.clues = { rows: puzzle.rows.map(runsOf), cols: puzzle.cols.map(runsOf) };
  page.colours = puzzle.colors
    ? puzzle.colors.map((colour) => ({ ...colour, ink: inkOn(colour.hex), light: luminance(colour.hex) }))
    : null;
  page.colour = 1;
  document.body.classList.toggle("colour-puzzle", Boolean(page.colours));
  buildPalette();
}

// The palette: a button per colour (keys 1 to 9 choose the first nine), Cross beside it.
function buildPalette() {
  const palette = $("#palette");
  if (!page.colours) {
    palette.replaceChildren();
    palette.classList.add("hidden");
    $("#mode-fill").classList.remove("hidden");
    setMode(page.mode);
    return;
  }
  const buttons = page.colours.slice(1).map((colour, i) => {
    const key = i < 9 ? ` (key ${i + 1})` : "";
    return el("button", {
      type: "button", class: "swatch", "data-colour": i + 1, "aria-pressed": "false",
      "aria-label": `Paint ${colour.name}${key}`, title: `Click or drag paints ${colour.name}${key}`,
      onclick: () => chooseColour(i + 1),
    }, el("span", { class: "chip", style: `background:${colour.hex}` }),
    el("span", { class: "label", text: colour.name }), i < 9 ? el("kbd", { text: String(i + 1) }) : null);
  });
  palette.replaceChildren(...buttons);
  palette.classList.remove("hidden");
  $("#mode-fill").classList.add("hidden");
  setMode("fill");
}

function chooseColour(colour) {
  if (colour < 1 || colour > (page.colours ? page.colours.length - 1 : 1)) return false;
  page.colour = colour;
  setMode("fill");
  return true;
}

function colourName(colour) {
  return page.colours ? page.colours[colour].name : "filled";
}

// -- the board -----------------------------------------------------------------------------
// A clue number: on its colour (in ink that reads on it) for a colour puzzle.
function clueNumber(run) {
  if (!page.colours) return el("span", { text: run.n });
  const colour = page.colours[run.c];
  return el("span", {
    class: `cc${colour.light > LIGHT ? " lt" : ""}${colour.light < DARK ? " dk" : ""}`,
    text: run.n, title: `${run.n} ${colour.name}`,
    style: `background:${colour.hex};color:${colour.ink}`,
  });
}

function clueNumbers(runs) {
  return runs.length ? runs.map(clueNumber) : [el("span", { text: 0 })];
}

function buildBoard() {
  const { width, height } = page.puzzle;
  const { rows, cols } = page.clues;
  const size = Math.max(12, Math.min(28, Math.floor(720 / Math.max(width, height, 1))));
  board.style.setProperty("--cell-size", `${size}px`);
  board.style.gridTemplateColumns = `auto repeat(${width}, var(--cell-size))`;
  const parts = [el("div", { class: "corner" })];
  page.colClues = cols.map((clue, c) => {
    const node = el("div", { class: "clue colclue", "data-kind": "cols", "data-index": c, title: `column ${c + 1}` },
      clueNumbers(clue));
    parts.push(node);
    return node;
  });
  page.cells = [];
  page.rowClues = [];
  for (let r = 0; r < height; r++) {
    const clue = rows[r];
    const rowNode = el("div", { class: "clue rowclue", "data-kind": "rows", "data-index": r, title: `row ${r + 1}` },
      clueNumbers(clue));
    page.rowClues.push(rowNode);
    parts.push(rowNode);
    for (let c = 0; c < width; c++) {
      const classes = ["cell"];
      if (c === 0) classes.push("c0");
      if (r === 0) classes.push("r0");
      if ((c + 1) % 5 === 0 && c + 1 < width) classes.push("b5r");
      if ((r + 1) % 5 === 0 && r + 1 < height) classes.push("b5b");
      const node = el("div", { class: classes.join(" "), "data-r": r, "data-c": c, role: "gridcell", id: `cell-${r}-${c}` });
      page.cells.push(node);
      parts.push(node);
    }
  }
  board.replaceChildren(...parts);
  board.setAttribute("role", "grid");
  board.setAttribute("aria-rowcount", String(height));
  board.setAttribute("aria-colcount", String(width));
  page.labelled = new Float64Array(width * height).fill(-1);
  stripCell = null;
  view.fit();
}

// `cells` holds values; an animation frame of a colour puzzle passes its masks too, and the
// cells still open show a bar of the colours they may still take.
function render(cells = page.state, masks = null) {
  const { width, height } = page.puzzle;
  const { rows, cols } = page.clues;
  for (let i = 0; i < cells.length; i++) {
    const node = page.cells[i];
    const value = cells[i];
    const key = masks && value === UNKNOWN ? 1000 + masks[i] : value; // (values are below 40)
    if (page.labelled[i] === key) continue;
    page.labelled[i] = key;
    if (page.colours) paintCell(node, value, masks ? masks[i] : null);
    else node.classList.toggle("f", value === FILLED);
    node.classList.toggle("x", value === EMPTY);
    // what a screen reader says of the cell: where, and what it holds
    node.setAttribute("aria-label", `row ${Math.floor(i / width) + 1}, column ${(i % width) + 1}: ${cellWords(value)}`);
  }
  const line = (kind, index) => {
    const out = [];
    const n = kind === "rows" ? width : height;
    for (let k = 0; k < n; k++) out.push(kind === "rows" ? cells[index * width + k] : cells[k * width + index]);
    return out;
  };
  for (let r = 0; r < height; r++) markClue(page.rowClues[r], lineMarks(line("rows", r), rows[r]));
  for (let c = 0; c < width; c++) markClue(page.colClues[c], lineMarks(line("cols", c), cols[c]));
  drawCursor();
  showStrip();
}

function cellWords(value) {
  if (value === UNKNOWN) return "unknown";
  if (value === EMPTY) return "crossed";
  return page.colours ? colourName(colourOf(value)) : "filled";
}

function paintCell(node, value, mask) {
  const colour = page.colours[colourOf(value)];
  const painted = value !== UNKNOWN && value !== EMPTY;
  node.classList.toggle("k", painted);
  node.classList.toggle("lt", painted && colour.light > LIGHT);
  node.classList.toggle("dk", painted && colour.light < DARK);
  node.style.background = painted ? colour.hex : "";
  const open = mask !== null && value === UNKNOWN ? page.colours.filter((_, k) => bitSet(mask, k)) : [];
  if (open.length && open.length < page.colours.length) {
    const part = 100 / open.length;
    const stops = open.map((c, k) => `${c.value === EMPTY ? "var(--cell)" : c.hex} ${k * part}% ${(k + 1) * part}%`);
    node.style.background = `linear-gradient(to right, ${stops.join(", ")}) bottom / 100% 30% no-repeat`;
    node.title = `still ${open.map((c) => (c.value === EMPTY ? "empty" : c.name)).join(" or ")}`;
  } else node.removeAttribute("title");
}

// -- clue numbers that cross off -----------------------------------------------------------
// A clue number is crossed off once its run is finished: the runs between the line's start
// (or end) and its first unknown cell are settled, and they are the clue's first (or last)
// numbers. A line whose settled runs do not match its clue, or with more cells of a colour
// than the clue asks for, contradicts it. Runs are {n, c}: a run ends at a cross or where the
// colour changes (colour 1 on a black-and-white puzzle).
function settledRuns(values) {
  const runs = [];
  let run = null;
  for (const v of values) {
    if (v === UNKNOWN) return runs; // a run touching an unknown cell may still grow
    const c = colourOf(v);
    if (run && run.c === c) run.n++;
    else {
      if (run) runs.push(run);
      run = c ? { n: 1, c } : null;
    }
  }
  if (run) runs.push(run);
  return runs;
}

const sameRun = (a, b) => a && b && a.n === b.n && a.c === b.c;

function lineMarks(values, clue) {
  const done = new Set();
  const asked = new Map();
  for (const run of clue) asked.set(run.c, (asked.get(run.c) || 0) + run.n);
  const painted = new Map();
  for (const v of values) if (colourOf(v)) painted.set(colourOf(v), (painted.get(colourOf(v)) || 0) + 1);
  for (const [c, count] of painted) if (count > (asked.get(c) || 0)) return { done, bad: true };
  const front = settledRuns(values);
  if (!values.includes(UNKNOWN)) {
    const ok = front.length === clue.length && front.every((run, i) => sameRun(run, clue[i]));
    if (ok) clue.forEach((_, i) => done.add(i));
    if (ok && !clue.length) done.add(0); // the "0" of an empty line
    return { done, bad: !ok };
  }
  const back = settledRuns([...values].reverse());
  let bad = front.length + back.length > clue.length;
  front.forEach((run, i) => { if (sameRun(clue[i], run)) done.add(i); else bad = true; });
  back.forEach((run, i) => {
    const k = clue.length - 1 - i;
    if (sameRun(clue[k], run)) done.add(k); else bad = true;
  });
  return { done, bad };
}

function markClue(node, { done, bad }) {
  const numbers = node.children;
  for (let i = 0; i < numbers.length; i++) numbers[i].classList.toggle("done", done.has(i));
  node.classList.toggle("done", done.size === numbers.length);
  node.classList.toggle("contra", bad);
}

// The strip over a zoomed board: "Row 12: 3 1 4 · Column 7: 2 2", numbers crossed as above.
function showStrip() {
  const show = view.zoomed && page.puzzle && stripCell;
  strip.classList.toggle("hidden", !show);
  if (!show) return;
  const { r, c } = stripCell;
  const part = (word, node) => el("span", { class: `clue ${node.classList.contains("contra") ? "contra" : ""}` },
    el("span", { class: "what", text: word }),
    [...node.children].map((n) => n.cloneNode(true)));
  strip.replaceChildren(part(`Row ${r + 1}`, page.rowClues[r]), part(`Column ${c + 1}`, page.colClues[c]));
}

function pointStrip(cell) {
  if (!cell || (stripCell && stripCell.r === cell.r && stripCell.c === cell.c)) return;
  stripCell = cell;
  showStrip();
}

function drawCursor() {
  board.querySelector(".cell.cursor")?.classList.remove("cursor");
  if (!page.puzzle) return;
  const node = page.cells[page.cursor.r * page.puzzle.width + page.cursor.c];
  if (node) board.setAttribute("aria-activedescendant", node.id);
  if (document.activeElement === board) node?.classList.add("cursor");
}

function clearMarks() {
  for (const node of board.querySelectorAll(".hl-change, .hl-reason, .hl-wrong")) {
    node.classList.remove("hl-change", "hl-reason", "hl-wrong");
  }
  for (const node of board.querySelectorAll(".clue.bad, .clue.active")) node.classList.remove("bad", "active");
}

function highlight(step) {
  clearMarks();
  if (!step) return;
  const { width } = page.puzzle;
  for (const [r, c] of step.reasons) page.cells[r * width + c]?.classList.add("hl-reason");
  for (const [r, c] of step.changes) page.cells[r * width + c]?.classList.add("hl-change");
  if (step.clue) {
    const [kind, number] = step.clue.split(" ");
    const list = kind === "row" ? page.rowClues : page.colClues;
    list[Number(number) - 1]?.classList.add("active");
  }
}

// -- drawing what the server answers ------------------------------------------------------

function applyGame(game, { force = false } = {}) {
  const wasSolved = page.game && page.game.solved;
  page.game = game;
  if (game.solved && !wasSolved && page.game && !page.player) {
    setMessage(info, "Solved: every clue is satisfied.", "ok");
  }
  showNotice(game, info);
  $("#undo").disabled = !game.can_undo;
  $("#redo").disabled = !game.can_redo;
  timer.setSolved(game.solved);
  if (page.pending > 0 && !force) return; // newer local moves are on their way
  if (page.player || drag) return; // the animation or a drag owns the board for now
  page.state = parseState(game.state);
  render();
  if ($("#autocheck").checked && !game.solved) autoCheck();
}

// -- playing with the pointer --------------------------------------------------------------
let drag = null;

function cellAt(x, y) {
  const node = document.elementFromPoint(x, y);
  if (!node || !node.classList.contains("cell") || !board.contains(node)) return null;
  return { r: Number(node.dataset.r), c: Number(node.dataset.c) };
}

board.addEventListener("contextmenu", (event) => event.preventDefault());
const LONG_PRESS_MS = 450;
// How long a finger stays still on a cell before the press crosses it. A test driving touch
// events one by one widens it for taps (data-long-press-ms on <html>): on a loaded machine the
// gap between a tap's two events can pass 450 ms, and the tap would become a press.
const longPressMs = () => Number(document.documentElement.dataset.longPressMs) || LONG_PRESS_MS;

board.addEventListener("pointerdown", (event) => {
  if (page.player || !page.state || !event.isPrimary || view.gesturing) return;
  const target = event.target.closest(".cell");
  if (!target) return;
  event.preventDefault();
  board.focus({ preventScroll: true });
  const r = Number(target.dataset.r), c = Number(target.dataset.c);
  const { width } = page.puzzle;
  const current = page.state[r * width + c];
  const crossing = event.button === 2 || page.mode === "cross";
  const paint = valueOf(page.colour);
  const value = crossing ? (current === EMPTY ? UNKNOWN : EMPTY) : (current === paint ? UNKNOWN : paint);
  drag = { start: { r, c }, value, original: page.state.slice(), pointer: event.pointerId, moved: false };
  board.setPointerCapture(event.pointerId);
  page.cursor = { r, c };
  if (event.pointerType !== "mouse") {
    // a finger held still on a cell crosses it instead (the right button of touch screens)
    drag.press = setTimeout(() => longPress(current), longPressMs());
  }
  pointStrip({ r, c });
  paintDrag({ r, c });
});

function longPress(current) {
  if (!drag || drag.moved) return;
  drag.value = current === EMPTY ? UNKNOWN : EMPTY;
  navigator.vibrate?.(15);
  paintDrag(drag.start);
}

board.addEventListener("pointermove", (event) => {
  const cell = cellAt(event.clientX, event.clientY);
  pointStrip(cell);
  if (!drag || event.pointerId !== drag.pointer) return;
  if (cell && (cell.r !== drag.start.r || cell.c !== drag.start.c)) {
    drag.moved = true;
    clearTimeout(drag.press);
  }
  if (cell) paintDrag(cell);
});

/** Two fingers landed: the stroke the first one began is undone (nothing was sent yet). */
function cancelDrag() {
  if (!drag) return;
  clearTimeout(drag.press);
  page.state = drag.original;
  drag = null;
  render();
}

function paintDrag(to) {
  const { width } = page.puzzle;
  const { start, value, original } = drag;
  page.state = original.slice();
  // A drag paints a straight line: along the row or the column it moved further in.
  const horizontal = Math.abs(to.c - start.c) >= Math.abs(to.r - start.r);
  const end = horizontal ? { r: start.r, c: to.c } : { r: to.r, c: start.c };
  const dr = Math.sign(end.r - start.r), dc = Math.sign(end.c - start.c);
  let { r, c } = start;
  for (;;) {
    page.state[r * width + c] = value;
    if (r === end.r && c === end.c) break;
    r += dr;
    c += dc;
  }
  render();
}

function finishDrag(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const { original } = drag;
  clearTimeout(drag.press);
  drag = null;
  autoCross(original);
  render();
  const move = movesSince(original);
  if (move) play(move);
}

// The cells changed since `original`, as one move (so one Undo takes it all back).
function movesSince(original) {
  const { width } = page.puzzle;
  const changes = [];
  for (let i = 0; i < original.length; i++) {
    if (page.state[i] !== original[i]) changes.push(`r${Math.floor(i / width) + 1}c${(i % width) + 1}=${page.state[i]}`);
  }
  return changes.join(" ");
}

// -- auto-cross -------------------------------------------------------------------------------
// With Auto-cross on, a line the player touched whose filled runs are exactly its clue gets
// its unknown cells crossed, in the same move as the cell that completed it.
function autoCross(original) {
  if (!$("#autocross").checked) return;
  const { width, height } = page.puzzle;
  const { rows, cols } = page.clues;
  const lines = new Map();
  for (let i = 0; i < original.length; i++) {
    if (page.state[i] === original[i]) continue;
    const r = Math.floor(i / width), c = i % width;
    lines.set(`r${r}`, [Array.from({ length: width }, (_, k) => r * width + k), rows[r]]);
    lines.set(`c${c}`, [Array.from({ length: height }, (_, k) => k * width + c), cols[c]]);
  }
  for (const [cells, clue] of lines.values()) {
    const values = cells.map((i) => page.state[i]);
    if (!values.includes(UNKNOWN)) continue;
    const runs = settledRuns(values.map((v) => (v === UNKNOWN ? EMPTY : v)));
    if (runs.length !== clue.length || runs.some((run, k) => !sameRun(run, clue[k]))) continue;
    for (const i of cells) if (page.state[i] === UNKNOWN) page.state[i] = EMPTY;
  }
}
board.addEventListener("pointerup", finishDrag);
board.addEventListener("pointercancel", finishDrag);

// -- keyboard -------------------------------------------------------------------------------
board.addEventListener("focus", drawCursor);
board.addEventListener("blur", drawCursor);
board.addEventListener("keydown", (event) => {
  if (!page.state || page.player) return;
  const { width, height } = page.puzzle;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key]) {
    event.preventDefault();
    const [dr, dc] = moves[event.key];
    page.cursor = {
      r: Math.min(height - 1, Math.max(0, page.cursor.r + dr)),
      c: Math.min(width - 1, Math.max(0, page.cursor.c + dc)),
    };
    drawCursor();
    stripCell = { ...page.cursor };
    showStrip();
    view.reveal(page.cells[page.cursor.r * width + page.cursor.c]);
    return;
  }
  const { r, c } = page.cursor;
  const current = page.state[r * width + c];
  let value = null;
  const paint = valueOf(page.colour);
  if (event.key === " " || event.key === "Enter") value = current === paint ? UNKNOWN : paint;
  else if (event.key === "x" || event.key === "X") value = current === EMPTY ? UNKNOWN : EMPTY;
  else if (["Delete", "Backspace", "0"].includes(event.key)) value = UNKNOWN;
  if (value === null || value === current) return;
  event.preventDefault();
  const original = page.state.slice();
  page.state[r * width + c] = value;
  autoCross(original);
  render();
  play(movesSince(original));
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("textarea, input, select")) return;
  if (/^[1-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey && page.id) {
    if (chooseColour(Number(event.key))) event.preventDefault(); // the palette's keys
    return;
  }
  if (!(event.ctrlKey || event.metaKey) || !page.id) return;
  const key = event.key.toLowerCase();
  const undo = key === "z" && !event.shiftKey;
  const redo = key === "y" || (key === "z" && event.shiftKey);
  if (!undo && !redo) return;
  event.preventDefault();
  if (page.player) closePlayer();
  action(undo ? "undo" : "redo");
});

// -- hint, check, single step ---------------------------------------------------------------
async function hint() {
  if (page.player) closePlayer();
  try {
    const answer = await post(`/api/games/${page.id}/hint`);
    if (!answer.step) {
      setMessage(sentence, answer.message || "No hint.");
      highlight(null);
      return;
    }
    page.hint = answer;
    highlight(answer.step);
    setMessage(sentence, `Hint: ${answer.step.sentence}`);
    $("#hint-actions").classList.toggle("hidden", !answer.move);
  } catch (error) {
    setMessage(info, error.message, "error");
  }
}

async function check() {
  try {
    const answer = await api(`/api/games/${page.id}/check`);
    clearMarks();
    const { width } = page.puzzle;
    for (const [r, c] of answer.wrong) page.cells[r * width + c].classList.add("hl-wrong");
    for (const line of answer.lines) (line.kind === "row" ? page.rowClues : page.colClues)[line.index]?.classList.add("bad");
    if (answer.solved) setMessage(info, "Solved: every clue is satisfied.", "ok");
    else if (answer.violations.length || answer.wrong.length) {
      const wrong = answer.wrong.length ? `${answer.wrong.length} cells are wrong (marked). ` : "";
      setMessage(info, `${wrong}${answer.violations.join("; ")}`, "error");
    } else setMessage(info, `No mistakes so far; ${answer.unknown} cells still unknown.`, "ok");
  } catch (error) {
    setMessage(info, error.message, "error");
  }
}

// Auto-check: after every move the cells that differ from the solution are marked.
async function autoCheck() {
  const id = page.id;
  try {
    const answer = await api(`/api/games/${id}/check`);
    if (page.id !== id || page.pending > 0 || page.player) return;
    for (const node of board.querySelectorAll(".hl-wrong")) node.classList.remove("hl-wrong");
    const { width } = page.puzzle;
    for (const [r, c] of answer.wrong) page.cells[r * width + c]?.classList.add("hl-wrong");
    if (answer.wrong.length) setMessage(info, `${answer.wrong.length} cell${answer.wrong.length === 1 ? " is" : "s are"} wrong (marked).`, "error");
  } catch {
    // the auto-check is a help: a failed one shows nothing
  }
}

async function singleStep() {
  if (page.player) closePlayer();
  try {
    const answer = await post(`/api/games/${page.id}/pass`);
    page.passes++;
    applyGame(answer, { force: true });
    clearMarks();
    const { width } = page.puzzle;
    let count = 0;
    for (const step of answer.steps) {
      for (const [r, c] of step.changes) { page.cells[r * width + c].classList.add("hl-change"); count++; }
    }
    const last = answer.steps.at(-1);
    const text = answer.steps.length
      ? `Single step ${page.passes}: ${answer.steps.length} deductions, ${count} cells. Last: ${last.sentence}`
      : `Single step ${page.passes}: line logic finds nothing new here.`;
    setMessage(sentence, text);
    showInfo();
  } catch (error) {
    setMessage(info, error.message, "error");
  }
}

// -- full solve: the animation player (common.js) -----------------------------------------------
// A frame is an array of cells; a step sets its changed cells. The trace starts from the
// empty grid, whatever the game holds now. A colour puzzle's frames hold masks, as its steps
// do (a step may only rule colours out of a cell).
const player = new StepPlayer({
  initial: () => {
    const count = page.puzzle.width * page.puzzle.height;
    return page.colours ? new Float64Array(count).fill(2 ** page.colours.length - 1) : new Uint8Array(count);
  },
  apply: (frame, step) => {
    const { width } = page.puzzle;
    for (const [r, c, v] of step.changes) frame[r * width + c] = v;
  },
  clone: (frame) => frame.slice(),
  draw: (frame, step) => {
    if (page.colours) render(frameValues(frame), frame);
    else render(frame);
    highlight(step);
  },
  end: (frame) => commitSolution(frameValues(frame)),
  closed: () => {
    clearMarks();
    render(page.state);
  },
}, sentence);
// page.player: the StepPlayer while it is open (the board shows its frame then), else null
Object.defineProperty(page, "player", { get: () => (player.active ? player : null) });
Object.defineProperty(page, "firstFrameMs", { get: () => player.firstStepMs });

function fullSolve() {
  closePlayer();
  setMessage(sentence, "Solving…");
  const verdict = api(`/api/puzzles/${page.id}/solve`).then((v) => { page.verdict = v; showInfo(); showSolutions(); return v; });
  verdict.catch((error) => setMessage(info, error.message, "error"));
  $("#hint-actions").classList.add("hidden");
  player.open(page.id, { animate: $("#animate").checked });
}

function frameValues(frame) {
  return page.colours ? Uint8Array.from(frame, valueOfMask) : frame;
}

// The solve becomes a move (it can be undone) once the whole grid is known.
async function commitSolution(frame) {
  if (frame.includes(UNKNOWN)) return;
  try {
    const game = await post(`/api/games/${page.id}/move`, { move: `grid ${stateText(frame)}` });
    page.game = game;
    $("#undo").disabled = !game.can_undo;
    $("#redo").disabled = !game.can_redo;
    page.state = parseState(game.state);
  } catch (error) {
    setMessage(info, error.message, "error");
  }
}

function closePlayer() {
  player.close();
}

// -- verdict and solutions -------------------------------------------------------------------
function showInfo() {
  const parts = [];
  if (page.verdict) {
    const v = page.verdict;
    const words = { unique: "one solution", multiple: "more than one solution", none: "no solution", timeout: "no verdict within the time limit" };
    parts.push(`Verdict: ${words[v.status] || v.status}`);
    if (v.grade) parts.push(`grade ${v.grade}`);
    if (v.stats && v.stats.passes !== undefined) parts.push(`passes: ${v.stats.passes}`);
    parts.push(`${(v.time_s * 1000).toFixed(0)} ms`);
  }
  if (page.passes) parts.push(`single steps taken: ${page.passes}`);
  setMessage(info, parts.join(" · "), page.verdict && page.verdict.status === "none" ? "error" : "");
}

function showSolutions() {
  const box = $("#solutions");
  const v = page.verdict;
  if (!v || v.status !== "multiple") {
    box.classList.add("hidden");
    return;
  }
  const { width } = page.puzzle;
  const diff = new Set(v.differences.map(([r, c]) => r * width + c));
  const hex = new Map((page.colours || []).slice(1).map((colour) => [colour.char, colour.hex]));
  const mini = (rows) => el("div", { class: "mini", style: `grid-template-columns: repeat(${width}, 9px)` },
    rows.join("").split("").map((ch, i) => el("div", {
      class: [ch === "#" && !page.colours ? "f" : "", diff.has(i) ? "diff" : ""].join(" ").trim() || undefined,
      style: page.colours && hex.has(ch) ? `background:${hex.get(ch)}` : undefined,
    })));
  box.replaceChildren(
    el("p", { text: `More than one solution: two of them, differing in ${diff.size} cells (outlined).` }),
    el("div", { class: "solutions" }, v.solutions.map(mini)),
  );
  box.classList.remove("hidden");
}

// -- clue boxes --------------------------------------------------------------------------------
let validateTimer = null;
let validateSerial = 0;

function cluesChanged() {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validateClues, 120);
}

async function validateClues() {
  const rows = $("#rows-clues").value, cols = $("#cols-clues").value;
  const serial = ++validateSerial;
  if (!rows.trim() || !cols.trim()) {
    for (const box of ["rows", "cols"]) { setMessage($(`#${box}-msg`), ""); $(`#${box}-clues`).classList.remove("invalid"); }
    $("#load").disabled = true;
    return;
  }
  let answer;
  try {
    answer = await api("/api/nonogram/clues", { method: "POST", body: { rows, cols } });
  } catch (error) {
    answer = { ok: false, errors: [{ box: null, message: error.message }] };
  }
  if (serial !== validateSerial) return;
  for (const box of ["rows", "cols"]) {
    const mine = answer.errors.filter((e) => e.box === box);
    const text = mine.map((e) => (e.column ? `${e.message} (character ${e.column})` : e.message)).join("; ");
    setMessage($(`#${box}-msg`), text, mine.length ? "error" : "");
    $(`#${box}-clues`).classList.toggle("invalid", mine.length > 0);
  }
  const general = answer.errors.filter((e) => !e.box).map((e) => e.message).join("; ");
  const current = page.puzzle && rows.trim() === page.puzzle.rows_text && cols.trim() === page.puzzle.cols_text;
  if (answer.ok) {
    const p = answer.puzzle;
    setMessage($("#clue-msg"), current ? `${p.width}×${p.height}, as loaded` : `${p.width}×${p.height}: press Load to play it`, "ok");
  } else setMessage($("#clue-msg"), general, general ? "error" : "");
  $("#load").disabled = !answer.ok || current;
}

async function loadClues() {
  const rows = $("#rows-clues").value.trim(), cols = $("#cols-clues").value.trim();
  try {
    const made = await api("/api/puzzles", { method: "POST", body: { text: `${rows}\n${cols}\n`, format: "clues", genre: "nonogram" } });
    history.pushState(null, "", `/nonogram?id=${made.id}`);
    await open(made.id);
  } catch (error) {
    setMessage($("#clue-msg"), error.message, "error");
  }
}

function editClue(kind, index) {
  const box = $(`#${kind}-clues`);
  const parts = box.value.split(",");
  let start = 0;
  for (let i = 0; i < index && i < parts.length; i++) start += parts[i].length + 1;
  const end = start + (parts[index] || "").length;
  box.focus();
  box.setSelectionRange(start, end);
}

board.addEventListener("click", (event) => {
  const clue = event.target.closest(".clue");
  if (clue && !page.colours) editClue(clue.dataset.kind, Number(clue.dataset.index));
});

// -- opening a puzzle ------------------------------------------------------------------------
async function open(id) {
  page.id = id;
  closePlayer();
  page.game = null;
  page.verdict = null;
  page.passes = 0;
  $("#solutions").classList.add("hidden");
  const [row, game] = await Promise.all([api(`/api/puzzles/${id}`), api(`/api/games/${id}`)]);
  page.puzzle = row.puzzle;
  setupColours(row.puzzle);
  document.title = `pencilbox · ${row.title || "Nonogram"}`;
  $("#title").textContent = `${row.title || "Nonogram"} · ${row.puzzle.width}×${row.puzzle.height}`;
  $("#rows-clues").value = page.colours ? "" : row.puzzle.rows_text;
  $("#cols-clues").value = page.colours ? "" : row.puzzle.cols_text;
  buildBoard();
  timer.open(id, game.solved);
  applyGame(game, { force: true });
  for (const b of document.querySelectorAll(".toolbar button, .toolbar select")) b.disabled = false;
  $("#undo").disabled = !game.can_undo;
  $("#redo").disabled = !game.can_redo;
  setMessage(info, row.status ? `Verdict: ${row.status}${row.grade ? ` · grade ${row.grade}` : ""}` : "");
  setMessage(sentence, "Press Hint, Single step or Full solve.");
  if (page.colours) {
    for (const box of ["rows", "cols"]) { setMessage($(`#${box}-msg`), ""); $(`#${box}-clues`).classList.remove("invalid"); }
    setMessage($("#clue-msg"), `${page.colours.length - 1} colours: the clue boxes hold black-and-white clues; this puzzle's clues are on the board.`);
    $("#load").disabled = true;
  } else validateClues();
  page.readyMs = performance.now();
  document.body.dataset.ready = "1";
  if (!row.status && row.puzzle.width * row.puzzle.height <= 2500) {
    // The verdict and grade are cheap for small puzzles: fetch them in the background.
    api(`/api/puzzles/${id}/grade`).then((graded) => {
      if (page.id !== id || page.verdict) return;
      setMessage(info, `Verdict: ${graded.status}${graded.grade ? ` · grade ${graded.grade}` : ""}`);
    }).catch(() => {});
  }
}

async function start() {
  setupTheme($("#theme"));
  setupExport("nonogram", page, (error) => setMessage(info, error.message, "error"));
  setupShare(shareLink, info);
  try {
    await openShared("nonogram", "puzzle", "json"); // a colour puzzle's link (see shareLink)
  } catch (error) {
    setMessage(info, `The shared puzzle cannot be read: ${error.message}`, "error");
  }
  await openFromLocation({
    genre: "nonogram", key: "clues", format: "clues", open, info, sentence,
    idle: "Type the row and column clues on the right, then press Load.",
  });
}

// A link with the puzzle in it: the clues of a black-and-white puzzle, the colour JSON of a
// colour one (its palette and its runs by colour name).
function shareLink() {
  const puzzle = page.puzzle;
  if (!puzzle) return null;
  if (!page.colours) return shareUrl("nonogram", "clues", `${puzzle.rows_text}\n${puzzle.cols_text}`, puzzle.title);
  const colours = page.colours;
  const named = (runs) => runs.map((clue) => clue.map((run) => [run.n, colours[run.c].name]));
  const text = JSON.stringify({
    colors: Object.fromEntries(colours.slice(1).map((c) => [c.name, { hex: c.hex, char: c.char }])),
    background: { name: colours[0].name, hex: colours[0].hex },
    rows: named(page.clues.rows),
    cols: named(page.clues.cols),
  });
  return shareUrl("nonogram", "puzzle", text, puzzle.title);
}

// -- buttons ---------------------------------------------------------------------------------
function setMode(mode) {
  page.mode = mode;
  $("#mode-fill").setAttribute("aria-pressed", String(mode === "fill"));
  $("#mode-cross").setAttribute("aria-pressed", String(mode === "cross"));
  for (const swatch of $("#palette").children) {
    swatch.setAttribute("aria-pressed", String(mode === "fill" && Number(swatch.dataset.colour) === page.colour));
  }
}
$("#mode-fill").addEventListener("click", () => chooseColour(1));
$("#mode-cross").addEventListener("click", () => setMode("cross"));
$("#undo").addEventListener("click", () => { closePlayer(); action("undo"); });
$("#redo").addEventListener("click", () => { closePlayer(); action("redo"); });
$("#reset").addEventListener("click", () => { closePlayer(); play("clear"); });
$("#hint").addEventListener("click", hint);
$("#hint-apply").addEventListener("click", () => { if (page.hint && page.hint.move) play(page.hint.move); });
$("#check").addEventListener("click", check);
$("#autocross").checked = localStorage.getItem("pencilbox-autocross") === "1";
$("#autocross").addEventListener("change", () => {
  localStorage.setItem("pencilbox-autocross", $("#autocross").checked ? "1" : "0");
});
$("#autocheck").checked = localStorage.getItem("pencilbox-autocheck") === "1";
$("#autocheck").addEventListener("change", () => {
  localStorage.setItem("pencilbox-autocheck", $("#autocheck").checked ? "1" : "0");
  if ($("#autocheck").checked && page.id) autoCheck();
  else clearMarks();
});
$("#single").addEventListener("click", singleStep);
$("#solve").addEventListener("click", fullSolve);
$("#rows-clues").addEventListener("input", cluesChanged);
$("#cols-clues").addEventListener("input", cluesChanged);
$("#load").addEventListener("click", loadClues);
$("#clear").addEventListener("click", () => {
  $("#rows-clues").value = "";
  $("#cols-clues").value = "";
  $("#rows-clues").focus();
  validateClues();
});
window.addEventListener("popstate", () => {
  const id = new URLSearchParams(location.search).get("id");
  if (id) open(Number(id));
});

start();
