// The review screen: a puzzle read from a picture, shown over the picture, corrected by the
// user, imported when they accept (issue 11).
//
// A picture arrives by a drop anywhere on the page, a paste (Ctrl+V), a picture chosen in any
// file input of the page, or the "Picture" buttons this script adds (on a phone, "Photo"
// opens the camera). The server reads it (POST /api/pictures/read) and answers a review
// document: every number with its box in the picture, its confidence and alternatives, and
// the verdict of the genre's rules. Each number is drawn over its place; doubtful ones are
// highlighted; a click (or Enter on a focused number, or typing a digit) edits it. Every
// change is checked again by the server (POST /api/pictures/check) for a live verdict.
// "Accept" imports the puzzle's text into the library and opens it.
//
// On a genre's page the picture is read as that genre's puzzle; on the library page the
// genre is detected unless the user picks one.
import { el } from "/static/common.js";
import { applyIcons } from "/static/icons.js";

const PICTURE_TYPES = ["image/png", "image/jpeg", "image/webp"];
const MAX_UPLOAD = 1_900_000; // the server takes request bodies up to 2 MB
const MAX_SIDE = 2400; // larger pictures are scaled down before they are sent

const state = {
  genres: [], // [{name, title}] that read pictures
  pageGenre: null, // the genre of the page we are on, if it is a genre page
  document: null, // the current review document
  picture: null, // object URL of the picture shown
  pending: 0, // server calls under way
  queue: Promise.resolve(),
  editing: null, // index of the number being edited
};
window.pencilboxReview = state; // for tests and curious users

// -- getting a picture -------------------------------------------------------------------------
function pictureIn(items) {
  for (const item of items || []) {
    const file = item instanceof File ? item : item.kind === "file" ? item.getAsFile() : null;
    if (file && PICTURE_TYPES.includes(file.type)) return file;
  }
  return null;
}

async function shrink(file) {
  // Large photos are scaled down (and sent as JPEG) so that the upload stays small; the
  // reader works at 1600 pixels anyway.
  if (file.size <= MAX_UPLOAD) return file;
  const bitmap = await createImageBitmap(file);
  const factor = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = el("canvas", {
    width: Math.round(bitmap.width * factor),
    height: Math.round(bitmap.height * factor),
  });
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  for (const quality of [0.92, 0.8, 0.65]) {
    const blob = await new Promise((done) => canvas.toBlob(done, "image/jpeg", quality));
    if (blob && blob.size <= MAX_UPLOAD) return blob;
  }
  throw new Error("the picture is too large to send (more than 2 MB even when scaled down)");
}

async function post(path, body, type) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "X-Pencilbox": "1", "Content-Type": type },
    body,
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Error((data && data.error) || `HTTP ${response.status}`);
  return data;
}

async function openPicture(file) {
  const overlay = showOverlay();
  const genre = state.pageGenre || overlay.querySelector(".review-genre")?.value || "";
  setStatus(`Reading ${file.name || "the picture"}…`, "busy");
  state.pending += 1;
  try {
    const picture = await shrink(file);
    if (state.picture) URL.revokeObjectURL(state.picture);
    state.picture = URL.createObjectURL(picture);
    const query = new URLSearchParams({ name: file.name || "picture" });
    if (genre) query.set("genre", genre);
    const document_ = await post(`/api/pictures/read?${query}`, picture, picture.type || file.type);
    show(document_);
  } catch (error) {
    setStatus(error.message, "error");
  } finally {
    state.pending -= 1;
  }
}

// -- the overlay -------------------------------------------------------------------------------
function showOverlay() {
  let overlay = document.querySelector(".review");
  if (overlay) {
    overlay.hidden = false;
    return overlay;
  }
  const genreChoice = state.pageGenre
    ? null
    : el(
        "label",
        {},
        "Genre ",
        el(
          "select",
          { class: "review-genre", title: "Read the picture as this genre's puzzle" },
          el("option", { value: "", text: "detect" }),
          state.genres.map((g) => el("option", { value: g.name, text: g.title })),
        ),
      );
  overlay = el(
    "div",
    { class: "review", role: "dialog", "aria-modal": "true", "aria-label": "Review the puzzle read from a picture" },
    el(
      "div",
      { class: "review-box" },
      el(
        "header",
        {},
        el("h2", { text: "Read from a picture" }),
        el("span", { class: "review-status msg", role: "status", "aria-live": "polite" }),
        genreChoice,
        el("button", { type: "button", class: "review-close", text: "Cancel", onclick: closeOverlay }),
      ),
      el(
        "div",
        { class: "review-body" },
        el("div", { class: "review-picture" }),
        el("aside", { class: "review-side" }),
      ),
    ),
  );
  overlay.addEventListener("keydown", onKey);
  overlay.querySelector(".review-genre")?.addEventListener("change", rereadAs);
  document.body.append(overlay);
  return overlay;
}

