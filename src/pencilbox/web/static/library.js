// The Library page: the puzzles of every genre, found by search, filters and sort, one page at
// a time (GET /api/library does the finding, so thousands of puzzles cost one page of cards);
// open, delete, import (several files at once, by the File input or dropped on the page),
// generate, and export of the whole library.
import { $, api, download, el, setMessage, setupTheme } from "/static/common.js";
import { icon } from "/static/icons.js";

let genres = [];
const PAGE_SIZE = 24;
const FILTERS = ["q", "genre", "size", "grade", "state", "sort"];
const SIZE_WORDS = { small: "Small (up to 10)", medium: "Medium (11–20)", large: "Large (21–30)", huge: "Huge (over 30)", unknown: "Other" };
const STATE_WORDS = { new: "Not started", started: "In progress", solved: "Solved" };
const STATUS_WORDS = { unique: "unique", multiple: "several solutions", none: "no solution" };

// What is shown is in the address (?q=…&genre=…&page=2), so a reload, the back button or a
// bookmark shows the same page of the same search.
const view = { q: "", genre: "", size: "", grade: "", state: "", sort: "shelf", page: 1 };

function readAddress() {
  const query = new URLSearchParams(window.location.search);
  for (const key of FILTERS) view[key] = query.get(key) || (key === "sort" ? "shelf" : "");
  view.page = Math.max(1, Number.parseInt(query.get("page") || "1", 10) || 1);
}

function writeAddress() {
  const query = new URLSearchParams();
  for (const key of FILTERS) if (view[key] && !(key === "sort" && view[key] === "shelf")) query.set(key, view[key]);
  if (view.page > 1) query.set("page", String(view.page));
  const search = query.toString();
  history.replaceState(null, "", search ? `?${search}` : window.location.pathname);
}

async function loadGenres() {
  genres = await api("/api/genres");
  const formatSelect = $("#import-format");
  const seen = new Set();
  for (const genre of genres) {
    for (const format of genre.formats) {
      if (seen.has(format)) continue;
      seen.add(format);
      formatSelect.append(el("option", { value: format, text: format }));
    }
  }
  // "New <genre>": one link per genre that has a page of its own.
  $("#new-links").replaceChildren(
    ...genres
      .filter((g) => g.new_page)
      .map((g) => el("a", { href: g.new_page, id: `new-${g.name}` }, `New ${g.title}`)),
  );
  const makers = genres.filter((g) => g.generator);
  $("#generate-panel").classList.toggle("hidden", makers.length === 0);
  $("#generate-genre").replaceChildren(...makers.map((g) => el("option", { value: g.name, text: g.name })));
  showOptions();
}

// -- finding ---------------------------------------------------------------------------------
let asked = 0;
let folded = false;
async function load() {
  const query = new URLSearchParams({ sort: view.sort, offset: String((view.page - 1) * PAGE_SIZE), limit: String(PAGE_SIZE) });
  for (const key of ["q", "genre", "size", "grade", "state"]) if (view[key]) query.set(key, view[key]);
  const mine = ++asked;
  const answer = await api(`/api/library?${query}`);
  if (mine !== asked) return; // a later search has been asked for meanwhile
  const pages = Math.max(1, Math.ceil(answer.total / PAGE_SIZE));
  if (view.page > pages) {
    view.page = pages;
    return load();
  }
  writeAddress();
  if (!folded) {
    // on a phone the import and generate boxes start folded when there is a library to show
    folded = true;
    if (answer.library && matchMedia("(max-width: 820px)").matches) {
      $("#import-panel").open = false;
      $("#generate-panel").open = false;
    }
  }
  fillFilters(answer.counts);
  render(answer);
}

