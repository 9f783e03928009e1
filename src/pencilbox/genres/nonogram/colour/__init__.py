"""Colour nonograms: every run has a colour; runs of different colours may touch, runs of the
same colour need a background cell between them. Black-and-white puzzles stay the plain
`Nonogram` (the one-colour case, with its own faster solver); a puzzle of two or more colours
is a `ColourNonogram`, which offers the same methods (solve, steps, hint, grade, render, to).

Cells of a colour grid hold *sets* of possible colours as bit masks: bit 0 is the background,
bit c is colour c of the palette. A decided cell has one bit; an unknown cell has all of them.
"""

from pencilbox.genres.nonogram.colour.model import Colour, ColourNonogram, make_colour_puzzle

__all__ = ["Colour", "ColourNonogram", "make_colour_puzzle"]
