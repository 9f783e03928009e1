# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The install builds the compiled Sudoku kernel, Double Choco propagator and nonogram engine
# too, so their sources are part of the stamp.
KERNEL := $(wildcard src/pencilbox/genres/sudoku/_kernel*.[ch]) src/pencilbox/genres/dbchoco/_propagator.c \
  src/pencilbox/genres/nonogram/_engine.c
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml uv.lock setup.py $(KERNEL) | cksum | cut -d' ' -f1)

# Dependencies come from the committed lock, uv.lock (hashes included), installed by uv; uv
# itself is locked there too, and bootstrapped at that version with pip.
UV_VERSION := $(shell sed -n '/^name = "uv"$$/{n;s/^version = "\(.*\)"$$/\1/p;}' uv.lock)
EXTRAS := --extra web --extra dev --extra cluster --extra parquet
UV_ENV := UV_PYTHON_DOWNLOADS=never UV_NO_PROGRESS=1
UV := $(UV_ENV) UV_PROJECT_ENVIRONMENT=$(VENV) $(BIN)/uv

.PHONY: run test lint bench bench-colour setup browser poppler clean fuzz fonts model bench-read bench-batch bench-phone \
  bench-web-load lock test-latest soak-tests bench-print model-lines bench-lines

$(STAMP): pyproject.toml uv.lock setup.py $(KERNEL)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/uv --version 2>/dev/null | grep -qx 'uv $(UV_VERSION)' || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check 'uv==$(UV_VERSION)'
	@# Twice: the project builds without isolation, from the locked setuptools the first installs.
	$(UV) sync --frozen --quiet --no-install-project $(EXTRAS)
	$(UV) sync --frozen --quiet $(EXTRAS)
	rm -f $(VENV)/.installed-*
	touch $@

setup: $(STAMP)

# The web app on 127.0.0.1 (PORT=8000 by default; the library lives in the user's data dir).
run: $(STAMP)
	$(BIN)/pencilbox serve --host 127.0.0.1 --port $${PORT:-8000}

lint: $(STAMP)
	$(UV) lock --check
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy

# The suite runs in two processes (pytest-xdist; the machine has two cores), the tests of one
# module together (--dist loadfile: a module's browser and server fixtures start once).
test: lint browser fonts poppler
	$(BIN)/pytest -n $${PYTEST_WORKERS:-2} --dist loadfile

# The lock at the newest versions within pyproject.toml's bounds; fix the code for them in the
# same change (make test).
lock: $(STAMP)
	$(UV) lock --upgrade
	$(MAKE) setup

# Lint and the suite in a throwaway environment of the newest releases within the bounds (not
# the lock): a breaking release shows here before a user meets it. Not part of .ci/run.
LATEST := $(or $(TMPDIR),/tmp)/pencilbox-latest
test-latest: $(STAMP) browser fonts poppler
	rm -rf $(LATEST) && $(PY) -m venv $(LATEST)
	$(UV_ENV) $(BIN)/uv pip install --quiet --python $(LATEST)/bin/python --refresh 'setuptools>=77' wheel
	@# The compiled parts are built in place (src/), from the same sources as for .venv.
	$(UV_ENV) $(BIN)/uv pip install --quiet --python $(LATEST)/bin/python --refresh \
	  --no-build-isolation -e '.[web,dev,cluster,parquet]'
	$(UV_ENV) $(BIN)/uv pip list --python $(LATEST)/bin/python | \
	  grep -iE '^(numpy|opencv-python-headless|mypy|ruff|pytest|onnxruntime|python-sat|fastapi|playwright|uv) '
	$(LATEST)/bin/ruff check src tests bench tools
	$(LATEST)/bin/ruff format --check src tests bench tools
	$(LATEST)/bin/mypy
	$(LATEST)/bin/pytest -n $${PYTEST_WORKERS:-2} --dist loadfile

# The browser, process and timing tests 5 times in a row with two CPU hogs beside them: any
# failure is a flaky test (tools/soak.py; SOAK_ROUNDS=N, SOAK_HOGS=N to change).
soak-tests: $(STAMP) browser fonts poppler
	$(BIN)/python -m tools.soak --rounds $${SOAK_ROUNDS:-5} --hogs $${SOAK_HOGS:-2}

# The browser tests drive Debian's chromium; install it when it is missing.
browser:
	@test -x /usr/bin/chromium || { \
	  sudo=$$(test "$$(id -u)" -eq 0 || echo sudo); \
	  $$sudo apt-get update && $$sudo apt-get install -y chromium; }

# The read-back tests of printed pages render them with pdftoppm (Debian's poppler-utils);
# installed when missing, like chromium.
poppler:
	@test -x /usr/bin/pdftoppm || { \
	  sudo=$$(test "$$(id -u)" -eq 0 || echo sudo); \
	  $$sudo apt-get update && $$sudo apt-get install -y --no-install-recommends poppler-utils; }

# The fonts that the digit model learns from and the picture corpus draws with (Debian font
# packages, tools/fonts.py lists them); installed when missing, like chromium.
fonts:
	@missing=$$($(PY) tools/fonts.py); \
	if [ -n "$$missing" ]; then \
	  sudo=$$(test "$$(id -u)" -eq 0 || echo sudo); \
	  $$sudo apt-get update && $$sudo apt-get install -y --no-install-recommends $$missing; fi