function fillFilters(counts) {
  const fill = (select, first, entries) => {
    const options = [el("option", { value: "", text: first }), ...entries.map(([value, text, n]) => el("option", { value, text: `${text} (${n})` }))];
    if (view[select.dataset.filter] && !entries.some(([value]) => value === view[select.dataset.filter])) {
      options.push(el("option", { value: view[select.dataset.filter], text: `${view[select.dataset.filter]} (0)` }));
    }
    select.replaceChildren(...options);
    select.value = view[select.dataset.filter];
  };
  const title = (name) => genres.find((g) => g.name === name)?.title || name;
  fill($("#filter-genre"), "All genres", Object.entries(counts.genre).map(([g, n]) => [g, title(g), n]));
  fill($("#filter-size"), "All sizes", Object.keys(SIZE_WORDS).filter((s) => counts.size[s]).map((s) => [s, SIZE_WORDS[s], counts.size[s]]));
  fill($("#filter-grade"), "All grades", Object.entries(counts.grade).map(([g, n]) => [g, g === "none" ? "Not graded yet" : g, n]));
  fill($("#filter-state"), "Any progress", Object.keys(STATE_WORDS).filter((s) => counts.state[s]).map((s) => [s, STATE_WORDS[s], counts.state[s]]));
  $("#search").value = view.q;
  $("#sort").value = view.sort;
}

const count = (n) => n.toLocaleString("en");

function render(answer) {
  const root = $("#library");
  const { total, offset, puzzles } = answer;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = ["q", "genre", "size", "grade", "state"].some((key) => view[key]);
  let status;
  if (!answer.library) status = "The library is empty: import a puzzle above.";
  else if (!total) status = "No puzzle matches: clear the search or a filter.";
  else status = `${count(offset + 1)}–${count(offset + puzzles.length)} of ${count(total)} ${filtered ? `matching (library: ${count(answer.library)})` : "puzzles"}`;
  $("#library-status").textContent = status;
  $("#clear-filters").classList.toggle("hidden", !filtered);
  root.replaceChildren(...puzzles.map((p) => card(p, genres.find((g) => g.name === p.genre))));
  for (const pager of document.querySelectorAll(".pager")) {
    pager.classList.toggle("hidden", pages < 2);
    pager.querySelector("[data-go=prev]").disabled = view.page <= 1;
    pager.querySelector("[data-go=next]").disabled = view.page >= pages;
    pager.querySelector(".page-of").textContent = `Page ${view.page} of ${pages}`;
  }
  gradeMissing(puzzles);
}

function go(page) {
  view.page = page;
  load().then(() => $("#library-status").scrollIntoView({ block: "nearest" })).catch(showError);
}

let typing = 0;
function searchSoon() {
  clearTimeout(typing);
  typing = setTimeout(() => {
    view.q = $("#search").value.trim();
    view.page = 1;
    load().catch(showError);
  }, 200);
}

function showError(error) {
  $("#library-status").textContent = error.message;
}

// Grades are cheap for small puzzles: ask for the shown ones that miss it, one at a time.
let grading = false;
async function gradeMissing(puzzles) {
  if (grading) return;
  grading = true;
  try {
    for (const puzzle of puzzles) {
      if (puzzle.status || !puzzle.width || puzzle.width * puzzle.height > 2500) continue;
      const graded = await api(`/api/puzzles/${puzzle.id}/grade`).catch(() => null);
      const meta = document.querySelector(`.card[data-id="${puzzle.id}"] .meta`);
      if (!graded || !meta) continue;
      Object.assign(puzzle, graded);
      meta.textContent = metaText(puzzle);
    }
  } finally {
    grading = false;
  }
}

function metaText(puzzle) {
  const genre = genres.find((g) => g.name === puzzle.genre)?.title || puzzle.genre;
  const size = puzzle.width ? `${puzzle.width}×${puzzle.height}` : "";
  const verdict = STATUS_WORDS[puzzle.status] || puzzle.status || "";
  const grade = puzzle.grade ? `grade ${puzzle.grade}` : "grade not known yet";
  return [genre, size, grade, verdict, puzzle.bundled ? "bundled" : "saved"].filter(Boolean).join(" · ");
}

