"""The shipped learned card finder (models/card-finder.onnx) through onnxruntime on rendered scenes of the
held-out art style: its quads against the generator's ground truth, props that are not cards, bad models."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, load_style, preset, render_scene
from datasets.hanafuda.backgrounds import render_table
from datasets.hanafuda.camera import make_camera
from datasets.hanafuda.compose import composite
from datasets.hanafuda.effects import apply_camera, sample_look
from datasets.hanafuda.hands import hand
from datasets.hanafuda.objects import OBJECTS
from datasets.hanafuda.printing import sample_deck
from tests.vision.card_helpers import card_kind
from vision.classifier import CardClassifier
from vision.finder_learned import FinderModelError, LearnedFinder
from vision.geometry import iou_matrix, order_quads, quad_iou
from vision.imageio import EmptyImageError
from vision.recognizer import Recognizer

SEEDS = (11, 12, 13, 14)


@pytest.fixture(scope="module")
def finder() -> LearnedFinder:
    return LearnedFinder(threads=1)


def must_find(scene) -> np.ndarray:  # type: ignore[no-untyped-def]
    return (scene.visible >= 0.98) & ~scene.cut


def test_fully_visible_cards_get_tight_quads(shared_data: Path, finder: LearnedFinder) -> None:
    config = preset("default", styles=(TEST_STYLE,), size=(960, 540))
    wanted = found_any = tight = false_positives = 0
    for seed in SEEDS:
        scene = render_scene(seed, config)
        found = finder(scene.image)
        assert found.quads.dtype == np.float32 and found.quads.shape[1:] == (4, 2)
        iou = iou_matrix(found.quads, scene.quads)
        best = iou.max(axis=0) if len(found) else np.zeros(len(scene.quads))
        wanted += int(must_find(scene).sum())
        found_any += int((must_find(scene) & (best >= 0.5)).sum())
        tight += int((must_find(scene) & (best >= 0.8)).sum())
        false_positives += int((iou.max(axis=1) < 0.5).sum()) if len(scene.quads) else len(found)
    assert wanted >= 20
    # The bars the shipped model reaches (see models/card-finder.md), not the 99.5 % target.
    assert found_any / wanted >= 0.6, f"{found_any} of {wanted} fully visible cards found at IoU >= 0.5"
    assert tight / wanted >= 0.45, f"{tight} of {wanted} fully visible cards found at IoU >= 0.8"
    assert found.quads.shape[0] == 0 or np.allclose(order_quads(found.quads), found.quads)
    assert false_positives <= 8


def test_whole_mat_cards_are_found_and_whole(shared_data: Path, finder: LearnedFinder) -> None:
    scene = render_scene(3, preset("whole-mat", styles=(TEST_STYLE,)))
    found = finder(scene.image)
    iou = iou_matrix(found.quads, scene.quads)
    must = must_find(scene)
    assert must.sum() >= 15
    hit = iou.max(axis=0) >= 0.5
    assert hit[must].mean() >= 0.9
    whole = ~found.partial[iou.argmax(axis=0)]
    assert whole[must & hit].mean() >= 0.5


def test_covered_cards_of_piles_are_partial(shared_data: Path, finder: LearnedFinder) -> None:
    config = preset("piles", styles=(TEST_STYLE,), size=(960, 540))
    covered = flagged = 0
    for seed in SEEDS[:2]:
        scene = render_scene(seed, config)
        found = finder(scene.image)
        iou = iou_matrix(found.quads, scene.quads)
        match = iou.argmax(axis=0)
        hidden = (scene.visible < 0.8) & (iou.max(axis=0) >= 0.5)
        covered += int(hidden.sum())
        flagged += int(found.partial[match][hidden].sum())
    assert covered >= 5
    assert flagged / covered >= 0.8, f"{flagged} of {covered} covered cards flagged partial"


def card_free_table(seed: int, box: bool = False) -> np.ndarray:
    """A table with a phone and a hand (and the deck's box, card art on its lid, if asked), and no card at all."""
    rng = np.random.default_rng(seed)
    size = (960, 540)
    camera = make_camera(size, card_height_px=110, tilt_deg=20, azimuth_deg=40)
    art = load_style(TEST_STYLE)
    deck = sample_deck(rng, art, True)
    image, gloss = render_table(rng, camera)
    look = sample_look(rng, preset("default", styles=(TEST_STYLE,), size=size))
    things = [(OBJECTS["phone"], (-70.0, 10.0)), (hand, (20.0, 40.0))]
    if box:
        things.append((OBJECTS["card-box"], (60.0, -20.0)))
    for make, where in things:
        layer, _ = make(rng, camera, np.array(where), art, deck)
        composite(image, gloss, layer, look, camera.scale_at(np.array(where)))
    return apply_camera(image, look, rng)


def test_phone_and_hand_are_not_cards(shared_data: Path, finder: LearnedFinder) -> None:
    """The finder alone may box a phone's bright screen (2 of these 8 tables, see the model card); the
    classifier must then call it not-a-card, so the recogniser names no card at all."""
    recognizer = Recognizer(finder=finder)
    boxed = 0
    for seed in range(1, 9):
        image = card_free_table(seed)
        boxed += len(finder(image)) > 0
        named = [card.label for card in recognizer(image).cards if card.label != "unknown"]
        assert named == [], f"seed {seed}: a table without cards read as {named}"
    assert boxed <= 2, f"the finder boxed something on {boxed} of 8 tables without cards"


def test_doubtful_candidates_come_in_when_the_classifier_is_sure(shared_data: Path) -> None:
    """A card the finder marks below its threshold (heat 0.25 up to the model's) is named when the classifier is
    sure of its face: on these three held-out scenes each adds a card that lies there (73: two); nothing not there
    is named. (Of 120 such scenes, it adds cards in 17 with the session-30 classifier, each a card that lies there;
    in 12 with the session-12 finder and the classifier before.)"""
    classifier = CardClassifier(threads=1)
    checked, strict = Recognizer(classifier=classifier), Recognizer(classifier=classifier, maybe_heat=1.0)
    config = preset("default", styles=(TEST_STYLE,), size=(960, 540))
    for seed in (12, 14, 73):
        scene = render_scene(seed, config)
        there = Counter(card_kind(c) for c in scene.labels)
        more = Counter(card_kind(c.label) for c in checked(scene.image).cards if c.label != "unknown")
        fewer = Counter(card_kind(c.label) for c in strict(scene.image).cards if c.label != "unknown")
        assert sum((more - fewer).values()) == (2 if seed == 73 else 1) and not fewer - more, f"seed {seed}"
        assert not more - there, f"seed {seed}: {more - there} is not there"
    with pytest.raises(ValueError, match="maybe_needs"):
        Recognizer(classifier=classifier, maybe_needs=1.5)


def test_empty_and_odd_frames(finder: LearnedFinder) -> None:
    with pytest.raises(EmptyImageError):
        finder(np.zeros((0, 0, 3), np.uint8))
    grey = np.full((300, 500), 128, np.uint8)  # grey, an odd size: resized and padded, nothing found
    assert len(finder(grey)) == 0


def test_bad_model_paths_give_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="card-finder model not found"):
        LearnedFinder(tmp_path / "missing.onnx")
    corrupt = tmp_path / "corrupt.onnx"
    corrupt.write_bytes(b"not an onnx model")
    with pytest.raises(FinderModelError, match="cannot load"):
        LearnedFinder(corrupt)
    classifier = Path(__file__).resolve().parents[2] / "models" / "hanafuda-cards.onnx"
    with pytest.raises(FinderModelError):
        LearnedFinder(classifier)  # a kibitz model, but not a finder
    with pytest.raises(ValueError, match="threads"):
        LearnedFinder(threads=0)


