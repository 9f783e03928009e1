// The Sudoku page: a playable board with pencil marks, candidates, singles, three-level hints,
// accept singles, check, solve and generate. The server is the truth for the entries: every
// move goes to /api/games/{id}/move and is saved there, pencil marks (r3c4+5, r3c4-5) too.
// "Solve (animated)" replays the solving trace with the common step player.
import {
  $, api, el, gameClient, GameTimer, setIcon, setLabel, setMessage, showNotice, setupExport, setupShare, setupTheme, shareUrl, StepPlayer, openFromLocation,
} from "/static/common.js";
import { BoardView } from "/static/zoom.js";

const page = {
  id: null,
  puzzle: null,
  size: 9,
  n: 3,
  symbols: ".123456789",
  state: [], // digits 0..N, row-major (0 = empty)
  givens: [],
  game: null,
  cells: [],
  cursor: { r: 0, c: 0 },
  pencil: false,
  marks: {}, // cell index -> array of digits marked
  pending: 0,
  queue: Promise.resolve(),
  hint: null,
  hintLevel: 0,
  marked: null, // the highlighted step / check result, redrawn by render()
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
const view = new BoardView(board);

// -- state text <-> digits -------------------------------------------------------------------
function parseState(text) {
  return [...text.replaceAll("/", "")].map((s) => Math.max(0, page.symbols.indexOf(s)));
}

function rowsText(digits) {
  const rows = [];
  for (let r = 0; r < page.size; r++) {
    rows.push(digits.slice(r * page.size, (r + 1) * page.size).map((d) => page.symbols[d]).join(""));
  }
  return rows.join("/");
}

const symbol = (d) => (d ? page.puzzle.alphabet[d - 1] : ".");
const name = (i) => `r${Math.floor(i / page.size) + 1}c${(i % page.size) + 1}`;

// -- candidates and singles --------------------------------------------------------------------
function peersOf(i) {
  const { size, n } = page;
  const r = Math.floor(i / size), c = i % size;
  const br = r - (r % n), bc = c - (c % n);
  const out = new Set();
  for (let k = 0; k < size; k++) {
    out.add(r * size + k);
    out.add(k * size + c);
    out.add((br + Math.floor(k / n)) * size + bc + (k % n));
  }
  out.delete(i);
  return out;
}

function candidates(digits) {
  const all = [];
  for (let i = 0; i < digits.length; i++) {
    if (digits[i]) { all.push([]); continue; }
    const used = new Set([...page.peers[i]].map((p) => digits[p]));
    const list = [];
    for (let d = 1; d <= page.size; d++) if (!used.has(d)) list.push(d);
    all.push(list);
  }
  return all;
}

function singles(digits, cands) {
  const found = new Set();
  cands.forEach((list, i) => { if (!digits[i] && list.length === 1) found.add(i); });
  for (const unit of page.units) {
    for (let d = 1; d <= page.size; d++) {
      const where = unit.filter((i) => !digits[i] && cands[i].includes(d));
      if (where.length === 1 && !unit.some((i) => digits[i] === d)) found.add(where[0]);
    }
  }
  return found;
}

function buildUnits() {
  const { size, n } = page;
  const units = [];
  for (let k = 0; k < size; k++) {
    const row = [], col = [], box = [];
    for (let j = 0; j < size; j++) {
      row.push(k * size + j);
      col.push(j * size + k);
      box.push((Math.floor(k / n) * n + Math.floor(j / n)) * size + (k % n) * n + (j % n));
    }
    units.push(row, col, box);
  }
  page.units = units;
  page.peers = Array.from({ length: size * size }, (_, i) => peersOf(i));
}

// -- the board -------------------------------------------------------------------------------
function buildBoard() {
  const { size, n } = page;
  const cell = size <= 9 ? 46 : size <= 16 ? 34 : 27;
  board.style.setProperty("--cell-size", `${cell}px`);
  board.style.setProperty("--box", String(n));
  board.style.gridTemplateColumns = `repeat(${size}, var(--cell-size))`;
  page.cells = [];
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const classes = ["cell"];
      if ((c + 1) % n === 0 && c + 1 < size) classes.push("bxr");
      if ((r + 1) % n === 0 && r + 1 < size) classes.push("bxb");
      if (page.givens[r * size + c]) classes.push("given");
      page.cells.push(el("div", { class: classes.join(" "), "data-r": r, "data-c": c, role: "gridcell", id: `cell-${r}-${c}` }));
    }
  }
  board.replaceChildren(...page.cells);
  board.setAttribute("role", "grid");
  page.labels = [];
  const pad = [];
  for (let d = 1; d <= size; d++) {
    pad.push(el("button", { type: "button", "data-digit": d, text: page.puzzle.alphabet[d - 1], "aria-label": `Enter ${page.puzzle.alphabet[d - 1]}`, onclick: () => enter(d) }));
  }
  const clear = el("button", { type: "button", "data-digit": 0, title: "Clear the cell", "aria-label": "Clear the cell", onclick: () => enter(0) });
  setIcon(clear, "erase");
  pad.push(clear);
  $("#pad").replaceChildren(...pad);
  view.fit();
}

