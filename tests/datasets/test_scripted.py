"""The scripted-scene tool: its actions are a legal round, its tables follow them, its frames and truth agree,
and the command writes a video with the truth beside it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.scripted.__main__ import main
from datasets.scripted.render import RenderConfig, ScriptRenderer
from datasets.scripted.script import ZONES, script_play, script_round
from datasets.scripted.truth import MisreadModel, TruthRecognizer
from engine.bots import RandomBot
from engine.capture import Phase
from engine.cardset import CardSet
from engine.deal import Deal
from engine.hwatu.bots import GreedyBot
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move
from vision.capture import Frame


@pytest.mark.parametrize("seed", range(6))
def test_the_actions_replay_from_the_deal_as_the_player_saw_it(seed: int) -> None:
    script = script_round(seed)
    deal = script.deal
    view = KoiKoiRound(Deal(tuple(CardSet.parse(h) for h in deal["hands"]), CardSet.parse(deal["field"]), None,
                            tuple(deal["hidden"]), deal["stock_size"]), dealer=script.dealer)
    for action, player, source in script.actions:
        assert view.turn == player
        assert (source == "typed") == (view.phase is Phase.DECIDE)
        view.push(Move.parse(action))
    assert view.is_over and view.result is not None
    assert [view.result.reason, view.result.winner, list(view.result.points)] == list(script.result.values())


def test_every_step_shows_the_cards_where_the_round_has_them() -> None:
    script = script_round(3)
    for step in script.steps:
        faces = [c.label for c in step.cards if c.label != "back"]
        assert len(faces) == len(set(faces))
        for card in step.cards:
            x0, y0, x1, y1 = ZONES[card.role]
            assert x0 <= card.centre[0] <= x1 and y0 <= card.centre[1] <= y1, card
    final = {c.label: c.role for c in script.steps[-1].cards}
    assert sum(role.startswith("captures") for role in final.values()) >= 2
    assert [s.action for s in script.steps if s.action] == script.camera_actions()


@pytest.mark.parametrize("seed", range(12))
def test_a_matgo_table_ends_as_the_engine_does(seed: int) -> None:
    """Go-Stop captures after the flip (a play may stack instead), steals plains from the other pile and bombs
    three cards at once: after every turn the piles and the field hold what the engine says."""
    profile = GoStopProfile.load("matgo")
    state = GoStopRound.shuffled(seed, profile)
    if state.is_over:
        pytest.skip("a void deal")
    truth = GoStopRound.shuffled(seed, profile)
    script = script_play(state, (GreedyBot(), RandomBot(seed)), seed)
    for action, _, _ in script.actions:
        truth.push(Move.parse(action))
    where = {c.label: c.role for c in script.steps[-1].cards if c.label != "back"}
    assert {label for label, role in where.items() if role == "field"} == set(truth.field_cards().codes())
    for player in (0, 1):
        pile = {label for label, role in where.items() if role == f"captures-{player}"}
        assert pile == set(truth.captures(player).codes())


@pytest.fixture(scope="module")
def frames(shared_data: Path) -> list:  # type: ignore[type-arg]
    script = script_round(2).head(4)
    return list(ScriptRenderer(script, RenderConfig(size=(320, 180), fps=10.0)).frames())


def test_frames_are_deterministic_and_truth_lies_in_them(frames: list) -> None:  # type: ignore[type-arg]
    again = list(ScriptRenderer(script_round(2).head(4), RenderConfig(size=(320, 180), fps=10.0)).frames())
    assert len(again) == len(frames)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(frames[:12], again[:12], strict=True))
    image, truth = frames[0]
    assert image.shape == (180, 320, 3) and image.dtype == np.uint8
    assert not truth.hand
    faces = [c for c in truth.cards if c.label != "back"]
    assert len(faces) == 16 and all(c.visible > 0.9 for c in faces)  # the deal: nothing covers anything
    for card in faces:
        quad = np.asarray(card.quad)
        assert (quad >= -2).all() and (quad[:, 0] <= 322).all() and (quad[:, 1] <= 182).all()
    crop = image[int(faces[0].quad[0][1]) + 3: int(faces[0].quad[2][1]) - 3,
                 int(faces[0].quad[0][0]) + 3: int(faces[0].quad[2][0]) - 3]
    table = image[90:100, 300:315]
    assert crop.std() > table.std()  # printed art, not table cloth
    covered = [t for _, t in frames if t.hand]
    assert covered and any(min(c.visible for c in t.cards if c.label != "back") < 0.5 for t in covered)


def test_the_stand_in_recogniser_misreads_on_purpose(frames: list) -> None:  # type: ignore[type-arg]
    truths = [t for _, t in frames]
    recognizer = TruthRecognizer(truths, MisreadModel(per_frame=0.5, seed=3))
    image, truth = frames[0]
    observed = recognizer(Frame(image, 0, 0.0, "test"))
    labels = [c.label for c in observed.cards]
    assert len(observed.cards) == sum(c.visible >= 0.3 for c in truth.cards)
    assert recognizer.injected and all(m.read != m.truth for m in recognizer.injected)
    assert len({x for x in labels if x != "back"}) == len([x for x in labels if x != "back"])
    exact = TruthRecognizer(truths, MisreadModel(per_frame=0.0))(Frame(image, 0, 0.0, "test"))
    assert sorted(c.label for c in exact.cards) == sorted(c.label for c in truth.cards if c.visible >= 0.3)
    assert {c.zone for c in exact.cards} == {"field", "stock", "hand-0"}


def test_the_command_writes_video_and_truth(tmp_path: Path, shared_data: Path) -> None:
    assert main(["--seed", "2", "--out", str(tmp_path), "--size", "160x96", "--fps", "8", "--steps", "3"]) == 0
    summary = json.loads((tmp_path / "script.json").read_text())
    truth = [json.loads(line) for line in (tmp_path / "truth.jsonl").read_text().splitlines()]
    capture = cv2.VideoCapture(str(tmp_path / "round.avi"))
    count = 0
    while capture.read()[0]:
        count += 1
    assert count == summary["frames"] == len(truth)
    assert summary["style"] == "mantia-modern" and summary["actions"][0]["source"] == "camera"
    assert truth[0]["cards"][0]["role"] == "stock"
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path), "--size", "huge"])
