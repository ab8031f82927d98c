"""The shipped card model through onnxruntime: metadata, batching, real cards of the held-out style, errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.assign import assign_cards
from vision.classifier import ALWAYS, LIVE_TURN_BELOW, CardClassifier, ModelError

HELD_OUT_STYLE = "mantia-modern"  # never seen in training


@pytest.fixture(scope="module")
def classifier() -> CardClassifier:
    return CardClassifier(threads=1)


def class_of(classifier: CardClassifier, label: str) -> str:
    """The model's class for a generator label (card code, back, blank, not-a-card)."""
    if label in ("blank", "not-a-card"):
        return "not-a-card"
    return next(name for name in classifier.classes if label == name or label in classifier.class_cards[name])


def clean_crop(code: str, size: tuple[int, int]) -> np.ndarray:
    from datasets.hanafuda.art import load_style

    return cv2.resize(load_style(HELD_OUT_STYLE).faces[code], size, interpolation=cv2.INTER_AREA)


def test_metadata_describes_every_card_once(classifier: CardClassifier) -> None:
    codes = [code for name in classifier.classes for code in classifier.class_cards[name]]
    assert sorted(codes) == sorted(card.code for card in Card)
    assert len(set(classifier.classes)) == len(classifier.classes)
    assert {"back", "not-a-card"} <= set(classifier.classes)
    assert classifier.class_cards["pine-plain"] == ("pine-plain-1", "pine-plain-2")
    assert classifier.class_cards["paulownia-plain"] == ("paulownia-plain-1", "paulownia-plain-2")
    assert classifier.class_cards["paulownia-plain-3"] == ("paulownia-plain-3",)
    w, h = classifier.input_size
    assert (classifier.metadata["input"]["width"], classifier.metadata["input"]["height"]) == (w, h)
    assert h > w  # cards are portrait


@pytest.mark.parametrize("n", [0, 1, 5, 33])
def test_any_batch_size(classifier: CardClassifier, n: int) -> None:
    w, h = classifier.input_size
    crops = np.random.default_rng(n).integers(0, 256, (n, h, w, 3), dtype=np.uint8)
    probs = classifier.classify(crops)
    assert probs.shape == (n, len(classifier.classes)) and probs.dtype == np.float32
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_every_clean_held_out_card_is_named_both_ways_up(classifier: CardClassifier, shared_data: Path) -> None:
    codes = [card.code for card in Card]
    crops = np.stack([clean_crop(code, classifier.input_size) for code in codes])
    for batch in (crops, np.ascontiguousarray(crops[:, ::-1, ::-1])):
        probs = classifier.classify(batch)
        named = [classifier.classes[i] for i in probs.argmax(axis=1)]
        assert named == [class_of(classifier, code) for code in codes]
        assert probs.max(axis=1).min() > 0.5
        # The whole deck in one frame: the deck prior hands out every card exactly once.
        assignment = assign_cards(probs, classifier.classes, classifier.class_cards)
        assert sorted(assignment.labels) == sorted(codes)


def test_rendered_held_out_crops_are_named(classifier: CardClassifier, shared_data: Path) -> None:
    """Crops cut from rendered scenes (noise, glare, neighbours, overlaps) of the style never trained on."""
    from datasets.hanafuda.crops import render_crop_set

    crop_set = render_crop_set(200, seed=2024, styles=[HELD_OUT_STYLE], size=classifier.input_size)
    probs = classifier.classify(crop_set.images)
    named = np.array([classifier.classes[i] for i in probs.argmax(axis=1)])
    truth = np.array([class_of(classifier, label) for label in crop_set.labels])
    is_card = np.array([label not in ("back", "blank", "not-a-card") for label in crop_set.labels])
    clear = is_card & (crop_set.visible >= 0.6)
    assert clear.sum() >= 50, "the batch should hold plenty of clearly visible cards"
    assert (named[clear] == truth[clear]).mean() >= 0.95
    assert (named == truth).mean() >= 0.85  # includes 40%-visible cards, backs and hard negatives
    # A card confidently named as another card is the worst error: at most one in the batch.
    other_card = is_card & (named != truth) & ~np.isin(named, ["back", "not-a-card"])
    assert (other_card & (probs.max(axis=1) >= 0.5)).sum() <= 1