function closeOverlay() {
  const overlay = document.querySelector(".review");
  if (overlay) overlay.hidden = true;
  state.document = null;
}

function setStatus(text, kind = "") {
  const node = document.querySelector(".review-status");
  if (!node) return;
  node.textContent = text;
  node.className = `review-status msg ${kind}`;
}

let lastFile = null;
function rereadAs() {
  if (lastFile) openPicture(lastFile);
}

// -- drawing what was read -------------------------------------------------------------------
function where(number) {
  return number.cell ? number.cell : `${number.clue} #${number.index}`;
}

function doubts(doc) {
  const marked = new Set((doc.uncertain || []).map((u) => (u.cell ? u.cell : `${u.clue} #${u.index}`)));
  return marked;
}

function show(doc) {
  state.document = doc;
  const overlay = showOverlay();
  const pictureBox = overlay.querySelector(".review-picture");
  const side = overlay.querySelector(".review-side");
  pictureBox.replaceChildren();
  side.replaceChildren();
  if (doc.status === "error") {
    setStatus(`The picture could not be read: ${doc.error}`, "error");
    if (state.picture) pictureBox.append(el("img", { src: state.picture, alt: "the picture" }));
    return;
  }
  const [width, height] = doc.picture_size;
  const stage = el("div", { class: "review-stage", style: `aspect-ratio: ${width} / ${height}` });
  stage.append(el("img", { src: state.picture, alt: "the picture", draggable: "false" }));
  stage.append(outline(doc, width, height));
  const doubtful = doubts(doc);
  doc.numbers.forEach((number, at) => {
    if (!number.box) return;
    stage.append(mark(number, at, doubtful.has(where(number)), width, height));
  });
  stage.addEventListener("click", (event) => {
    if (event.target === stage || event.target.tagName === "IMG" || event.target.tagName === "svg") {
      addAt(event, stage);
    }
  });
  pictureBox.append(stage);
  side.append(...sidePanel(doc, doubtful));
  const count = doubtful.size;
  setStatus(
    doc.status === "ok"
      ? "Read with confidence. Check it against the picture, then accept."
      : `${count} number${count === 1 ? "" : "s"} to check (highlighted). Click a number to correct it.`,
    doc.status === "ok" ? "ok" : "",
  );
  document.body.dataset.reviewed = String(Date.now());
}

function percent(value, total) {
  return `${((100 * value) / total).toFixed(3)}%`;
}

function outline(doc, width, height) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.classList.add("review-grid");
  if (doc.grid && doc.grid.length === 4) {
    const polygon = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
    polygon.setAttribute("points", doc.grid.map(([x, y]) => `${x},${y}`).join(" "));
    svg.append(polygon);
  }
  return svg;
}

function mark(number, at, doubtful, width, height) {
  const [x0, y0, x1, y1] = number.box;
  const classes = ["review-num"];
  if (doubtful) classes.push("doubt");
  if (number.changed) classes.push("changed");
  if (number.edited) classes.push("edited");
  if (number.read === null || number.read === undefined) classes.push("blank");
  const alternatives = (number.alternatives || []).filter((v) => v !== null).slice(0, 3);
  const title = [
    `${where(number)}: read ${show_(number.read)} (${Math.round(number.confidence * 100)}% sure)`,
    alternatives.length ? `or ${alternatives.join(", ")}` : "",
    number.reason || "",
  ]
    .filter(Boolean)
    .join("; ");
  const node = el("button", {
    type: "button",
    class: classes.join(" "),
    "data-at": at,
    "data-where": where(number),
    title,
    "aria-label": title,
    style: `left:${percent(x0, width)};top:${percent(y0, height)};width:${percent(x1 - x0, width)};height:${percent(y1 - y0, height)}`,
    text: show_(number.read),
    onclick: (event) => {
      event.stopPropagation();
      startEdit(at);
    },
  });
  return node;
}

function show_(value) {
  if (value === null || value === undefined) return "·";
  const alphabet = state.document?.genre_data?.alphabet;
  return (alphabet && alphabet[value - 1]) || String(value);
}

const CHECK_NAMES = {};
function checkName(key) {
  return CHECK_NAMES[key] || key.replaceAll("_", " ");
}

