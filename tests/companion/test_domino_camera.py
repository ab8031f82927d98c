"""Dominoes followed through the camera: the opening of a rendered deal (held-out tile art, hands reaching in)
through the real recogniser (onnxruntime finder, pip reader), the stability tracker and ``DominoLive``; and
``kibitz play jielong --images DIR`` driving the table screen from the same frames through a real pilot."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from companion.app.app import KibitzApp
from companion.live.camera_screen import CameraTableScreen
from companion.live.domino_camera import DominoReader
from companion.live.dominoes import DominoZones
from companion.tables.dominoes import build_screen
from datasets.scripted.domino_render import DominoRenderer
from datasets.scripted.dominoes import DominoScript, DominoScriptConfig, script_deal
from datasets.scripted.render import FrameTruth, RenderConfig
from tests.companion.app_helpers import SIZE
from tests.companion.domino_live_helpers import follow_deal, zone_roles
from vision.dominoes.recognizer import DominoRecognizer
from vision.stability import StabilityConfig

SEED = 3
MOVES = 4  # the lead and three more tiles (the lead's open end is told by the next tile)
FRAME = (1280, 720)
FPS = 8.0
STABLE = StabilityConfig(settle_s=0.3, votes=2, vote_gap_s=0.1, unique_labels=False)
ON_SCREEN = StabilityConfig(settle_s=0.08, votes=2, vote_gap_s=0.03, unique_labels=False)  # images pass at 30 fps
QUIET = DominoScriptConfig(pass_over=0.0, hover=0.0, hand_on_table=0.0)
Rendered = tuple[DominoScript, list[np.ndarray], list[FrameTruth]]


def opening() -> DominoScript:
    """The deal's first steps: the empty table seen twice, then ``MOVES`` tiles laid in the line."""
    script = script_deal(SEED, "jielong", config=QUIET)
    plays = [i for i, step in enumerate(script.steps) if step.action is not None and step.action.startswith("play")]
    return script.head(plays[MOVES - 1] + 1)


@pytest.fixture(scope="module")
def rendered(shared_data: Path) -> Rendered:
    script = opening()
    frames, truths = [], []
    for image, truth in DominoRenderer(script, RenderConfig(size=FRAME, fps=FPS)).frames():
        frames.append(image)
        truths.append(truth)
    return script, frames, truths


@pytest.fixture(scope="module")
def recognizer() -> DominoRecognizer:
    return DominoRecognizer("chinese")


def test_the_scripted_table_lies_in_the_zones_the_live_table_reads(rendered: Rendered) -> None:
    script, _, truths = rendered
    roles = [pair for truth in truths for pair in zone_roles(truth, DominoZones(), FRAME)]
    assert roles and all(given == read for given, read in roles)
    assert script.actions[0][0].startswith("play") and len(script.actions) >= MOVES


def test_a_face_down_tile_in_a_corner_is_the_player_whose_band_it_lies_deeper_in(shared_data: Path) -> None:
    """Deal 17 of ``bench_live_dominoes``: the left player's first face-down tile lies in the top band's corner under
    the tilted camera (x 0.13, y 0.15 of the frame). It is the left player's (captures-3), not the top one's; the
    first frame it shows in agrees with the script for every tile. A thing deep in the corner stays the top
    player's (deal 0 has one there from the start, and lost the deal when it became the left player's)."""
    zones = DominoZones()
    assert zones.role_of((172.0, 109.0), FRAME) == "captures-3"  # 0.06 into the top band, 0.16 into the left one
    assert zones.role_of((52.0, 55.0), FRAME) == "captures-2"  # 0.52 into the top band, 0.75 into the left one
    assert zones.role_of((200.0, 20.0), FRAME) == "captures-2"  # deep in the top band, at the left one's edge
    assert zones.role_of((640.0, 400.0), FRAME) == "field"
    script = script_deal(17, "jielong", config=DominoScriptConfig(hand_on_table=0.0))
    for _, truth in DominoRenderer(script, RenderConfig(size=FRAME, fps=15.0)).frames():
        if any(card.role == "captures-3" for card in truth.cards):
            roles = zone_roles(truth, DominoZones(players=script.players, me=script.me), FRAME)
            assert ("captures-3", "captures-3") in roles and all(given == read for given, read in roles)
            break
    else:
        pytest.fail("the left player never laid a tile face down")


def test_a_rendered_opening_is_followed_through_the_real_recogniser(rendered: Rendered,
                                                                  recognizer: DominoRecognizer) -> None:
    script, frames, truths = rendered
    followed = follow_deal(script, zip(frames, truths, strict=True), DominoReader(recognizer, DominoZones()), STABLE)
    moves = followed.session.actions()
    # Every tile laid but the last is settled (the last waits for no later look); nothing else was believed.
    assert moves and moves == script.camera_actions()[: len(moves)]
    assert len(moves) >= MOVES - 1
    assert followed.hand_frames_with_moves == 0
    assert not [e for e in followed.events if e.kind == "conflict"]


def write_images(folder: Path, frames: list[np.ndarray]) -> Path:
    folder.mkdir()
    for i, frame in enumerate(frames):
        # PNG: JPEG artefacts cost the recogniser pips
        cv2.imwrite(str(folder / f"{i:05d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 0])
    return folder


async def wait_until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 120.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("the app never reached the expected state")


async def test_kibitz_play_images_follows_the_deal_on_the_table_screen(
        rendered: Rendered, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIBITZ_RECORDS", str(tmp_path / "records"))
    script, frames, _ = rendered
    args = argparse.Namespace(game="jielong", camera=None, video=None, images=str(write_images(tmp_path / "f", frames)),
                              resume=None, profile=None, rules=None, players=None, lang="en", no_hints=True,
                              teach=False)
    screen = build_screen("jielong", args, stability=ON_SCREEN)
    assert isinstance(screen, CameraTableScreen)
    async with KibitzApp(screen).run_test(size=SIZE) as pilot:
        await wait_until(pilot, screen.camera.finished.is_set)
        await wait_until(pilot, lambda: len(screen.session.history) >= MOVES - 1, seconds=10)
        assert screen.session.history == script.camera_actions()[: len(screen.session.history)]
        status = str(screen.query_one("#status", Static).render())
        assert "to play" in status.lower()  # whose turn it is, from the mirrored deal
        line = str(screen.query_one("#line", Static).render())
        low, high = script.camera_actions()[1].split()[1].split(":")
        assert f"{low}|{high}" in line or f"{high}|{low}" in line  # the second tile laid shows in the line panel
        # a move typed on the screen goes to the camera's game, which refuses what the rules refuse
        screen.query_one("#command", Input).value = "play 9:9"
        screen.query_one("#command", Input).focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: "'play 9:9'" in screen.message, seconds=10)
        assert screen.session.history == script.camera_actions()[: len(screen.session.history)]
    assert screen.camera.record_path.parent == tmp_path / "records" and screen.camera.record_path.exists()
