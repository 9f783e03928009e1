"""What the server is, and which genres it knows (with their generator options)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

import pencilbox
from pencilbox.genres import base
from pencilbox.web.answers import genre_json

router = APIRouter()


@router.get("/api/health")
def health() -> dict[str, Any]:
    return {"ok": True, "version": pencilbox.__version__}


@router.get("/api/genres")
def genres() -> list[dict[str, Any]]:
    return [genre_json(g) for g in base.all_genres()]