function sidePanel(doc, doubtful) {
  const parts = [];
  const genre = state.genres.find((g) => g.name === doc.genre);
  parts.push(el("p", { class: "review-what", text: `${genre ? genre.title : doc.genre}, ${doc.width}×${doc.height}` }));
  const verdict = doc.verdict || { checks: {}, problems: [] };
  parts.push(
    el(
      "ul",
      { class: "review-checks", "aria-label": "What the rules say" },
      Object.entries(verdict.checks || {}).map(([key, value]) =>
        el("li", { class: value === true ? "yes" : value === false ? "no" : "unknown", "data-check": key },
          `${value === true ? "✔" : value === false ? "✘" : "?"} ${checkName(key)}`),
      ),
    ),
  );
  for (const problem of verdict.problems || []) parts.push(el("p", { class: "msg error", text: problem }));
  for (const repair of doc.repairs || []) parts.push(el("p", { class: "msg review-repair", text: repair }));
  if (doubtful.size) {
    const list = el("ol", { class: "review-doubts", "aria-label": "Numbers to check" });
    doc.numbers.forEach((number, at) => {
      if (!doubtful.has(where(number))) return;
      const others = (number.alternatives || []).filter((v) => v !== null).slice(0, 3);
      list.append(
        el("li", {},
          el("button", { type: "button", text: `${where(number)}: ${show_(number.read)}${others.length ? ` (or ${others.join(", ")})` : ""}`, onclick: () => startEdit(at) })),
      );
    });
    parts.push(el("h3", { text: "To check" }), list);
  }
  if (doc.numbers.some((n) => n.clue)) parts.push(lineEditor(doc));
  parts.push(el("details", {}, el("summary", { text: "As text" }), el("pre", { class: "review-text", text: doc.text || "" })));
  const title = el("input", { class: "review-title", value: (doc.file || "").replace(/\.[a-z]+$/i, ""), "aria-label": "Title" });
  parts.push(
    el("div", { class: "row review-actions" },
      el("label", {}, "Title ", title),
      el("button", { type: "button", class: "primary review-accept", text: "Accept and open", onclick: () => accept(title.value) }),
    ),
  );
  return parts;
}

// -- whole clue lines (numbers that belong to a clue, not to a cell) ---------------------------
function lineEditor(doc) {
  const lines = [...new Set(doc.numbers.filter((n) => n.clue).map((n) => n.clue))];
  const choice = el("select", { class: "review-line", "aria-label": "Clue" }, lines.map((l) => el("option", { value: l, text: l })));
  const text = el("input", { class: "review-line-text", "aria-label": "Its numbers", placeholder: "e.g. 3 1 2" });
  const fill = () => {
    text.value = doc.numbers
      .filter((n) => n.clue === choice.value && n.read !== null)
      .sort((a, b) => a.index - b.index)
      .map((n) => n.read)
      .join(" ");
  };
  choice.addEventListener("change", fill);
  fill();
  const apply = () => setLine(choice.value, text.value);
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter") apply();
  });
  return el("div", { class: "review-lines" },
    el("h3", { text: "A whole clue" }),
    el("div", { class: "row" }, choice, text, el("button", { type: "button", text: "Set", onclick: apply })));
}

function setLine(clue, text) {
  const values = text.trim() ? text.trim().split(/[\s,]+/).map(Number) : [];
  if (values.some((v) => !Number.isInteger(v) || v < 0)) {
    setStatus(`“${text}” is not a list of numbers`, "error");
    return;
  }
  check((current) => {
    const doc = structuredClone(current);
    const mine = doc.numbers
    .map((n, at) => ({ n, at }))
    .filter(({ n }) => n.clue === clue)
      .sort((a, b) => a.n.index - b.n.index);
    const edits = {};
    mine.forEach(({ at }, k) => {
      edits[at] = k < values.length ? values[k] : null;
    });
    for (let k = mine.length; k < values.length; k += 1) {
      doc.numbers.push({ clue, index: k + 1, read: values[k], confidence: 1, edited: true });
    }
    return { document: doc, edits };
  });
}

// -- editing one number ------------------------------------------------------------------------
function startEdit(at, first = "", keep = false) {
  const overlay = document.querySelector(".review");
  const target = overlay.querySelector(`.review-num[data-at="${at}"]`);
  const number = state.document.numbers[at];
  overlay.querySelector(".review-edit")?.remove();
  state.editing = at;
  const input = el("input", {
    class: "review-edit",
    inputmode: "numeric",
    autocomplete: "off",
    "aria-label": `${where(number)}: the right number (empty: none)`,
    value: keep ? first ?? "" : first || (number.read === null ? "" : show_(number.read)),
  });
  if (target) {
    input.style.cssText = target.style.cssText;
    target.after(input);
  } else {
    overlay.querySelector(".review-stage").append(input);
  }
  input.focus();
  if (!first) input.select();
  else if (keep) input.setSelectionRange(first.length, first.length);
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      const next = event.key === "Tab" ? (event.shiftKey ? -1 : 1) : 0;
      commit(at, input.value, next);
    } else if (event.key === "Escape") {
      event.preventDefault();
      input.remove();
      state.editing = null;
      target?.focus();
    }
  });
  input.addEventListener("blur", () => {
    if (state.editing === at && input.isConnected) commit(at, input.value, 0);
  });
}

