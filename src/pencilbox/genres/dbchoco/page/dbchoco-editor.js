// The Double Choco editor (/dbchoco?edit): make a new puzzle on a blank all-white board.
// Click or drag paints cells gray/white; digits (or ?) typed on the selected cell set its
// number. The server is the judge: every change is sent to POST /api/parse, whose error (a
// number larger than half the grid, 0, …) is shown next to the board; "Check uniqueness"
// solves the puzzle; "Save" adds it to the library in the text form and opens it for play.
import { $, api, el, setMessage } from "/static/common.js";
import { applyIcons } from "/static/icons.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 44;
const PAD = 6;
const MIN_SIZE = 2; // the server takes 1..200; one cell cannot be split into two halves
const MAX_SIZE = 16; // the solver answers a 16x16 in about a second; larger ones can wait
const STORE_KEY = "pencilbox-dbchoco-editor"; // the board survives a reload of the tab
const DRAFT_TITLE = "draft (uniqueness check)";

const ed = {
  width: 6,
  height: 6,
  gray: [], // per cell, row-major
  numbers: [], // per cell: null, a whole number, or "?"
  cursor: 0, // the selected cell
  mode: "paint", // what a click does: "paint" (and select) or "select" only
  typing: null, // the cell whose number is being typed: further digits append
  drag: null, // { gray, done: Set } while painting with the pointer
  error: null, // { message, cell } from the server's parse error
  verdict: null, // the last uniqueness check of this very board: { text, result }
  checking: null, // the running check (a promise), which Save waits for
  url: "",
  checks: 0, // counts validations, so that a late answer for an older board is dropped
  validated: "", // the text of the board the message is about
};

const board = () => $("#edit-board");

// -- the board as text -------------------------------------------------------------------------
// The genre's text picture: `.` white, `#` gray, `5` white with 5, `#5` gray with 5, `?`.
function toText() {
  const rows = [];
  for (let r = 0; r < ed.height; r++) {
    const tokens = [];
    for (let c = 0; c < ed.width; c++) {
      const i = r * ed.width + c;
      const number = ed.numbers[i] === null ? "" : String(ed.numbers[i]);
      tokens.push(((ed.gray[i] ? "#" : "") + number) || ".");
    }
    rows.push(tokens.join(" "));
  }
  return `${rows.join("\n")}\n`;
}

const puzzleBody = (extra = {}) => ({ text: toText(), genre: "dbchoco", format: "text", ...extra });

// "r2c3" (the server's `where`) -> the cell index, or null.
function cellOf(where) {
  const match = /^r(\d+)c(\d+)$/.exec(where || "");
  if (!match) return null;
  const r = Number(match[1]) - 1, c = Number(match[2]) - 1;
  return r < ed.height && c < ed.width ? r * ed.width + c : null;
}

// -- size ---------------------------------------------------------------------------------------
const clampSize = (value) => Math.max(MIN_SIZE, Math.min(MAX_SIZE, Math.round(Number(value)) || MIN_SIZE));

// A new size keeps the cells that still fit; new cells are white and empty.
function resize(width, height) {
  const gray = [], numbers = [];
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const old = r < ed.height && c < ed.width ? r * ed.width + c : -1; // -1: a new cell
      gray.push(ed.gray[old] ?? false);
      numbers.push(ed.numbers[old] ?? null);
    }
  }
  const [r, c] = [Math.floor(ed.cursor / ed.width), ed.cursor % ed.width];
  Object.assign(ed, { width, height, gray, numbers, typing: null });
  ed.cursor = Math.min(r, height - 1) * width + Math.min(c, width - 1);
  $("#edit-width").value = String(width);
  $("#edit-height").value = String(height);
}

function clearBoard() {
  ed.gray = ed.gray.map(() => false);
  ed.numbers = ed.numbers.map(() => null);
  changed();
}

