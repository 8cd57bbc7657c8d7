"""Where the package finds its pages and rules, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

__all__ = ["resource_path"]

_PACKAGE = Path(__file__).resolve().parent


def resource_path(name: str) -> Path:
    """`templates`, `static` or `variants.toml`: inside the installed wheel, else at the checkout's top."""
    inside = _PACKAGE / name
    return inside if inside.exists() else _PACKAGE.parent / name
