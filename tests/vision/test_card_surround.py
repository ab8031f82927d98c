"""The card surround check: the shipped model reads its wider crop from its metadata (the crop itself is tested with
the others in ``test_tile_refiner.py``), and runs through onnxruntime on held-out scenes with card boxes (the art on
a box's lid is no card; the cards round it are)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda.art import TEST_STYLE
from datasets.hanafuda.config import preset
from datasets.hanafuda.refiner_data import BOX_HEAVY
from datasets.hanafuda.scenes import render_scene
from tests.vision.card_helpers import as_stored, card_kind, held_out
from vision.card_refiner import CardRefiner
from vision.card_surround import SURROUND_CROP, CardSurround
from vision.classifier import CardClassifier
from vision.geometry import quad_iou
from vision.recognizer import ONLY_FACE_VETO, Recognizer, _lone


@pytest.fixture(scope="module")
def surround() -> CardSurround:
    return CardSurround()


def test_the_model_reads_its_wider_view_from_its_metadata(surround: CardSurround) -> None:
    assert surround.geometry == SURROUND_CROP
    assert surround.metadata["input"]["share"] == pytest.approx(1 / 3)


def _box_scenes(count: int) -> list:
    return [render_scene(np.random.default_rng([9600, i]), preset("default", styles=(TEST_STYLE,), size=(960, 540),
                                                                   props=1.0, prop_kinds=BOX_HEAVY))
            for i in range(count)]


def test_box_art_is_no_loose_card_and_cards_are(shared_data: Path, surround: CardSurround) -> None:
    """Held-out art: the art on card boxes' lids, and the cards that show most of their face, from their true
    quads."""
    art_p, card_p = [], []
    for scene in _box_scenes(8):
        arts = [prop.art_quad for prop in scene.props if prop.art_quad is not None]
        cards = [scene.quads[k] for k in range(len(scene.labels))
                 if scene.visible[k] >= 0.6 and not scene.cut[k] and scene.labels[k] != "blank"]
        quads = np.array([*arts, *cards], np.float32).reshape(-1, 4, 2)
        _, card = surround(scene.image, quads)
        art_p += list(card[:len(arts)])
        card_p += list(card[len(arts):])
    assert len(art_p) >= 8 and len(card_p) >= 40
    assert np.mean(np.array(art_p) < 0.05) >= 0.8, np.round(art_p, 3)
    assert np.mean(np.array(card_p) >= 0.5) >= 0.97, np.round(sorted(card_p)[:5], 2)


def _named(recognizer: Recognizer, image: np.ndarray, arts: list[np.ndarray]) -> tuple[list[str], int]:
    """The cards named off the boxes' art (sorted), and how many are named on it."""
    cards = [c for c in recognizer(image).cards if c.label != "unknown"]
    on_art = [max(quad_iou(np.asarray(c.quad, np.float32), a) for a in arts) >= 0.5 for c in cards]
    return sorted(c.label for c, on in zip(cards, on_art, strict=True) if not on), sum(on_art)


@pytest.mark.parametrize("scenes", [(8, 14, 53), (17, 72)], ids=["close-up", "lone"])
def test_the_photo_recogniser_drops_box_art(shared_data: Path, surround: CardSurround, scenes: tuple[int, ...]
                                            ) -> None:
    """Held-out scenes where a card box's art was named as a card: bigger than the cards (the refiner does not look
    at close-up cards), or lying away from them (the refiner called it a card). With the surround check it is not,
    and every other card named before still is (in scene 72 a real peony plain, left unknown while the art took
    its name, is named too). Scene 72 is dim, and brightened (``vision.exposure``, session 28) the check gives its
    art 0.47 and lets it stay: the frames are read as rendered here, the check's own doing (README, session 28)."""
    classifier, refiner = CardClassifier(threads=1), CardRefiner()
    photos = Recognizer.for_photos(classifier=classifier, refiner=refiner, surround=surround, brighten=False)
    without = Recognizer.for_photos(classifier=classifier, refiner=refiner, surround=None, brighten=False)
    for i in scenes:
        scene = render_scene(np.random.default_rng([9700, i]), preset("default", styles=(TEST_STYLE,),
                                                                       size=(960, 540), props=1.0,
                                                                       prop_kinds=BOX_HEAVY))
        arts = [prop.art_quad for prop in scene.props if prop.art_quad is not None]
        (kept, art_kept), (before, art_before) = (_named(r, scene.image, arts) for r in (photos, without))
        assert art_before >= 1 and art_kept == 0, f"scene {i}: art named {art_before} -> {art_kept}"
        assert not Counter(before) - Counter(kept), f"scene {i}: {before} -> {kept}"


