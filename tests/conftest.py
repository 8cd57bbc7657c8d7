"""Shared fixtures: the shipped variants."""

from __future__ import annotations

import pytest

from partyrummy.variants import Variant, default_variants


@pytest.fixture(scope="session")
def variants() -> dict[str, Variant]:
    return default_variants()


@pytest.fixture(scope="session")
def party(variants: dict[str, Variant]) -> Variant:
    return variants["party"]
