"""The art map: every style covers the 48 cards once, with the coloured paulownia plain as plain-3."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda.art import CODES, STYLES, art_map, load_style, shared_data_dir


@pytest.mark.parametrize("style", STYLES)
def test_every_card_has_its_own_art_file(shared_data: Path, style: str) -> None:
    files = art_map(style, shared_data)
    assert list(files) == list(CODES)
    assert len(set(files.values())) == 48
    assert all(path.is_file() for path in files.values())


@pytest.mark.parametrize("style", STYLES)
def test_paulownia_plain_3_is_the_coloured_one(shared_data: Path, style: str) -> None:
    art = load_style(style, shared_data)
    means = {code: art.faces[code].reshape(-1, 3).mean(axis=0) for code in CODES if code.startswith("paulownia-plain")}
    plain_gap = np.abs(means["paulownia-plain-1"] - means["paulownia-plain-2"]).max()
    coloured_gap = min(
        np.abs(means["paulownia-plain-3"] - means[c]).max() for c in ("paulownia-plain-1", "paulownia-plain-2")
    )
    assert coloured_gap > 15 > plain_gap


def test_known_files_map_to_their_cards(shared_data: Path) -> None:
    assert art_map("hwatu-richert", shared_data)["willow-lightning"].stem == "Hwatu_December_Kasu"
    assert art_map("hwatu-richert", shared_data)["paulownia-phoenix"].stem == "Hwatu_November_Hikari"
    assert art_map("mantia-alt", shared_data)["willow-swallow"].stem == "Hanafuda_November_Tane_Alt"
    assert art_map("mantia-modern", shared_data)["paulownia-plain-3"].stem == "m12-2"


def test_faces_are_600_px_high_bgr(shared_data: Path) -> None:
    art = load_style("mantia-modern", shared_data)
    face = art.faces["pine-crane"]
    assert face.shape[0] == 600 and face.shape[2] == 3 and face.dtype == np.uint8
    assert 0.6 < face.shape[1] / face.shape[0] < 0.63
    assert art.face("pine-crane", 70).shape[0] >= 70


def test_missing_shared_data_names_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "nowhere"
    monkeypatch.setenv("KIBITZ_SHARED_DATA", str(missing))
    with pytest.raises(FileNotFoundError, match="nowhere"):
        shared_data_dir()


def test_unknown_style_is_refused(shared_data: Path) -> None:
    with pytest.raises(ValueError, match="unknown art style"):
        art_map("tarot", shared_data)
