// The controls' icons, drawn as inline SVG so that every glyph is in the page itself (a font
// may lack ⏸ or ↶: a phone without it shows an empty box). A control names its icon with
// data-icon="name"; applyIcons() puts the drawing in front of its label. Each icon is a list
// of SVG elements on a 24x24 grid, stroked with the text colour (`fill` ones are filled).

const SVG = "http://www.w3.org/2000/svg";

const ICONS = {
  undo: [["path", { d: "M9 14 4 9l5-5" }], ["path", { d: "M4 9h10a6 6 0 0 1 0 12h-3" }]],
  redo: [["path", { d: "m15 14 5-5-5-5" }], ["path", { d: "M20 9H10a6 6 0 0 0 0 12h3" }]],
  reset: [["path", { d: "M3 12a9 9 0 1 0 3-6.7" }], ["path", { d: "M3 3v6h6" }]],
  hint: [["path", { d: "M9 18h6M10 21h4" }], ["path", { d: "M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z" }]],
  check: [["path", { d: "m4 12 5 5L20 6" }]],
  solve: [["path", { d: "m4 20 11-11" }], ["path", { d: "m13 7 4 4" }], ["path", { d: "M18 2v4M16 4h4M6 3v3M4.5 4.5h3M20 14v3M18.5 15.5h3" }]],
  animate: [["circle", { cx: 12, cy: 12, r: 9 }], ["path", { d: "M10 8.5v7l6-3.5z", fill: true }]],
  step: [["path", { d: "M4 6h10M4 12h16M4 18h7" }], ["path", { d: "m17 15 3 3-3 3" }]],
  play: [["path", { d: "M7 4v16l13-8z", fill: true }]],
  pause: [["rect", { x: 6, y: 4, width: 4, height: 16, fill: true }], ["rect", { x: 14, y: 4, width: 4, height: 16, fill: true }]],
  first: [["path", { d: "M5 5v14" }], ["path", { d: "M19 5v14L8 12z", fill: true }]],
  last: [["path", { d: "M19 5v14" }], ["path", { d: "M5 5v14l11-7z", fill: true }]],
  back: [["path", { d: "m15 5-7 7 7 7" }]],
  forward: [["path", { d: "m9 5 7 7-7 7" }]],
  close: [["path", { d: "M6 6l12 12M18 6 6 18" }]],
  fill: [["rect", { x: 4, y: 4, width: 16, height: 16, rx: 1.5, fill: true }]],
  cross: [["path", { d: "M5 5l14 14M19 5 5 19" }]],
  share: [["circle", { cx: 18, cy: 5, r: 2.5 }], ["circle", { cx: 6, cy: 12, r: 2.5 }], ["circle", { cx: 18, cy: 19, r: 2.5 }], ["path", { d: "m8.2 10.8 7.6-4.6M8.2 13.2l7.6 4.6" }]],
  print: [["path", { d: "M7 9V3h10v6" }], ["rect", { x: 3, y: 9, width: 18, height: 8, rx: 1 }], ["path", { d: "M7 14h10v7H7z" }]],
  export: [["path", { d: "M12 3v12" }], ["path", { d: "m7 10 5 5 5-5" }], ["path", { d: "M4 19h16" }]],
  import: [["path", { d: "M12 15V3" }], ["path", { d: "m7 8 5-5 5 5" }], ["path", { d: "M4 19h16" }]],
  moon: [["path", { d: "M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z" }]],
  sun: [["circle", { cx: 12, cy: 12, r: 4 }], ["path", { d: "M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1" }]],
  pencil: [["path", { d: "M4 20h4L19 9l-4-4L4 16z" }], ["path", { d: "m13 7 4 4" }]],
  library: [["path", { d: "M19 12H5" }], ["path", { d: "m11 6-6 6 6 6" }]],
  clock: [["circle", { cx: 12, cy: 13, r: 8 }], ["path", { d: "M12 9v4l3 2M9 2h6" }]],
  fit: [["path", { d: "M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" }]],
  zoomin: [["circle", { cx: 11, cy: 11, r: 7 }], ["path", { d: "m16 16 5 5M8 11h6M11 8v6" }]],
  zoomout: [["circle", { cx: 11, cy: 11, r: 7 }], ["path", { d: "m16 16 5 5M8 11h6" }]],
  erase: [["path", { d: "M8 5h12v14H8l-6-7z" }], ["path", { d: "m11 9 6 6M17 9l-6 6" }]],
  trash: [["path", { d: "M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" }]],
  paint: [["rect", { x: 5, y: 5, width: 14, height: 14, rx: 1, fill: true }]],
  camera: [["path", { d: "M3 8h4l2-3h6l2 3h4v11H3z" }], ["circle", { cx: 12, cy: 13, r: 3.5 }]],
  picture: [["rect", { x: 3, y: 4, width: 18, height: 16, rx: 1.5 }], ["circle", { cx: 9, cy: 9, r: 1.5, fill: true }], ["path", { d: "m3 17 5-5 4 4 3-3 6 6" }]],
  number: [["path", { d: "M9 4 7 20M17 4l-2 16M4 9h16M3 15h16" }]],
  search: [["circle", { cx: 11, cy: 11, r: 7 }], ["path", { d: "m16 16 5 5" }]],
  generate: [["rect", { x: 4, y: 4, width: 16, height: 16, rx: 3 }], ["circle", { cx: 9, cy: 9, r: 1.3, fill: true }], ["circle", { cx: 15, cy: 15, r: 1.3, fill: true }], ["circle", { cx: 15, cy: 9, r: 1.3, fill: true }], ["circle", { cx: 9, cy: 15, r: 1.3, fill: true }]],
  load: [["path", { d: "M4 12h12" }], ["path", { d: "m12 7 5 5-5 5" }], ["path", { d: "M20 4v16" }]],
  copy: [["rect", { x: 8, y: 8, width: 12, height: 12, rx: 2 }], ["path", { d: "M16 8V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h3" }]],
  open: [["path", { d: "M7 4v16l13-8z" }]],
  half: [["circle", { cx: 12, cy: 12, r: 8 }], ["path", { d: "M12 4a8 8 0 0 1 0 16z", fill: true }]],
};

export const ICON_NAMES = Object.keys(ICONS);

/** An <svg> element drawing the named icon (hidden from screen readers: the control's label
 * says what it does). */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.dataset.name = name;
  for (const [tag, attrs] of ICONS[name] || ICONS.close) {
    const part = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "fill") part.setAttribute("class", "solid");
      else part.setAttribute(key, String(value));
    }
    svg.append(part);
  }
  return svg;
}

/** Put (or change) the icon in front of a control's label. */
export function setIcon(control, name) {
  control.dataset.icon = name;
  const old = control.querySelector(":scope > svg.icon");
  const drawn = icon(name);
  if (old) old.replaceWith(drawn);
  else control.prepend(drawn);
}

/** Every [data-icon] control under `root` gets its icon; a control whose label is only the
 * icon keeps an aria-label (from its title when it has none). */
export function applyIcons(root = document) {
  for (const control of root.querySelectorAll("[data-icon]")) {
    setIcon(control, control.dataset.icon);
    const label = control.querySelector(".label");
    if (!control.getAttribute("aria-label") && label) control.setAttribute("aria-label", label.textContent.trim());
  }
}
