// Shared by every page: the API client, the theme toggle and small DOM helpers.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export async function api(path, { method = "GET", body, raw = false } = {}) {
  const options = { method, headers: {} };
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
    button.textContent = effective() === "dark" ? "☀ Light" : "☾ Dark";
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

export function setMessage(node, text, kind = "") {
  node.textContent = text || "";
  node.className = `msg ${kind}`;
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
