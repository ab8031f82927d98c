"""Motion and stable periods on rendered frames: light drift, jitter and noise are not motion, a hand is;
views come only from still periods, recognise only a few frames each, and vote misreads away."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.scripted.render import FrameTruth, RenderConfig, ScriptRenderer
from datasets.scripted.script import Script, ScriptConfig, script_round
from datasets.scripted.truth import MisreadModel, TruthRecognizer
from vision.capture import Frame
from vision.observation import CardObservation, TableObservation
from vision.stability import CardVoter, MotionDetector, StabilityConfig, StableTracker, Status

FPS = 15.0


@pytest.fixture(scope="module")
def clip(shared_data: Path) -> tuple[Script, list[np.ndarray], list[FrameTruth]]:
    script = script_round(5, ScriptConfig(pass_over=0.5, hover=0.0)).head(9)
    pairs = list(ScriptRenderer(script, RenderConfig(size=(320, 180), fps=FPS)).frames())
    return script, [p[0] for p in pairs], [p[1] for p in pairs]


def test_drift_jitter_and_noise_are_not_motion_but_a_hand_is(clip: tuple[Script, list, list]) -> None:
    _, frames, truths = clip
    detector = MotionDetector()
    still = [i for i in range(1, len(truths)) if not truths[i].hand and not truths[i - 1].hand
             and truths[i].step == truths[i - 1].step]
    assert len(still) > 50
    config = detector.config
    changes = [detector.changed(detector.small(frames[i]), detector.small(frames[i - 1])) for i in still]
    assert max(changes) < config.motion_fraction  # noise, jitter and light drift frame to frame
    brighter = np.clip(frames[still[0]].astype(np.float32) * 1.2, 0, 255).astype(np.uint8)
    assert detector.changed(detector.small(brighter), detector.small(frames[still[0]])) < config.motion_fraction
    hands = [i for i in range(1, len(truths)) if truths[i].hand and truths[i - 1].hand]
    moving = [detector.changed(detector.small(frames[i]), detector.small(frames[i - 1])) for i in hands]
    assert np.mean(np.array(moving) > config.motion_fraction) > 0.8


def test_views_come_from_still_periods_and_recognise_few_frames(clip: tuple[Script, list, list]) -> None:
    script, frames, truths = clip
    recognizer = TruthRecognizer(truths, MisreadModel(per_frame=0.0))
    config = StabilityConfig(settle_s=0.4, votes=3, vote_gap_s=0.07)
    tracker = StableTracker(recognizer, config)
    views = []
    for image, truth in zip(frames, truths, strict=True):
        update = tracker.feed(Frame(image, truth.index, truth.time, "clip"))
        if truth.hand:
            assert update.status is Status.MOVING or update.view is None
        if update.view is not None:
            views.append((truth, update.view))
    changed_steps = [i for i, s in enumerate(script.steps) if i == 0 or s.cards != script.steps[i - 1].cards]
    assert [t.step for t, _ in views] == changed_steps  # one view per change; a hand passing changes nothing
    assert recognizer.calls == config.votes * len(views)
    assert tracker.recognised < len(frames) / 8
    for truth, view in views:
        assert not truth.hand and view.time - view.settled_at >= config.settle_s - 1e-9
        expected = sorted(c.label for c in truth.cards if c.visible >= 0.3)
        assert sorted(c.label for c in view.cards) == expected


def test_votes_outweigh_misreads() -> None:
    quad = ((10.0, 10.0), (50.0, 10.0), (50.0, 70.0), (10.0, 70.0))
    other = tuple((x + 100.0, y) for x, y in quad)
    voter = CardVoter(StabilityConfig(votes=3))
    for labels in (("pine-crane", "maple-deer"), ("pine-ribbon", "maple-deer"), ("pine-crane", "maple-deer")):
        voter.add(TableObservation((200, 100), tuple(
            CardObservation(label, 0.9, q, zone="field") for label, q in zip(labels, (quad, other), strict=True))))
    crane, deer = sorted(voter.result(), key=lambda c: c.center[0])
    assert (crane.label, crane.share, crane.runner_up) == ("pine-crane", pytest.approx(2 / 3), "pine-ribbon")
    assert (deer.label, deer.seen, deer.zone) == ("maple-deer", 3, "field")


def test_a_label_goes_to_one_card_only() -> None:
    quads = [tuple((x + dx, y) for x, y in ((0.0, 0.0), (40.0, 0.0), (40.0, 60.0), (0.0, 60.0))) for dx in (0, 100)]
    voter = CardVoter()
    voter.add(TableObservation((200, 100), (CardObservation("pine-crane", 0.9, quads[0]),
                                            CardObservation("pine-crane", 0.6, quads[1]))))
    voter.add(TableObservation((200, 100), (CardObservation("pine-crane", 0.9, quads[0]),
                                            CardObservation("pine-plain-1", 0.5, quads[1]))))
    labels = sorted(voter.result(), key=lambda c: c.center[0])
    assert [c.label for c in labels] == ["pine-crane", "pine-plain-1"]
    backs = CardVoter()
    backs.add(TableObservation((200, 100), tuple(CardObservation("back", 0.9, q) for q in quads)))
    assert [c.label for c in backs.result()] == ["back", "back"]


def test_config_is_checked() -> None:
    with pytest.raises(ValueError, match="work_width"):
        StabilityConfig(work_width=8)
    with pytest.raises(ValueError, match="votes"):
        StabilityConfig(votes=0)


def test_a_period_cut_short_by_a_hand_still_counts_with_the_votes_it_has(clip: tuple[Script, list, list]) -> None:
    script, frames, truths = clip
    recognizer = TruthRecognizer(truths, MisreadModel(per_frame=0.0))
    tracker = StableTracker(recognizer, StabilityConfig(settle_s=0.4, votes=50, vote_gap_s=0.2))  # never enough
    views = []
    for image, truth in zip(frames, truths, strict=True):
        update = tracker.feed(Frame(image, truth.index, truth.time, "clip"))
        if update.view is not None:
            assert update.status is Status.MOVING and 2 <= update.view.frames < 50
            views.append(sorted(c.label for c in update.view.cards))
    changed = [i for i, s in enumerate(script.steps) if i == 0 or s.cards != script.steps[i - 1].cards]
    still = {t.step: t for t in truths if not t.hand}
    expected = [sorted(c.label for c in still[i].cards if c.visible >= 0.3) for i in changed]
    assert views == expected[:-1]  # the last period never ends: the clip stops first