function parseValue(text) {
  const value = text.trim();
  if (!value || value === "·" || value === ".") return null;
  const alphabet = state.document.genre_data?.alphabet;
  if (alphabet) {
    const at = alphabet.indexOf(value.toUpperCase());
    return value.length === 1 && at >= 0 ? at + 1 : undefined;
  }
  const number = Number(value);
  return Number.isInteger(number) && number >= 0 ? number : undefined;
}

function commit(at, text, step) {
  state.editing = null; // first: removing the field makes it lose focus
  document.querySelector(".review-edit")?.remove();
  const value = parseValue(text);
  if (value === undefined) {
    setStatus(`“${text}” is not a number`, "error");
    return;
  }
  const number = state.document.numbers[at];
  const next = step ? neighbour(at, step) : null;
  if (value !== number.read || !number.edited) check(edit(at, value), next ?? at);
  if (next !== null) startEdit(next);
}

function neighbour(at, step) {
  const count = state.document.numbers.length;
  for (let k = 1; k <= count; k += 1) {
    const other = (at + step * k + count * k) % count;
    if (state.document.numbers[other].box) return other;
  }
  return null;
}

function addAt(event, stage) {
  // A click inside the grid where no number was read adds one to that cell (for puzzles whose
  // numbers sit in cells): the cell is found from the grid's corners.
  const doc = state.document;
  if (!doc || !doc.grid || doc.grid.length !== 4 || doc.numbers.some((n) => n.clue)) return;
  const rect = stage.getBoundingClientRect();
  const [width, height] = doc.picture_size;
  const x = ((event.clientX - rect.left) / rect.width) * width;
  const y = ((event.clientY - rect.top) / rect.height) * height;
  let best = null;
  for (let r = 0; r < doc.height; r += 1) {
    for (let c = 0; c < doc.width; c += 1) {
      const [cx, cy] = cellPoint(doc, (c + 0.5) / doc.width, (r + 0.5) / doc.height);
      const distance = (cx - x) ** 2 + (cy - y) ** 2;
      if (!best || distance < best.distance) best = { r, c, distance };
    }
  }
  if (!best) return;
  const cell = `r${best.r + 1}c${best.c + 1}`;
  const existing = doc.numbers.findIndex((n) => n.cell === cell);
  if (existing >= 0) {
    startEdit(existing);
    return;
  }
  const [ax, ay] = cellPoint(doc, (best.c + 0.15) / doc.width, (best.r + 0.15) / doc.height);
  const [bx, by] = cellPoint(doc, (best.c + 0.85) / doc.width, (best.r + 0.85) / doc.height);
  const added = structuredClone(doc);
  added.numbers.push({
    cell, row: best.r + 1, col: best.c + 1, read: null, confidence: 1, edited: true,
    box: [Math.round(Math.min(ax, bx)), Math.round(Math.min(ay, by)), Math.round(Math.max(ax, bx)), Math.round(Math.max(ay, by))],
  });
  state.document = added;
  show(added);
  startEdit(added.numbers.length - 1);
}

function cellPoint(doc, u, v) {
  // the point at fractions (u, v) across the grid, between its four corners
  const [tl, tr, br, bl] = doc.grid;
  const top = [tl[0] + (tr[0] - tl[0]) * u, tl[1] + (tr[1] - tl[1]) * u];
  const bottom = [bl[0] + (br[0] - bl[0]) * u, bl[1] + (br[1] - bl[1]) * u];
  return [top[0] + (bottom[0] - top[0]) * v, top[1] + (bottom[1] - top[1]) * v];
}

function check(request, focusAt = null) {
  // One call at a time, each made from the answer to the last (`request(document)` gives
  // the document to send and the edits), so that quick edits all count.
  state.pending += 1;
  setStatus("Checking…", "busy");
  state.queue = state.queue
    .then(async () => {
      const { document: sent, edits } = request(state.document);
      const answer = await post("/api/pictures/check", JSON.stringify({ document: sent, edits }), "application/json");
      const editing = state.editing;
      const typed = document.querySelector(".review-edit")?.value;
      state.editing = null; // the redraw removes the field: that is not the user leaving it
      show(answer);
      if (editing !== null) startEdit(editing, typed, true);
      else if (focusAt !== null) document.querySelector(`.review-num[data-at="${focusAt}"]`)?.focus();
    })
    .catch((error) => setStatus(error.message, "error"))
    .finally(() => {
      state.pending -= 1;
    });
}