// -- drawing ------------------------------------------------------------------------------------
function shape(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// Inner edges in the engine's order: vertical ones row by row, then horizontal ones.
function edgeLine(e) {
  const { width } = ed;
  const vertical = (width - 1) * ed.height;
  if (e < vertical) {
    const r = Math.floor(e / (width - 1)), c = e % (width - 1);
    const x = PAD + (c + 1) * CELL;
    return { cells: [r * width + c, r * width + c + 1], line: [x, PAD + r * CELL, x, PAD + (r + 1) * CELL] };
  }
  const r = Math.floor((e - vertical) / width), c = (e - vertical) % width;
  const y = PAD + (r + 1) * CELL;
  return { cells: [r * width + c, (r + 1) * width + c], line: [PAD + c * CELL, y, PAD + (c + 1) * CELL, y] };
}

const edgesOf = (solution) => [...solution.vertical.join(""), ...solution.horizontal.join("")];

// What the last check found, as walls to draw and cells to tint: a unique answer is shown
// faintly; for two answers, the edges where they disagree stand out (their cells tinted).
function verdictMarks() {
  const marks = { walls: [], diff: [], cells: new Set() };
  const result = ed.verdict && ed.verdict.text === toText() ? ed.verdict.result : null;
  if (!result || !result.solutions.length) return marks;
  const first = edgesOf(result.solutions[0]);
  const second = result.solutions[1] ? edgesOf(result.solutions[1]) : first;
  first.forEach((value, e) => {
    if (value !== second[e]) {
      marks.diff.push(e);
      for (const cell of edgeLine(e).cells) marks.cells.add(cell);
    } else if (value === "1") marks.walls.push(e);
  });
  return marks;
}

function cellShapes(svg, i, marks) {
  const x = PAD + (i % ed.width) * CELL, y = PAD + Math.floor(i / ed.width) * CELL;
  const r = Math.floor(i / ed.width), c = i % ed.width;
  svg.append(shape("rect", { x, y, width: CELL, height: CELL, class: `sq ${ed.gray[i] ? "gray" : "white"}`, "data-r": r, "data-c": c }));
  if (ed.error && ed.error.cell === i) svg.append(shape("rect", { x, y, width: CELL, height: CELL, class: "hl-wrong" }));
  else if (marks.cells.has(i)) svg.append(shape("rect", { x, y, width: CELL, height: CELL, class: "hl-change" }));
  if (ed.numbers[i] !== null) {
    const text = shape("text", { x: x + CELL / 2, y: y + CELL / 2 + 1, class: "num", "data-r": r, "data-c": c });
    text.textContent = String(ed.numbers[i]);
    svg.append(text);
  }
}

function render() {
  const { width, height } = ed;
  const size = [width * CELL + 2 * PAD, height * CELL + 2 * PAD];
  const svg = shape("svg", {
    width: size[0], height: size[1], viewBox: `0 0 ${size[0]} ${size[1]}`, role: "img",
    "aria-label": `${width} by ${height} Double Choco grid being edited`,
  });
  const marks = verdictMarks();
  for (let i = 0; i < width * height; i++) cellShapes(svg, i, marks);
  for (let c = 1; c < width; c++) svg.append(shape("line", { x1: PAD + c * CELL, y1: PAD, x2: PAD + c * CELL, y2: PAD + height * CELL, class: "grid" }));
  for (let r = 1; r < height; r++) svg.append(shape("line", { x1: PAD, y1: PAD + r * CELL, x2: PAD + width * CELL, y2: PAD + r * CELL, class: "grid" }));
  for (const [e, kind] of [...marks.walls.map((e) => [e, "wall answer"]), ...marks.diff.map((e) => [e, "wall diff"])]) {
    const [x1, y1, x2, y2] = edgeLine(e).line;
    svg.append(shape("line", { x1, y1, x2, y2, class: kind, "data-edge": e }));
  }
  svg.append(shape("rect", { x: PAD, y: PAD, width: width * CELL, height: height * CELL, class: "border" }));
  const cx = PAD + (ed.cursor % width) * CELL, cy = PAD + Math.floor(ed.cursor / width) * CELL;
  svg.append(shape("rect", { x: cx + 2, y: cy + 2, width: CELL - 4, height: CELL - 4, class: "sel" }));
  board().replaceChildren(svg);
}

// -- every change: redraw, remember, ask the server ---------------------------------------------
let validateTimer = null;

function changed() {
  if (ed.verdict && ed.verdict.text !== toText()) {
    ed.verdict = null;
    setMessage($("#edit-verdict"), "The board changed since the last check.");
  }
  render();
  remember();
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validate, 150); // one request per burst of typing or painting
}

async function validate() {
  const seq = ++ed.checks;
  const text = toText();
  try {
    const answer = await api("/api/parse", { method: "POST", body: puzzleBody() });
    if (seq !== ed.checks) return;
    ed.error = null;
    ed.url = answer.puzzle.url || "";
    setMessage($("#edit-msg"), "The puzzle reads fine.", "ok");
  } catch (error) {
    if (seq !== ed.checks) return;
    ed.error = { message: error.message, cell: cellOf(error.body && error.body.where) };
    ed.url = "";
    setMessage($("#edit-msg"), error.message, "error");
  }
  $("#edit-url").value = ed.url;
  ed.validated = text; // which board the message is about
  render();
}

