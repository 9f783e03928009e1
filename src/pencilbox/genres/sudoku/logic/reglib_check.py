"""Check a technique finder against a HoDoKu library line."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pencilbox.core.step import Step

from . import franken
from .ladder import FINDERS
from .reglib import LibraryLine
from .state import State
from .techniques import TECHNIQUES

# library codes that map onto one of our techniques under another code
ALIASES = {"0501": "0500", "0503": "0502"}

# library codes we only approximate with a more general technique (reported, not tested):
# a discontinuous nice loop is an AIC whose ends see the eliminated candidate, but HoDoKu
# reports only the loop's own elimination where our AIC removes everything both ends see.
APPROXIMATE: dict[str, str] = {}

CODE_TO_TECHNIQUE = {t.code: t.name for t in TECHNIQUES.values()}


def technique_for(code: str) -> str | None:
    """Our technique for a library code, if we implement it."""
    name = CODE_TO_TECHNIQUE.get(ALIASES.get(code, code))
    return name if name in FINDERS else None


# library variants we do not attempt, with the reason
SKIP_VARIANTS = {
    ("0902", "2"): "ALS-XY-Wing with overlapping sets (not allowed by our finder)",
    ("0903", "2"): "ALS-XY-Chain with overlapping sets (not allowed by our finder)",
    ("0904", "2"): "Death Blossom with overlapping petals (not allowed by our finder)",
    ("0711", "3"): "Grouped AIC with ALS nodes (our chains have no ALS nodes)",
    ("0711", "4"): "Grouped AIC with ALS nodes (our chains have no ALS nodes)",
    ("0709", "2"): "Grouped nice loop with ALS nodes (our chains have no ALS nodes)",
    ("0710", "3"): "Grouped nice loop with ALS nodes (our chains have no ALS nodes)",
    ("0710", "4"): "Grouped nice loop with ALS nodes (our chains have no ALS nodes)",
}


def _focused(k: int, mutant: bool) -> Callable[[State, tuple[int, ...]], Iterator[Step]]:
    def finder(state: State, digits: tuple[int, ...]) -> Iterator[Step]:
        return franken.general_fish(state, k, mutant, digits=digits)

    return finder


# slow exhaustive finders searched only on the line's digit
FOCUSED: dict[str, Callable[[State, tuple[int, ...]], Iterator[Step]]] = {
    f"{fin}{kind} {fish}": _focused(k, kind == "Mutant")
    for kind in ("Franken", "Mutant")
    for fin in ("", "Finned ")
    for k, fish in ((2, "X-Wing"), (3, "Swordfish"), (4, "Jellyfish"))
}


def check(line: LibraryLine, limit: int = 20000, approximate: bool = False) -> bool | None:
    """True/False if our finder reproduces the line exactly; None if the code is not covered."""
    name = technique_for(line.code)
    if (line.code, line.variant) in SKIP_VARIANTS:
        return None
    if name is None and approximate and line.code in APPROXIMATE:
        name = CODE_TO_TECHNIQUE[APPROXIMATE[line.code]]
    if name is None or name not in FINDERS:
        return None
    state = line.state()
    size = state.geo.size
    found = False
    steps = FOCUSED[name](state, line.digits) if name in FOCUSED else FINDERS[name](state)
    for n, step in enumerate(steps):
        if n >= limit:
            break
        if step.technique != name:
            continue
        if line.fail_case:
            return False
        el = {(r * size + c, d) for r, c, d in step.extra.get("eliminations", ())}
        pl = {(r * size + c, d) for (r, c), d in step.changes}
        if el == line.eliminations and pl == line.placements:
            found = True
            break
    return True if line.fail_case else found
