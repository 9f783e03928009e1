"""Type stub of the compiled Double Choco propagator (_propagator.c)."""

from collections.abc import Callable, Sequence

class Propagator:
    """python-sat's Propagator protocol, checking the block rules on partial assignments."""

    is_lazy: bool
    def __init__(
        self,
        width: int,
        height: int,
        gray: Sequence[int],
        numbers: Sequence[int],
        variables: Sequence[int],
        limit: int,
        max_models: int,
        seconds: float,
        interrupted: Callable[[], bool] | None = None,
    ) -> None:
        """`gray` and `numbers` per cell (0: no clue), `variables` the wall variable of each
        edge (EdgeGeometry order); stop after `limit` answers, past `max_models` complete
        models (0: no budget), after `seconds` (0.0: no clock) or once `interrupted()`
        (polled with the clock) says so."""
    def on_assignment(self, lit: int, fixed: bool = False, /) -> None: ...
    def on_new_level(self) -> None: ...
    def on_backtrack(self, to: int, /) -> None: ...
    def propagate(self) -> list[int]: ...
    def check_model(self, model: Sequence[int], /) -> bool: ...
    def decide(self) -> int: ...
    def provide_reason(self, lit: int, /) -> list[int]: ...
    def has_clause(self) -> bool: ...
    def add_clause(self) -> list[int]: ...
    def conflict(self, values: Sequence[int], /) -> tuple[int, list[int]] | None:
        """The first broken rule under `values` (per edge: 1 wall, -1 open, 0 undecided):
        which check broke (0-7, in the order of _propagator.c's list) and its clause; None
        when nothing is broken."""
    @property
    def counts(self) -> dict[str, int]: ...
    @property
    def stopped(self) -> str | None: ...
    @property
    def found(self) -> list[list[bool]]: ...
