"""Domino vision: the set rules, the typed observation, reading faces, joint naming and a rendered scene."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.dominoes.faces import face_sprite
from datasets.dominoes.scenes import DominoSceneConfig, render_scene
from datasets.dominoes.styles import TileStyle, sample_style
from datasets.hanafuda.config import preset
from engine.dominoes.tiles import CHINESE_TILES, CIVIL, Tile
from vision.dominoes import DominoRecognizer, DominoTableObservation, TileObservation, domino_set
from vision.dominoes.pips import HalfReading, TileReading, _colour_name, read_tile
from vision.dominoes.recognizer import (
    MIN_COLOURED,
    MIN_SIZED,
    _apart,
    _backs_in_touch,
    _into_frame,
    _neighbour,
    _only_more_looks,
    _plausible,
    _split,
)
from vision.dominoes.resolve import Resolved, resolve
from vision.geometry import quad_iou
from vision.imageio import EmptyImageError, ImageTypeError

QUAD = ((10.0, 10.0), (50.0, 10.0), (50.0, 90.0), (10.0, 90.0))


def test_sets_agree_with_the_engine() -> None:
    chinese = domino_set("chinese")
    assert chinese.size == 32 and domino_set("double-six").size == 28
    for tile in Tile:
        face = (tile.low, tile.high)
        expected = (2 if tile in CIVIL else 1) if tile in CHINESE_TILES else 0
        assert chinese.copies.get(face, 0) == expected, tile.code
        if tile in CHINESE_TILES:
            red = sum(n * chinese.red_share(face, n) for n in {tile.low, tile.high} for _ in range(1 + tile.is_double))
            assert red == tile.red_pips, tile.code
    with pytest.raises(ValueError, match="unknown domino set"):
        domino_set("mahjong")


def test_observation_is_validated() -> None:
    tile = TileObservation("1:3", (1, 3), QUAD, 0.9, colours=("red", "black"))
    assert tile.center == (30.0, 50.0) and tile.total == 4
    assert tile.to_dict()["pips"] == [1, 3]
    with pytest.raises(ValueError, match="does not match"):
        TileObservation("1:4", (1, 3), QUAD, 0.9)
    with pytest.raises(ValueError, match="0 to 6"):
        TileObservation(None, (1, 7), QUAD, 0.9)
    with pytest.raises(ValueError, match="confidence"):
        TileObservation("1:3", (1, 3), QUAD, 1.3)
    with pytest.raises(ValueError, match="finite"):
        TileObservation("1:3", (1, 3), ((0, 0), (1, 0), (1, float("nan")), (0, 1)), 0.5)
    with pytest.raises(ValueError, match="face-down"):
        TileObservation("1:3", None, QUAD, 0.5, face_down=True)
    down = TileObservation(None, None, QUAD, 1.0, face_down=True)
    frame = DominoTableObservation((100, 100), (tile, down), "chinese", {"find": 2.0})
    out = frame.to_dict("a.jpg")
    assert out["face_down"] == 1 and out["pip_total"] == 4 and [t["tile"] for t in out["tiles"]] == ["1:3"]
    assert frame.labels() == ["1:3", "back"]


def _tile_photo(style_name: str | TileStyle, top: int, bottom: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A face drawn 160 px tall on a grey table, turned by some angle; returns the image and the face's quad."""
    rng = np.random.default_rng(seed)
    style = sample_style(rng, style_name) if isinstance(style_name, str) else style_name
    return _photo(face_sprite(style, top, bottom, 160, rng), rng)


def _photo(sprite: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A tile sprite (BGRA float) on a grey table, turned by some angle; the image and the tile's quad."""
    h, w = sprite.shape[:2]
    image = np.full((260, 260, 3), 0.45, np.float32)
    angle = np.radians(rng.uniform(0, 360))
    c, s = np.cos(angle), np.sin(angle)
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) @ [[c, s], [-s, c]]
    quad = (corners + 130).astype(np.float32)
    src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
    warped = cv2.warpPerspective(sprite, cv2.getPerspectiveTransform(src, quad), (260, 260))
    image = image * (1 - warped[:, :, 3:]) + warped[:, :, :3] * warped[:, :, 3:]
    return (image * 255).astype(np.uint8), quad


