"""The domino recogniser on the shared real photos (labels in tests/vision/data/domino_dev_labels.csv, made by
looking at each photo; the photos stay in ../shared/data).

Tiles are found by the learned tile finder. Photos with one tile or a few loose tiles (a white paper domino on
black, pink plastic tiles on leather, on a white table, on a patterned tray and on a wood floor, ivory tiles
with blue, red and olive pips), the two rows of touching ivory tiles and the close-up of two ivory tiles on a
white sheet must read exactly. (The paper domino's 2, once read as a 3 from a speck of shadow past a loose quad,
reads since quads are snapped to the face; the leather fold once found as a face-down tile is dropped because a
European back is the colour of the faces; the yellow pip on a lit pink face in ``y8`` is kept since the quad is
tightened, and its 1:6 no longer reads 1:4 since the two big pips just past the divider are not taken for part of
it; the close-up 6:6 of ``pipeline_image``, once a quad round one column of its pips read as a confident 1:1,
reads since the finder was trained longer; the close-up ``imagefortest.jpg``, a 5:6 filling the frame, its rim cut
on three sides, reads since the recogniser takes a close-up look where nothing whole is found; the pink 1:6 on a
flowered tray in ``q7.jpg``, not found by the finder's usual look, reads since a still photo gets a finer look; the
0:6 in the chain of ``9a814146…``, a double-six game on a wooden table, whose only quad held its 6 half and half the
1:6 beside it, reads since such a quad gives way to the tiles centred on its two dividers. The row of seven tiles
over seven backs printed "RO" in ``Hda20a87…`` reads since session 21: a still photo of a European set gets the
refiner, which finds the backs the finder misses beside the found tiles; the European set's face reader, taught
with backs bearing bold marks, calls them backs (the blob reader takes the bar under the letters for a divider;
the Chinese reader named them 0:x surely); two quads round the columns of the 3:6's pips no longer make it a row;
and the barcode of a gum packet in ``q7.jpg``, whose bars pass for dividers, is no tile since a European set is
one colour.)
The photos are read as ``kibitz recognize --dominoes`` reads them (``DominoRecognizer.for_photos``).
"""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

import vision.dominoes.recognizer as recognizer_module
import vision.dominoes.resolve as resolve_module
from tests.benchmarks.image_changes import CHANGES as PHOTO_CHANGES
from vision.dominoes import DominoRecognizer
from vision.imageio import read_image
from vision.more_looks import Look, MoreLooks

LABELS = Path(__file__).parent / "data" / "domino_dev_labels.csv"


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
    return DominoRecognizer.for_photos("double-six")


def _cases() -> list[str]:
    return sorted(_labels())


@pytest.mark.parametrize("image", _cases())
def test_dev_photo(shared_data: Path, recognizer: DominoRecognizer, image: str) -> None:
    truth = Counter(_labels()[image])
    seen = recognizer(read_image(shared_data / image))
    assert Counter(seen.labels()) == truth
    for tile in seen.face_up:
        assert tile.pips is not None and sum(tile.pips) == tile.total



# Photos that do not read exactly yet once changed so (README, session 28), and why.
KNOWN_FAILS = {
    "turned": {"pipeline_image.jpg": "the close-up 6:6 read as a back", "9a814146": "a 5:6 that is not there"},
    "dimmed": {},  # Hda20a87's RO back, read as a 2:6 before session 44, reads a back from three crops
}
CHANGES = {
    "turned": lambda image: np.ascontiguousarray(image[::-1, ::-1]),  # 180 degrees: a tile looks the same
    "dimmed": lambda image: (image * 0.45).astype(np.uint8),  # a dim room
}


def _changed_cases() -> list[object]:
    cases: list[object] = []
    for change, fails in KNOWN_FAILS.items():
        for image in _cases():
            why = next((w for k, w in fails.items() if k in image), None)
            marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
            cases.append(pytest.param(change, image, marks=marks, id=f"{change}-{Path(image).name[:24]}"))
    return cases