// What the board shows: the game, or while the player is open its frame (the digits placed so
// far and every candidate the steps have not eliminated).
function shown() {
  if (!player.active) return { digits: page.state, marks: page.marks, cands: candidates(page.state), showCands: $("#show-cands").checked };
  const { digits, gone } = player.frame;
  const cands = candidates(digits).map((list, i) => list.filter((d) => !gone.has(i * 100 + d)));
  return { digits, marks: {}, cands, showCands: true };
}

function render() {
  const { size, n } = page;
  const { digits, marks, cands, showCands } = shown();
  const single = $("#show-singles").checked ? singles(digits, cands) : new Set();
  // the replay shows the step's cells, not the cursor's row, column and box
  const sel = player.active ? -1 : page.cursor.r * size + page.cursor.c;
  const selPeers = player.active ? new Set() : page.peers[sel];
  const step = page.marked && page.marked.step;
  const elim = new Map(), place = new Map();
  if (step) {
    for (const [r, c, d] of (step.extra && step.extra.eliminations) || []) {
      const i = r * size + c;
      elim.set(i, [...(elim.get(i) || []), d]);
    }
    for (const [r, c, d] of step.changes) if (d) place.set(r * size + c, d);
  }
  for (let i = 0; i < digits.length; i++) {
    const node = page.cells[i];
    const d = digits[i];
    const label = `row ${Math.floor(i / size) + 1}, column ${(i % size) + 1}: ${d ? `${page.givens[i] ? "given " : ""}${symbol(d)}` : "empty"}`;
    if (page.labels[i] !== label) {
      page.labels[i] = label;
      node.setAttribute("aria-label", label);
    }
    node.classList.toggle("filled", d > 0);
    node.classList.toggle("sel", i === sel);
    node.classList.toggle("peer", i !== sel && selPeers.has(i));
    node.classList.toggle("same", i !== sel && d > 0 && d === digits[sel]);
    node.classList.toggle("single", single.has(i));
    if (d) {
      if (node.textContent !== symbol(d) || node.firstChild?.nodeType !== Node.TEXT_NODE) node.textContent = symbol(d);
      continue;
    }
    if (place.has(i)) {
      // the hint's placement: the digit shown in the cell, in the highlight colour
      node.replaceChildren(el("span", { class: "placing", text: symbol(place.get(i)) }));
      continue;
    }
    const mine = marks[i] || [];
    const shown = new Set(showCands ? cands[i] : mine);
    for (const x of elim.get(i) || []) shown.add(x);
    if (!shown.size) { node.textContent = ""; continue; }
    const spans = [];
    for (let x = 1; x <= size; x++) {
      const classes = [];
      if (mine.includes(x)) classes.push("mine");
      if ((elim.get(i) || []).includes(x)) classes.push("elim");
      spans.push(el("span", { class: classes.join(" ") || undefined, text: shown.has(x) ? page.puzzle.alphabet[x - 1] : "" }));
    }
    const grid = el("div", { class: "marks" }, spans);
    grid.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
    node.replaceChildren(grid);
  }
  const serial = $("#serial");
  if (document.activeElement !== serial) serial.value = page.state.map(symbol).join(""); // the game, not the replay
  for (const b of document.querySelectorAll("#pad button")) {
    const d = Number(b.dataset.digit);
    b.disabled = d > 0 && digits.filter((x) => x === d).length >= size;
    b.classList.toggle("same", d > 0 && d === digits[sel]);
  }
  if (sel >= 0) board.setAttribute("aria-activedescendant", page.cells[sel].id);
}