@pytest.mark.parametrize("style", ["ivory-chinese", "black-chinese", "european-white"])
def test_reader_counts_both_halves_of_every_face(style: str) -> None:
    chinese = style != "european-white"
    faces = [(a, b) for a in range(0 if not chinese else 1, 7) for b in range(a, 7)]
    for k, (a, b) in enumerate(faces):
        image, quad = _tile_photo(style, b, a, seed=k)  # drawn with the higher number on top
        reading = read_tile(image, quad, divided=not chinese)
        assert (reading.top.count, reading.bottom.count) == (b, a), f"{style} {a}:{b}"
        assert reading.divider == (not chinese)
        if chinese and a == 1 and b != 1:
            assert reading.bottom.colour == "red"


@pytest.mark.parametrize("pip_size", [0.26, 0.3])
def test_big_european_pips_next_to_the_divider(pip_size: float) -> None:
    """Big pips (a pink plastic set's) side by side just past the divider fill a row near the middle as a bar
    does: taken for part of the divider they were erased, and a 6 read as a 4."""
    for k, (top, bottom) in enumerate([(1, 6), (2, 6), (6, 6), (1, 4), (5, 5)]):
        style = replace(sample_style(np.random.default_rng(k), "european-white"), pip_size=pip_size, aspect=2.0)
        image, quad = _tile_photo(style, top, bottom, seed=k)
        reading = read_tile(image, quad)
        assert reading.divider and (reading.top.count, reading.bottom.count) == (top, bottom), f"{top}:{bottom}"


def test_a_pale_pink_pip_is_not_red() -> None:
    """The shared art's light pips are pale pink: taken for red they made a 5:6 a half-red 6:6. A red pip, dark
    or lit, or blurred into an ivory face, stays red."""
    black, ivory = np.array([20.0, 128.0, 128.0]), np.array([225.0, 130.0, 140.0])
    assert _colour_name(np.array([208.0, 151.0, 134.0]), black) == "white"
    for red, face in (([130.0, 193.0, 168.0], black), ([90.0, 170.0, 150.0], black), ([190.0, 158.0, 146.0], ivory)):
        assert _colour_name(np.array(red), face) == "red", red


def _turned(quad: np.ndarray, degrees: float) -> np.ndarray:
    angle = np.radians(degrees)
    c, s = np.cos(angle), np.sin(angle)
    centre = quad.mean(axis=0)
    return ((quad - centre) @ np.array([[c, s], [-s, c]]) + centre).astype(np.float32)


@pytest.mark.parametrize("degrees", [-6.0, 5.0])
def test_a_european_tile_read_from_a_turned_quad(degrees: float) -> None:
    """A found quad turned a few degrees from the tile: the divider runs aslant in the crop, which used to read
    as no divider (a face-down tile); the reader turns the quad to the divider and reads again."""
    for k, (top, bottom) in enumerate([(5, 2), (6, 4), (3, 0), (1, 1)]):
        image, quad = _tile_photo("european-white", top, bottom, seed=40 + k)
        reading = read_tile(image, _turned(quad, degrees))
        assert reading.divider and not reading.face_down, f"{top}:{bottom} at {degrees} degrees"
        assert (reading.top.count, reading.bottom.count) == (top, bottom)


