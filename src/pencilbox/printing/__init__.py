"""Printing: puzzles and whole graded books as PDF (`pencilbox print`, `pencilbox book`, the web
app's Print button and the library's Print selected).

    document.py  entries (a puzzle, what to draw in it, its solution, its caption) to a PDF:
                 puzzles N a page, solutions upside down, after each page or at the back, a
                 book's cover and contents
    entries.py   a puzzle made ready to print: solved (uniqueness proven) and graded
    book.py      a book's sections (GENRE and options, --genre SPEC, a recipe file), their
                 puzzles generated from consecutive seeds through batch's journal (resumable)
                 and ordered by difficulty
    command.py   the `print` and `book` sub-commands

Each genre draws its own puzzle (`Genre.draw`, into a core/drawing.py Drawing); the page layout
and its legibility rules are core/pages.py, the PDF core/pdf.py.
"""

from pencilbox.printing.command import add_parsers

__all__ = ["add_parsers"]