function clearMarks() {
  page.marked = null;
  for (const node of board.querySelectorAll(".hl-change, .hl-reason, .hl-wrong")) {
    node.classList.remove("hl-change", "hl-reason", "hl-wrong");
  }
}

function highlight(step, { changes = true } = {}) {
  clearMarks();
  if (!step) return;
  page.marked = changes ? { step } : null;
  const { size } = page;
  // a step without reasons (a naked single) points at the cells it changes
  const where = step.reasons.length ? step.reasons : step.changes;
  for (const [r, c] of where) page.cells[r * size + c]?.classList.add("hl-reason");
  if (!changes) return;
  for (const [r, c] of step.changes) page.cells[r * size + c]?.classList.add("hl-change");
  for (const [r, c] of (step.extra && step.extra.eliminations) || []) page.cells[r * size + c]?.classList.add("hl-change");
}

// -- drawing what the server answers ------------------------------------------------------

function forgetHint() {
  page.hint = null;
  page.hintLevel = 0;
  setLabel($("#hint"), "Hint");
  $("#hint-actions").classList.add("hidden");
}

function applyGame(game, { force = false } = {}) {
  const wasSolved = page.game && page.game.solved;
  page.game = game;
  if (game.solved && !wasSolved) setMessage(info, "Solved: every row, column and box is complete.", "ok");
  showNotice(game, info);
  $("#undo").disabled = !game.can_undo;
  $("#redo").disabled = !game.can_redo;
  timer.setSolved(game.solved);
  if (page.pending > 0 && !force) return; // newer local moves are on their way
  page.state = parseState(game.state);
  page.marks = {};
  for (const [r, c, digits] of game.marks || []) page.marks[r * page.size + c] = digits;
  render();
  if ($("#autocheck").checked && !game.solved && !player.active) autoCheck();
}

// Auto-check: after every move the entries that differ from the solution are marked.
async function autoCheck() {
  const id = page.id;
  try {
    const answer = await api(`/api/games/${id}/check`);
    if (page.id !== id || page.pending > 0 || player.active) return;
    for (const node of board.querySelectorAll(".hl-wrong")) node.classList.remove("hl-wrong");
    for (const [r, c] of answer.wrong) page.cells[r * page.size + c]?.classList.add("hl-wrong");
    if (answer.wrong.length) setMessage(info, `${answer.wrong.length} ${answer.wrong.length === 1 ? "entry is" : "entries are"} wrong (marked red).`, "error");
  } catch {
    // the auto-check is a help: a failed one shows nothing
  }
}

// -- entering digits and marks -------------------------------------------------------------------
function enter(d) {
  player.close(); // typing takes the board back from the replay
  const i = page.cursor.r * page.size + page.cursor.c;
  if (page.givens[i]) { setMessage(info, `${name(i)} is a given.`, "error"); return; }
  if (page.pencil && d > 0) {
    if (page.state[i]) return;
    const mine = new Set(page.marks[i] || []);
    const had = mine.has(d);
    if (had) mine.delete(d); else mine.add(d);
    if (mine.size) page.marks[i] = [...mine].sort((a, b) => a - b); else delete page.marks[i];
    render();
    play(`${name(i)}${had ? "-" : "+"}${d}`);
    return;
  }
  if (page.pencil && d === 0 && !page.state[i] && page.marks[i]) {
    const words = page.marks[i].map((x) => `${name(i)}-${x}`);
    delete page.marks[i];
    render();
    play(words.join(" "));
    return;
  }
  if (page.state[i] === d) return;
  page.state[i] = d;
  const words = [`${name(i)}=${d}`];
  if (d) {
    // an entry removes that digit from the marks of its peers, in the same move
    for (const p of page.peers[i]) {
      if (page.marks[p] && page.marks[p].includes(d)) {
        page.marks[p] = page.marks[p].filter((x) => x !== d);
        if (!page.marks[p].length) delete page.marks[p];
        words.push(`${name(p)}-${d}`);
      }
    }
  }
  render();
  play(words.join(" "));
}

function digitForKey(key) {
  const alphabet = page.puzzle.alphabet;
  const at = alphabet.toUpperCase().indexOf(key.toUpperCase());
  if (key.length === 1 && at >= 0) return at + 1;
  if (key === "0" || key === "Delete" || key === "Backspace" || key === ".") return 0;
  return null;
}