def test_the_only_close_up_face_goes_only_where_the_check_all_but_rules_out_a_card(surround: CardSurround) -> None:
    """One big "card" alone in the frame: both crops reach far past it, so the bar is far lower than for two
    (``ONLY_FACE_VETO`` against ``surround_veto``). A plain grey field round it is no card even so (the check gives
    it 0.0001); two such "cards" go at the usual bar."""
    image = np.full((540, 960, 3), 90, np.uint8)
    quad = np.array([[380, 60], [580, 60], [580, 480], [380, 480]], np.float32)
    recognizer = Recognizer.for_photos(surround=surround)
    faces = np.zeros((1, len(recognizer.classifier.classes)), np.float32)
    faces[0, 0] = 1.0
    assert recognizer.surround_veto > ONLY_FACE_VETO
    assert surround(image, quad[None])[1][0] < ONLY_FACE_VETO
    assert not recognizer._surrounded(image, quad[None], faces).any()
    two = np.concatenate([faces, faces])
    keep = recognizer._surrounded(image, np.stack([quad, quad + np.array([300, 0], np.float32)]), two)
    assert not keep.any(), "a plain grey field round two big 'cards' is no card"


@pytest.mark.parametrize(("index", "card"), [(63, None), (71, "cherry-plain"), (37, "peony-plain")])
def test_a_close_up_photo_names_its_only_card_and_not_a_box(shared_data: Path, surround: CardSurround, index: int,
                                                            card: str | None) -> None:
    """Held-out `close-up` photos (seed 8100) where one face is named. Scene 63: a card box alone, its lid printed
    with the iris ribbon (the classifier 0.67, the surround check 0.003), over two cards the frame cuts; it is not
    named, as it was until session 38. Scenes 71 and 37: a cherry plain and a peony plain held close, which the
    surround check doubts most of the set's lone close-up cards (0.077 and 0.13): both are named."""
    scene = held_out(8100, index, "close-up")
    cards = Recognizer.for_photos(surround=surround)(as_stored(scene.image)).cards
    named = [card_kind(c.label) for c in cards if c.label not in ("unknown", "back")]
    assert named == ([] if card is None else [card])


def test_a_face_is_lone_with_no_other_quad_within_three_widths() -> None:
    card = np.array([[0, 0], [40, 0], [40, 64], [0, 64]], np.float32)
    quads = np.stack([card, card + np.array([100, 0], np.float32), card + np.array([300, 0], np.float32)])
    assert _lone(quads).tolist() == [False, False, True]
    assert _lone(quads[:1]).tolist() == [True]


@pytest.mark.parametrize("veto", [0.0, 1.0, -0.1])
def test_a_surround_veto_outside_the_open_unit_interval_is_refused(surround: CardSurround, veto: float) -> None:
    with pytest.raises(ValueError, match="surround_veto"):
        Recognizer(surround=surround, surround_veto=veto)


def test_box_art_does_not_pass_the_refiners_veto_on_appeal(shared_data: Path) -> None:
    """A sure detection the refiner vetoes stays where the classifier names a face surely and the surround check
    takes it for a loose card (``Recognizer._appealed``): the art on the boxes' lids never does."""
    recognizer = Recognizer.for_photos()
    arts = [(scene.image, np.array([p.art_quad for p in scene.props if p.art_quad is not None], np.float32))
            for scene in _box_scenes(16)]
    arts = [(image, quads) for image, quads in arts if len(quads)]
    assert sum(len(quads) for _, quads in arts) >= 20
    assert not any(recognizer._appealed(image, quads).any() for image, quads in arts)
