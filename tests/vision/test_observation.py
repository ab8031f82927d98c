"""The typed observation containers: validation on construction, selection, JSON shape."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.observation import BACK, NO_CLASS, NO_ZONE, UNKNOWN, CardObservation, Detections, TableObservation

QUAD = [[10, 10], [40, 10], [40, 60], [10, 60]]


def _quads(n: int) -> np.ndarray:
    return np.array([QUAD] * n, np.float64) + np.arange(n)[:, None, None] * 50


def test_defaults_dtypes_and_read_only() -> None:
    det = Detections(_quads(3))
    assert det.quads.dtype == np.float32 and det.quads.shape == (3, 4, 2)
    assert det.confidence.tolist() == [1.0, 1.0, 1.0]
    assert det.class_id.tolist() == [NO_CLASS] * 3 and det.zone_id.tolist() == [NO_ZONE] * 3
    assert det.partial.dtype == bool and not det.partial.any()
    with pytest.raises(ValueError):
        det.quads[0, 0, 0] = 5  # frozen arrays: nobody edits a result in place
    assert len(Detections.empty()) == 0 and Detections.empty().quads.shape == (0, 4, 2)
    assert np.allclose(det.centers[0], [25, 35])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"quads": np.zeros((2, 3, 2))}, "N x 4 x 2"),
        ({"quads": _quads(2), "confidence": [0.5]}, "1 entries for 2"),
        ({"quads": _quads(1), "confidence": [1.5]}, r"\[0, 1\]"),
        ({"quads": _quads(1), "confidence": [np.nan]}, r"\[0, 1\]"),
        ({"quads": _quads(1), "class_id": [-2]}, "ids are >= 0"),
        ({"quads": _quads(1), "zone_id": [-5]}, "no zone"),
    ],
)
def test_bad_values_fail_where_made(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Detections(**kwargs)


def test_nan_corner_and_wrong_dtypes() -> None:
    quads = _quads(1)
    quads[0, 2, 1] = np.nan
    with pytest.raises(ValueError, match="finite"):
        Detections(quads)
    with pytest.raises(TypeError, match="class_id"):
        Detections(_quads(1), class_id=[1.5])
    with pytest.raises(TypeError, match="partial"):
        Detections(_quads(1), partial=[1])
    with pytest.raises(TypeError, match="quads"):
        Detections(np.array([[["a", "b"]] * 4]))


def test_selection_by_int_slice_mask_and_replace() -> None:
    det = Detections(_quads(4), confidence=[0.9, 0.2, 0.8, 0.4], class_id=[3, 5, 7, 9], partial=np.array([0, 1, 0, 1]) == 1)
    assert det[2].class_id.tolist() == [7]
    assert det[1:3].confidence.tolist() == pytest.approx([0.2, 0.8])
    strong = det[det.confidence > 0.5]
    assert strong.class_id.tolist() == [3, 7] and len(strong) == 2
    named = det.replace(class_id=[0, 1, 2, 3])
    assert named.class_id.tolist() == [0, 1, 2, 3] and det.class_id.tolist() == [3, 5, 7, 9]
    with pytest.raises(ValueError):
        det.replace(confidence=[2, 0, 0, 0])
    with pytest.raises(TypeError, match="unknown fields"):
        det.replace(colour=[1, 2, 3, 4])
    joined = Detections.concatenate([det[[3]], Detections.empty(), det[:2]])
    assert joined.class_id.tolist() == [9, 3, 5] and joined.partial.tolist() == [True, False, True]
    assert len(Detections.concatenate([])) == 0


def test_card_observation_validates_and_serialises() -> None:
    card = CardObservation("pine-crane", 0.987654, np.array(QUAD, np.float32), zone="field", position_mm=(10, 20))
    assert card.quad == ((10.0, 10.0), (40.0, 10.0), (40.0, 60.0), (10.0, 60.0))
    assert card.center == (25.0, 35.0)
    assert card.to_dict() == {"card": "pine-crane", "confidence": 0.9877, "quad": [[10.0, 10.0], [40.0, 10.0],
                              [40.0, 60.0], [10.0, 60.0]], "zone": "field", "position_mm": [10.0, 20.0],
                              "partial": False}
    for bad in ({"label": ""}, {"confidence": 1.2}, {"quad": QUAD[:3]}, {"zone": ""},
                {"position_mm": (1.0, float("inf"))}):
        args = {"label": "back", "confidence": 0.5, "quad": QUAD, **bad}
        with pytest.raises(ValueError):
            CardObservation(**args)


def test_table_observation_counts_backs_and_makes_json() -> None:
    cards = (CardObservation("pine-crane", 0.99, QUAD), CardObservation(BACK, 0.9, QUAD),
             CardObservation(BACK, 0.8, QUAD), CardObservation(UNKNOWN, 0.3, QUAD, partial=True))
    obs = TableObservation((1280, 720), cards, {"find": 9.5, "warp": 0.7, "classify": 6.1})
    assert obs.backs == 2 and obs.labels() == ["pine-crane", "back", "back", "unknown"]
    assert obs.total_ms == pytest.approx(16.3)
    data = json.loads(json.dumps(obs.to_dict("table.jpg")))
    assert data["image"] == "table.jpg" and data["backs"] == 2 and data["ms"] == 16.3
    assert [c["card"] for c in data["cards"]] == obs.labels() and data["cards"][3]["partial"] is True
    with pytest.raises(TypeError):
        obs.timings_ms["find"] = 1.0  # type: ignore[index]
    with pytest.raises(ValueError, match="image_size"):
        TableObservation((0, 720), ())
    with pytest.raises(ValueError, match="timings"):
        TableObservation((10, 10), (), {"find": -1.0})
    with pytest.raises(TypeError, match="CardObservation"):
        TableObservation((10, 10), ("pine-crane",))  # type: ignore[arg-type]
