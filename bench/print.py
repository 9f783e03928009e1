"""Printing speed and size: `pencilbox book sudoku --count 100 --grade hard` from start to PDF
(the target: under 2 minutes on this 2-core machine), pages a second of the print step alone
(the 100 puzzles again, from a list file, with their solutions at the back), file size a puzzle,
and the 50x50 nonogram page (the target: under 200 KB).

    .venv/bin/python bench/print.py [--count 100] [--grade hard] [--out FILE]

Writes bench/results/print.md. Run it niced; the machine's load average goes in the report.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PENCILBOX = [sys.executable, "-m", "pencilbox.cli"]
LIBRARIES = """\
The PDF library was chosen by a throwaway comparison (not kept in the repository) on this
machine: the same 50x50 nonogram page (102 lines, about 700 clue numbers) and 100 sudoku pages,
lines as vector paths and numbers as text in an embedded TrueType font (DejaVu Sans), best of 3.

| library | 101 pages | file | 50x50 page | install | font |
| --- | ---: | ---: | ---: | --- | --- |
| reportlab 5.1.0 | 0.45 s | 141 KB | 26 KB | pure-Python wheel | its own Vera, embedded |
| fpdf2 2.8.9 | 0.32 s | 92 KB | 8 KB | pure-Python wheel | a TTF from the system or repo |
| pycairo 1.29.2 | 0.05 s | 105 KB | 7 KB | sdist only: builds on libcairo2-dev | fontconfig's |

All three are far inside the budget (the book's time goes to generating puzzles, not to the
PDF) and far under 200 KB a page; reportlab was taken for what a fresh machine needs: one
wheel, and its own font, so a PDF looks the same from any machine.
"""


def run(*args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run([*PENCILBOX, *args], capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"pencilbox {' '.join(args)} failed: {done.stderr}")
    return time.perf_counter() - started, done


def pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    found = re.search(r"^Pages:\s+(\d+)", info.stdout, re.MULTILINE)
    return int(found.group(1)) if found else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--grade", default="hard")
    parser.add_argument("--out", default=str(ROOT / "bench/results/print.md"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        book = work / "book.pdf"
        book_s, _ = run("book", "sudoku", "--count", str(args.count), "--grade", args.grade,
                        "--out", str(book))  # fmt: skip
        book_pages, book_kb = pages(book), book.stat().st_size / 1024
        made = [json.loads(run("generate", "sudoku", "--seed", str(seed), "--json")[1].stdout)
                for seed in range(1, 11)]  # fmt: skip
        listed = work / "list.txt"
        listed.write_text("".join(m["line"] + "\n" for m in made) * (args.count // 10))
        printed = work / "printed.pdf"
        print_s, _ = run("print", str(listed), "--out", str(printed))
        print_pages = pages(printed)
        nonogram = work / "big.txt"  # (the clues notation)
        big = subprocess.run(
            [*PENCILBOX, "generate", "nonogram", "--size", "50", "--seed", "2", "--json"],
            capture_output=True, text=True, check=True, cwd=ROOT,
        )  # fmt: skip
        nonogram.write_text(json.loads(big.stdout)["text"])
        big_pdf = work / "big.pdf"
        big_s, big_run = run("print", str(nonogram), "--out", str(big_pdf), "--solutions", "none")
        big_kb = big_pdf.stat().st_size / 1024
    load = os.getloadavg()[0]
    target = "under" if book_s < 120 else "OVER"
    said = big_run.stderr.strip().splitlines()[0]
    rows = [
        (f"`book sudoku --count {args.count} --grade {args.grade}`, start to PDF",
         f"{book_s:.1f} s ({target} the 2-minute target)"),
        ("its pages (cover, puzzles 6 a page, solutions 12 a page)", str(book_pages)),
        ("its file", f"{book_kb:.0f} KB ({book_kb / args.count:.2f} KB a puzzle and solution)"),
        (f"`print` of {args.count} sudokus from a list (solve, grade, lay out, PDF)",
         f"{print_s:.1f} s, {print_pages} pages, {print_pages / print_s:.1f} pages/s"),
        ("50x50 nonogram page (A4, its clues as text)",
         f"{big_kb:.0f} KB (target under 200 KB), {big_s:.1f} s"),
        ("what `print` said about it", said),
    ]  # fmt: skip
    table = "\n".join(f"| {what} | {figure} |" for what, figure in rows)
    report = f"""# Printing

Machine load average at the start: {load:.1f} (2 cores, shared). `make bench-print`.

| what | figure |
| --- | ---: |
{table}

The book's time is the generation of hard puzzles (on both cores) and their grading; the PDF
itself takes a fraction of a second.

## Choosing the PDF library

{LIBRARIES}"""
    Path(args.out).write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