def test_a_card_and_its_rotation_get_the_same_answer(classifier: CardClassifier) -> None:
    """By default a crop's logits are averaged with its 180-degree turn's: both ways up read alike."""
    assert classifier.turn_below == ALWAYS
    w, h = classifier.input_size
    crops = np.random.default_rng(1).integers(0, 256, (4, h, w, 3), dtype=np.uint8)
    np.testing.assert_allclose(classifier.classify(crops), classifier.classify(crops[:, ::-1, ::-1]), atol=1e-5)


def test_the_live_classifier_turns_only_doubtful_crops(classifier: CardClassifier, shared_data: Path) -> None:
    """Read once, a crop's reading differs from its turn's; the live table's classifier turns the crops it is not
    sure of (``LIVE_TURN_BELOW``), whose readings are then the turned ones, and keeps the others' first reading.
    Either way it names every clean held-out card both ways up."""
    once, live = CardClassifier(threads=1, turn_below=0.0), CardClassifier(threads=1, turn_below=LIVE_TURN_BELOW)
    codes = [card.code for card in Card]
    crops = np.stack([clean_crop(code, once.input_size) for code in codes])
    noise = np.random.default_rng(3).integers(0, 256, (8, *crops.shape[1:]), dtype=np.uint8)  # nothing sure there
    batch = np.concatenate([crops, noise])
    first, both, mixed = (c.classify(batch) for c in (once, classifier, live))
    assert not np.allclose(first, once.classify(batch[:, ::-1, ::-1]), atol=1e-3)
    doubtful = first.max(axis=1) < LIVE_TURN_BELOW
    assert doubtful.any() and not doubtful.all()
    np.testing.assert_allclose(mixed[doubtful], both[doubtful], atol=1e-5)
    np.testing.assert_allclose(mixed[~doubtful], first[~doubtful], atol=1e-6)
    for reader in (once, live):
        for upright in (crops, np.ascontiguousarray(crops[:, ::-1, ::-1])):
            named = [reader.classes[i] for i in reader.classify(upright).argmax(axis=1)]
            assert named == [class_of(reader, code) for code in codes]


@pytest.mark.parametrize("turn_below", [-0.1, float("nan")])
def test_a_negative_turn_bar_is_refused(turn_below: float) -> None:
    with pytest.raises(ValueError, match="turn_below"):
        CardClassifier(turn_below=turn_below)


def test_face_probability_counts_card_faces_only(classifier: CardClassifier) -> None:
    """A back and not-a-card are no card face; a plain class (two cards) is one."""
    eye = np.eye(len(classifier.classes), dtype=np.float32)
    rows = [classifier.classes.index(name) for name in ("back", "not-a-card", "pine-crane", "pine-plain")]
    np.testing.assert_array_equal(classifier.face_probability(eye[rows]), [0.0, 0.0, 1.0, 1.0])
    assert classifier.face_probability(np.zeros((0, len(classifier.classes)), np.float32)).shape == (0,)


def test_bad_crops_are_rejected_clearly(classifier: CardClassifier) -> None:
    w, h = classifier.input_size
    with pytest.raises(TypeError, match="uint8"):
        classifier.classify(np.zeros((1, h, w, 3), np.float32))
    with pytest.raises(ValueError, match=f"N x {h} x {w} x 3"):
        classifier.classify(np.zeros((1, h + 1, w, 3), np.uint8))
    with pytest.raises(ValueError, match=f"N x {h} x {w} x 3"):
        classifier.classify(np.zeros((h, w, 3), np.uint8))


def test_missing_model_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nope.onnx"):
        CardClassifier(tmp_path / "nope.onnx")


def test_corrupt_model_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.onnx"
    path.write_bytes(b"this is not an onnx model")
    with pytest.raises(ModelError, match="broken.onnx"):
        CardClassifier(path)


def test_onnx_model_without_card_metadata(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])],
        "plain",
        [helper.make_tensor_value_info("x", TensorProto.UINT8, ["n", 80, 48, 3])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, ["n", 80, 48, 3])],
    )
    path = tmp_path / "plain.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    with pytest.raises(ModelError, match="not a kibitz card model"):
        CardClassifier(path)


def test_thread_count_is_validated() -> None:
    with pytest.raises(ValueError, match="threads"):
        CardClassifier(threads=0)