def test_a_quad_across_two_tiles_is_not_a_tile() -> None:
    """The finder may put one quad across the touching ends of two tiles in a line: a divider near each end of
    its crop gives it away, and the recogniser drops it rather than read a 6:6 that is not there."""
    rng = np.random.default_rng(7)
    sprite = face_sprite(sample_style(rng, "european-white"), 6, 2, 160, rng)
    h, w = sprite.shape[:2]
    line = np.full((2 * h + 40, w + 40, 3), 0.45, np.float32)
    for top in (20, 20 + h):  # two tiles end to end, touching
        area = line[top : top + h, 20 : 20 + w]
        area[:] = area * (1 - sprite[:, :, 3:]) + sprite[:, :, :3] * sprite[:, :, 3:]
    image = (line * 255).astype(np.uint8)
    tile = np.array([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]], np.float32) - 0.5
    across = tile + np.array([[0, 0.45 * h], [0, 0.45 * h], [0, 0.55 * h], [0, 0.55 * h]], np.float32)  # both dividers
    whole, straddling = read_tile(image, tile), read_tile(image, across)
    assert not whole.straddles and (whole.top.count, whole.bottom.count) == (6, 2)
    assert straddling.straddles
    assert _plausible([tile, across], [whole, straddling]) == [True, False]


def test_a_quad_across_two_tiles_gives_way_to_both() -> None:
    """The finder's only quad for two tiles of a chain may hold the second half of one and the first half of the
    next: each of its two dividers is the middle of a tile, as long as the tiles read, so both are read from there
    (a real photo's 0:6 was lost so). A tile already read is not added again."""
    rng = np.random.default_rng(7)
    style = sample_style(rng, "european-white")
    sprites = [face_sprite(style, top, bottom, 160, rng) for top, bottom in ((6, 2), (3, 5), (1, 4))]
    h, w = sprites[0].shape[:2]
    line = np.full((3 * h + 40, w + 40, 3), 0.45, np.float32)
    for k, sprite in enumerate(sprites):  # three tiles end to end, touching
        area = line[20 + k * h : 20 + (k + 1) * h, 20 : 20 + w]
        area[:] = area * (1 - sprite[:, :, 3:]) + sprite[:, :, :3] * sprite[:, :, 3:]
    image = (line * 255).astype(np.uint8)
    first = np.array([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]], np.float32) - 0.5
    across = first + np.array([[0, 1.45 * h], [0, 1.45 * h], [0, 1.55 * h], [0, 1.55 * h]], np.float32)  # 2nd-3rd
    reading = read_tile(image, across)
    assert reading.straddles and len(reading.seams) == 2 and reading.seams[0] < 0.5 < reading.seams[1]
    quads, readings, keep = _split(image, [first], [read_tile(image, first)], [True], [across])
    assert keep == [True, True, True] and len(quads) == 3
    assert [(r.top.count, r.bottom.count) for r in readings] == [(6, 2), (3, 5), (1, 4)]
    for k, quad in enumerate(quads[1:], start=1):
        assert np.abs(quad.mean(axis=0) - first.mean(axis=0) - np.array([0, k * h])).max() < 0.1 * h
    # the kept tile is not read again from a quad across it and the next
    quads, _, _ = _split(image, [first], [read_tile(image, first)], [True], [across - [0, h]])
    assert len(quads) == 2


def test_a_tile_is_not_split_onto_the_table_round_it() -> None:
    """A rendered European 6:6 with big pips, its quad a little long: its end rows of pips pass for the dividers of
    two tiles it straddles, and the tiles centred on them would lie half on the table (read 0:6 and a blank). They
    are not of the colour of the quad they came from, so they are not added: no tile lies where none is."""
    scene = render_scene(np.random.default_rng([2026, 28]), DominoSceneConfig(size=(1280, 720),
                                                                               styles=("european-colour",)))
    seen = DominoRecognizer.for_photos(scene.tile_set)(scene.image)
    assert len(seen.tiles) >= 2
    for tile in seen.tiles:
        assert max(quad_iou(np.asarray(tile.quad, np.float32), q.astype(np.float32)) for q in scene.quads) > 0.5


