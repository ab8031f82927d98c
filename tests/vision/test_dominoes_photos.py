"""The domino recogniser on the shared real photos (labels in tests/vision/data/domino_dev_labels.csv, made by
looking at each photo; the photos stay in ../shared/data).

Tiles are found by the learned tile finder. Photos with one tile or a few loose tiles (a white paper domino on
black, pink plastic tiles on leather, on a white table, on a patterned tray and on a wood floor, ivory tiles
with blue, red and olive pips) and the two rows of touching ivory tiles must read exactly. (The paper domino's
2, once read as a 3 from a speck of shadow past a loose quad, reads since quads are snapped to the face; the
leather fold once found as a face-down tile is dropped because a European back is the colour of the faces; the
yellow pip on a lit pink face in ``y8`` is kept since the quad is tightened.) Five photos are not read yet:
- ``q7.jpg``: pink tiles photographed small on a patterned tray: two read, the tile on the hat is not found;
- ``Hda20a87…``: every face-up tile reads, but of the seven face-down tiles with the "RO" logo pressed together
  the finder finds one;
- ``9a814146…`` (a double-six game on a wooden table): 9 of the 12 tiles of the chain read; the 5:5 where the
  line turns reads 1:5 and the 0:6 reads 2:6 (neither with confidence >= 0.9), the 1:4 is not reported (the
  quad the finder puts across the touching ends of two tiles there is dropped: a divider shows near each end);
- ``pipeline_image.jpg``: two ivory tiles touching on a white sheet, close up: the finder puts the 6:6's quad
  round one column of its pips, which then reads as a confident 1:1 (an expected failure, marked so);
- ``imagefortest.jpg``: the tile is cropped by the frame on every side (and framed by drawn green lines): a
  tile cut by the frame is not reported.
For those the test checks what is sure: no tile named with confidence ≥ 0.9 that is not in the photo.
"""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from vision.dominoes import DominoRecognizer
from vision.imageio import read_image

LABELS = Path(__file__).parent / "data" / "domino_dev_labels.csv"
NOT_READ_YET = ("q7.jpg", "Hda20a87", "9a814146", "pipeline_image", "imagefortest")


def _labels() -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    with LABELS.open(newline="") as handle:
        for row in csv.DictReader(handle):
            out[row["image"]].append(row["tile"])
    return dict(out)


def test_labels_cover_every_shared_domino_photo(shared_data: Path) -> None:
    photos = {str(p.relative_to(shared_data)) for p in (shared_data / "dev-photos").glob("domino-*/**/*.jpg")}
    assert photos == set(_labels())


@pytest.fixture(scope="module")
def recognizer() -> DominoRecognizer:
    return DominoRecognizer("double-six")


WRONG_YET = {"pipeline_image": "the finder's quad of the close-up 6:6 holds one column of pips: a confident 1:1"}


def _cases() -> list[object]:
    return [pytest.param(image, marks=pytest.mark.xfail(reason=reason, strict=True))
            if (reason := next((r for key, r in WRONG_YET.items() if key in image), None)) else image
            for image in sorted(_labels())]


@pytest.mark.parametrize("image", _cases())
def test_dev_photo(shared_data: Path, recognizer: DominoRecognizer, image: str) -> None:
    truth = Counter(_labels()[image])
    seen = recognizer(read_image(shared_data / image))
    if any(key in image for key in NOT_READ_YET):
        sure = Counter(t.tile for t in seen.face_up if t.confidence >= 0.9)
        assert not sure - truth, f"{image}: named {sure - truth} that are not there"
        return
    assert Counter(seen.labels()) == truth
    for tile in seen.face_up:
        assert tile.pips is not None and sum(tile.pips) == tile.total
