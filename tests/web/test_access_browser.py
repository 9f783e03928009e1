"""Every page for every reader, in a real browser: text contrast in both themes (WCAG 2 ratios,
measured on the colours the browser computes), a visible focus ring on every control the
keyboard reaches, an accessible name on every control and cell, no page wider than a phone,
and screenshots at phone, tablet and desktop sizes in light and dark (artifacts/screens/).

Uses the server and browser fixtures of test_browser (one server per module, fresh library).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web import test_browser as shared
from tests.web.conftest import COLOUR_EXAMPLE, WAIT_MS, known_solution
from tests.web.test_phone_browser import ids, open_page, synced

browser = shared.browser
server = shared.server
ARTIFACTS = shared.ARTIFACTS

pytestmark = pytest.mark.browser

PAGES = [
    ("library", None),
    ("nonogram", "seed-a"),
    ("sudoku", "qqwing-easy"),
    ("dbchoco", "robx_pzprjs_01_6x6"),
    ("nonogram", COLOUR_EXAMPLE),  # clue numbers on their colours
]
PAGE_IDS = ["library", "nonogram", "sudoku", "dbchoco", "nonogram-colour"]
SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 768, "height": 1024},
    "desktop": {"width": 1300, "height": 950},
}

# The contrast of every visible text of the page against what is behind it (the background
# colours of its ancestors, composited), as WCAG 2 defines it: 4.5:1, or 3:1 for large text
# (24 px, or 18.66 px bold). Disabled controls are exempt, as in WCAG.
CONTRAST_JS = """() => {
  const parse = (s) => {
    const m = s.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3]))
    .concat([1]);
  const behind = (node) => {
    const layers = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const found = [];
  let checked = 0;
  for (const node of document.querySelectorAll('body *')) {
    const style = getComputedStyle(node);
    if (!node.getClientRects().length || style.visibility !== 'visible') continue;
    if (node.closest('[disabled], .hidden, svg')) continue;
    const text = [...node.childNodes].filter(t => t.nodeType === 3).map(t => t.textContent)
      .join('').trim();
    if (!text) continue;
    const back = behind(node);
    const colour = over(parse(style.color), back);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
    const need = large ? 3 : 4.5;
    const got = ratio(colour, back);
    checked += 1;
    if (got < need) found.push(`${node.tagName}.${node.className} "${text.slice(0, 24)}" `
      + `${got.toFixed(2)} < ${need} (${style.color} on rgb(${back.slice(0, 3).join(',')}))`);
  }
  return {checked, found};
}"""

# Every control a user can reach has a name a screen reader can say.
NAMES_JS = """() => {
  const named = (n) => (n.getAttribute('aria-label') || '').trim()
    || (n.getAttribute('aria-labelledby') || '').split(' ').map(id =>
         document.getElementById(id)?.textContent || '').join('').trim()
    || [...(n.labels || [])].map(l => l.textContent).join('').trim()
    || (n.getAttribute('title') || '').trim()
    || (['BUTTON', 'A', 'SUMMARY'].includes(n.tagName) ? n.textContent.trim() : '')
    || (n.getAttribute('placeholder') || '').trim();
  const controls = [...document.querySelectorAll(
    'button, a[href], input, select, textarea, summary, [role=button], [role=grid], [tabindex]')]
    .filter(n => n.getClientRects().length && n.type !== 'hidden');
  return {count: controls.length,
          nameless: controls.filter(n => !named(n)).map(n => n.outerHTML.slice(0, 90))};
}"""


@pytest.fixture
def context_for(browser: Any) -> Iterator[Any]:
    """Browser contexts of a size and theme; each page checked for JavaScript errors."""
    made: list[tuple[Any, list[str]]] = []

    def make(size: str = "desktop", theme: str = "light") -> Any:
        phone_like = size != "desktop"
        context = browser.new_context(
            viewport=SIZES[size], has_touch=phone_like, is_mobile=phone_like, color_scheme=theme
        )
        errors: list[str] = []
        made.append((context, errors))
        opened = context.new_page()
        opened.set_default_timeout(WAIT_MS)
        opened.on("pageerror", lambda error: errors.append(str(error)))
        return opened

    yield make
    for context, errors in made:
        context.close()
        assert not errors, f"JavaScript errors on the page: {errors}"


def visit(page: Any, server: str, genre: str, title: str | None) -> None:
    if title is None:
        page.goto(f"{server}/")
        page.wait_for_selector(".card img")
    else:
        open_page(page, server, genre, title)


def in_play(page: Any, genre: str, title: str | None) -> None:
    """Bring the page into the states whose colours matter: crossed-off and contradicted clues,
    wrong cells, highlighted digits, broken rules."""
    if genre == "nonogram" and title is not None:
        solution = known_solution(title)
        row = solution[0]
        first_run = row.index(".", row.index("#"))
        for c in range(first_run + 1):
            page.locator(f"#board .cell[data-r='0'][data-c='{c}']").click(
                button="left" if row[c] == "#" else "right"
            )
        page.check("#autocheck")
        start = page.locator("#board .cell[data-r='5'][data-c='0']").bounding_box()
        last = len(row) - 1  # (the first colour of a colour puzzle paints: Take two's black)
        end = page.locator(f"#board .cell[data-r='5'][data-c='{last}']").bounding_box()
        page.mouse.move(start["x"] + 4, start["y"] + 4)
        page.mouse.down()  # row 6 filled by one drag: more than its clue asks for
        page.mouse.move(end["x"] + 4, end["y"] + 4, steps=8)
        page.mouse.up()
        synced(page)
        page.wait_for_selector("#board .rowclue.contra")
        page.wait_for_selector("#board .clue span.done")
        page.wait_for_selector("#board .cell.hl-wrong")
    elif genre == "sudoku":
        digits = page.evaluate("() => window.pencilbox.state")
        given = next(i for i, d in enumerate(digits) if d)
        page.locator(f"#board .cell[data-r='{given // 9}'][data-c='{given % 9}']").click()
        page.wait_for_selector("#board .cell.same")
    elif genre == "dbchoco":
        page.check("#mistakes")
        page.locator("#board").focus()
        page.keyboard.press("Shift+ArrowRight")
        page.keyboard.press("Shift+ArrowDown")
        synced(page)
        page.wait_for_selector("#problems li")


def reset(page: Any, genre: str) -> None:
    if genre != "library":
        page.click("#reset")
        synced(page)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("genre", "title"), PAGES, ids=PAGE_IDS)
def test_text_keeps_its_contrast(
    context_for: Any, server: str, genre: str, title: str | None, theme: str
) -> None:
    page = context_for("desktop", theme)
    visit(page, server, genre, title)
    reset(page, genre)
    in_play(page, genre, title)
    report = page.evaluate(CONTRAST_JS)
    assert report["checked"] >= 20
    assert not report["found"], "\n".join(report["found"])
    reset(page, genre)


@pytest.mark.parametrize(("genre", "title"), PAGES, ids=PAGE_IDS)
def test_every_control_has_a_name_and_a_visible_focus(
    context_for: Any, server: str, genre: str, title: str | None
) -> None:
    page = context_for("desktop", "dark")
    visit(page, server, genre, title)
    names = page.evaluate(NAMES_JS)
    assert names["count"] >= 8
    assert not names["nameless"], names["nameless"]
    if genre != "library":
        cells = page.evaluate(
            "() => [...document.querySelectorAll('#board .cell, #board [role=gridcell]')]"
            ".map(n => n.getAttribute('aria-label') || '')"
        )
        assert all(cells) if cells else page.get_attribute("#board", "aria-label")
    # Tab through the page: every stop draws a ring of 2 px or more, 3:1 against the page
    seen = 0
    for _ in range(25):
        page.keyboard.press("Tab")
        ring = page.evaluate(
            """() => { const n = document.activeElement; if (!n || n === document.body) return null;
            const s = getComputedStyle(n);
            return {tag: n.tagName, id: n.id, width: parseFloat(s.outlineWidth),
                    style: s.outlineStyle, colour: s.outlineColor,
                    shadow: s.boxShadow}; }"""
        )
        if ring is None:
            continue
        seen += 1
        drawn = (ring["style"] != "none" and ring["width"] >= 2) or ring["shadow"] != "none"
        assert drawn, ring
    assert seen >= 10


@pytest.mark.parametrize("size", ["phone", "tablet", "desktop"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screens_fit_and_are_kept(context_for: Any, server: str, size: str, theme: str) -> None:
    page = context_for(size, theme)
    shots = ARTIFACTS / "screens"
    shots.mkdir(parents=True, exist_ok=True)
    ids(server)  # the library is seeded
    for genre, title in PAGES:
        visit(page, server, genre, title)
        page.wait_for_timeout(150)  # thumbnails and fonts settle
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= SIZES[size]["width"], (genre, width)
        path = shots / f"{genre}-{size}-{theme}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 8_000


def tab_to(page: Any, wanted: str, presses: int = 60) -> None:
    """Press Tab until the focused element matches the CSS selector `wanted`."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", wanted):
            return
    raise AssertionError(f"Tab never reached {wanted}")


