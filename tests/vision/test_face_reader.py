"""The domino face reader: its crops, the shipped model through onnxruntime on rendered tiles, its reading from slid
quads (still photos), and how resolution weighs it against the pip blob reader."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.dominoes.evaluate import score_scene
from datasets.dominoes.face_data import label
from datasets.dominoes.scenes import DominoSceneConfig, render_scene
from vision.dominoes.face_reader import CLASSES, SET_MODELS, FaceReader, FaceReaderModelError, face_crops
from vision.dominoes.pips import HalfReading, TileReading
from vision.dominoes.recognizer import PHOTO_FACE_SLIDES, DominoRecognizer
from vision.dominoes.resolve import resolve
from vision.dominoes.sets import domino_set
from vision.geometry import order_quads

TILE = np.array([[300, 200], [340, 210], [318, 310], [278, 300]], np.float32)


@pytest.fixture(scope="module")
def reader() -> FaceReader:
    return FaceReader()


def test_a_crop_is_the_tile_upright_with_a_margin_all_round() -> None:
    image = np.zeros((480, 640, 3), np.uint8)
    box = np.array([[200, 100], [240, 100], [240, 200], [200, 200]], np.float32)  # 40 x 100, upright
    cv2.fillConvexPoly(image, box.astype(np.int32), (255, 255, 255))
    crop = face_crops(image, box[None], size=(40, 100), grow=0.25)[0]
    assert crop.shape == (100, 40, 3)
    bright = np.argwhere(crop[..., 0] > 128)
    # the tile is 40 px wide plus 10 px each side, shown 40 px wide: it fills the middle two thirds across, and the
    # same 10 px at each end of its 100 px length
    assert abs(bright[:, 1].min() - 40 / 6) <= 1.5 and abs(bright[:, 1].max() - 40 * 5 / 6) <= 1.5
    assert abs(bright[:, 0].min() - 100 * 10 / 120) <= 1.5 and abs(bright[:, 0].max() - 100 * 110 / 120) <= 1.5
    assert np.array_equal(face_crops(image, np.roll(box, 1, axis=0)[None], (40, 100), 0.25)[0], crop)
    assert face_crops(image, np.zeros((0, 4, 2)), (40, 100)).shape == (0, 100, 40, 3)


@pytest.mark.parametrize("style", ["ivory-chinese", "black-chinese", "european-white"])
def test_the_model_names_rendered_tiles_either_way_up(reader: FaceReader, style: str) -> None:
    config = DominoSceneConfig(styles=(style,), layouts={"scattered": 1.0})
    truth, quads, images = [], [], []
    for seed in range(4):
        scene = render_scene(np.random.default_rng([88, seed]), config)
        for k in np.flatnonzero(scene.whole()):
            truth.append(label(scene.faces[k], bool(scene.face_up[k])))
            quads.append(scene.quads[k])
            images.append(scene.image)
    probs = np.concatenate([reader(image, quad[None]) for image, quad in zip(images, quads, strict=True)])
    turned = np.concatenate([reader(image, np.roll(quad, 2, axis=0)[None])
                             for image, quad in zip(images, quads, strict=True)])
    assert probs.shape == (len(truth), len(CLASSES)) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    named = probs.argmax(axis=1)
    assert len(truth) >= 20 and (named == np.array(truth)).mean() >= 0.95, [CLASSES[i] for i in named]
    assert np.array_equal(turned.argmax(axis=1), named)  # a quad's corner order is the same tile


def test_each_set_has_its_reader_and_the_european_one_knows_printed_backs() -> None:
    """A European set's reader (``SET_MODELS``) has seen backs bearing a bold maker's mark whose bar passes for a
    divider: it calls such backs (rendered, through onnxruntime) backs surely, more often than the Chinese one."""
    european, chinese = FaceReader.for_set("double-six"), FaceReader.for_set("chinese")
    assert (european.path.name, chinese.path.name) == (SET_MODELS["double-six"], SET_MODELS["chinese"])
    config = DominoSceneConfig(size=(960, 540), styles=("european-white", "european-colour"),
                               layouts={"wall": 0.5, "scattered": 0.5},
                               back_prints=1.0)
    back = CLASSES.index("back")
    sure = {european: [], chinese: []}
    faces_named = []
    for seed in range(16):
        scene = render_scene(np.random.default_rng([90, seed]), config)
        whole = scene.whole()
        backs = scene.quads[whole & ~scene.face_up].astype(np.float32)
        for reader in sure:
            sure[reader] += (reader(scene.image, backs)[:, back] >= 0.9).tolist()
        up = np.flatnonzero(whole & scene.face_up)
        named = european(scene.image, scene.quads[up].astype(np.float32)).argmax(axis=1)
        faces_named += [n == label(scene.faces[k], True) for n, k in zip(named, up, strict=True)]
    assert len(sure[european]) >= 40 and np.mean(sure[european]) >= 0.8  # 0.88 (the Chinese reader: 0.79)
    assert np.mean(sure[european]) > np.mean(sure[chinese]) + 0.05
    assert len(faces_named) >= 20 and np.mean(faces_named) >= 0.95  # and still names the faces


def test_no_tiles_no_crops(reader: FaceReader) -> None:
    assert reader(np.zeros((100, 100, 3), np.uint8), np.zeros((0, 4, 2))).shape == (0, len(CLASSES))
    assert FaceReader(slides=(0.03,))(np.zeros((100, 100, 3), np.uint8), np.zeros((0, 4, 2))).shape == (0, len(CLASSES))


def test_slides_average_the_reader_over_the_quad_slid_along_the_tile_either_way(reader: FaceReader) -> None:
    scene = render_scene(np.random.default_rng([3, 1]), DominoSceneConfig(styles=("black-chinese",)))
    quads = order_quads(scene.quads[scene.whole()][:3])  # TL, TR, BR, BL with the long side down
    assert len(quads) == 3
    along = (quads[:, 3] - quads[:, 0] + quads[:, 2] - quads[:, 1]) / 2
    looks = [reader(scene.image, quads + np.float32(share) * along[:, None]) for share in (0.0, 0.05, -0.05)]
    slid = FaceReader(slides=(0.05,))(scene.image, quads)
    np.testing.assert_allclose(slid, np.mean(looks, axis=0), atol=1e-6)
    assert not np.allclose(slid, looks[0], atol=1e-3)  # the slid crops are other crops
    assert "slides=(0.05,)" in repr(FaceReader(slides=(0.05,)))
    for bad in ((0.0,), (-0.03,), (0.5,)):
        with pytest.raises(ValueError, match="shares of a tile's length"):
            FaceReader(slides=bad)


@pytest.mark.parametrize(("scene_seed", "tile"), [((4242, 21), "2:5"), ((9001, 32), "2:3")])
def test_a_held_out_two_reads_right_from_slid_quads(scene_seed: tuple[int, int], tile: str) -> None:
    """Held-out art, a lone tile whose two lies side by side at its very end. From the found quad, a few pixels
    towards that end, the face reader took the two for more pips (5:5, 3:5) over the blob reader's right count; read
    from three quads, as still photos are (``PHOTO_FACE_SLIDES``), the tile reads right."""
    scene = render_scene(np.random.default_rng(scene_seed),
                         DominoSceneConfig(size=(1280, 720), styles=("paigow-art",)))
    assert DominoRecognizer.for_photos("chinese").face_slides == PHOTO_FACE_SLIDES != DominoRecognizer().face_slides
    after = score_scene(scene, DominoRecognizer.for_photos("chinese")(scene.image))
    before = score_scene(scene, DominoRecognizer.for_photos("chinese", face_slides=())(scene.image))
    assert after["read"] == after["tiles"] == before["read"] + 1
    assert sum(v for k, v in before.items() if k.startswith(f"misread {tile}->")) == 1


def test_a_model_that_is_not_a_face_reader_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FaceReaderModelError, match="domino face reader"):
        FaceReader(Path(__file__).resolve().parents[2] / "models" / "domino-refiner.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(FaceReaderModelError, match="cannot load"):
        FaceReader(junk)
    with pytest.raises(FileNotFoundError):
        FaceReader(tmp_path / "missing.onnx")


def _reading(top: int, bottom: int, down: bool = False) -> TileReading:
    return TileReading(HalfReading(top, 0, "white", 0.0), HalfReading(bottom, 0, "white", 0.0), True, down, 80.0,
                       5.0)


def _seen(**probs: float) -> np.ndarray:
    row = np.full(len(CLASSES), 1e-3)
    for code, p in probs.items():
        row[CLASSES.index(code.replace("_", ":").lstrip("f"))] = p
    return (row / row.sum())[None]


def test_a_sure_face_reader_outweighs_a_pip_lost_and_a_back_misread() -> None:
    european = domino_set("double-six")
    lost = [_reading(1, 2)]  # the blob reader lost a pip of a 2:2
    assert resolve(lost, european)[0].face == (1, 2)
    assert resolve(lost, european, _seen(f2_2=0.97))[0].face == (2, 2)
    assert resolve(lost, european, _seen(f2_2=0.97), weight=0.0)[0].face == (1, 2)
    unsure = resolve(lost, european, _seen(f2_2=0.4, f1_2=0.3))[0]
    assert unsure.face == (1, 2)  # a blob reading that fits outweighs a doubtful second reader
    down = [_reading(0, 0, down=True)]
    assert resolve(down, european)[0].face_down
    assert resolve(down, european, _seen(f3_5=0.99))[0].face == (3, 5)  # a face the blob reader took for a back
    assert resolve([_reading(3, 5)], european, _seen(back=0.99))[0].face_down  # a back's print read as pips
    chinese = domino_set("chinese")
    assert resolve([_reading(1, 1)], chinese, _seen(back=0.92, f1_1=0.05))[0].face_down  # the held-out art's back print
    assert not resolve([_reading(1, 1)], chinese, _seen(back=0.8, f1_1=0.17))[0].face_down
    # a European set's reader is taken at its word where back is its likeliest class: an "RO" mark over a dotted bar,
    # read as a 0:1 by the blob reader (session 34)
    assert resolve([_reading(0, 1)], european, _seen(back=0.82, f0_1=0.1))[0].face_down
    assert resolve([_reading(0, 1)], european, _seen(back=0.19, f5_6=0.15, f3_3=0.09))[0].face_down
    assert not resolve([_reading(0, 1)], european, _seen(back=0.3, f0_1=0.5))[0].face_down
    assert resolve(down, european, _seen(back=0.5, f3_5=0.5))[0].face_down  # an unsure one: as the blob reader says


def test_a_blank_is_no_face_of_a_chinese_set() -> None:
    """A plain black back with a streak of glare (held-out art): the blob reader sees no pips, the face reader
    0:0 (0.79) and hardly a back (0.04). A Chinese set has no blanks, so it stays a back; once it was named the
    6:6. The same reading of a European set, which has the 0:0, is a 0:0."""
    down = [_reading(0, 0, down=True)]
    glare = _seen(f0_0=0.79, back=0.04, f6_6=0.01)
    assert resolve(down, domino_set("chinese"), glare)[0].face_down
    assert resolve(down, domino_set("double-six"), glare)[0].face == (0, 0)
    assert resolve(down, domino_set("chinese"), _seen(f2_2=0.9, f0_0=0.06, back=0.01))[0].face == (2, 2)


def test_a_sure_face_reader_names_a_tile_whose_pips_the_blob_reader_lost() -> None:
    chinese = domino_set("chinese")
    garbled = [_reading(0, 0)]  # a 4:6 under a tinted light: its pips lost in the face
    assert resolve(garbled, chinese)[0].face == (1, 1)  # the blob reader alone: the nearest face of the set
    sure = resolve(garbled, chinese, _seen(f4_6=0.97))[0]
    assert sure.face == (4, 6) and sure.confidence > 0.9
    doubtful = resolve(garbled, chinese, _seen(f4_6=0.5, f1_6=0.4))[0]
    assert doubtful.face == (4, 6) and doubtful.confidence < 0.7
    assert resolve(garbled, domino_set("double-six"), _seen(f2_5=0.97))[0].face == (2, 5)
