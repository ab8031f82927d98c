"""Shared fixtures. ``shared_data`` finds ../shared/data: in CI its absence is a failure, elsewhere a skip."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def find_shared_data() -> Path | None:
    env = os.environ.get("KIBITZ_SHARED_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "data")
    return next((p for p in candidates if (p / "hanafuda-art").is_dir()), None)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = find_shared_data()
    if path is None:
        message = "../shared/data (or $KIBITZ_SHARED_DATA) is missing: the artwork and photos tests need it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path
