// The Library page: bundled and saved puzzles per genre; open, delete, import.
import { $, api, el, setMessage, setupTheme } from "/static/common.js";

let genres = [];

async function load() {
  const [genreList, puzzles] = await Promise.all([api("/api/genres"), api("/api/puzzles")]);
  genres = genreList;
  const formatSelect = $("#import-format");
  if (formatSelect.options.length === 1) {
    const seen = new Set();
    for (const genre of genres) {
      for (const format of genre.formats) {
        if (seen.has(format)) continue;
        seen.add(format);
        formatSelect.append(el("option", { value: format, text: format }));
      }
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
  const genreSelect = $("#generate-genre");
  if (genreSelect.options.length !== makers.length) {
    genreSelect.replaceChildren(...makers.map((g) => el("option", { value: g.name, text: g.name })));
    showOptions();
  }
  render(puzzles);
}

// The chosen genre's generator options, one field each, built from the schema the server
// gives (/api/genres: name, kind, help, default, choices, minimum, maximum).
function showOptions() {
  const genre = genres.find((g) => g.name === $("#generate-genre").value);
  const fields = (genre?.options ?? []).map((option) => {
    const title = option.help + (option.default === null ? "" : ` (default ${option.default})`);
    let input;
    if (option.choices.length) {
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
    return el("label", { title }, `${option.name.replaceAll("_", " ")} `, input);
  });
  $("#generate-options").replaceChildren(...fields);
}

// The fields that are filled in, as the generator's options (numbers as numbers).
function readOptions() {
  const options = {};
  for (const input of $("#generate-options").querySelectorAll("[data-option]")) {
    const value = input.value.trim();
    if (!value) continue;
    const numeric = input.dataset.kind === "whole" || input.dataset.kind === "number";
    options[input.dataset.option] = numeric && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  return options;
}

async function generate() {
  const msg = $("#generate-msg");
  try {
    const options = readOptions();
    setMessage(msg, "Generating…");
    const made = await api("/api/generate", { method: "POST", body: { genre: $("#generate-genre").value, options } });
    setMessage(msg, `Made “${made.title}”.`, "ok");
    await load();
  } catch (error) {
    setMessage(msg, error.message, "error");
  }
}

function render(puzzles) {
  const root = $("#library");
  root.replaceChildren();
  const byGenre = new Map();
  for (const puzzle of puzzles) {
    if (!byGenre.has(puzzle.genre)) byGenre.set(puzzle.genre, []);
    byGenre.get(puzzle.genre).push(puzzle);
  }
  if (!puzzles.length) root.append(el("p", { class: "msg", text: "The library is empty: import a puzzle above." }));
  for (const [genre, list] of byGenre) {
    const info = genres.find((g) => g.name === genre);
    root.append(
      el("h2", { text: `${genre[0].toUpperCase()}${genre.slice(1)} (${list.length})` }),
      el("div", { class: "cards", "data-genre": genre }, list.map((p) => card(p, info))),
    );
  }
  gradeMissing(puzzles);
}

// Grades are cheap for small puzzles: ask for the missing ones, one at a time, after drawing.
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
  const size = puzzle.width ? `${puzzle.width}×${puzzle.height}` : "";
  const verdict = puzzle.status ? { unique: "unique", multiple: "several solutions", none: "no solution" }[puzzle.status] || puzzle.status : "";
  const grade = puzzle.grade ? `grade ${puzzle.grade}` : "grade not known yet";
  return [size, grade, verdict, puzzle.bundled ? "bundled" : "saved"].filter(Boolean).join(" · ");
}

function card(puzzle, info) {
  const pct = Math.round((puzzle.progress || 0) * 100);
  const page = info && info.page ? `${info.page}?id=${puzzle.id}` : null;
  return el(
    "article",
    { class: "card", "data-id": puzzle.id },
    el("div", { class: "thumb" }, el("img", { src: `/api/puzzles/${puzzle.id}/thumbnail.svg`, alt: `thumbnail of ${puzzle.title}`, loading: "lazy" })),
    el("h3", { text: puzzle.title || `#${puzzle.id}` }),
    el("div", { class: "meta" }, metaText(puzzle)),
    el("div", { class: "progress", title: `${pct}% of the cells marked` }, el("div", { style: `width:${pct}%` })),
    el("div", { class: "meta" }, puzzle.solved ? "✔ solved" : `${pct}% marked`),
    puzzle.credit ? el("div", { class: "credit", text: puzzle.credit }) : null,
    el(
      "div",
      { class: "actions" },
      page ? el("a", { href: page, text: "Open" }) : el("span", { class: "meta", text: "no page for this genre yet" }),
      el("button", { type: "button", class: "delete", text: "Delete", onclick: () => remove(puzzle) }),
    ),
  );
}

async function remove(puzzle) {
  if (!confirm(`Delete “${puzzle.title}” and its saved game?`)) return;
  await api(`/api/puzzles/${puzzle.id}`, { method: "DELETE" });
  await load();
}

async function importPuzzle(text, filename) {
  const msg = $("#import-msg");
  const format = $("#import-format").value || null;
  setMessage(msg, "Importing…");
  try {
    const made = await api("/api/puzzles", { method: "POST", body: { text, format, filename } });
    $("#import-text").value = "";
    await load();
    setMessage(msg, made.new ? `Imported “${made.title}”.` : `Already in the library: “${made.title}”.`, "ok");
    document.querySelector(`.card[data-id="${made.id}"]`)?.scrollIntoView({ block: "nearest" });
  } catch (error) {
    setMessage(msg, error.message, "error");
  }
}

$("#import-button").addEventListener("click", () => importPuzzle($("#import-text").value, null));
$("#import-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  if (file.size > 1_500_000) {
    setMessage($("#import-msg"), `${file.name} is too large (${file.size} bytes)`, "error");
    return;
  }
  importPuzzle(await file.text(), file.name);
  event.target.value = "";
});
$("#generate-button").addEventListener("click", generate);
$("#generate-genre").addEventListener("change", showOptions);
setupTheme($("#theme"));
load().catch((error) => setMessage($("#import-msg"), error.message, "error"));
