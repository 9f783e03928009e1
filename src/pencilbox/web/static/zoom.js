// A board that fits the screen: the page's board is drawn at its natural size and shown
// scaled down to fit the space left for it (the width of the page, the height of the window
// below the board's top, above a bottom toolbar). Two fingers pinch to zoom and pan (a single
// finger stays the page's: it plays); Ctrl+wheel zooms and the wheel pans a zoomed board with a
// mouse; the +, - and fit buttons do the same from the keyboard.
import { el } from "/static/common.js";
import { setIcon } from "/static/icons.js";

const MAX_ZOOM = 6; // times the fitted scale, and at least the natural size
const MIN_HEIGHT = 220; // a board is never squeezed below this many pixels of height to fit

export class BoardView {
  /**
   * `board` is the element the page draws into; it is moved into a viewport element that
   * takes its place. `onGesture()` is called when two fingers land: the page drops the
   * stroke the first finger began.
   */
  constructor(board, { onGesture = () => {}, onChange = () => {} } = {}) {
    this.board = board;
    this.onGesture = onGesture;
    this.onChange = onChange;
    this.scale = 1;
    this.fitScale = 1;
    this.x = 0;
    this.y = 0;
    this.touched = false; // the user zoomed: a resize keeps their zoom
    this.gesture = null;
    this.viewport = el("div", { class: "zoom-viewport" });
    board.replaceWith(this.viewport);
    this.stage = el("div", { class: "zoom-stage" });
    this.stage.append(board);
    this.controls = el("div", { class: "zoom-controls", role: "group", "aria-label": "Zoom" },
      this.button("zoomin", "Zoom in", () => this.zoomBy(1.5)),
      this.button("zoomout", "Zoom out", () => this.zoomBy(1 / 1.5)),
      this.button("fit", "Fit the board to the screen", () => this.fit()));
    this.viewport.append(this.stage);
    this.viewport.after(this.controls); // under the board, never over a cell
    this.listen();
    // the room left for the board changes when anything on the page above or below it
    // does (a status line filled in, the controls or a docked toolbar laid out late)
    const watch = new ResizeObserver(() => this.refit());
    watch.observe(board);
    watch.observe(document.body);
    window.addEventListener("resize", () => this.refit());
  }

  button(icon, label, action) {
    const node = el("button", { type: "button", class: "zoom-button", "aria-label": label, title: label, onclick: action });
    setIcon(node, icon);
    return node;
  }

  get zoomed() {
    return this.scale > this.fitScale * 1.01;
  }

  // -- sizes -------------------------------------------------------------------------------
  natural() {
    return { width: this.board.offsetWidth, height: this.board.offsetHeight };
  }

  available() {
    const layout = this.viewport.closest(".layout") || document.body;
    const width = Math.max(120, Math.min(layout.clientWidth, document.documentElement.clientWidth) - 8);
    const top = this.viewport.getBoundingClientRect().top + window.scrollY;
    // a docked toolbar (phones: fixed at the bottom) covers the bottom of the window
    let below = 0;
    for (const bar of document.querySelectorAll(".toolbar.docked")) {
      if (bar.offsetParent !== null && getComputedStyle(bar).position === "fixed") below = bar.offsetHeight;
    }
    const height = Math.max(MIN_HEIGHT, window.innerHeight - top - below - this.controls.offsetHeight - 16);
    return { width, height };
  }

  /** The scale that shows the whole board (never above its natural size). */
  refit() {
    const { width, height } = this.natural();
    if (!width || !height) return;
    const room = this.available();
    // on a touch screen a small board grows a little: bigger targets for fingers
    const most = matchMedia("(pointer: coarse)").matches ? 1.5 : 1;
    this.fitScale = Math.min(most, room.width / width, room.height / height);
    if (!this.touched || this.scale < this.fitScale) this.scale = this.fitScale;
    this.apply();
  }

  fit() {
    this.touched = false;
    this.x = 0;
    this.y = 0;
    this.refit();
  }

  zoomBy(factor, cx, cy) {
    const box = this.viewport.getBoundingClientRect();
    this.zoomTo(this.scale * factor, cx ?? box.width / 2, cy ?? box.height / 2);
  }

