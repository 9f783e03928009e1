"""The second look at the glyphs taken for givens: two kinds of ink where colour alone
could not tell (genres/sudoku/ink_kinds)."""

from __future__ import annotations

import numpy as np

from pencilbox.genres.sudoku import ink_kinds

DIGITS = "1234"
COPIES = 5


def _glyphs(entry_face: bool, entry_tint: tuple[float, float]) -> tuple[ink_kinds.Glyphs, set[int]]:
    """Givens of one face and player's entries, COPIES of each digit each, the entries'
    tint `entry_tint` off the givens' (both spread by 1), drawn in another face when
    `entry_face`; and the entries' rows."""
    rng = np.random.default_rng(7)
    faces = rng.random((2, len(DIGITS), 28, 28)) < 0.3
    tints, crops, digits, plain, entries = [], [], [], [], set()
    for kind in (0, 1):
        for d, digit in enumerate(DIGITS):
            for _ in range(COPIES):
                if kind:
                    entries.add(len(digits))
                face = faces[1 if kind and entry_face else 0, d]
                crops.append(face + rng.normal(0, 0.05, face.shape))
                tints.append(rng.normal(0, 1, 2) + (entry_tint if kind else (0.0, 0.0)))
                digits.append(digit)
                plain.append(10.0 if kind else 0.0)
    n = len(digits)
    glyphs = ink_kinds.Glyphs(
        np.array(tints, np.float32),
        np.full(n, 30.0),
        np.full(n, 20.0),
        digits,
        np.array(crops, np.float32),
        np.array(plain),
    )
    return glyphs, entries


def test_entries_of_another_face_are_found_though_their_tint_barely_differs():
    glyphs, entries = _glyphs(entry_face=True, entry_tint=(2.0, -3.0))
    found = ink_kinds.second_kind(glyphs)
    # the less plain tint group is doubted: no given, and all but an entry or two whose tint
    # falls among the givens'
    assert found <= entries
    assert len(found) >= len(entries) - 2


def test_one_face_split_by_tint_alone_is_one_kind():
    # a shadow or a colour cast splits print by tint, but every copy of a digit keeps its shape
    glyphs, _ = _glyphs(entry_face=False, entry_tint=(2.0, -3.0))
    assert ink_kinds.second_kind(glyphs) == set()


def test_one_glyph_unlike_the_givens_in_tint_and_size_and_ink_is_doubted():
    glyphs, _ = _glyphs(entry_face=False, entry_tint=(0.0, 0.0))
    odd = 3
    glyphs.tint[odd] = (8.0, -12.0)
    glyphs.height[odd] = 17.0
    glyphs.strength[odd] = 20.0
    assert ink_kinds.second_kind(glyphs) == {odd}
    glyphs.strength[odd] = 30.0  # far in tint, but unlike in size only: a look is not enough
    assert ink_kinds.second_kind(glyphs) == set()


def test_the_rank_test_says_how_likely_larger_values_come_by_chance():
    small, large = np.arange(10.0), np.arange(10.0) + 100
    assert ink_kinds._larger_p(large, small) < 1e-3
    assert ink_kinds._larger_p(small, large) > 0.99
    assert 0.3 < ink_kinds._larger_p(small, small + 0.5) < 0.7
