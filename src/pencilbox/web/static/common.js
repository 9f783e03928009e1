// Shared by every page: the API client, the theme toggle and small DOM helpers.
import { applyIcons, setIcon } from "/static/icons.js";

export { setIcon };

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

// Every change carries the X-Pencilbox header: the server refuses changes without it or a JSON
// body, which is what keeps other websites (plain forms, "simple" cross-origin requests) out.
export async function api(path, { method = "GET", body, raw = false } = {}) {
  const options = { method, headers: {} };
  if (method !== "GET" && method !== "HEAD") options.headers["X-Pencilbox"] = "1";
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (raw && response.ok) return response;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);

// Theme: "light" / "dark" stored in localStorage; without a choice the system decides.
export function setupTheme(button) {
  const stored = localStorage.getItem("pencilbox-theme");
  if (stored) document.documentElement.dataset.theme = stored;
  const effective = () =>
    document.documentElement.dataset.theme ||
    (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  const label = () => {
    const dark = effective() === "dark";
    setIcon(button, dark ? "sun" : "moon");
    setLabel(button, dark ? "Light" : "Dark");
    button.title = "Switch between light and dark mode";
  };
  button.addEventListener("click", () => {
    const next = effective() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    localStorage.setItem("pencilbox-theme", next);
    label();
  });
  label();
}

/** A control's visible words (beside its icon), and the name a screen reader says. */
export function setLabel(control, text) {
  let label = control.querySelector(":scope > .label");
  if (!label) {
    label = el("span", { class: "label" });
    control.append(label);
  }
  label.textContent = text;
  control.setAttribute("aria-label", text);
}

export function setMessage(node, text, kind = "") {
  node.textContent = text || "";
  node.className = `msg ${kind}`;
}

/** What the server tells about a game (its history was merged at the cap, its save could be
 * read only in part) goes to the page's message line. */
export function showNotice(game, node) {
  if (game && game.notice) setMessage(node, game.notice, "error");
}

/**
 * The server side of one game, shared by every genre page. `page` holds `id`, `pending` (moves
 * on their way) and `queue` (so moves reach the server in the order they were made);
 * `applyGame(game, {force})` redraws from the server's answer, `forget()` drops the hint and
 * marks of the previous move, `onError(error)` shows a message.
 */
export function gameClient(page, { applyGame, forget, onError }) {
  function post(path, body) {
    page.pending++;
    const request = page.queue.then(() => api(path, { method: "POST", body }));
    page.queue = request.catch(() => {});
    return request.finally(() => { page.pending--; });
  }

  async function reload() {
    applyGame(await api(`/api/games/${page.id}`), { force: true });
  }

  async function play(move) {
    forget();
    try {
      applyGame(await post(`/api/games/${page.id}/move`, { move }));
    } catch (error) {
      onError(error);
      await reload();
    }
  }

  async function action(name, body) {
    forget();
    try {
      const answer = await post(`/api/games/${page.id}/${name}`, body);
      applyGame(answer);
      return answer;
    } catch (error) {
      onError(error);
      return null;
    }
  }

  return { post, play, action, reload };
}

// -- the step player ------------------------------------------------------------------------
// One player for every genre's solving trace. The trace is data: the page says how a step
// changes a frame (`apply`), and the player only ever moves forward from a saved frame, so
// seeking backwards gives exactly the earlier state. Steps arrive by server-sent events
// (GET /api/puzzles/{id}/steps/stream), so playback starts at the first step; without that
// endpoint the whole trace comes from GET /api/puzzles/{id}/steps.

const CHECKPOINT = 32; // a saved frame every so many steps: a seek replays at most this many

/**
 * `view` is the page's side:
 *   initial() -> frame        the state before the first step
 *   apply(frame, step)        changes the frame in place
 *   clone(frame) -> frame     an independent copy
 *   draw(frame, step, index)  shows the frame, highlighting `step` (null at the start)
 *   end(frame)                once per run, when the last step is shown and no more will come
 *   closed()                  the player was closed: draw the game again
 * The controls are the page's #player, #p-first, #p-back, #p-play, #p-fwd, #p-last, #p-scrub,
 * #p-pos, #p-close, #p-speed and (optional) #p-note; the sentence goes to `sentence`.
 */
export class StepPlayer {
  constructor(view, sentence) {
    this.view = view;
    this.sentence = sentence;
    this.active = false;
    this.source = null;
    this.timer = null;
    this.bind();
    window.addEventListener("pagehide", () => this.disconnect());
  }

  // -- loading the trace ---------------------------------------------------------------------
  open(puzzleId, { animate = true } = {}) {
    this.close();
    this.active = true;
    this.puzzleId = puzzleId;
    this.steps = [];
    this.complete = false;
    this.ended = false;
    this.jump = !animate; // no animation: go to the end once every step is in
    this.started = performance.now();
    this.firstStepMs = undefined;
    this.frame = this.view.initial();
    this.index = 0;
    this.checkpoints = [this.view.clone(this.frame)];
    $("#player").classList.remove("hidden");
    this.note("receiving steps…");
    this.show();
    if (animate) this.play();
    this.connect();
  }

  connect() {
    const source = new EventSource(`/api/puzzles/${this.puzzleId}/steps/stream`);
    this.source = source;
    source.addEventListener("step", (event) => this.receive([JSON.parse(event.data)]));
    source.addEventListener("done", (event) => {
      const done = JSON.parse(event.data);
      this.disconnect();
      this.finish(done.complete !== false);
    });
    source.addEventListener("error", (event) => {
      this.disconnect();
      if (event.data) {
        // the server's own error event: the solver failed, asking again would not help
        this.fail(JSON.parse(event.data).error || "the solver failed");
      } else if (this.active && !this.complete) {
        // no stream here (404, an old server) or the connection broke: fetch the whole trace
        this.fallback();
      }
    });
  }

  disconnect() {
    if (this.source) this.source.close();
    this.source = null;
  }

  async fallback() {
    const id = this.puzzleId;
    try {
      const trace = await api(`/api/puzzles/${id}/steps`);
      if (!this.active || this.puzzleId !== id) return;
      // the same trace as the stream: keep what arrived, add the rest
      this.receive(trace.steps.slice(this.steps.length));
      this.finish(true);
    } catch (error) {
      if (this.active && this.puzzleId === id) this.fail(error.message);
    }
  }

  receive(steps) {
    if (!this.active || !steps.length) return;
    if (this.firstStepMs === undefined) this.firstStepMs = performance.now() - this.started;
    this.steps.push(...steps);
    this.showPosition();
  }

  finish(complete) {
    this.complete = true;
    this.note(complete ? "" : `the solver stopped early: ${this.steps.length} steps, not the whole solve`);
    if (this.jump) this.seek(this.steps.length);
    this.show();
  }

  fail(message) {
    this.complete = true;
    this.stop();
    this.note(message, "error");
    this.showPosition();
  }

  note(text, kind = "") {
    const node = $("#p-note");
    if (node) setMessage(node, text, kind);
  }

  // -- moving through the trace --------------------------------------------------------------
  forward() {
    if (this.index >= this.steps.length) return false;
    this.view.apply(this.frame, this.steps[this.index]);
    this.index++;
    if (this.index % CHECKPOINT === 0 && !this.checkpoints[this.index / CHECKPOINT]) {
      this.checkpoints[this.index / CHECKPOINT] = this.view.clone(this.frame);
    }
    return true;
  }

  seek(target) {
    target = Math.max(0, Math.min(this.steps.length, target));
    if (target < this.index) {
      // back: from the last saved frame at or before the target (saved on the way forward)
      const k = Math.floor(target / CHECKPOINT);
      this.frame = this.view.clone(this.checkpoints[k]);
      this.index = k * CHECKPOINT;
    }
    while (this.index < target && this.forward());
  }

  show() {
    if (!this.active) return;
    const step = this.steps[this.index - 1] || null;
    this.view.draw(this.frame, step, this.index);
    if (step) setMessage(this.sentence, `${this.index}. ${step.sentence}`);
    else if (!this.steps.length && !this.complete) setMessage(this.sentence, "Solving…");
    else setMessage(this.sentence, "The start: press Play to replay the solving steps.");
    this.showPosition();
    if (this.index === this.steps.length && this.complete) {
      this.stop();
      if (!this.ended) {
        this.ended = true;
        this.view.end(this.frame);
      }
    }
  }

  showPosition() {
    const total = this.steps.length;
    $("#p-scrub").max = String(total);
    $("#p-scrub").value = String(this.index);
    // "…" while steps are still arriving: the total will grow
    $("#p-pos").textContent = `${this.index} / ${total}${this.complete ? "" : "…"}`;
  }

  // -- playing ---------------------------------------------------------------------------------
  delay() {
    return 1000 / Number($("#p-speed").value || 10);
  }

  play() {
    this.stop();
    if (this.complete && this.index >= this.steps.length) this.seek(0);
    setIcon($("#p-play"), "pause");
    setLabel($("#p-play"), "Pause");
    const tick = () => {
      if (!this.active || this.timer === null) return;
      // at the last received step, wait for the next one unless the trace is complete
      if (this.forward()) this.show();
      else if (this.complete) { this.show(); return; }
      if (this.timer !== null) this.timer = setTimeout(tick, this.delay());
    };
    this.timer = setTimeout(tick, this.delay());
  }

  stop() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    setIcon($("#p-play"), "play");
    setLabel($("#p-play"), "Play");
  }

  close() {
    if (!this.active) return;
    this.stop();
    this.disconnect();
    this.active = false;
    $("#player").classList.add("hidden");
    this.note("");
    setMessage(this.sentence, "");
    this.view.closed();
  }

  bind() {
    const control = (fn, toEnd = false) => () => {
      if (!this.active) return;
      this.stop();
      // "last" while steps still arrive: the end is where they stop, so the player follows
      // them there (as when opened without animation); any other control ends that
      this.jump = toEnd && !this.complete;
      fn();
      this.show();
    };
    $("#p-first").addEventListener("click", control(() => this.seek(0)));
    $("#p-back").addEventListener("click", control(() => this.seek(this.index - 1)));
    $("#p-fwd").addEventListener("click", control(() => this.forward()));
    $("#p-last").addEventListener("click", control(() => this.seek(this.steps.length), true));
    $("#p-scrub").addEventListener("input", control(() => this.seek(Number($("#p-scrub").value))));
    $("#p-play").addEventListener("click", () => {
      if (!this.active) return;
      if (this.timer !== null) this.stop();
      else this.play();
    });
    $("#p-close").addEventListener("click", () => this.close());
  }
}