function edit(at, value) {
  return (current) => ({ document: current, edits: { [at]: value } });
}

function onKey(event) {
  event.stopPropagation(); // the page below must not play the keys typed here
  if (event.key === "Escape" && state.editing === null) {
    closeOverlay();
    return;
  }
  const target = event.target;
  if (!target.classList?.contains("review-num")) return;
  const at = Number(target.dataset.at);
  if (event.key === "Enter" || event.key === "F2") {
    event.preventDefault();
    startEdit(at);
  } else if (/^[0-9A-Za-z]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    startEdit(at, event.key);
  } else if (event.key === "Delete" || event.key === "Backspace") {
    event.preventDefault();
    check(edit(at, null), at);
  }
}

// -- accepting ---------------------------------------------------------------------------------
async function accept(title) {
  const doc = state.document;
  if (!doc || !doc.text) return;
  await state.queue;
  const verdict = doc.verdict || {};
  if (!verdict.consistent && !confirm(`The puzzle read does not pass its rules (${(verdict.problems || []).join("; ") || "not checked"}). Import it anyway?`)) return;
  setStatus("Importing…", "busy");
  try {
    const made = await post(
      "/api/puzzles",
      JSON.stringify({ text: doc.text, genre: doc.genre, title: title || null }),
      "application/json",
    );
    window.location.href = `/play/${made.id}`;
  } catch (error) {
    setStatus(error.message, "error");
  }
}

// -- where pictures come from ------------------------------------------------------------------
function addButtons() {
  const camera = el("input", { type: "file", accept: "image/*", capture: "environment", class: "review-camera", hidden: true });
  const chooser = el("input", { type: "file", accept: PICTURE_TYPES.join(","), class: "review-file", hidden: true });
  const group = el(
    "span",
    { class: "review-buttons", title: "Read a puzzle from a screenshot or a photo (or drop or paste a picture on this page)" },
    el("button", { type: "button", "data-icon": "picture", text: "Picture…", onclick: () => chooser.click() }),
    el("button", { type: "button", class: "review-photo", "data-icon": "camera", text: "Photo", onclick: () => camera.click() }),
    camera,
    chooser,
  );
  applyIcons(group);
  const importFile = document.querySelector("#import-file");
  if (importFile) importFile.closest("label").after(group);
  else {
    const header = document.querySelector("header.top");
    const theme = header?.querySelector("#theme");
    if (theme) theme.before(group);
    else (header || document.body).append(group);
  }
}

function listen() {
  // a picture chosen in any file input of the page (the import box's File too) is read here;
  // the page's own handlers (which read text) never see it; an input marked data-keep-file
  // (the generator's picture field) keeps its picture
  document.addEventListener(
    "change",
    (event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.type !== "file") return;
      if ("keepFile" in input.dataset) return;
      const file = pictureIn(input.files);
      if (!file) return;
      event.stopPropagation();
      lastFile = file;
      openPicture(file);
      input.value = "";
    },
    true,
  );
  document.addEventListener("paste", (event) => {
    const file = pictureIn(event.clipboardData?.items);
    if (!file) return;
    event.preventDefault();
    lastFile = file;
    openPicture(file);
  });
  let depth = 0;
  const hasFiles = (event) => [...(event.dataTransfer?.types || [])].includes("Files");
  document.addEventListener("dragenter", (event) => {
    if (!hasFiles(event)) return;
    depth += 1;
    document.body.classList.add("review-dropping");
  });
  document.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) document.body.classList.remove("review-dropping");
  });
  document.addEventListener("dragover", (event) => {
    if (hasFiles(event)) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    depth = 0;
    document.body.classList.remove("review-dropping");
    const file = pictureIn(event.dataTransfer?.files);
    if (!file) return;
    event.preventDefault();
    lastFile = file;
    openPicture(file);
  });
}

async function start() {
  try {
    const answer = await (await fetch("/api/pictures")).json();
    state.genres = answer.genres || [];
  } catch {
    state.genres = [];
  }
  const here = window.location.pathname.replace(/^\/+|\/+$/g, "");
  state.pageGenre = state.genres.some((g) => g.name === here) ? here : null;
  if (window.location.pathname !== "/" && !state.pageGenre) return; // a page without puzzles to read
  addButtons();
  listen();
  document.body.dataset.pictures = "ready";
}

start();