KEYS = {
    # genre: (title, the keys played on the board, what the game state shows after them)
    "nonogram": ("data148", ["Space", "ArrowRight", "x"], "() => window.pencilbox.state"),
    "sudoku": ("qqwing-easy", [], "() => window.pencilbox.state"),
    "dbchoco": ("robx_pzprjs_01_6x6", ["Shift+ArrowRight"], "() => window.pencilbox.state"),
}


@pytest.mark.parametrize("genre", list(KEYS))
def test_keyboard_only_from_the_library_to_a_move_and_back(
    context_for: Any, server: str, genre: str
) -> None:
    """No mouse: the search box, the card's Open link, the board, a move, the Undo button."""
    title, keys, state_js = KEYS[genre]
    page = context_for("desktop", "light")
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready]")
    tab_to(page, "#search")
    page.keyboard.type(title)
    page.wait_for_function(
        "() => document.querySelector('#library-status').textContent.startsWith('1–1 of 1')"
    )
    tab_to(page, ".card a")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-ready]")
    tab_to(page, "#board")
    before = page.evaluate(state_js)
    if genre == "sudoku":  # walk the cursor to the first empty cell, then type a digit
        empty = before.index(0)
        for _ in range(empty // 9):
            page.keyboard.press("ArrowDown")
        for _ in range(empty % 9):
            page.keyboard.press("ArrowRight")
        keys = ["5"]
    for key in keys:
        page.keyboard.press(key)
    synced(page)
    played = page.evaluate(state_js)
    assert played != before
    tab_to(page, "#undo")
    for _ in keys:
        page.keyboard.press("Enter")
        synced(page)
    assert page.evaluate(state_js) == before


def font_safe(character: str) -> bool:
    """Latin letters and signs, general punctuation (… · – “ ”): in every text font. Symbols
    beyond (dingbats like a check mark, technical signs like a pause bar) may draw as an
    empty box on a phone without them: those are drawn as inline SVG icons instead."""
    code = ord(character)
    return code < 0x250 or 0x2000 <= code <= 0x206F


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/nonogram?id=data148",
        f"/nonogram?id={COLOUR_EXAMPLE}",
        "/sudoku?id=qqwing-easy",
        "/dbchoco?id=robx_pzprjs_01_6x6",
        "/dbchoco?edit",
    ],
)
def test_no_character_a_font_may_lack(context_for: Any, server: str, path: str) -> None:
    page = context_for("phone", "light")
    if "?id=" in path:
        path, title = path.split("?id=")
        path = f"{path}?id={ids(server)[title]}"
    page.goto(f"{server}{path}")
    page.wait_for_selector("body[data-ready]")
    text = page.evaluate(
        "() => document.body.innerText + [...document.querySelectorAll('[title], [aria-label],"
        " [placeholder]')].map(n => (n.title || '') + (n.getAttribute('aria-label') || '')"
        " + (n.getAttribute('placeholder') || '')).join(' ')"
    )
    assert len(text) > 100
    assert not {ch for ch in text if not font_safe(ch)}, text


