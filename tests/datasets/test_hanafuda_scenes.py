"""Rendered scenes: deterministic, and their ground truth says where each card really is."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.hanafuda.art import CODES, load_style
from datasets.hanafuda.config import SceneConfig, preset
from datasets.hanafuda.generate import listing
from datasets.hanafuda.scenes import LABELS, TABLE, Scene, render_scene

SMALL = (320, 192)


def test_same_seed_same_bytes_other_seed_other_image(shared_data: Path) -> None:
    config = preset("default", size=SMALL)
    first, again, other = render_scene(11, config), render_scene(11, config), render_scene(12, config)
    assert first.image.tobytes() == again.image.tobytes()
    assert first.labels == again.labels and np.array_equal(first.quads, again.quads)
    assert first.image.tobytes() != other.image.tobytes()


def test_generator_state_drives_the_scene(shared_data: Path) -> None:
    config = preset("default", size=SMALL)
    a = render_scene(np.random.default_rng([3, 1]), config)
    b = render_scene(np.random.default_rng([3, 1]), config)
    assert a.image.tobytes() == b.image.tobytes()


@pytest.mark.parametrize("name", ["default", "piles", "whole-mat", "clean"])
def test_labels_are_cards_backs_or_blanks_each_card_once(shared_data: Path, name: str) -> None:
    for seed in range(3):
        scene = render_scene(seed, preset(name, size=(480, 270)))
        assert scene.image.shape == (270, 480, 3) and scene.image.dtype == np.uint8
        assert all(label in LABELS for label in scene.labels)
        faces = [label for label in scene.labels if label in CODES]
        assert len(faces) == len(set(faces))
        assert scene.quads.shape == (len(scene.labels), 4, 2)
        assert ((scene.visible >= 0) & (scene.visible <= 1)).all()


def test_whole_mat_shows_thirty_small_cards(shared_data: Path) -> None:
    scene = render_scene(5, preset("whole-mat", size=(960, 540)))
    faces = [label for label in scene.labels if label in CODES]
    assert len(faces) >= 30
    widths = np.linalg.norm(scene.quads[:, 1] - scene.quads[:, 0], axis=1)
    assert 20 < np.median(widths) < 45  # ~60 px at 1920x1080, so ~30 px at half that size


def _clean_config(**changes: object) -> SceneConfig:
    return preset(
        "clean",
        size=SMALL,
        layouts={"scattered": 1.0},
        card_height=(0.45, 0.6),
        surfaces={"plain": 1.0},
        styles=("mantia-modern",),
        **changes,
    )


def test_quads_frame_the_printed_card_the_right_way_up(shared_data: Path) -> None:
    """Warp each fully visible card out of the image by its quad: it must look like its own art, upright."""
    art = load_style("mantia-modern", shared_data)
    checked = 0
    for seed in range(4):
        scene = render_scene(seed, _clean_config())
        for label, quad, visible, cut in zip(scene.labels, scene.quads, scene.visible, scene.cut, strict=True):
            if label not in CODES or visible < 0.999 or cut:
                continue
            dst = np.array([[0, 0], [60, 0], [60, 100], [0, 100]], np.float32) - 0.5
            crop = cv2.warpPerspective(scene.image, cv2.getPerspectiveTransform(quad, dst), (60, 100))
            face = cv2.resize(art.faces[label], (60, 100), interpolation=cv2.INTER_AREA)
            upright = np.abs(crop[8:-8, 8:-8].astype(float) - face[8:-8, 8:-8]).mean()
            turned = np.abs(crop[8:-8, 8:-8].astype(float) - face[::-1, ::-1][8:-8, 8:-8]).mean()
            assert upright < 22, (seed, label, upright)
            assert upright < turned
            checked += 1
    assert checked >= 4


def test_pixels_outside_the_quads_are_table(shared_data: Path) -> None:
    scene = render_scene(2, _clean_config())
    card = np.zeros(scene.index_map.shape, np.uint8)
    for quad in scene.quads:
        cv2.fillConvexPoly(card, np.round(quad).astype(np.int32), 1)
    far = cv2.dilate(card, np.ones((7, 7), np.uint8)) == 0
    assert (scene.index_map[far] == TABLE).all()
    table = scene.image[far].astype(float)
    assert table.std(axis=0).max() < 12  # a plain desk, nothing of a card leaked outside its quad
    for quad in scene.quads:
        own = np.zeros(scene.index_map.shape, np.uint8)
        cv2.fillConvexPoly(own, np.round(quad).astype(np.int32), 1)
        inside = cv2.erode(own, np.ones((5, 5), np.uint8)) == 1
        assert (scene.index_map[inside] >= 0).all()


def test_upside_down_cards_start_at_the_bottom_right(shared_data: Path) -> None:
    """The same layout with every card turned: each quad's corners come in the turned order, and the crop
    cut by the quad still shows the card upright."""
    upright = render_scene(4, _clean_config(upside_down=0.0, free_rotation=0.0, touch=0.0))
    turned = render_scene(4, _clean_config(upside_down=1.0, free_rotation=0.0, touch=0.0))
    assert upright.labels == turned.labels and len(upright.labels) > 0
    assert np.allclose(turned.quads, np.roll(upright.quads, 2, axis=1), atol=0.05)
    art = load_style("mantia-modern", shared_data)
    dst = np.array([[0, 0], [60, 0], [60, 100], [0, 100]], np.float32) - 0.5
    for label, quad, visible in zip(turned.labels, turned.quads, turned.visible, strict=True):
        if label in CODES and visible > 0.999:
            crop = cv2.warpPerspective(turned.image, cv2.getPerspectiveTransform(quad, dst), (60, 100)).astype(float)
            face = cv2.resize(art.faces[label], (60, 100), interpolation=cv2.INTER_AREA).astype(float)
            assert np.abs(crop - face).mean() < np.abs(crop - face[::-1, ::-1]).mean()


def test_a_hand_hides_part_of_a_card(shared_data: Path) -> None:
    base = preset("default", size=SMALL, props=0.0, hands=0.0, layouts={"scattered": 1.0})
    without = render_scene(21, base)
    with_hand = render_scene(21, replace(base, hands=1.0))
    assert without.labels == with_hand.labels
    assert np.array_equal(without.quads, with_hand.quads)
    assert (with_hand.visible <= without.visible + 1e-6).all()
    assert (with_hand.visible < without.visible - 0.01).any()
    assert any(p.kind == "hand" for p in with_hand.props)


def test_cards_in_piles_show_about_half_their_face(shared_data: Path) -> None:
    shares = []
    for seed in range(3):
        scene = render_scene(seed, preset("piles", size=(480, 270), edge_cut=0.0, props=0.0, hands=0.0))
        shares.extend(v for v, c in zip(scene.visible, scene.cut, strict=True) if not c)
    shares_array = np.array(shares)
    assert 0.35 < np.median(shares_array) < 0.7
    assert (shares_array > 0.97).any()  # the top card of each pile is whole


def test_cut_cards_are_flagged_and_not_whole(shared_data: Path) -> None:
    cut_seen = False
    for seed in range(6):
        scene = render_scene(seed, preset("default", size=SMALL, edge_cut=1.0))
        for quad, visible, cut in zip(scene.quads, scene.visible, scene.cut, strict=True):
            outside = (quad[:, 0] < -0.5).any() or (quad[:, 1] < -0.5).any() or (quad[:, 0] > SMALL[0] - 0.5).any()
            outside = outside or (quad[:, 1] > SMALL[1] - 0.5).any()
            assert cut == outside
            if cut:
                cut_seen = True
                assert visible < 0.999
    assert cut_seen


def test_card_box_is_a_prop_not_a_card(shared_data: Path) -> None:
    config = preset("default", size=(480, 270), props=1.0, prop_kinds={"card-box": 1.0}, max_props=1)
    scene = render_scene(3, config)
    boxes = [p for p in scene.props if p.kind == "card-box"]
    assert boxes and boxes[0].art_quad is not None
    assert len(scene.labels) == len([x for x in scene.labels if x in LABELS])
    centre = np.round(boxes[0].art_quad.mean(axis=0)).astype(int)
    if 0 <= centre[0] < 480 and 0 <= centre[1] < 270:
        assert scene.index_map[centre[1], centre[0]] < 0


def test_scene_refuses_two_of_the_same_card() -> None:
    image = np.zeros((10, 10, 3), np.uint8)
    with pytest.raises(ValueError, match="distinct"):
        Scene(
            image=image,
            labels=("pine-crane", "pine-crane"),
            quads=np.zeros((2, 4, 2), np.float32),
            visible=np.ones(2, np.float32),
            cut=np.zeros(2, bool),
            washed=np.zeros(2, np.float32),
            index_map=np.zeros((10, 10), np.int16),
            props=(),
            style="mantia-alt",
            layout="rows",
        )


def test_config_rejects_unknown_presets_and_knobs() -> None:
    with pytest.raises(ValueError, match="preset"):
        preset("sparkly")
    with pytest.raises(ValueError, match="knobs"):
        preset("default", sparkle=1.0)
    with pytest.raises(ValueError, match="styles"):
        SceneConfig(styles=("tarot",))


def test_a_card_glare_washes_out_is_measured(shared_data: Path) -> None:
    """``Scene.washed``: held-out ``piles`` scene 35 (seed 7100) lies under a lamp's reflection. Its pine ribbon
    shows whole but glare leaves almost none of its art; its share washed out says so, and the photo there is as
    flat as a plain back, where a card beside the glare shows its art."""
    scene = render_scene(np.random.default_rng([7100, 35]), preset("piles", styles=("mantia-modern",)))
    washed, clear = scene.labels.index("pine-ribbon"), scene.labels.index("pampas-plain-2")
    assert scene.visible[washed] > 0.95 and scene.washed[washed] > 0.9
    assert scene.visible[clear] > 0.95 and scene.washed[clear] == 0
    lightness = cv2.cvtColor(cv2.GaussianBlur(scene.image, (0, 0), 1.5), cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)

    def spread(k: int) -> float:  # the card's lightness away from its edges: its art, once the noise is blurred
        inner = cv2.erode((scene.index_map == k).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        return float(lightness[inner].std())

    assert spread(washed) < 0.3 * spread(clear)
    assert scene.records()[washed]["washed"] == pytest.approx(float(scene.washed[washed]), abs=1e-4)
    assert ((scene.washed >= 0) & (scene.washed <= 1)).all()


def test_only_cards_that_can_be_read_must_be_named() -> None:
    assert listing("pine-ribbon", 1.0, False, 0.0, 0.98) == "labels.csv"
    assert listing("pine-ribbon", 1.0, False, 0.96, 0.98) == "optional.csv"  # washed out by glare
    assert listing("pine-ribbon", 0.5, False, 0.2, 0.4) == "labels.csv"  # a glint is no excuse
    assert listing("pine-ribbon", 0.3, False, 0.0, 0.4) == "optional.csv"  # mostly covered
    assert listing("pine-ribbon", 1.0, True, 0.0, 0.98) == "optional.csv"  # cut by the frame
    assert listing("blank", 1.0, False, 0.0, 0.98) is None
    assert listing("back", 0.0, False, 0.0, 0.4) is None  # wholly hidden