function remember() {
  const { width, height, gray, numbers } = ed;
  sessionStorage.setItem(STORE_KEY, JSON.stringify({ width, height, gray, numbers, title: $("#edit-title").value }));
}

function restore() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null");
    if (!saved || saved.gray.length !== saved.width * saved.height) return false;
    Object.assign(ed, { width: saved.width, height: saved.height, gray: saved.gray, numbers: saved.numbers });
    $("#edit-title").value = saved.title || "";
    return true;
  } catch {
    return false;
  }
}

// -- the pointer: select, paint, drag --------------------------------------------------------------
function cellAt(event) {
  const box = board().querySelector("svg").getBoundingClientRect();
  const scale = box.width / (ed.width * CELL + 2 * PAD);
  const x = Math.floor(((event.clientX - box.left) / scale - PAD) / CELL);
  const y = Math.floor(((event.clientY - box.top) / scale - PAD) / CELL);
  return x >= 0 && x < ed.width && y >= 0 && y < ed.height ? y * ed.width + x : null;
}

// A press selects the cell; in paint mode it also flips its colour, and a drag gives every
// cell it passes that same new colour (so a drag never undoes itself).
function pointerDown(event) {
  if (event.button !== 0) return;
  const cell = cellAt(event);
  if (cell === null) return;
  event.preventDefault();
  board().focus();
  ed.cursor = cell;
  ed.typing = null;
  if (ed.mode !== "paint") { render(); return; }
  board().setPointerCapture?.(event.pointerId);
  ed.drag = { gray: !ed.gray[cell], done: new Set() };
  paint(cell);
}

function paint(cell) {
  if (ed.drag.done.has(cell)) return;
  ed.drag.done.add(cell);
  ed.cursor = cell;
  ed.gray[cell] = ed.drag.gray;
  changed();
}

function pointerMove(event) {
  if (!ed.drag) return;
  const cell = cellAt(event);
  if (cell !== null) paint(cell);
}

// -- the keyboard and the pad ----------------------------------------------------------------------
// Digits typed one after another on the same cell make one number (1 then 2 is 12), so the
// larger numbers of big grids can be typed; moving to another cell starts a new number.
function typeDigit(d) {
  const i = ed.cursor;
  const current = ed.typing === i && typeof ed.numbers[i] === "number" ? ed.numbers[i] : 0;
  ed.numbers[i] = current < 100 ? current * 10 + d : d;
  ed.typing = i;
  changed();
}

function setNumber(value) {
  ed.numbers[ed.cursor] = value;
  ed.typing = null;
  changed();
}

function moveCursor(dr, dc) {
  const r = Math.max(0, Math.min(ed.height - 1, Math.floor(ed.cursor / ed.width) + dr));
  const c = Math.max(0, Math.min(ed.width - 1, (ed.cursor % ed.width) + dc));
  ed.cursor = r * ed.width + c;
  ed.typing = null;
  render();
}

function toggleColour() {
  ed.gray[ed.cursor] = !ed.gray[ed.cursor];
  changed();
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// Keys work wherever the focus is, except in the text boxes (and Space/Enter on a button).
function keyDown(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey || target.matches("input, textarea, select")) return;
  if (target.matches("button") && (event.key === " " || event.key === "Enter")) return;
  const key = event.key;
  if (ARROWS[key]) moveCursor(...ARROWS[key]);
  else if (/^[0-9]$/.test(key)) typeDigit(Number(key));
  else if (key === "?") setNumber("?");
  else if (key === "Backspace" || key === "Delete") setNumber(null);
  else if (key === " ") toggleColour();
  else return;
  event.preventDefault();
}

function buildPad() {
  const keys = [..."1234567890"].map((d) => el("button", { type: "button", text: d, onclick: () => typeDigit(Number(d)) }));
  keys.push(
    el("button", { type: "button", text: "?", title: "A ? clue: some number", onclick: () => setNumber("?") }),
    el("button", { type: "button", "data-icon": "erase", "aria-label": "Clear the number", title: "Clear the number (Backspace)", onclick: () => setNumber(null) }),
    el("button", { type: "button", "data-icon": "half", "aria-label": "Gray or white", title: "Gray or white (Space)", onclick: toggleColour }),
  );
  $("#edit-pad").replaceChildren(...keys);
  applyIcons($("#edit-pad"));
}