// -- export ------------------------------------------------------------------------------------
/**
 * The Export menu: `#export` picks the format (SVG, PNG, then the genre's text formats, added
 * from /api/genres), `#export-state` what to draw (the game, the solution, the empty grid).
 * The file is fetched first so a refusal shows as a message instead of a downloaded error.
 */
export function setupExport(genre, page, onError) {
  setupPrint(genre, page, onError);
  const select = $("#export");
  api("/api/genres").then((genres) => {
    const mine = genres.find((g) => g.name === genre);
    const group = el("optgroup", { label: "Puzzle as text" });
    for (const format of mine ? mine.formats : []) group.append(el("option", { value: format, text: `${format} text` }));
    if (group.children.length) select.append(group);
  }).catch(() => {});
  select.addEventListener("change", async () => {
    const format = select.value;
    select.value = "";
    if (!format || !page.id) return;
    const state = $("#export-state")?.value || "game";
    const name = `${(page.puzzle && page.puzzle.title) || genre}${state === "game" ? "" : `-${state}`}`;
    try {
      const blob = await exportBlob(page.id, format, state);
      download(blob, `${name.replace(/[^\w.-]+/g, "_")}.${format}`);
    } catch (error) {
      onError(error);
    }
  });
}

/** The Print button (`#print`, with `#print-state` and `#print-solution`): this puzzle as a
 * PDF, as far as played or empty, with or without its solution. */