  /** Zoom to `scale` keeping the board point under (cx, cy) of the viewport where it is. */
  zoomTo(scale, cx, cy) {
    const next = Math.max(this.fitScale, Math.min(this.maxScale(), scale));
    const bx = (cx - this.x) / this.scale, by = (cy - this.y) / this.scale;
    this.scale = next;
    this.x = cx - bx * next;
    this.y = cy - by * next;
    this.touched = true;
    this.apply();
  }

  maxScale() {
    return Math.max(1, this.fitScale * MAX_ZOOM);
  }

  panBy(dx, dy) {
    this.x += dx;
    this.y += dy;
    this.apply();
  }

  /** Size the viewport, keep the board covering it, draw the transform. */
  apply() {
    const { width, height } = this.natural();
    const room = this.available();
    const shownW = width * this.scale, shownH = height * this.scale;
    const viewW = Math.min(room.width, shownW), viewH = Math.min(room.height, shownH);
    this.x = Math.min(0, Math.max(viewW - shownW, this.x));
    this.y = Math.min(0, Math.max(viewH - shownH, this.y));
    this.viewport.style.width = `${Math.ceil(viewW)}px`;
    this.viewport.style.height = `${Math.ceil(viewH)}px`;
    this.stage.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
    this.viewport.classList.toggle("zoomed", this.zoomed);
    this.controls.classList.toggle("zoomed", this.zoomed);
    this.viewport.dataset.scale = this.scale.toFixed(3);
    this.onChange(this);
  }

  // -- fingers, wheel ----------------------------------------------------------------------
  listen() {
    const vp = this.viewport;
    const local = (touch) => {
      const box = vp.getBoundingClientRect();
      return { x: touch.clientX - box.left, y: touch.clientY - box.top };
    };
    const two = (event) => {
      const a = local(event.touches[0]), b = local(event.touches[1]);
      return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) || 1 };
    };
    vp.addEventListener("touchstart", (event) => {
      if (event.touches.length < 2) return;
      event.preventDefault();
      if (!this.gesture) this.onGesture();
      this.gesture = { start: two(event), scale: this.scale, x: this.x, y: this.y };
    }, { passive: false });
    vp.addEventListener("touchmove", (event) => {
      if (!this.gesture || event.touches.length < 2) return;
      event.preventDefault();
      const now = two(event), { start } = this.gesture;
      // the board point under the fingers' first midpoint follows their midpoint
      const scale = Math.max(this.fitScale, Math.min(this.maxScale(), this.gesture.scale * (now.d / start.d)));
      const bx = (start.x - this.gesture.x) / this.gesture.scale, by = (start.y - this.gesture.y) / this.gesture.scale;
      this.scale = scale;
      this.x = now.x - bx * scale;
      this.y = now.y - by * scale;
      this.touched = true;
      this.apply();
    }, { passive: false });
    const end = (event) => {
      if (this.gesture && event.touches.length === 0) this.gesture = null;
    };
    vp.addEventListener("touchend", end);
    vp.addEventListener("touchcancel", end);
    vp.addEventListener("wheel", (event) => {
      const box = vp.getBoundingClientRect();
      if (event.ctrlKey) {
        event.preventDefault();
        this.zoomBy(Math.exp(-event.deltaY / 300), event.clientX - box.left, event.clientY - box.top);
      } else if (this.zoomed) {
        event.preventDefault();
        this.panBy(-event.deltaX, -event.deltaY);
      }
    }, { passive: false });
  }

  /** Whether two fingers are zooming now (a page ignores the board's pointer events then). */
  get gesturing() {
    return this.gesture !== null;
  }

  /** Bring a board rectangle (a cell the keyboard moved to) into view when zoomed. */
  reveal(node) {
    if (!this.zoomed || !node) return;
    const vp = this.viewport.getBoundingClientRect(), box = node.getBoundingClientRect();
    let dx = 0, dy = 0;
    if (box.left < vp.left) dx = vp.left - box.left + 4;
    else if (box.right > vp.right) dx = vp.right - box.right - 4;
    if (box.top < vp.top) dy = vp.top - box.top + 4;
    else if (box.bottom > vp.bottom) dy = vp.bottom - box.bottom - 4;
    if (dx || dy) this.panBy(dx, dy);
  }
}