function setMode(mode) {
  ed.mode = mode;
  $("#edit-paint").setAttribute("aria-pressed", String(mode === "paint"));
  $("#edit-select").setAttribute("aria-pressed", String(mode === "select"));
}

// -- check and save ----------------------------------------------------------------------------------
// The solver works on library puzzles only, so the check saves a draft, solves it and deletes
// it again (unless the very same puzzle was in the library before: then it stays).
async function solveDraft(body) {
  const made = await api("/api/puzzles", { method: "POST", body: { ...body, title: DRAFT_TITLE } });
  try {
    return await api(`/api/puzzles/${made.id}/solve`);
  } finally {
    if (made.new) await api(`/api/puzzles/${made.id}`, { method: "DELETE" }).catch(() => {});
  }
}

const VERDICTS = {
  unique: ["Unique: exactly one solution (its walls drawn in green).", "ok"],
  multiple: ["Not unique: more than one solution.", "error"],
  none: ["No solution: the grid cannot be divided into matching halves.", "error"],
  timeout: ["No answer within the time limit: try a smaller grid or more numbers.", "error"],
};

function showVerdict(result) {
  const [text, kind] = VERDICTS[result.status] || [`Verdict: ${result.status}`, ""];
  const diff = result.status === "multiple" ? verdictMarks().diff.length : 0;
  const where = diff ? ` Two answers differ at the ${diff} edge${diff === 1 ? "" : "s"} marked red (the walls both share are green): add a number or change a colour near them.` : "";
  setMessage($("#edit-verdict"), `${text}${where} (${(result.time_s * 1000).toFixed(0)} ms)`, kind);
  $("#edit-verdict").dataset.status = result.status;
}

function checkUniqueness() {
  ed.checking = runCheck().finally(() => { ed.checking = null; });
}

async function runCheck() {
  const body = puzzleBody();
  const button = $("#edit-check");
  button.disabled = true;
  delete $("#edit-verdict").dataset.status;
  setMessage($("#edit-verdict"), "Checking…");
  try {
    const result = await solveDraft(body);
    if (body.text !== toText()) {
      // painted meanwhile: the answer is about an older board
      setMessage($("#edit-verdict"), "The board changed during the check: check again.");
      return;
    }
    ed.verdict = { text: body.text, result };
    render();
    showVerdict(result);
  } catch (error) {
    setMessage($("#edit-verdict"), error.message, "error");
    $("#edit-verdict").dataset.status = "error";
  } finally {
    button.disabled = false;
  }
}

async function save() {
  const title = $("#edit-title").value.trim();
  // a running check's draft may be this very puzzle: let it be deleted before saving
  await ed.checking;
  try {
    const made = await api("/api/puzzles", { method: "POST", body: puzzleBody({ title: title || undefined }) });
    sessionStorage.removeItem(STORE_KEY);
    location.assign(`/dbchoco?id=${made.id}`);
  } catch (error) {
    setMessage($("#edit-msg"), `Not saved: ${error.message}`, "error");
  }
}

// -- start ----------------------------------------------------------------------------------------------
export function startEditor() {
  document.body.dataset.mode = "edit";
  document.title = "pencilbox · New Double Choco";
  $("#title").textContent = "New Double Choco";
  if (!restore()) resize(6, 6);
  resize(clampSize(ed.width), clampSize(ed.height)); // fills a fresh board, shows the size of a restored one
  for (const id of ["#edit-width", "#edit-height"]) {
    $(id).min = String(MIN_SIZE);
    $(id).max = String(MAX_SIZE);
    $(id).addEventListener("change", () => {
      resize(clampSize($("#edit-width").value), clampSize($("#edit-height").value));
      changed();
    });
  }
  const area = board();
  area.addEventListener("pointerdown", pointerDown);
  area.addEventListener("pointermove", pointerMove);
  const finish = () => { ed.drag = null; };
  area.addEventListener("pointerup", finish);
  area.addEventListener("pointercancel", finish);
  document.addEventListener("keydown", keyDown);
  $("#edit-paint").addEventListener("click", () => setMode("paint"));
  $("#edit-select").addEventListener("click", () => setMode("select"));
  $("#edit-clear").addEventListener("click", clearBoard);
  $("#edit-check").addEventListener("click", checkUniqueness);
  $("#edit-save").addEventListener("click", save);
  $("#edit-title").addEventListener("input", remember);
  buildPad();
  window.pencilbox.editor = ed; // for tests and the curious
  window.pencilbox.editorText = toText;
  changed();
  document.body.dataset.ready = "1";
}