def _scaled(quad: np.ndarray, factor: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return ((quad - centre) * factor + centre).astype(np.float32)


def test_a_face_up_candidate_much_shorter_than_the_tiles_is_dropped() -> None:
    """A quad round one column of a tile's pips, or half a tile, reads as a small double that would take a real
    tile's name: with enough tiles read to know their size it is dropped; a longer one (nearer a tilted camera)
    stays, and with too few tiles read nothing is dropped for its size."""
    quad = np.array(QUAD, np.float32)
    tiles = [quad] * MIN_SIZED
    readings = [_reading(k % 6, 3) for k in range(MIN_SIZED)]
    for factor, kept in ((0.55, False), (0.8, True), (1.5, True)):
        keep = _plausible([*tiles, _scaled(quad, factor)], [*readings, _reading(1, 1)], texture=False)
        assert keep == [True] * MIN_SIZED + [kept], factor
    few = _plausible([*tiles[:2], _scaled(quad, 0.55)], [*readings[:2], _reading(1, 1)], texture=False)
    assert few == [True, True, True]


def test_a_back_is_about_the_size_of_the_faces() -> None:
    """A face-down candidate of a tile's size stays, even a near one under a tilted camera (1.4 times the faces'
    length); one much shorter or longer (a fold, two tiles' width) goes, as soon as one face is read."""
    quad = np.array(QUAD, np.float32)
    back = replace(_reading(0, 0), face_down=True)
    for factor, kept in ((0.5, False), (0.7, True), (1.0, True), (1.4, True), (1.7, False)):
        assert _plausible([quad, _scaled(quad, factor)], [_reading(2, 3), back], texture=False) == [True, kept]


def _box(x: float, y: float, w: float = 40.0, h: float = 80.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_overlapping_quads_keep_one_tile_each() -> None:
    """Tiles do not overlap in view: of a tile's quad and one on its half (surer or not) the tile's stays; of
    two quads half a tile apart the surer; a quad round a row of three tiles goes and the tiles stay; tiles
    touching side by side all stay."""
    tile, half = _box(0, 0), _box(0, 40, h=40)
    assert _apart([tile, half], np.array([0.4, 0.6])) == [0]
    assert _apart([tile, _box(0, 40)], np.array([0.4, 0.6])) == [1]
    row = [_box(40 * k, 0) for k in range(3)]
    assert _apart([*row, _box(0, 0, w=120)], np.array([0.8, 0.7, 0.9, 0.95])) == [0, 1, 2]
    assert _apart(row, np.array([0.3, 0.9, 0.5])) == [0, 1, 2]
    assert _apart([tile], np.array([0.5])) == [0] and _apart([], np.zeros(0)) == []


def test_a_sure_tile_is_no_row_of_the_weak_quads_round_its_pips() -> None:
    """Two quads across a tile, round the pairs of pips at its ends, look like a row's two tiles; but the finder was
    far surer of the tile (a held-out 2:2 at 1.0, its pairs at 0.56 and 0.40), so the tile stays and they go. Of a
    row's tiles it is sure of one at least: a box round a wall goes, even one a little surer than each tile."""
    tile = _box(0, 0, w=60, h=170)
    pairs = [_box(0, 2, w=60, h=30), _box(0, 138, w=60, h=30)]
    assert _apart([tile, *pairs], np.array([1.0, 0.56, 0.40])) == [0]
    assert _apart([tile, *pairs], np.array([0.56, 0.5, 0.45])) == [1, 2]  # not far surer: a row, as before
    wall = [_box(0, 40 * k, w=120, h=40) for k in range(3)]
    assert _apart([_box(0, 0, w=120, h=120), *wall], np.array([0.56, 0.96, 0.89, 0.68])) == [1, 2, 3]
    assert _apart([_box(0, 0, w=120, h=120), *wall], np.array([0.99, 0.96, 0.89, 0.68])) == [1, 2, 3]


def test_boxes_across_a_tile_among_the_frame_s_tiles_do_not_make_it_a_row() -> None:
    """Boxes round a tile's pairs of pips, or round its back's print, lie across it and are a third of a tile long:
    beside the frame's sure tiles they are no row's tiles, even where the finder is nearly as sure of them (a held-out
    4:4 at 1.0 with its pairs at 0.86 and 0.80 was dropped as a row, and the pairs were no tiles either). Alone, with
    no tile length to go by, it is a row as before; and a wall of tiles side by side, boxed whole, still comes apart."""
    tile = _box(0, 0, w=60, h=170)
    pairs = [_box(0, 10, w=60, h=32), _box(0, 128, w=60, h=32)]
    others = [_box(200 + 80 * k, 0, w=60, h=170) for k in range(3)]
    assert _apart([tile, *pairs, *others], np.array([1.0, 0.86, 0.80, 1.0, 1.0, 1.0])) == [0, 3, 4, 5]
    assert _apart([tile, *pairs], np.array([1.0, 0.86, 0.80])) == [1, 2]
    wall = [_box(40 * k, 300, w=40, h=110) for k in range(7)]
    assert _apart([_box(0, 300, w=280, h=110), *wall, *others], np.array([1.0] + [0.8] * 7 + [1.0] * 3)) == list(
        range(1, 11))


def test_a_sure_tile_in_a_weak_box_round_it_stays() -> None:
    """A quad lying in a much bigger one is taken for a piece of that tile only where the bigger one is at least
    half as sure: a held-out 6:6 (0.99) lay in a box round a printed zone's corner (0.46), and was lost."""
    tile, box = _box(60, 20, w=45, h=136), _box(0, 0, w=102, h=219)
    assert _apart([tile, box], np.array([0.99, 0.46])) == [0]
    assert _apart([tile, box], np.array([0.99, 0.6])) == [1]  # sure enough: the tile is a piece of it


def test_quads_round_a_tile_s_pip_columns_do_not_make_it_a_row() -> None:
    """Two quads side by side round the two columns of a tile's pips lie in it as two tiles of a row lie in a quad
    round the row; but they span half its width each, as tiles of a row span the row's: the tile stays and they go
    (a real photo's 3:6 was dropped as a row, and a column of its 6 named 1:1). A squat quad round two tiles side
    by side is a row's, though each spans half its width."""
    tile = _box(0, 0, w=80, h=160)
    columns = [_box(0, 60, w=40, h=100), _box(40, 60, w=40, h=100)]
    assert _apart([tile, *columns], np.array([0.9, 0.4, 0.4])) == [0]
    assert _apart([tile, *columns], np.array([0.3, 0.4, 0.4])) == [0]  # surer in sum, still half the tile each
    row = [_box(0, 0, w=80, h=160), _box(0, 160, w=80, h=160)]
    assert _apart([*row, _box(0, 0, w=80, h=320)], np.array([0.8, 0.7, 0.9])) == [0, 1]
    side_by_side = [_box(0, 0, w=64, h=160), _box(64, 0, w=64, h=160)]  # a squat quad round both is a row's
    assert _apart([*side_by_side, _box(0, 0, w=128, h=160)], np.array([0.8, 0.7, 0.9])) == [0, 1]


def test_the_tile_beside_a_quad_is_a_tile_long_and_meets_its_end() -> None:
    """A tile looked for beside a found one is placed a tile's length along (its end meeting the found quad's) or a
    width across; a found quad too short (a back's print taken for its end) does not pass its length on."""
    quad = _box(0, 0, w=40, h=60)
    assert np.allclose(_neighbour(quad, 1.0, 0.0), _box(0, 60, w=40, h=60))  # as long as it, by default
    assert np.allclose(_neighbour(quad, 1.0, 0.0, 80.0), _box(0, 60, w=40, h=80))
    assert np.allclose(_neighbour(quad, -1.0, 0.0, 80.0), _box(0, -80, w=40, h=80))
    assert np.allclose(_neighbour(quad, 0.0, 1.0, 80.0), _box(40, -10, w=40, h=80))


def test_a_quad_a_sliver_past_the_frame_is_pulled_in() -> None:
    """A tile whose rim the frame cuts (or a loose quad of a tile at the edge) is read from the quad pulled into
    the frame; a tile cut by more than ``MAX_CUT`` of its length stays cut, and is dropped."""
    tile = _box(-2.0, 10.0)
    pulled = _into_frame(tile, 200, 100)
    assert pulled[:, 0].min() == 1.0 and np.array_equal(pulled[:, 1], tile[:, 1])
    far = _box(-0.2 * 80, 10.0)
    assert np.array_equal(_into_frame(far, 200, 100), far)
    inside = _box(50.0, 10.0)
    assert np.array_equal(_into_frame(inside, 200, 100), inside)


def test_a_quad_across_two_tiles_loses_to_both() -> None:
    """Two tiles end to end and a quad across their touching ends, a little surer than either tile's own quad:
    the two tiles stay (together they are surer); surer than both together, it stays alone. Clusters are chosen
    apart: a far tile is kept whatever happens in the line."""
    first, second, across, far = _box(0, 0), _box(0, 80), _box(0, 40), _box(300, 300)
    assert _apart([first, second, across], np.array([0.35, 0.34, 0.38])) == [0, 1]
    assert _apart([first, second, across, far], np.array([0.35, 0.34, 0.8, 0.4])) == [2, 3]
    line = [_box(0, 80 * k) for k in range(5)] + [_box(0, 80 * k + 40) for k in range(4)]
    assert _apart(line, np.array([0.4] * 5 + [0.45] * 4)) == [0, 1, 2, 3, 4]


def test_a_european_back_is_the_colour_of_the_faces() -> None:
    """A European tile is one colour all over: a plain candidate of another colour than the faces read in the
    same frame (a fold of dark leather beside pink tiles) is not a face-down tile; a Chinese back may differ."""
    pink, leather = (60.0, 180.0, 120.0), (20.0, 131.0, 133.0)
    up = replace(_reading(0, 2), face=pink)
    quad = np.array(QUAD, np.float32)
    for back, kept in ((pink, True), ((48.0, 176.0, 124.0), True), (leather, False)):
        down = replace(_reading(0, 0), face_down=True, face=back)
        assert _plausible([quad, quad], [up, down], texture=False, same_back=True) == [True, kept]
        assert _plausible([quad, quad], [up, down], texture=False, same_back=False) == [True, True]


def test_a_european_face_is_the_colour_of_the_others_once_enough_are_read() -> None:
    """A barcode's bars pass for a divider: a face-up candidate of another colour than the faces read goes, where
    at least ``MIN_COLOURED`` read face up, the stray among them (the faces' colour is then theirs, not the
    stray's)."""
    pink, paper = (150.0, 182.0, 120.0), (240.0, 128.0, 130.0)
    quad = np.array(QUAD, np.float32)
    faces = [replace(_reading(0, 2), face=pink) for _ in range(MIN_COLOURED - 2)]
    stray = replace(_reading(0, 3), face=paper)
    few = [*faces, stray]
    assert _plausible([quad] * len(few), few, texture=False, same_back=True) == [True] * len(few)
    more = [*faces, replace(_reading(1, 2), face=pink), stray]  # as many read face up as it takes
    assert _plausible([quad] * len(more), more, texture=False, same_back=True) == [True] * (len(more) - 1) + [False]
    assert all(_plausible([quad] * len(more), more, texture=False, same_back=False))


def test_european_backs_alone_are_the_colour_of_most_of_them() -> None:
    """With no face up (a wall, a hand turned down), a European back of another colour than most backs goes, where
    ``MIN_COLOURED`` backs or more are read; a Chinese set's backs may differ."""
    green, paper = (180.0, 129.0, 190.0), (251.0, 118.0, 158.0)
    quad = np.array(QUAD, np.float32)
    backs = [replace(_reading(0, 0), face_down=True, face=green) for _ in range(MIN_COLOURED)]
    stray = replace(_reading(0, 0), face_down=True, face=paper)
    kept = _plausible([quad] * (MIN_COLOURED + 1), [*backs, stray], texture=False, same_back=True)
    assert kept == [True] * MIN_COLOURED + [False]
    few = [*backs[: MIN_COLOURED - 2], stray]
    assert all(_plausible([quad] * len(few), few, texture=False, same_back=True))
    assert all(_plausible([quad] * (MIN_COLOURED + 1), [*backs, stray], texture=False, same_back=False))


def test_a_tile_the_usual_look_found_too_is_no_extra() -> None:
    """A still photo's face-down tile that only the finer look found is dropped (a dark square of a checked cloth),
    but not one the usual look had a candidate on, which gave way to the finer look's surer quad."""
    quads = [_box(0, 0), _box(100, 0), _box(2, 3), _box(200, 0), _box(300, 0)]
    whole = [0, 1, 2, 3, -1]  # the usual look gave 0-1, the finer look 2-3; 4 was found beside
    # 0 gave way to 2 (the same tile); 3 is the finer look's alone
    assert _only_more_looks(quads, whole, [1, 2, 3, 4], [0], usual=2) == [False, False, True, False]
    assert _only_more_looks(quads, whole, [1, 2, 3, 4], [], usual=2) == [False, True, True, False]
    half = [_box(0, 0), _box(0, 50, h=80)]  # overlapping by less than the same tile would
    assert _only_more_looks(half, [0, 1], [1], [0], usual=1) == [True]


def test_a_wall_s_back_both_looks_found_is_kept_in_a_still_photo(shared_data: Path) -> None:
    """The lowest back of a wall of the held-out art: the usual look's candidate (heat 0.28) and the finer look's
    quad were refined onto it; the finer look's was kept and, as a face-down tile only it had found, dropped."""
    scene = render_scene(np.random.default_rng([2026, 18]), DominoSceneConfig(size=(1280, 720),
                                                                              styles=("paigow-art",)))
    seen = DominoRecognizer.for_photos(scene.tile_set)(scene.image)
    back = scene.quads[4]
    assert scene.visible[4] >= 0.98 and not scene.cut[4]
    assert any(t.face_down and quad_iou(np.asarray(t.quad, np.float32), back) >= 0.5 for t in seen.tiles)


def test_a_tile_only_the_look_beside_found_must_be_named_surely() -> None:
    """A 0:0 named with 0.13 beside a found tile was a patch of table with a line across it: such a tile goes where
    the look beside alone found it, in either set; a tile the finder found stays however unsure its name."""
    sure, unsure = Resolved((2, 5), False, 0.97), Resolved((0, 0), False, 0.13)
    quads = [_box(0, 0), _box(100, 0), _box(200, 0)]
    for tile_set in ("double-six", "chinese"):
        recognizer = DominoRecognizer(tile_set)
        assert recognizer._beside_kept(quads, [sure, unsure, unsure], [True, True, False]) == [True, False, True]


def test_a_few_european_faces_among_backs_are_the_colour_of_all_the_tiles() -> None:
    """Blue backs, one of them read face up (its print's bar passes for a divider), and a white label of a printed
    mat read as a 0:3: with fewer than ``MIN_COLOURED`` read face up, the set's colour is all the tiles' (the two
    faces' median lies between them), and the label goes; with too few tiles in all, nothing goes for its colour."""
    blue, white = (86.0, 148.0, 83.0), (137.0, 143.0, 122.0)
    quad = np.array(QUAD, np.float32)
    backs = [replace(_reading(0, 0), face_down=True, face=blue) for _ in range(MIN_COLOURED)]
    printed, label = replace(_reading(1, 0), face=(91.0, 148.0, 83.0)), replace(_reading(0, 3), face=white)
    readings = [*backs, printed, label]
    kept = _plausible([quad] * len(readings), readings, texture=False, same_back=True)
    assert kept == [True] * (MIN_COLOURED + 1) + [False]
    assert all(_plausible([quad] * len(readings), readings, texture=False, same_back=False))
    assert all(_plausible([quad] * 2, [printed, label], texture=False, same_back=True))


def test_a_european_back_found_beside_lies_in_touch_with_backs() -> None:
    """The look beside finds the backs a finder missed in a row or a wall of backs; a back it finds beside a face-up
    tile alone is a patch of table the set's colour. Backs it found in a chain from a back found otherwise stay, and
    so do the faces it found."""
    row = [_box(40.0 * k, 0) for k in range(5)]  # five backs side by side, the last two found beside
    assert _backs_in_touch(row, [True] * 5, [False, False, False, True, True]) == [True] * 5
    lone = [_box(0, 200), _box(0, 280), _box(300, 300)]  # a face-up tile with a back beside it end to end; a back
    assert _backs_in_touch(lone, [False, True, True], [False, True, False]) == [True, False, True]
    assert _backs_in_touch(lone, [False, False, True], [False, True, False]) == [True, True, True]
    far = [_box(0, 0), _box(200, 0)]  # a back found beside another back but far from it: not in touch
    assert _backs_in_touch(far, [True, True], [False, True]) == [True, False]


def _reading(top: int, bottom: int, red: tuple[float, float] = (0.0, 0.0)) -> TileReading:
    def half(n: int, share: float) -> HalfReading:
        return HalfReading(n, 0, "red" if share > 0.5 else "white", share)

    return TileReading(half(top, red[0]), half(bottom, red[1]), False, False, 80.0, 5.0)


def test_resolution_keeps_the_set_rules() -> None:
    chinese = domino_set("chinese")
    three_earths = [_reading(1, 1, (1.0, 1.0))] * 3
    names = resolve(three_earths, chinese)
    assert sum(n.face == (1, 1) for n in names) == 2  # Earth has two copies: the third gets its runner-up
    assert [n.face for n in names].count(None) + sum(n.face != (1, 1) for n in names) == 1
    blank = resolve([_reading(0, 3)], chinese)[0]
    assert blank.face is not None and 0 not in blank.face  # a Chinese set has no blanks
    european = resolve([_reading(0, 3)], domino_set("double-six"))[0]
    assert european.face == (0, 3) and european.confidence > 0.8
    flipped = resolve([_reading(5, 2)], domino_set("double-six"))[0]
    assert flipped.face == (2, 5) and flipped.flipped


def test_recogniser_reads_a_clean_rendered_table() -> None:
    config = DominoSceneConfig(size=(960, 540), styles=("european-white",), layouts={"scattered": 1.0},
                               tiles=(5, 5), tilt_max_deg=0.0, tile_length=(0.22, 0.26),
                               photo=replace(preset("clean"), surfaces={"felt": 1.0}))
    scene = render_scene(3, config)
    seen = DominoRecognizer("double-six")(scene.image)
    assert sorted(seen.labels()) == sorted(scene.labels())
    for tile in seen.face_up:
        assert tile.pips is not None and tile.pips[0] <= tile.pips[1]


def test_recogniser_rejects_bad_frames() -> None:
    recognizer = DominoRecognizer("chinese")
    with pytest.raises(EmptyImageError):
        recognizer(np.zeros((0, 10, 3), np.uint8))
    with pytest.raises(ImageTypeError):
        recognizer(np.zeros((10, 10, 3), np.float32))
    empty = recognizer(np.full((120, 160, 3), 90, np.uint8))
    assert empty.tiles == () and empty.pip_total == 0
