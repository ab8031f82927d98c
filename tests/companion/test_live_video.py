"""End to end on a real video file: a scripted round rendered with the held-out art, hands passing over and
resting on the table, written with cv2.VideoWriter, read back by the capture thread, followed by the tracker and
the session. The capture is killed mid-game; the game resumes from its record and nothing is lost."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.live.koikoi import KoiKoiLive
from companion.live.runner import run
from companion.live.session import LiveEvent, LiveSession
from companion.record import load_record
from datasets.scripted.render import FrameTruth, RenderConfig, ScriptRenderer
from datasets.scripted.script import Script, ScriptConfig, script_round
from datasets.scripted.truth import MisreadModel, TruthRecognizer
from tests.companion.live_helpers import canonical, press_keys, write_video
from vision.capture import Capture, VideoFileSource
from vision.stability import StabilityConfig, StableTracker

FPS = 15.0
SIZE = (320, 180)


def short_round() -> Script:
    """The opening of a round with at least one hand resting on the table and four camera actions."""
    for seed in range(50):
        script = script_round(seed, ScriptConfig(hover=0.35, pass_over=0.3)).head(14)
        if any(s.hover_s for s in script.steps) and len(script.camera_actions()) >= 5:
            return script
    raise AssertionError("no suitable seed")


@pytest.fixture(scope="module")
def rendered(shared_data: Path) -> tuple[Script, list[np.ndarray], list[FrameTruth]]:
    script = short_round()
    frames, truths = [], []
    for image, truth in ScriptRenderer(script, RenderConfig(size=SIZE, fps=FPS)).frames():
        frames.append(image)
        truths.append(truth)
    return script, frames, truths


def follow_video(video: Path, truths: list[FrameTruth], session: LiveSession, script: Script) -> list[LiveEvent]:
    tracker = StableTracker(TruthRecognizer(truths, MisreadModel(per_frame=0.03, seed=1)),
                            StabilityConfig(settle_s=0.4, vote_gap_s=0.07))
    log: list[LiveEvent] = []

    def keys(events: list[LiveEvent]) -> None:
        log.extend(events)
        press_keys(script, session, log)

    run(Capture(VideoFileSource(video)), tracker, session, on_events=keys)
    return log


def moves_during_hands(events: list[LiveEvent], truths: list[FrameTruth]) -> int:
    return sum(e.kind == "move" and truths[round(e.time * FPS)].hand for e in events)


def test_capture_killed_mid_game_resumes_from_the_record(
        rendered: tuple[Script, list[np.ndarray], list[FrameTruth]], tmp_path: Path) -> None:
    script, frames, truths = rendered
    played = [i for i, t in enumerate(truths) if t.step >= 7 and not t.hand]
    cut = played[len(played) // 2]  # somewhere in the middle of the game, between two moves
    first = write_video(tmp_path / "first.avi", frames[:cut], FPS)
    second = write_video(tmp_path / "second.avi", frames[cut:], FPS)
    record = tmp_path / "game.jsonl"

    session = LiveSession.create(record, KoiKoiLive(me=0), players=("me", "them"), dealer=script.dealer)
    events = follow_video(first, truths[:cut], session, script)
    before = session.actions()
    assert before and moves_during_hands(events, truths) == 0
    del session  # killed: nothing closed, nothing flushed by hand

    resumed = LiveSession.resume(record, KoiKoiLive(me=0))
    assert resumed.actions() == before
    events = follow_video(second, truths[cut:], resumed, script)
    assert moves_during_hands(events, truths[cut:]) == 0
    truth = [a for a, _, _ in script.actions]
    assert canonical(resumed.actions()) == canonical(truth)
    assert "conflict" not in [e.kind for e in events]
    resumed.close()
    recorded = [a.action for a in load_record(record).rounds[0].actions]
    assert recorded == resumed.actions()


def test_hands_resting_on_the_table_make_no_moves(
        rendered: tuple[Script, list[np.ndarray], list[FrameTruth]], tmp_path: Path) -> None:
    script, frames, truths = rendered
    session = LiveSession(KoiKoiLive(me=0), dealer=script.dealer)
    events = follow_video(write_video(tmp_path / "all.avi", frames, FPS), truths, session, script)
    hover = [i for i, s in enumerate(script.steps) if s.hover_s]
    hidden = [e for e in events if e.kind == "hidden"]
    assert hidden, "a hand resting on the table hides cards and is reported"
    assert all(truths[round(e.time * FPS)].step in hover for e in hidden)
    assert moves_during_hands(events, truths) == 0
    assert canonical(session.actions()) == canonical(a for a, _, _ in script.actions)
