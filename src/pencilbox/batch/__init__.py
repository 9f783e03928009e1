"""`pencilbox batch`: solve, grade, check or generate many puzzles, on this machine's cores or
on a Dask cluster, into a JSON Lines (or Parquet) file that survives interruptions.

    pencilbox batch solve PATH... --out results.jsonl [--time-limit S] [--limit N] [--steps]
    pencilbox batch grade PATH... --out grades.jsonl
    pencilbox batch check PATH... --out verdicts.jsonl
    pencilbox batch generate GENRE --count N [--seed S] [--OPTION V ...] --out puzzles.jsonl

The records are the objects that `solve --jsonl`, `grade --jsonl` and `generate --json` print,
each with its `file` and `line` (or `seed`) and a `status`. The layers:

    command.py    the sub-commands' options, and the run: items -> chunks -> executor -> journal
    chunks.py     chunk sizes: about a second of work a task, from the first items' times
    work.py       what a worker does with a chunk (all a remote worker needs)
    executors.py  the local process pool (default) and Dask (--scheduler)
    journal.py    the output file: appended and fsync'ed per chunk, resumed, Parquet at the end
    progress.py   the progress bar and the final summary
"""

from pencilbox.batch.command import add_parser

__all__ = ["add_parser"]
