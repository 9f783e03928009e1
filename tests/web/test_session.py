"""The mid-end (moves, history, hints, save/load) and the store, without HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pencilbox
from pencilbox.session import Game, MoveError, apply_move, rules_for, state_text
from pencilbox.store import Store, default_path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def game() -> Game:
    return Game.new(pencilbox.load(EXAMPLES / "jwilk-data148.json"))


def test_moves_are_normalised_and_replayable(game: Game) -> None:
    assert game.play("  r1c3=1   r1c2=1 r1c3=1 ")
    assert game.moves == ["r1c2=1 r1c3=1"]
    assert not game.play("r1c2=1")  # changes nothing: not recorded
    game.play("r2c1=2")
    saved = json.loads(json.dumps(game.to_json()))
    again = Game.from_json(game.puzzle, saved)
    assert again.state == game.state and again.moves == game.moves
    assert saved["state"].startswith("?##?????/.???????")


def test_undo_redo_and_the_redo_tail(game: Game) -> None:
    for move in ("r1c1=1", "r1c2=1", "r1c3=1"):
        game.play(move)
    assert game.undo() and game.undo()
    assert game.state[0, 0] == 1 and game.state[0, 1] == 0 and game.can_redo
    game.play("r9c8=2")
    assert game.moves == ["r1c1=1", "r9c8=2"] and not game.can_redo
    while game.undo():
        pass
    assert game.state == game.rules.initial(game.puzzle) and not game.undo()
    assert game.redo() and game.redo() and not game.redo()


def test_garbage_is_rejected(game: Game) -> None:
    rules = rules_for("nonogram")
    for move in ("", "   ", "r1c1", "r1c1=x", "R1C1=1", "grid", "r1c1=1;r1c2=1", "r99c1=1"):
        with pytest.raises(MoveError):
            apply_move(rules, game.puzzle, game.state, move)
    assert game.moves == []


def test_saved_games_with_bad_moves_stop_there(game: Game) -> None:
    again = Game.from_json(game.puzzle, {"moves": ["r1c1=1", "nonsense", "r1c2=1"], "position": 9})
    assert again.moves == ["r1c1=1"] and again.position == 1
    with pytest.raises(MoveError):
        Game.from_json(game.puzzle, {"moves": "r1c1=1"})


def test_hint_single_pass_and_solve(game: Game) -> None:
    step = game.hint()
    assert step is not None and step.technique == "line"
    steps = game.single_pass()
    assert steps and game.moves and game.position == 1
    result = game.puzzle.solve()
    assert game.solve(result) and game.check(result.solutions[0])["solved"]
    assert game.hint(result.solutions[0]) is None
    assert game.progress() == 1.0
    assert (
        state_text(game.rules, game.state).split("/")
        == json.loads((EXAMPLES / "jwilk-data148.json").read_text())["solution"]
    )


def test_hint_needs_probes_or_search_when_lines_stop() -> None:
    puzzle = pencilbox.load(EXAMPLES / "seed-a.json")
    game = Game.new(puzzle)
    game.play("grid " + state_text(game.rules, puzzle.logic_grid()))
    step = game.hint()
    assert step is not None and step.technique == "probe" and step.changes
    two = Game.new(pencilbox.load(EXAMPLES / "jwilk-data001.json"))
    two.play("grid " + state_text(two.rules, two.puzzle.logic_grid(probes=True)))
    guess = two.hint()
    assert guess is not None and guess.technique in ("decision", "backtrack")


def test_hint_names_a_broken_line(game: Game) -> None:
    game.play("r1c1=1 r1c2=1 r1c3=1 r1c4=1")  # row 1 is "3"
    step = game.hint()
    assert step is not None and step.technique == "contradiction"
    assert "Row 1 (3) cannot be completed" in step.sentence


def test_store_seed_and_default_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "pencilbox" / "pencilbox.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local/share/pencilbox/pencilbox.sqlite3"
    store = Store(tmp_path / "deep" / "lib.sqlite3")
    count = store.seed()
    assert count >= 7 and count == len(store.list_puzzles()) and store.seed() == 0
    mode = store._execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    first = store.list_puzzles()[0]
    store.write_game(first["id"], keep=0, moves=["clear"], position=1, progress=0.5, solved=False)
    saved = store.load_game(first["id"])
    assert saved is not None and saved.moves == ["clear"] and saved.position == 1
    assert store.get_puzzle(first["id"])["progress"] == 0.5  # type: ignore[index]
    assert store.delete_puzzle(first["id"]) and store.load_game(first["id"]) is None
    store.close()


def test_examples_credit_their_sources() -> None:
    for path in EXAMPLES.glob("jwilk-*.json"):
        data = json.loads(path.read_text())
        assert "MIT" in data["license"] and data["source"].startswith("jwilk-archive/")
    assert "jwilk" in (EXAMPLES / "README.md").read_text()


def test_history_holds_differences_not_grids() -> None:
    from pencilbox.genres.nonogram.model import make_puzzle

    size = 200
    big = make_puzzle([[1]] * size, [[1]] * size, max_size=size)
    game = Game.new(big)
    for i in range(50):
        assert game.play(f"r{i + 1}c{i + 1}=1")
    assert [change.size for change in game.history] == [1] * 50
    assert all(len(c.before) == len(c.after) == 1 for c in game.history)
    # a grid move is saved as what it changed when that is shorter than the grid
    one_more = state_text(game.rules, game.state).replace("?", ".", 1)
    assert game.play("grid " + one_more)
    assert game.moves[-1] == "r1c2=2" and game.history[-1].size == 1
    everything = "/".join("#" * size for _ in range(size))
    assert game.play("grid " + everything)
    assert game.moves[-1] == "grid " + everything  # shorter than 39,949 cell settings
    assert game.history[-1].size == size * size - 50


def test_undo_redo_give_back_every_state() -> None:
    import random

    game = Game.new(pencilbox.load(EXAMPLES / "jwilk-data001.json"))
    chooser = random.Random(7)
    states = [game.state]
    for _ in range(300):
        r, c, v = chooser.randint(1, 10), chooser.randint(1, 10), chooser.randint(0, 2)
        move = chooser.choice([f"r{r}c{c}={v}", f"r{r}c{c}={v} r{c}c{r}={2 - v}", "clear"])
        if game.play(move):
            states.append(game.state)
    assert len(states) == len(game.history) + 1 > 100
    for back in range(len(game.history), 0, -1):
        assert game.state == states[back]
        assert game.undo()
    assert game.state == states[0] and not game.undo()
    while game.redo():
        assert game.state == states[game.position]
    # and replaying the saved moves gives the same game
    again, problem = Game.replay(game.puzzle, game.moves, game.position)
    assert problem is None and again.state == game.state and again.moves == game.moves


def test_sudoku_marks_undo_and_replay() -> None:
    game = Game.new(pencilbox.load(EXAMPLES / "qqwing-easy.sdk"))
    open_cell = next((r, c) for r in range(9) for c in range(9) if not game.state[r, c])
    name = f"r{open_cell[0] + 1}c{open_cell[1] + 1}"
    assert game.play(f"{name}+3 {name}+4") and game.play(f"{name}-3")
    assert game.marks == ((open_cell, 0b1000),)
    assert game.undo() and game.marks == ((open_cell, 0b1100),)
    assert game.undo() and game.marks == ()
    assert game.redo() and game.redo() and game.marks == ((open_cell, 0b1000),)
    again, problem = Game.replay(game.puzzle, game.moves, 1)
    assert problem is None and again.marks == ((open_cell, 0b1100),)


def test_a_full_history_merges_its_oldest_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    import pencilbox.session as session

    monkeypatch.setattr(session, "MAX_HISTORY", 10)
    game = Game.new(pencilbox.load(EXAMPLES / "qqwing-easy.sdk"))
    cells = [(r, c) for r in range(9) for c in range(9) if not game.state[r, c]]
    for number, (r, c) in enumerate(cells[:11]):
        game.notice = None
        assert game.play(f"r{r + 1}c{c + 1}={number % 9 + 1} r{r + 1}c{c + 1}+{number % 9 + 1}")
    assert game.notice is not None and "history is full" in game.notice
    assert len(game.history) == 6 and game.position == 6  # 5 kept, 6 merged into one
    played = game.state
    again, problem = Game.replay(game.puzzle, game.moves, game.position)
    assert problem is None and again.state == played and again.marks == game.marks
    for _ in range(6):
        assert game.undo()
    assert game.state == game.rules.initial(game.puzzle) and game.marks == ()
    while game.redo():
        pass
    assert game.state == played


def test_replay_reports_what_it_cannot_read(game: Game) -> None:
    again, problem = Game.replay(game.puzzle, ["r1c1=1", "r99c1=1", "r1c2=1"], 3)
    assert again.moves == ["r1c1=1"] and again.position == 1
    assert problem is not None and "move 2 of 3 ('r99c1=1')" in problem
    for moves, position, words in (
        (["r1c1=1", 7], 2, "move 2 of 2 ('7'): int is not a move"),
        (["r1c1=1"], 5, "position 5 is outside"),
        (["r1c1=1"], "x", "position 'x' is not a number"),
    ):
        _, problem = Game.replay(game.puzzle, moves, position)
        assert problem is not None and words in problem, (moves, position)
