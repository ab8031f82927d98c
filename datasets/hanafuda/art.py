"""The shared hanafuda artwork: find it, map each file to our card code, decode it once.

The art lives outside the repository (``../shared/data`` or ``$KIBITZ_SHARED_DATA``) and is never copied in.
Each style's ``cards.csv`` names month, rank and subject; plains get ``-1``/``-2`` in file order, except that
the coloured paulownia plain is always ``paulownia-plain-3`` so every style agrees on which one stands out.
"""

from __future__ import annotations

import csv
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from engine.cards import Card, Kind, Month

REPO_ROOT: Final = Path(__file__).resolve().parents[2]

STYLES: Final = ("mantia-alt", "mantia-modern", "hwatu-richert")
TRAIN_STYLES: Final = ("mantia-alt", "hwatu-richert")
TEST_STYLE: Final = "mantia-modern"
CODES: Final = tuple(card.code for card in Card)

# The plain that is printed on a coloured ground (yellow or red): it must always be paulownia-plain-3.
COLOURED_PAULOWNIA: Final = {
    "mantia-alt": "Hanafuda_December_Kasu_2_Alt",
    "mantia-modern": "m12-2",
    "hwatu-richert": "Hwatu_November_Kasu_2",
}
# Width of the printed border band at the 600 px art height (measured on the art): print variation recolours it.
BORDER_PX: Final = {"mantia-alt": 19, "mantia-modern": 20, "hwatu-richert": 20}
ART_HEIGHT: Final = 600
_RANK_KIND: Final = {"hikari": Kind.BRIGHT, "tane": Kind.ANIMAL, "tanzaku": Kind.RIBBON}


def shared_data_dir() -> Path:
    """The shared data folder: ``$KIBITZ_SHARED_DATA`` if set, else ``../shared/data`` next to the repository."""
    env = os.environ.get("KIBITZ_SHARED_DATA")
    path = Path(env) if env else REPO_ROOT.parent / "shared" / "data"
    if not (path / "hanafuda-art").is_dir():
        source = "$KIBITZ_SHARED_DATA" if env else "../shared/data relative to the repository"
        raise FileNotFoundError(f"shared data not found at {path} ({source}); it must contain hanafuda-art/")
    return path


def art_map(style: str, root: Path | None = None) -> dict[str, Path]:
    """Card code -> png file of one style, from its ``cards.csv``. Raises if a card is missing or doubled."""
    if style not in STYLES:
        raise ValueError(f"unknown art style {style!r}; choose from {', '.join(STYLES)}")
    folder = (root or shared_data_dir()) / "hanafuda-art" / style
    table = folder / "cards.csv"
    if not table.is_file():
        raise FileNotFoundError(f"card table not found: {table}")
    with table.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    mapping: dict[str, Path] = {}
    plains: dict[Month, list[Path]] = {}
    for row in rows:
        month = Month(int(row["month_jp"]))
        png = folder / "png" / (Path(row["file"]).stem + ".png")
        if row["rank"] == "kasu" and row["subject"] == "lightning":
            mapping[Card.WILLOW_LIGHTNING.code] = png
        elif row["rank"] == "kasu":
            plains.setdefault(month, []).append(png)
        else:
            card = _single_card(month, _RANK_KIND[row["rank"]])
            mapping[card.code] = png
    for month, files in plains.items():
        coloured = [f for f in files if f.stem == COLOURED_PAULOWNIA[style]]
        ordered = [f for f in files if f not in coloured] + coloured
        codes = [c.code for c in Card if c.month is month and "_PLAIN_" in c.name]
        if len(codes) != len(ordered):
            raise ValueError(f"{table}: month {month.plant} has {len(ordered)} plains, expected {len(codes)}")
        mapping.update(zip(codes, ordered, strict=True))
    missing = [code for code in CODES if code not in mapping]
    if missing or len(rows) != len(CODES):
        raise ValueError(f"{table}: {len(rows)} rows; cards without art: {', '.join(missing) or 'none'}")
    return {code: mapping[code] for code in CODES}


def _single_card(month: Month, kind: Kind) -> Card:
    matches = [c for c in Card if c.month is month and c.kind is kind]
    if len(matches) != 1:
        raise ValueError(f"no single {kind.name.lower()} card in {month.plant}")
    return matches[0]


@dataclass
class StyleArt:
    """Decoded faces of one style at 600 px high (BGR uint8), with a lazily built pyramid of smaller copies."""

    name: str
    faces: dict[str, np.ndarray]
    border_px: int
    border_colour: tuple[int, int, int]
    _pyramids: dict[str, list[np.ndarray]] = field(default_factory=dict, repr=False)

    def face(self, code: str, height: float) -> np.ndarray:
        """The smallest stored copy at least ``height`` pixels high (the full art if none is)."""
        levels = self._pyramids.get(code)
        if levels is None:
            levels = [self.faces[code]]
            while levels[-1].shape[0] >= 120:
                big = levels[-1]
                levels.append(cv2.resize(big, (big.shape[1] // 2, big.shape[0] // 2), interpolation=cv2.INTER_AREA))
            self._pyramids[code] = levels
        return next((lv for lv in reversed(levels) if lv.shape[0] >= height), levels[0])


_CACHE: dict[tuple[str, Path], StyleArt] = {}
_LOCK = threading.Lock()


def load_style(style: str, root: Path | None = None) -> StyleArt:
    """All 48 faces of ``style``, decoded once per process."""
    base = root or shared_data_dir()
    key = (style, base)
    with _LOCK:
        if key not in _CACHE:
            files = art_map(style, base)
            faces = {code: _read_face(path) for code, path in files.items()}
            border = faces[Card.PINE_PLAIN_1.code][ART_HEIGHT // 2, 3]
            colour = (int(border[0]), int(border[1]), int(border[2]))
            _CACHE[key] = StyleArt(style, faces, BORDER_PX[style], colour)
        return _CACHE[key]


def _read_face(path: Path) -> np.ndarray:
    """Decode one png; transparent corners are filled with the border colour so print variation shapes them."""
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.size == 0:
        raise OSError(f"cannot decode card art {path}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        alpha = image[:, :, 3:].astype(np.float32) / 255.0
        fill = image[image.shape[0] // 2, 3, :3].astype(np.float32)
        image = (image[:, :, :3] * alpha + fill * (1.0 - alpha)).round().astype(np.uint8)
    if image.shape[0] != ART_HEIGHT:
        width = round(image.shape[1] * ART_HEIGHT / image.shape[0])
        image = cv2.resize(image, (width, ART_HEIGHT), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(image)