board.addEventListener("pointerdown", (event) => {
  const node = event.target.closest(".cell");
  if (!node || !board.contains(node) || !event.isPrimary || view.gesturing) return;
  page.cursor = { r: Number(node.dataset.r), c: Number(node.dataset.c) };
  board.focus();
  render();
});

// Keys work wherever the focus is, except in the text boxes and menus.
const typing = (target) =>
  target instanceof HTMLTextAreaElement ||
  target instanceof HTMLSelectElement ||
  (target instanceof HTMLInputElement && target.type !== "checkbox");

document.addEventListener("keydown", (event) => {
  if (!page.puzzle || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key]) {
    event.preventDefault();
    const [dr, dc] = moves[event.key];
    const { size } = page;
    page.cursor = { r: (page.cursor.r + dr + size) % size, c: (page.cursor.c + dc + size) % size };
    render();
    view.reveal(page.cells[page.cursor.r * size + page.cursor.c]);
    return;
  }
  if ((event.key === "p" || event.key === "P") && !page.puzzle.alphabet.toUpperCase().includes("P")) {
    setPencil(!page.pencil);
    return;
  }
  const d = digitForKey(event.key);
  if (d === null) return;
  event.preventDefault();
  enter(d);
});

document.addEventListener("keydown", (event) => {
  if (!page.id || !(event.ctrlKey || event.metaKey) || typing(event.target)) return;
  const key = event.key.toLowerCase();
  const undo = key === "z" && !event.shiftKey;
  const redo = key === "y" || (key === "z" && event.shiftKey);
  if (!undo && !redo) return;
  event.preventDefault();
  player.close();
  action(undo ? "undo" : "redo");
});

function setPencil(on) {
  page.pencil = on;
  $("#pencil").setAttribute("aria-pressed", String(on));
}

// -- hint, check, singles, solve -----------------------------------------------------------------
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
    if (!answer.step) {
      forgetHint();
      clearMarks();
      render();
      setMessage(sentence, answer.message || "No hint.");
      return;
    }
    page.hint = answer;
    page.hintLevel = answer.step.technique === "mistake" ? 3 : Math.min(3, page.hintAsked);
    showHint();
  } catch (error) {
    setMessage(info, error.message, "error");
  } finally {
    page.hintAsked = 0;
  }
}

function techniqueName(step) {
  return step.technique.charAt(0).toUpperCase() + step.technique.slice(1);
}

function showHint() {
  const step = page.hint.step;
  const level = page.hintLevel;
  sentence.dataset.level = String(level);
  if (level === 1) {
    clearMarks();
    setMessage(sentence, `Hint 1/3 · technique: ${techniqueName(step)}`);
    setLabel($("#hint"), "Hint: where?");
  } else if (level === 2) {
    highlight(step, { changes: false });
    const where = step.reasons.length ? step.reasons : step.changes;
    const cells = where.map(([r, c]) => `r${r + 1}c${c + 1}`).join(", ");
    setMessage(sentence, `Hint 2/3 · ${techniqueName(step)}: look at ${step.clue || cells || "the marked cells"}`);
    setLabel($("#hint"), "Hint: show step");
  } else {
    highlight(step);
    setMessage(sentence, `Hint 3/3 · ${step.sentence}`);
    setLabel($("#hint"), "Hint");
    $("#hint-actions").classList.toggle("hidden", !page.hint.move);
  }
  render();
}

async function check() {
  try {
    const answer = await api(`/api/games/${page.id}/check`);
    forgetHint();
    clearMarks();
    const { size } = page;
    for (const [r, c] of answer.wrong) page.cells[r * size + c].classList.add("hl-wrong");
    render();
    if (answer.solved) setMessage(info, "Solved: every row, column and box is complete.", "ok");
    else if (answer.violations.length || answer.wrong.length) {
      const wrong = answer.wrong.length ? `${answer.wrong.length} ${answer.wrong.length === 1 ? "entry is" : "entries are"} wrong (marked red). ` : "";
      setMessage(info, `${wrong}${answer.violations.join("; ")}`, "error");
    } else setMessage(info, `No mistakes so far; ${answer.unknown} cells to go.`, "ok");
  } catch (error) {
    setMessage(info, error.message, "error");
  }
}

