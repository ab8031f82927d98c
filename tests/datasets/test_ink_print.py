"""Decks that print the art's black fills in another colour (``printing.recolour_fills``, ``render_crops_ink``):
what the classifier is taught so that a deck filling its willow green, as the held-out art does, is still named."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from datasets.hanafuda.art import load_style
from datasets.hanafuda.config import preset
from datasets.hanafuda.crops import CLASSES, INK_SHARE, render_crops, render_crops_ink
from datasets.hanafuda.printing import recolour_fills, sample_deck
from datasets.hanafuda.scenes import render_scene

GREEN = (0.45, 0.7, 0.4)  # BGR, about the held-out art's leaves


def _face(shared_data: Path, style: str, code: str) -> tuple[np.ndarray, int]:
    art = load_style(style, shared_data)
    face = art.face(code, 300)
    return face, round(art.border_px * face.shape[0] / 600)


def test_the_willows_black_leaves_turn_the_ink_and_the_rest_stays(shared_data: Path) -> None:
    face, border = _face(shared_data, "hwatu-richert", "willow-lightning")  # two big black leaves on red
    out = recolour_fills(face, GREEN, border)
    changed = np.abs(out.astype(int) - face).sum(2) > 30
    assert 0.2 < changed.mean() < 0.6  # the leaves, not the card
    ink = np.round(np.asarray(GREEN) * 255)
    assert np.abs(np.median(out[changed], axis=0) - ink).max() < 8  # the fills are the ink now
    assert not changed[: border + 2].any() and not changed[:, -border - 2 :].any()  # the border is left
    red = (face[..., 2] > 150) & (face[..., 1] < 80)
    assert np.array_equal(out[red], face[red])  # the red sky too


def test_thin_black_lines_are_lines_still(shared_data: Path) -> None:
    """The pampas moon's lines round the moon and in the red sky stay black; only the hill is filled."""
    face, border = _face(shared_data, "mantia-alt", "pampas-moon")
    out = recolour_fills(face, GREEN, border)
    h = face.shape[0]
    sky = (slice(border + 4, h // 3), slice(border + 4, face.shape[1] - border - 4))
    lines = (face[sky].max(axis=2) < 60)
    assert lines.sum() > 20 and np.array_equal(out[sky][lines], face[sky][lines])
    hill = out[int(h * 0.8), face.shape[1] // 2].astype(int)
    assert hill[1] > 100 and hill[1] > hill[2] + 30  # a black hill made green


def test_no_ink_draw_leaves_scenes_as_they_were_and_a_share_gives_inked_decks(shared_data: Path) -> None:
    art = load_style("mantia-alt", shared_data)
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    plain, zero = sample_deck(a, art), sample_deck(b, art, ink_share=0.0)
    assert plain.ink is None and zero.ink is None and a.random() == b.random()  # no draw made at share 0
    inked = [sample_deck(np.random.default_rng(s), art, ink_share=1.0).ink for s in range(20)]
    assert all(i is not None for i in inked) and len({i for i in inked}) == 20  # every deck, each its own ink
    config = preset("crops", styles=("mantia-alt",))
    assert np.array_equal(render_scene(5, config).image, render_scene(5, config).image)


def test_the_inked_renderer_gives_labelled_crops_of_other_decks(shared_data: Path) -> None:
    """``render_crops_ink`` is ``render_crops`` with the share set (the trainer's ``--renderer``)."""
    plain, _ = render_crops(64, 11, ("hwatu-richert",))
    inked, labels = render_crops_ink(64, 11, ("hwatu-richert",))
    assert inked.shape == plain.shape and set(labels) <= set(CLASSES) and 0 < INK_SHARE < 1
    assert not np.array_equal(plain, inked)  # the ink draws make other decks
