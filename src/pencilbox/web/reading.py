"""Puzzles read from what users send: pasted or uploaded text in any notation, or a URL
(puzz.link-style ones are read, never fetched; others fetched only when the server allows
it). Every parser runs under one safety net (`reading`): whatever it raises is the input's
fault, a 422 in one sentence."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from pencilbox.errors import FormatError, PuzzleError, UnknownFormat, shorten
from pencilbox.session import parse_text
from pencilbox.web.bodies import PuzzleText
from pencilbox.web.errors import ApiError
from pencilbox.web.fetch import FetchRefused, fetch_text

MAX_GRID = 200
"""Largest grid side accepted from users."""
PUZZLINK_HOSTS = ("puzz.link", "pzv.jp", "pzprxs.vercel.app", "pzplus.tck.mn")
"""Hosts of puzz.link-style URLs: their puzzle is in the URL itself, so they are never fetched."""
PARSE_ERRORS = (ValueError, OSError, RecursionError)
"""What a parser bug could still raise instead of a PuzzleError: answered as bad input (422)."""


def load_text(body: PuzzleText, allow_fetch: bool = False) -> Any:
    """Parse pasted or uploaded text; a plain http(s) URL that no notation reads is fetched
    when the server was started with --allow-fetch (see `fetch`)."""
    text = body.text
    if not text.strip():
        raise ApiError(422, "the puzzle text is empty")
    try:
        return _parse(text, body)
    except UnknownFormat:
        stripped = text.strip()
        if not stripped.lower().startswith(("http://", "https://")) or "\n" in stripped:
            raise
        if _is_puzzlink(stripped):
            raise UnknownFormat(
                "pencilbox reads puzz.link URLs itself (it never fetches them) and does not "
                "know this URL's puzzle type"
            ) from None
        if not allow_fetch:
            raise ApiError(
                422,
                "this server does not fetch URLs: paste the puzzle's text instead, or start "
                "it with `pencilbox serve --allow-fetch`",
            ) from None
        try:
            fetched = fetch_text(stripped)
        except FetchRefused as refused:
            raise ApiError(422, str(refused)) from None
        body.text = fetched
        return _parse(fetched, body)


def _is_puzzlink(url: str) -> bool:
    try:
        host = (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return False
    return any(host == known or host.endswith("." + known) for known in PUZZLINK_HOSTS)


def _parse(text: str, body: PuzzleText) -> Any:
    return parse_puzzle(text, body.genre or None, body.format or None, body.filename)


def parse_puzzle(text: str, genre: str | None, format: str | None, filename: str | None) -> Any:
    with reading():
        return parse_text(text, genre, format, filename, max_size=MAX_GRID)


@contextmanager
def reading() -> Iterator[None]:
    """The safety net under every parser: an error that is not a PuzzleError is still the
    input's fault, so it is a 422 in one sentence (never a 500 with a traceback)."""
    try:
        yield
    except PuzzleError:
        raise
    except PARSE_ERRORS as error:
        cause = shorten(f"{type(error).__name__}: {error}", 80)
        raise FormatError(f"cannot read this puzzle ({cause})") from None