function card(puzzle, info) {
  const pct = Math.round((puzzle.progress || 0) * 100);
  const page = info && info.page ? `${info.page}?id=${puzzle.id}` : null;
  const title = puzzle.title || `#${puzzle.id}`;
  return el(
    "article",
    { class: "card", "data-id": puzzle.id, "data-genre": puzzle.genre, "aria-label": title },
    el("div", { class: "thumb" }, el("img", { src: `/api/puzzles/${puzzle.id}/thumbnail.svg`, alt: `thumbnail of ${title}`, loading: "lazy", width: 150, height: 150 })),
    el("label", { class: "pick" }, el("input", { type: "checkbox", checked: selected.has(puzzle.id), "aria-label": `Select ${title} to print`, onchange: (event) => pick(puzzle.id, event.target.checked) }), " print"),
    el("h3", { text: title }),
    el("div", { class: "meta" }, metaText(puzzle)),
    el("div", { class: "progress", role: "progressbar", "aria-label": `${title}: cells marked`, "aria-valuenow": pct, "aria-valuemin": 0, "aria-valuemax": 100 }, el("div", { style: `width:${pct}%` })),
    el("div", { class: "meta" }, puzzle.solved ? [icon("check"), " solved"] : `${pct}% marked`),
    puzzle.credit ? el("div", { class: "credit", text: puzzle.credit }) : null,
    el(
      "div",
      { class: "actions" },
      page ? el("a", { href: page, text: "Open", "aria-label": `Open ${title}` }) : el("span", { class: "meta", text: "no page for this genre yet" }),
      el("button", { type: "button", class: "delete", text: "Delete", "aria-label": `Delete ${title}`, onclick: () => remove(puzzle) }),
    ),
  );
}

// -- printing ----------------------------------------------------------------------------------
// The ticked puzzles (kept across pages and searches, in the order ticked) print as one PDF.
const selected = new Set();

function pick(id, on) {
  if (on) selected.add(id);
  else selected.delete(id);
  const button = $("#print-selected");
  button.disabled = selected.size === 0;
  button.querySelector(".label").textContent = selected.size ? `Print selected (${selected.size})` : "Print selected";
}

async function printSelected() {
  const button = $("#print-selected");
  button.disabled = true;
  try {
    const body = { ids: [...selected], solutions: $("#print-solutions").value };
    const answer = await api("/api/print", { method: "POST", body, raw: true });
    download(await answer.blob(), "puzzles.pdf");
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = selected.size === 0;
  }
}

async function remove(puzzle) {
  if (!confirm(`Delete “${puzzle.title}” and its saved game?`)) return;
  await api(`/api/puzzles/${puzzle.id}`, { method: "DELETE" });
  pick(puzzle.id, false);
  await load();
}

// -- generating --------------------------------------------------------------------------------
// The chosen genre's generator options, one field each, built from the schema the server
// gives (/api/genres: name, kind, help, default, choices, minimum, maximum).
function showOptions() {
  const genre = genres.find((g) => g.name === $("#generate-genre").value);
  const fields = (genre?.options ?? []).map((option) => {
    const title = option.help + (option.default === null ? "" : ` (default ${option.default})`);
    let input;
    if (option.kind === "file") {
      // A picture to make the puzzle from: sent as a data: URL (the server never reads paths).
      input = el("input", { type: "file", accept: "image/*", "data-keep-file": "" });
    } else if (option.choices.length) {
      const blank = el("option", { value: "", text: option.default === null ? "any" : `${option.default}` });
      input = el("select", {}, blank, ...option.choices.map((c) => el("option", { value: c, text: c })));
    } else {
      const numeric = option.kind === "whole" || option.kind === "number";
      input = el("input", {
        type: numeric ? "number" : "text",
        step: option.kind === "number" ? "any" : numeric ? "1" : undefined,
        min: option.minimum ?? undefined,
        max: option.maximum ?? undefined,
        placeholder: option.default === null ? "" : `${option.default}`,
        size: numeric ? 6 : 10,
      });
    }
    input.dataset.option = option.name;
    input.dataset.kind = option.kind;
    const label = option.name.replace(/_$/, "").replaceAll("_", " ");
    return el("label", { title }, `${label} `, input);
  });
  $("#generate-options").replaceChildren(...fields);
}