def luminance(hex_colour: str) -> float:
    value = hex_colour.strip().lstrip("#")
    channels = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ratio(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


MARKS = [
    # (what is drawn, on what): WCAG 1.4.11, 3:1 for the parts of the board and the controls
    ("--filled", "--cell"),
    ("--cross", "--cell"),
    ("--cross", "--wrong"),
    ("--cursor", "--cell"),
    ("--cursor", "--filled"),
    ("--line", "--cell"),
    ("--line-strong", "--cell"),
    ("--bad", "--cell"),
    ("--focus", "--bg"),
    ("--focus", "--panel"),
    ("--accent", "--panel"),
]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_board_marks_and_rings_keep_3_to_1(context_for: Any, server: str, theme: str) -> None:
    page = context_for("desktop", theme)
    visit(page, server, "nonogram", "data148")
    names = sorted({name for pair in MARKS for name in pair})
    colours = page.evaluate(
        "(names) => Object.fromEntries(names.map(n => [n,"
        " getComputedStyle(document.documentElement).getPropertyValue(n).trim()]))",
        names,
    )
    low = {
        f"{mark} on {ground}": round(ratio(colours[mark], colours[ground]), 2)
        for mark, ground in MARKS
    }
    assert not {k: v for k, v in low.items() if v < 3}, low