# The glyph recogniser (src/pencilbox/core/vision/digits*.onnx): trained from fonts by
# tools/train_digits.py with the CPU build of torch, which only this target installs.
model: $(STAMP) fonts
	$(BIN)/python -m ensurepip --upgrade > /dev/null
	$(BIN)/python -m pip install --quiet torch==2.13.0 onnx
	$(BIN)/python -m tools.train_digits
	$(MAKE) model-lines

# The line recogniser (src/pencilbox/core/vision/lines.onnx): whole clue strips read by a small
# CNN + GRU trained with CTC by tools/train_lines.py on one core (about half an hour, niced).
model-lines: $(STAMP) fonts
	$(BIN)/python -m ensurepip --upgrade > /dev/null
	$(BIN)/python -m pip install --quiet torch==2.13.0 onnx
	nice -n 10 $(BIN)/python -m tools.train_lines

# The line recogniser on drawn strips of TRAIN and HELD_OUT fonts and held-out families:
# bench/results/lines.md.
bench-lines: $(STAMP) fonts
	nice -n 10 $(BIN)/python bench/lines.py

# The picture reader on every corpus style and the newspaper photos: bench/results/read.md.
bench-read: $(STAMP) fonts
	$(BIN)/python bench/read.py

# The nonogram benchmark (bench/results/nonogram.md): pencilbox against pbnsolve, built by hand
# outside the repository and named by PENCILBOX_PBNSOLVE=PATH ("not measured" without it), and
# the PyPI peers of bench-peers, puzzle by puzzle in one run.
bench: $(STAMP) bench-peers
	$(BIN)/python bench/nonogram.py

# The peer solvers that bench/nonogram.py compares against, in their own venv (pinned; the
# stamp names the pins, so changing them reinstalls).
bench-peers:
	@stamp=bench/.venv-peers/.installed-picross-solver-1.1.2-puzzlekit-0.3.4; \
	if [ -f $$stamp ]; then echo "bench/.venv-peers is up to date"; else \
	  set -e; \
	  test -x bench/.venv-peers/bin/python || $(PY) -m venv bench/.venv-peers; \
	  bench/.venv-peers/bin/python -m pip install --quiet --upgrade pip; \
	  bench/.venv-peers/bin/python -m pip install --quiet picross-solver==1.1.2 puzzlekit==0.3.4; \
	  rm -f bench/.venv-peers/.installed-*; \
	  touch $$stamp; \
	fi

# The colour nonogram benchmark: writes bench/results/nonogram_colour.md. Its peer, pynogram, is
# not on the package index: give a Python that imports it in PENCILBOX_PYNOGRAM_PYTHON (and
# PYTHONPATH for a checkout), else its columns say "not measured".
bench-colour: $(STAMP)
	$(BIN)/python bench/nonogram_colour.py

# The Sudoku solver and generator benchmark: writes bench/results/sudoku.md. The PyPI peers it
# compares against live in their own venv (pinned; made on first use, ignored by git). tdoku is
# measured when PENCILBOX_TDOKU names a run_benchmark built by hand outside the repository (else
# "not measured").
bench-sudoku: $(STAMP)
	@test -x bench/.venv-peers-sudoku/bin/python || { set -e; \
	  $(PY) -m venv bench/.venv-peers-sudoku; echo '*' > bench/.venv-peers-sudoku/.gitignore; \
	  bench/.venv-peers-sudoku/bin/python -m pip install --quiet \
	    py-sudoku==2.0.0 dlxsudoku==0.10.3 pencilmark==1.0.0rc1; }
	$(BIN)/python bench/sudoku.py

# The Double Choco benchmark: solve + uniqueness per shared puzzle, generation; writes
# bench/results/dbchoco.md.
bench-dbchoco: $(STAMP)
	$(BIN)/python bench/dbchoco.py

# The web app's responsiveness (page load, first animation frame, /api/health under solver
# load) in chromium against `pencilbox serve`; writes bench/results/web.md.
bench-web: $(STAMP) browser
	$(BIN)/python bench/web.py

# The web app on a phone (page weight and load of a 50x50 nonogram, a 25x25 sudoku and the
# Library at 5,000 and 20,000 puzzles; touch timings; the Library API at scale) in chromium:
# writes bench/results/web_phone.md.
bench-phone: $(STAMP) browser
	nice -n 10 $(BIN)/python bench/web_phone.py

# The web app under load, a 200x200 game's history, time limits under load and repeated kill -9
# runs against `pencilbox serve` (niced: it shares the machine); writes bench/results/web_load.md.
bench-web-load: $(STAMP)
	nice -n 10 $(BIN)/python bench/web_load.py --kill-rounds 5

# The long fuzz run: 100,000 inputs over every reader of every genre (the property of
# tests/test_fuzz.py); writes bench/results/fuzz.md and fails if any input raised anything but
# a PuzzleError. FUZZ_INPUTS=N for another count.
fuzz: $(STAMP)
	$(BIN)/python bench/fuzz.py --inputs $${FUZZ_INPUTS:-100000}

# Batch throughput: local pool with 1 and 2 workers vs Dask local:2 (solve, grade, generate);
# writes bench/results/batch.md. BATCH_SCALE=0.1 for a short run.
bench-batch: $(STAMP)
	$(BIN)/python bench/batch.py

# Printing: a 100-puzzle hard sudoku book start to PDF, pages a second, size a puzzle, the
# 50x50 nonogram page; writes bench/results/print.md.
bench-print: $(STAMP) poppler
	nice -n 10 $(BIN)/python bench/print.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build src/pencilbox/genres/sudoku/_kernel*.so \
	  src/pencilbox/genres/dbchoco/_propagator*.so src/pencilbox/genres/nonogram/_engine*.so