function setupPrint(genre, page, onError) {
  const button = $("#print");
  if (!button) return;
  button.addEventListener("click", async () => {
    if (!page.id) return;
    const state = $("#print-state")?.value || "game";
    const solution = $("#print-solution")?.value || "none";
    const name = `${(page.puzzle && page.puzzle.title) || genre}`.replace(/[^\w.-]+/g, "_");
    button.disabled = true;
    try {
      const path = `/api/puzzles/${page.id}/print?state=${state}&solution=${solution}`;
      download(await (await api(path, { raw: true })).blob(), `${name}.pdf`);
    } catch (error) {
      onError(error);
    } finally {
      button.disabled = false;
    }
  });
}

async function exportBlob(id, format, state) {
  const path = `/api/puzzles/${id}/export?format=${encodeURIComponent(format)}&state=${state}`;
  return await (await api(path, { raw: true })).blob();
}

export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// -- share links ---------------------------------------------------------------------------------
// A share link carries the puzzle itself in the URL fragment (/<genre>#puzzle=…&title=…), so
// it opens on any pencilbox: the page adds it to that library and goes to its id.

export function shareUrl(genre, key, text, title) {
  return `${location.origin}/${genre}#${key}=${encodeURIComponent(text)}&title=${encodeURIComponent(title || "")}`;
}