// The fields that are filled in, as the generator's options (numbers as numbers, a chosen
// file as a data: URL).
async function readOptions() {
  const options = {};
  for (const input of $("#generate-options").querySelectorAll("[data-option]")) {
    if (input.dataset.kind === "file") {
      if (input.files.length) options[input.dataset.option] = await dataUrl(input.files[0]);
      continue;
    }
    const value = input.value.trim();
    if (!value) continue;
    const numeric = input.dataset.kind === "whole" || input.dataset.kind === "number";
    options[input.dataset.option] = numeric && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  return options;
}

function dataUrl(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

// Preview: the puzzle is made and its solution shown; it joins the library only when the user
// adds it (its text is imported as it is), and is forgotten on Discard.
let previewed = null;

function describeMade(made) {
  const info = made.generator || {};
  const parts = [`${made.width}×${made.height} ${made.genre}`];
  if (info.grade) parts.push(`grade ${info.grade}`);
  if (info.changed !== undefined) parts.push(`${info.changed} cells changed from the picture`);
  else if (info.fixes !== undefined) parts.push(`${info.fixes} cells changed to make it unique`);
  return parts.join(", ");
}

async function preview() {
  const msg = $("#generate-msg");
  try {
    const options = await readOptions();
    setMessage(msg, "Generating…");
    const made = await api("/api/generate", { method: "POST", body: { genre: $("#generate-genre").value, options, preview: true } });
    previewed = made;
    $("#preview-picture").src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(made.svg)}`;
    $("#preview-picture").alt = `The solution of the ${made.width}×${made.height} ${made.genre} made`;
    setMessage($("#preview-about"), `${describeMade(made)}: add it to the library?`);
    $("#preview-box").classList.remove("hidden");
    setMessage(msg, "");
  } catch (error) {
    setMessage(msg, error.message, "error");
  }
}

async function acceptPreview() {
  if (!previewed) return;
  const msg = $("#generate-msg");
  try {
    const made = await api("/api/puzzles", {
      method: "POST", body: { text: previewed.text, format: previewed.format, genre: previewed.genre, title: previewed.title },
    });
    discardPreview();
    setMessage(msg, made.new ? `Made “${made.title}”.` : `Already in the library: “${made.title}”.`, "ok");
    await showPuzzle(made.id);
  } catch (error) {
    setMessage(msg, error.message, "error");
  }
}

function discardPreview() {
  previewed = null;
  $("#preview-box").classList.add("hidden");
  $("#preview-picture").removeAttribute("src");
}

async function generate() {
  const msg = $("#generate-msg");
  try {
    const options = await readOptions();
    setMessage(msg, "Generating…");
    const made = await api("/api/generate", { method: "POST", body: { genre: $("#generate-genre").value, options } });
    setMessage(msg, `Made “${made.title}”.`, "ok");
    await showPuzzle(made.id);
  } catch (error) {
    setMessage(msg, error.message, "error");
  }
}

// -- importing ---------------------------------------------------------------------------------
// After an import the newest puzzles are shown first, so what was just added is on screen.
async function showPuzzle(id) {
  Object.assign(view, { q: "", genre: "", size: "", grade: "", state: "", sort: "added", page: 1 });
  await load();
  document.querySelector(`.card[data-id="${id}"]`)?.scrollIntoView({ block: "nearest" });
}

async function importText(text, filename) {
  const format = $("#import-format").value || null;
  return api("/api/puzzles", { method: "POST", body: { text, format, filename } });
}

async function importTyped() {
  const msg = $("#import-msg");
  setMessage(msg, "Importing…");
  try {
    const made = await importText($("#import-text").value, null);
    $("#import-text").value = "";
    await showPuzzle(made.id);
    setMessage(msg, made.new ? `Imported “${made.title}”.` : `Already in the library: “${made.title}”.`, "ok");
  } catch (error) {
    setMessage(msg, error.message, "error");
  }
}

const isPicture = (file) => file.type.startsWith("image/");

// Several files at once (the File input takes many, and files dropped on the page): each is
// imported on its own, and the message says how many came in and what failed, by name.
async function importFiles(files) {
  const texts = [...files].filter((file) => !isPicture(file)); // pictures go to the review screen
  if (!texts.length) return;
  const msg = $("#import-msg");
  const added = [];
  const known = [];
  const failed = [];
  for (const [n, file] of texts.entries()) {
    setMessage(msg, `Importing ${n + 1} of ${texts.length}: ${file.name}…`);
    try {
      if (file.size > 1_500_000) throw new Error(`too large (${file.size} bytes)`);
      const made = await importText(await file.text(), file.name);
      (made.new ? added : known).push(made);
    } catch (error) {
      failed.push(`${file.name}: ${error.message}`);
    }
  }
  const last = added.at(-1) || known.at(-1);
  if (last) await showPuzzle(last.id);
  const parts = [];
  if (texts.length === 1 && last) parts.push(last === added[0] ? `Imported “${last.title}”.` : `Already in the library: “${last.title}”.`);
  else {
    if (added.length) parts.push(`Imported ${added.length} puzzle${added.length > 1 ? "s" : ""}.`);
    if (known.length) parts.push(`${known.length} already in the library.`);
  }
  if (failed.length) parts.push(`${failed.length} failed: ${failed.join("; ")}`);
  setMessage(msg, parts.join(" "), failed.length ? "error" : "ok");
}

// -- the page ----------------------------------------------------------------------------------
function listen() {
  $("#import-button").addEventListener("click", importTyped);
  $("#import-file").addEventListener("change", async (event) => {
    const files = [...event.target.files];
    event.target.value = "";
    await importFiles(files);
  });
  document.addEventListener("dragover", (event) => {
    if ([...(event.dataTransfer?.types || [])].includes("Files")) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    const files = [...(event.dataTransfer?.files || [])];
    if (!files.some((file) => !isPicture(file)) || files.some(isPicture)) return; // pictures: review.js
    event.preventDefault();
    importFiles(files);
  });
  $("#generate-button").addEventListener("click", generate);
  $("#generate-preview").addEventListener("click", preview);
  $("#preview-accept").addEventListener("click", acceptPreview);
  $("#preview-discard").addEventListener("click", discardPreview);
  $("#generate-genre").addEventListener("change", showOptions);
  $("#print-selected").addEventListener("click", printSelected);
  $("#search").addEventListener("input", searchSoon);
  $("#search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(typing);
    view.q = $("#search").value.trim();
    view.page = 1;
    load().catch(showError);
  });
  for (const select of document.querySelectorAll("select[data-filter]")) {
    select.addEventListener("change", () => {
      view[select.dataset.filter] = select.value;
      view.page = 1;
      load().catch(showError);
    });
  }
  $("#clear-filters").addEventListener("click", () => {
    Object.assign(view, { q: "", genre: "", size: "", grade: "", state: "", page: 1 });
    load().catch(showError);
  });
  for (const pager of document.querySelectorAll(".pager")) {
    pager.querySelector("[data-go=prev]").addEventListener("click", () => go(view.page - 1));
    pager.querySelector("[data-go=next]").addEventListener("click", () => go(view.page + 1));
  }
  window.addEventListener("popstate", () => {
    readAddress();
    load().catch(showError);
  });
}

listen();
setupTheme($("#theme"));
readAddress();
loadGenres()
  .then(load)
  .then(() => {
    window.pencilbox = { readyMs: performance.now() }; // for tests and benchmarks
    document.body.dataset.ready = "";
  })
  .catch((error) => setMessage($("#import-msg"), error.message, "error"));