async function acceptSingles() {
  const answer = await action("pass");
  if (!answer) return;
  const count = answer.steps.length;
  setMessage(sentence, count ? `Accepted ${count} single${count === 1 ? "" : "s"}.` : "No singles here: try a hint.");
}

async function solve() {
  const started = performance.now();
  const answer = await action("solve", { apply: true });
  if (!answer) return;
  const result = answer.result;
  const took = performance.now() - started;
  const solver = `${(result.time_s * 1000).toFixed(1)} ms`;
  const words = { unique: "one solution", multiple: "more than one solution", none: "no solution", timeout: "no answer in time" };
  $("#solve-time")?.remove();
  info.replaceChildren(
    el("span", { id: "solve-time", text: `Solve: ${words[result.status] || result.status} · solver ${solver} · round trip ${took.toFixed(0)} ms` }),
  );
  info.className = `msg ${result.status === "unique" ? "ok" : "error"}`;
}

// -- solve (animated): the common step player ---------------------------------------------------
// A frame is the digits placed so far and the eliminated candidates (cell * 100 + digit); a step
// places its `changes` and removes its `extra.eliminations`. The trace starts from the givens.
const player = new StepPlayer({
  initial: () => ({ digits: page.givens.slice(), gone: new Set() }),
  apply: (frame, step) => {
    for (const [r, c, d] of step.changes) frame.digits[r * page.size + c] = d;
    for (const [r, c, d] of (step.extra && step.extra.eliminations) || []) frame.gone.add((r * page.size + c) * 100 + d);
  },
  clone: (frame) => ({ digits: frame.digits.slice(), gone: new Set(frame.gone) }),
  draw: (frame, step) => {
    highlight(step);
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
  if (frame.digits.includes(0)) return;
  try {
    applyGame(await post(`/api/games/${page.id}/move`, { move: `grid ${rowsText(frame.digits)}` }));
  } catch (error) {
    setMessage(info, error.message, "error");
  }
}

// -- grade -------------------------------------------------------------------------------------------
// /grade gives `grade` (the solver's name for it) and, from newer servers, the logical `level`,
// `score` and `hardest` technique: show the level and score when they are there.
async function showGrade(id) {
  const node = $("#grade");
  node.textContent = "";
  try {
    const graded = await api(`/api/puzzles/${id}/grade`);
    if (page.id !== id) return;
    const hardest = graded.hardest && (graded.hardest.technique || graded.hardest);
    const parts = [];
    if (graded.level !== undefined && graded.level !== null) parts.push(`Level: ${graded.level}`);
    if (graded.score !== undefined && graded.score !== null) parts.push(`score ${graded.score}`);
    if (parts.length && typeof hardest === "string") parts.push(`hardest: ${hardest}`);
    if (!parts.length && graded.grade) parts.push(`Grade: ${graded.grade}`);
    node.textContent = parts.join(" · ");
    node.title = `Verdict: ${graded.status}${graded.grade ? ` · solver grade: ${graded.grade}` : ""}`;
  } catch {
    node.textContent = "";
  }
}

// -- load, clear, generate ------------------------------------------------------------------------
async function load() {
  const text = $("#serial").value.replace(/\s+/g, "");
  const msg = $("#serial-msg");
  if (![16, 81, 256, 625].includes(text.length)) {
    setMessage(msg, `${text.length} symbols: a line needs 81 (or 16, 256, 625)`, "error");
    return;
  }
  if (page.puzzle && text.length === page.size * page.size) {
    const alphabet = page.puzzle.alphabet.toUpperCase();
    const digits = [...text.toUpperCase()].map((s) => alphabet.indexOf(s) + 1);
    const keeps = page.givens.every((g, i) => !g || digits[i] === g);
    if (keeps) {
      const entries = digits.map((d, i) => (page.givens[i] ? page.givens[i] : d));
      setMessage(msg, "Loaded into this game.", "ok");
      if (entries.join() !== page.state.join()) await play(`grid ${rowsText(entries)}`);
      return;
    }
  }
  try {
    const made = await api("/api/puzzles", { method: "POST", body: { text, genre: "sudoku" } });
    history.pushState(null, "", `/sudoku?id=${made.id}`);
    await open(made.id);
    setMessage(msg, made.new ? "A new puzzle: added to the library." : "This puzzle is in the library already.", "ok");
  } catch (error) {
    setMessage(msg, error.message, "error");
  }
}

async function generate() {
  const options = { size: Number($("#gen-size").value) };
  const grade = $("#gen-grade").value;
  if (grade) options.grade = grade;
  setMessage(info, "Generating…");
  $("#generate").disabled = true;
  try {
    const made = await api("/api/generate", { method: "POST", body: { genre: "sudoku", options } });
    history.pushState(null, "", `/sudoku?id=${made.id}`);
    await open(made.id);
  } catch (error) {
    setMessage(info, error.message, "error");
  } finally {
    $("#generate").disabled = false;
  }
}

// -- opening a puzzle -----------------------------------------------------------------------------
async function open(id) {
  player.close();
  page.id = id;
  forgetHint();
  page.marked = null;
  const [row, game] = await Promise.all([api(`/api/puzzles/${id}`), api(`/api/games/${id}`)]);
  const p = row.puzzle;
  page.puzzle = p;
  page.size = p.size;
  page.n = p.n;
  page.symbols = p.symbols;
  page.givens = parseState(p.givens);
  page.cursor = { r: 0, c: 0 };
  document.title = `pencilbox · ${row.title || "Sudoku"}`;
  $("#title").textContent = `${row.title || "Sudoku"} · ${p.size}×${p.size}`;
  if ([9, 16, 25].includes(p.size)) $("#gen-size").value = String(p.size);
  buildUnits();
  buildBoard();
  timer.open(id, game.solved);
  applyGame(game, { force: true });
  for (const b of document.querySelectorAll(".toolbar button, .toolbar select")) b.disabled = false;
  $("#undo").disabled = !game.can_undo;
  $("#redo").disabled = !game.can_redo;
  setMessage(info, row.status ? `Verdict: ${row.status}` : "");
  setMessage(sentence, "Click a cell and type a digit, or press Hint.");
  page.readyMs = performance.now();
  document.body.dataset.ready = "1";
  showGrade(id);
}

async function start() {
  setupTheme($("#theme"));
  setupExport("sudoku", page, (error) => setMessage(info, error.message, "error"));
  setupShare(() => page.puzzle && shareUrl("sudoku", "puzzle", page.puzzle.givens, page.puzzle.title), info);
  await openFromLocation({
    genre: "sudoku", key: "puzzle", open, info, sentence,
    idle: "Paste a puzzle line on the right and press Load, or generate one.",
  });
}

// -- buttons ----------------------------------------------------------------------------------------
$("#pencil").addEventListener("click", () => { setPencil(!page.pencil); board.focus(); });
$("#show-cands").addEventListener("change", () => page.puzzle && render());
$("#show-singles").addEventListener("change", () => page.puzzle && render());
// Buttons that change or judge the game take the board back from the replay first.
const leaving = (fn) => (...args) => { player.close(); return fn(...args); };
$("#undo").addEventListener("click", leaving(() => action("undo")));
$("#redo").addEventListener("click", leaving(() => action("redo")));
$("#reset").addEventListener("click", leaving(() => play("clear")));
$("#singles").addEventListener("click", leaving(acceptSingles));
$("#hint").addEventListener("click", leaving(hint));
$("#hint-apply").addEventListener("click", () => { if (page.hint && page.hint.move) play(page.hint.move); });
$("#check").addEventListener("click", leaving(check));
$("#autocheck").checked = localStorage.getItem("pencilbox-autocheck") === "1";
$("#autocheck").addEventListener("change", () => {
  localStorage.setItem("pencilbox-autocheck", $("#autocheck").checked ? "1" : "0");
  if ($("#autocheck").checked && page.id) autoCheck();
  else { clearMarks(); if (page.puzzle) render(); }
});
$("#solve").addEventListener("click", leaving(solve));
$("#animate-solve").addEventListener("click", animatedSolve);
$("#load").addEventListener("click", load);
$("#clear").addEventListener("click", () => {
  $("#serial").value = "";
  $("#serial").focus();
  setMessage($("#serial-msg"), "Type or paste a puzzle, then press Load.");
});
$("#generate").addEventListener("click", generate);
window.addEventListener("popstate", () => {
  const id = new URLSearchParams(location.search).get("id");
  if (id) open(Number(id));
});

start();