def test_recognizer_takes_the_learned_finder(shared_data: Path, finder: LearnedFinder) -> None:
    scene = render_scene(11, preset("default", styles=(TEST_STYLE,), size=(960, 540)))
    observation = Recognizer(finder=finder)(scene.image)
    assert len(observation.cards) == len(finder(scene.image)) > 0


def close_up(index: int):  # type: ignore[no-untyped-def]
    """A held-out close-up: one card filling half the frame or more, sometimes others cut by the edges."""
    return render_scene(np.random.default_rng([8100, index]), preset("close-up", styles=(TEST_STYLE,)))


def test_close_up_cards_are_named_once(shared_data: Path) -> None:
    """A close-up card is past the fine look's sizes; a coarse look sees it at the size the model knows. Its heat
    there, put on the fine look's scale, makes it a doubtful candidate for the classifier; the fine look's doubtful
    pieces of it give way to it (12, 33, 38 were missed so). Two loose quads on one plain card (35) were both named,
    as the two plains of its month: a still photo's recogniser keeps the surer."""
    recognizer = Recognizer.for_photos(classifier=CardClassifier(threads=1))
    for index in (12, 33, 35, 38):
        scene = close_up(index)
        whole = [card_kind(c) for c, v, cut in zip(scene.labels, scene.visible, scene.cut, strict=True)
                 if v >= 0.98 and not cut]
        there = Counter(card_kind(c) for c, v in zip(scene.labels, scene.visible, strict=True) if v > 0)
        named = Counter(card_kind(c.label) for c in recognizer(scene.image).cards if c.label != "unknown")
        assert len(whole) == 1 and named[whole[0]] == 1, f"close-up {index}: {whole} read as {dict(named)}"
        assert not named - there, f"close-up {index}: {named - there} is not there"


def test_only_still_photos_take_the_coarse_looks(shared_data: Path) -> None:
    """The live table's camera sees its cards at the mat's scale, so its finder skips the coarse looks (a third of
    its time); a still photo may be a phone held over one card (scenes 33 and 38: only a coarse look boxes it)."""
    live, photo = Recognizer().finder, Recognizer.for_photos().finder
    assert isinstance(live, LearnedFinder) and isinstance(photo, LearnedFinder)
    assert live.zoom_out == () and photo.zoom_out == (0.5, 0.35, 0.25)
    for index in (33, 38):
        scene = close_up(index)
        card = next(q for q, v, cut in zip(scene.quads, scene.visible, scene.cut, strict=True) if v >= 0.98 and not cut)
        boxed = [max((quad_iou(card, q) for q in finder(scene.image, 0.25).quads), default=0.0)
                 for finder in (live, photo)]
        assert boxed[0] < 0.5 and boxed[1] > 0.85, f"close-up {index}: best IoU live, photo {boxed}"


def test_zoom_knob_is_checked() -> None:
    with pytest.raises(ValueError, match="zoom_out"):
        LearnedFinder(zoom_out=(0.0,))