/** The id of the puzzle in this page's fragment (added to the library), or null. */
// A page opens the puzzle named by `?id=` or carried by a share link; without either it waits
// for input, its toolbar disabled and `idle` as its prompt. `ready` is set either way, so a
// page that failed to open still reports itself loaded.
export async function openFromLocation({ genre, key, format, open, info, sentence, idle }) {
  let id = new URLSearchParams(location.search).get("id");
  if (!id) {
    try {
      id = await openShared(genre, key, format);
    } catch (error) {
      setMessage(info, `The shared puzzle cannot be read: ${error.message}`, "error");
    }
  }
  if (id) {
    try {
      await open(Number(id));
    } catch (error) {
      setMessage(info, error.message, "error");
      document.body.dataset.ready = "1";
    }
    return;
  }
  for (const b of document.querySelectorAll(".toolbar button, .toolbar select")) b.disabled = true;
  setMessage(sentence, idle);
  document.body.dataset.ready = "1";
}

export async function openShared(genre, key, format) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const text = fragment.get(key);
  if (!text) return null;
  const made = await api("/api/puzzles", {
    method: "POST",
    body: { text, format: format || undefined, genre, title: fragment.get("title") || undefined },
  });
  history.replaceState(null, "", `/${genre}?id=${made.id}`);
  return made.id;
}

/** The Share button: shows the link in #share-url and copies it when the clipboard allows. */
export function setupShare(makeUrl, info) {
  $("#share").addEventListener("click", async () => {
    const url = makeUrl();
    if (!url) return;
    $("#share-box").classList.remove("hidden");
    $("#share-url").value = url;
    $("#share-url").select();
    try {
      await navigator.clipboard.writeText(url);
      setMessage(info, "The share link is copied.", "ok");
    } catch {
      setMessage(info, "The share link is below the help text.");
    }
  });
}

// -- the timer ----------------------------------------------------------------------------------
/**
 * Time spent on each game, kept per puzzle in the browser (localStorage) and shown in
 * #clock; #pause stops it and hides the board until pressed again. The clock runs only while
 * the page is visible and the game unsolved.
 */
export class GameTimer {
  constructor(clock = $("#clock"), button = $("#pause")) {
    this.clock = clock;
    this.button = button;
    this.id = null;
    this.ms = 0;
    this.since = null; // performance.now() when the clock last started
    this.paused = false;
    this.solved = false;
    if (!clock || !button) return;
    button.addEventListener("click", () => this.setPaused(!this.paused));
    document.addEventListener("visibilitychange", () => this.sync());
    window.addEventListener("pagehide", () => this.save());
    setInterval(() => this.show(), 1000);
  }

  key() {
    return `pencilbox-timer-${this.id}`;
  }

  open(id, solved) {
    this.save();
    this.id = id;
    let saved = {};
    try {
      saved = JSON.parse(localStorage.getItem(this.key()) || "{}") || {};
    } catch {
      saved = {};
    }
    this.ms = Number(saved.ms) || 0;
    this.since = null;
    this.paused = Boolean(saved.paused);
    this.solved = Boolean(solved);
    this.sync();
  }

  /** The game was solved (the clock stops) or unsolved again (an undo: it goes on). */
  setSolved(solved) {
    if (this.solved === Boolean(solved)) return;
    this.solved = Boolean(solved);
    this.sync();
  }

  setPaused(paused) {
    this.paused = paused;
    this.sync();
  }

  elapsed() {
    return this.ms + (this.since === null ? 0 : performance.now() - this.since);
  }

  running() {
    return this.id !== null && !this.paused && !this.solved && document.visibilityState !== "hidden";
  }

  sync() {
    if (!this.clock) return;
    const run = this.running();
    if (!run && this.since !== null) {
      this.ms = this.elapsed();
      this.since = null;
    } else if (run && this.since === null) {
      this.since = performance.now();
    }
    document.body.classList.toggle("paused", this.paused && this.id !== null);
    setIcon(this.button, this.paused ? "play" : "pause");
    setLabel(this.button, this.paused ? "Resume" : "Pause");
    this.button.setAttribute("aria-pressed", String(this.paused));
    this.save();
    this.show();
  }

  show() {
    if (!this.clock) return;
    const total = Math.floor(this.elapsed() / 1000);
    const h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, s = total % 60;
    const two = (n) => String(n).padStart(2, "0");
    this.clock.textContent = h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
    this.clock.classList.toggle("done", this.solved);
    if (this.running() && total % 5 === 0) this.save();
  }

  save() {
    if (this.id === null) return;
    try {
      localStorage.setItem(this.key(), JSON.stringify({ ms: Math.round(this.elapsed()), paused: this.paused }));
    } catch {
      // storage full or refused: the clock still runs for this visit
    }
  }
}

applyIcons(document);