@pytest.mark.parametrize(("change", "image"), _changed_cases())
def test_dev_photo_changed(shared_data: Path, recognizer: DominoRecognizer, change: str, image: str) -> None:
    """Each photo turned over, or dimmed, reads as it does as taken. (Turned over, ``y8.jpg`` lost its 1:6 until
    session 28: its rim and a bar of pips near one end were taken for the dividers of two tiles it straddled, where a
    quad straddles two tiles only with a divider near each end. Dimmed, ``pipeline_image.jpg`` lost its 5:6 to a
    slanted quad the refiner moved a weak candidate to, longer than any tile it was trained on.)"""
    truth = Counter(_labels()[image])
    seen = recognizer(CHANGES[change](read_image(shared_data / image)))
    assert Counter(seen.labels()) == truth


def test_a_row_of_backs_only_the_look_beside_finds_is_kept(shared_data: Path, recognizer: DominoRecognizer,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``Hda20a87…`` turned 30 degrees: the finder boxes none of the seven RO backs standing behind the faces; the look
    beside finds six. A European back only the look beside found needed a back the finder found in its chain (a patch
    of table beside a face reads as a plain back); a row of four touching backs now stands on its own."""
    image = next(name for name in _cases() if "Hda20a87" in name)
    truth = Counter(_labels()[image])
    turned = PHOTO_CHANGES["turned-30"](read_image(shared_data / image))
    seen = Counter(recognizer(turned).labels())
    assert seen["back"] >= 6 and seen - truth == Counter()
    monkeypatch.setattr(recognizer_module, "BACK_ROW", 1000)
    without = Counter(recognizer(turned).labels())
    assert without["back"] == 0 and without + Counter(back=truth["back"]) == truth


def test_quads_across_two_backs_do_not_hide_the_row_from_the_look_beside(
        shared_data: Path, recognizer: DominoRecognizer, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Hda20a87…`` further away (``further``: a canvas 1.75 times as high round it): the finder boxes two RO logos
    across pairs of backs, quads the blob reader sees straddling two tiles. Dropped before the look beside, they no
    longer block it, and it finds the row's seven backs; left in, it found three, in chains too short to keep, and
    the photo read no back at all."""
    image = next(name for name in _cases() if "Hda20a87" in name)
    truth = Counter(_labels()[image])
    further = PHOTO_CHANGES["further"](read_image(shared_data / image))
    assert Counter(recognizer(further).labels()) == truth
    monkeypatch.setattr(recognizer_module, "_straddling", lambda image, quad: False)
    assert Counter(recognizer(further).labels())["back"] < truth["back"]


def test_marked_backs_in_a_compressed_photo_are_not_read_as_faces(shared_data: Path, recognizer: DominoRecognizer,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``Hda20a87…`` saved again as a JPEG of quality 30: the blob reader takes two of the "RO" backs (the letters over
    a dotted bar) for a 0:0 and a 0:1, and the European face reader calls them backs with 0.81-0.82, under the
    Chinese reader's bar of 0.9. Taken at its word (back its likeliest class), it makes them backs; no face is named
    that is not in the photo."""
    image = next(name for name in _cases() if "Hda20a87" in name)
    truth = Counter(_labels()[image])
    compressed = PHOTO_CHANGES["jpeg-30"](read_image(shared_data / image))
    seen = Counter(recognizer(compressed).labels())
    assert seen - truth == Counter() and seen["back"] >= 5
    monkeypatch.setattr(resolve_module, "SURE_BACK_EUROPEAN", resolve_module.SURE_BACK)
    before = Counter(recognizer(compressed).labels())
    assert before - truth == Counter({"0:0": 1, "0:1": 1})


def test_marked_backs_turned_a_quarter_are_not_read_as_faces(shared_data: Path, recognizer: DominoRecognizer,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``Hda20a87…`` turned a quarter: the European face reader gives two "RO" backs only 0.19 and 0.35 back, but that
    is still its likeliest class, and they are backs; with a bar of 0.8 they were named 0:1 and 0:0."""
    image = next(name for name in _cases() if "Hda20a87" in name)
    truth = Counter(_labels()[image])
    turned = PHOTO_CHANGES["turned-90"](read_image(shared_data / image))
    seen = Counter(recognizer(turned).labels())
    assert seen - truth == Counter() and seen["back"] >= 6
    monkeypatch.setattr(resolve_module, "SURE_BACK_EUROPEAN", 0.8)
    assert Counter(recognizer(turned).labels()) - truth == Counter({"0:0": 1, "0:1": 1})


def test_a_dark_table_is_no_back_of_pink_tiles_in_a_dim_room(shared_data: Path, recognizer: DominoRecognizer,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``b5.jpg`` (a pink 1:3 and 1:1 on black leather) at 0.3 of its light: three patches of leather beside the tiles
    were read as backs, since in the dark the leather's colour lies within a back's distance of the pink faces'. The
    distance is now taken at the frame's exposure gain (about 3 here), as a lit room would show it."""
    image = next(name for name in _cases() if name.endswith("b5.jpg"))
    dark = PHOTO_CHANGES["dark"](read_image(shared_data / image))
    assert Counter(recognizer(dark).labels()) == Counter(_labels()[image])
    monkeypatch.setattr(recognizer_module, "exposure_gain", lambda image: 1.0)
    assert Counter(recognizer(dark).labels())["back"] >= 2


def test_a_pink_tile_on_a_flowered_tray_under_a_warm_light(shared_data: Path, recognizer: DominoRecognizer,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``q7.jpg``'s 1:6 on a flowered tray: the usual look gives it no heat (0.07); at twice its scale 0.79 as taken
    but 0.72 under a warm light (0.66 at two and a half times; dark or bright, 0.74 there). At 0.7 it reads; the look
    at twice alone, at its old 0.75, missed it."""
    image = next(name for name in _cases() if name.endswith("q7.jpg"))
    warm = PHOTO_CHANGES["warm-light"](read_image(shared_data / image))
    assert Counter(recognizer(warm).labels()) == Counter(_labels()[image])
    monkeypatch.setattr(recognizer, "more_looks", MoreLooks((Look(zoom=2.0, least=0.75),), max_overlap=0.2))
    assert Counter(recognizer(warm).labels())["1:6"] == 0


def test_a_zoomed_look_is_not_run_where_the_tiles_are_already_big(shared_data: Path, recognizer: DominoRecognizer,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``f235.jpg`` brightened: a white 4:5 on black, 109 px long at the finder's input. At two and a half times that
    it is past the sizes the model knows, and it boxes the tile's two ends as tiles (a 1:1 and a 1:2) that take the
    4:5's place. ``MAX_LOOK_LENGTH`` leaves that look out there."""
    image = next(name for name in _cases() if name.endswith("f235.jpg"))
    bright = PHOTO_CHANGES["bright"](read_image(shared_data / image))
    assert Counter(recognizer(bright).labels()) == Counter(_labels()[image])
    monkeypatch.setattr(recognizer_module, "MAX_LOOK_LENGTH", 1e9)
    assert Counter(recognizer(bright).labels())["4:5"] == 0


def test_a_close_up_tile_whose_pieces_the_usual_look_boxes(shared_data: Path, recognizer: DominoRecognizer,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``imagefortest.jpg`` (a 5:6 filling the frame) with sensor noise: the usual look boxes two pieces of it at heat
    0.34, just over its threshold, so the close-up look was not taken, and a piece read as a back. Where the usual
    look is sure of nothing at 0.5 and the close-up look is of a tile at 0.8 (0.92 here), the close-up look stands in."""
    image = next(name for name in _cases() if name.endswith("imagefortest.jpg"))
    noisy = PHOTO_CHANGES["noise"](read_image(shared_data / image))
    assert Counter(recognizer(noisy).labels()) == Counter(_labels()[image])
    monkeypatch.setattr(recognizer, "close_sure", None)
    assert Counter(recognizer(noisy).labels())["5:6"] == 0


@pytest.mark.parametrize(("frame", "face"), [("f160.jpg", "4:4"), ("f85.jpg", "5:6")])
def test_a_big_tile_square_to_the_frame_is_one_tile_not_its_pieces(shared_data: Path, recognizer: DominoRecognizer,
                                                                    monkeypatch: pytest.MonkeyPatch, frame: str,
                                                                    face: str) -> None:
    """The white domino on black turned 30 degrees, so that it lies square to the frame: the usual look boxes it as
    two or three upright tiles of a column of pips each (a 1:1, a back, an unknown; a 2:2). At 0.6 of the finder's
    scale it is one tile (heat 0.61 and 0.8) with its divider across it, and an end piece has none: the tile stands in
    for its pieces."""
    image = next(name for name in _cases() if name.endswith(frame))
    turned = PHOTO_CHANGES["turned-30"](read_image(shared_data / image))
    assert recognizer(turned).labels() == [face]
    monkeypatch.setattr(recognizer, "coarse", False)
    assert face not in recognizer(turned).labels()
