"""Puzzles to a printed document: each puzzle's drawing (through its genre's `draw`) and
caption, laid out on pages (core/pages.py) with its solution where the user wants it, and the
PDF (core/pdf.py). A book adds a cover with its contents. Shared by `pencilbox print`,
`pencilbox book` and the web app's Print, which all go through `document`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from pencilbox.core import pages
from pencilbox.core.drawing import PrintStyle
from pencilbox.core.pages import Figure, Notice, Sheet, Words
from pencilbox.errors import PuzzleError
from pencilbox.genres import base

SolutionsAt = Literal["none", "upside-down", "after", "back"]
SOLUTIONS: tuple[SolutionsAt, ...] = ("none", "upside-down", "after", "back")


@dataclass(frozen=True)
class Entry:
    """One puzzle to print: `state` what to draw in it (None: empty; a game's state), its
    `solution` (the renderer's state; None: none printed), and what its caption says."""

    puzzle: Any
    number: int
    grade: str | None = None
    state: Any = None
    solution: Any = None
    note: str = ""
    """Said after the caption ("as played")."""
    title: str | None = None
    """The caption's title when not the puzzle's own (a library's name for it)."""

    def caption(self) -> str:
        genre = base.get(self.puzzle.genre)
        name = genre.title or genre.name.capitalize()
        width, height = base.dimensions(self.puzzle)
        size = f" {width}\u00d7{height}" if width else ""
        grade = f" \u00b7 {self.grade}" if self.grade else ""
        named = self.title or self.puzzle.title
        title = f" \u2014 {named}" if named else ""
        note = f" ({self.note})" if self.note else ""
        return f"{self.number}. {name}{size}{grade}{title}{note}"


@dataclass(frozen=True)
class Options:
    page: str = "a4"
    per_page: int | None = None
    solutions: SolutionsAt = "back"
    title: str | None = None
    style: PrintStyle = field(default_factory=PrintStyle)


@dataclass(frozen=True)
class Section:
    """A part of a book: its heading on the contents page and its puzzles."""

    heading: str
    entries: list[Entry]


@dataclass
class Printed:
    pdf: bytes
    pages: int
    notices: list[Notice]


def draw(entry: Entry, options: Options, solution: bool = False) -> Figure:
    genre = base.get(entry.puzzle.genre)
    if genre.draw is None:
        raise PuzzleError(f"the {genre.name} genre does not print yet")
    state = entry.solution if solution else entry.state
    drawing = genre.draw(entry.puzzle, state, options.style)
    caption = f"{entry.number}. solution" if solution else entry.caption()
    return Figure(drawing, caption)


def document(sections: list[Section], options: Options, *, cover: bool = False) -> Printed:
    """The PDF of the sections' puzzles, with their solutions as `options.solutions` says; a
    book (`cover`) opens with its title and contents."""
    if options.page not in pages.PAPER_MM:
        raise PuzzleError(
            f"unknown page size {options.page!r}; choose one of a4, a3, letter, tabloid"
        )
    layout = _Layout(options)
    starts = []
    for section in sections:
        starts.append(len(layout.sheets))
        layout.puzzles(section.entries)
    solutions_start = len(layout.sheets)
    if options.solutions == "back":
        layout.solutions([e for s in sections for e in s.entries if e.solution is not None])
    if cover:
        layout.cover(sections, starts, solutions_start)
    layout.number_pages()
    size = pages.paper(options.page)
    from pencilbox.core import pdf

    data = pdf.render(layout.sheets, size, options.style, options.title or "pencilbox puzzles")
    return Printed(data, len(layout.sheets), layout.notices)


class _Layout:
    def __init__(self, options: Options) -> None:
        self.options = options
        self.sheets: list[Sheet] = []
        self.notices: list[Notice] = []
        self.area = pages.body(options.page, header=bool(options.title))

    def _sheet(self) -> Sheet:
        sheet = Sheet()
        if self.options.title:
            sheet.words.append(
                Words(
                    pages.MARGIN,
                    pages.MARGIN + pages.HEADER_PT,
                    self.options.title,
                    pages.HEADER_PT,
                    bold=True,
                )
            )
        self.sheets.append(sheet)
        return sheet

    def puzzles(self, entries: list[Entry]) -> None:
        area, band = self.area, None
        upside_down = self.options.solutions == "upside-down"
        if upside_down:
            share = pages.UPSIDE_DOWN_SHARE * area.height
            band = pages.Area(area.x, area.y + area.height - share, area.width, share)
            area = pages.Area(area.x, area.y, area.width, area.height - share - pages.GUTTER)
        figures = [draw(entry, self.options) for entry in entries]
        chunks = pages.paginate(figures, area, self.options.per_page)
        start = 0
        for chunk in chunks:
            mine = entries[start : start + len(chunk)]
            start += len(chunk)
            placed = pages.place(chunk, area, pages.MAX_CELL)
            self.notices += pages.notices(placed, self.options.page)
            sheet = self._sheet()
            sheet.placed += placed
            solved = [draw(e, self.options, solution=True) for e in mine if e.solution is not None]
            if solved and band is not None:
                sheet.placed += pages.place(solved, band, pages.SOLUTION_MAX, upside_down=True)
            elif solved and self.options.solutions == "after":
                self._sheet().placed += pages.place(solved, area, pages.MAX_CELL)

    def solutions(self, entries: list[Entry]) -> None:
        if not entries:
            return
        area = pages.Area(
            self.area.x,
            self.area.y + 2 * pages.HEADER_PT,
            self.area.width,
            self.area.height - 2 * pages.HEADER_PT,
        )
        figures = [draw(entry, self.options, solution=True) for entry in entries]
        chunks = pages.paginate(
            figures,
            area,
            None,
            target=pages.SOLUTION_CELL,
            largest=pages.SOLUTION_MAX,
            most=pages.MOST_SOLUTIONS_A_PAGE,
        )
        for index, chunk in enumerate(chunks):
            sheet = self._sheet()
            heading = "Solutions" if index == 0 else "Solutions (continued)"
            sheet.words.append(Words(area.x, area.y - pages.HEADER_PT, heading, 14, bold=True))
            sheet.placed += pages.place(chunk, area, pages.SOLUTION_MAX)

    def cover(self, sections: list[Section], starts: list[int], solutions_start: int) -> None:
        """The first page: the title and, per section, its puzzles, their count per grade and
        the page they start on (pages counted with the cover)."""
        width, _ = pages.paper(self.options.page)
        sheet = Sheet()
        y = pages.MARGIN + 60 * pages.MM
        title = self.options.title or "Puzzles"
        sheet.words.append(Words(width / 2, y, title, 26, bold=True, align="centre"))
        y += 30 * pages.MM
        sheet.words.append(Words(pages.MARGIN + 20 * pages.MM, y, "Contents", 16, bold=True))
        for section, start in zip(sections, starts):
            y += 12 * pages.MM
            numbers = [e.number for e in section.entries]
            span = f"puzzles {min(numbers)}\u2013{max(numbers)}" if len(numbers) > 1 else ""
            span = span or (f"puzzle {numbers[0]}" if numbers else "no puzzles")
            line = f"{section.heading}: {span}, page {start + 2}"
            sheet.words.append(Words(pages.MARGIN + 20 * pages.MM, y, line, 12))
            counts = Counter(e.grade or "ungraded" for e in section.entries)
            grades = ", ".join(f"{grade} {count}" for grade, count in counts.items())
            sheet.words.append(Words(pages.MARGIN + 26 * pages.MM, y + 6 * pages.MM, grades, 10))
        if self.options.solutions == "back" and solutions_start < len(self.sheets):
            y += 16 * pages.MM
            line = f"Solutions: page {solutions_start + 2}"
            sheet.words.append(Words(pages.MARGIN + 20 * pages.MM, y, line, 12))
        self.sheets.insert(0, sheet)

    def number_pages(self) -> None:
        width, height = pages.paper(self.options.page)
        total = len(self.sheets)
        for number, sheet in enumerate(self.sheets, start=1):
            text = f"page {number} of {total}"
            at = height - pages.MARGIN
            sheet.words.append(Words(width / 2, at, text, pages.FOOTER_PT, align="centre"))
