"""Hwatu followed through the camera in the app: ``kibitz play matgo --video FILE`` drives the table screen
from a rendered Matgo hand (held-out art) through the real recogniser (onnxruntime), the stability tracker and
``HwatuLive``; the mirror keeps the worker's whole match (hands scored in order); a record resumes; seats of
three to five players get zones of their own."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import pytest
from textual.widgets import Input, Static

from companion.app.app import KibitzApp
from companion.live.camera_screen import CameraTableScreen
from companion.live.hwatu import HwatuLive
from companion.live.hwatu_camera import HwatuCameraBridge, seat_zones
from companion.live.session import LiveSession
from companion.record import RecordError, load_record
from companion.tables.hwatu import HwatuSession, build_screen
from datasets.scripted.render import RenderConfig, ScriptRenderer
from datasets.scripted.script import Script, script_play
from engine.bots import RandomBot
from engine.errors import KibitzError
from engine.hwatu.bots import GreedyBot
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.moves import MoveKind
from tests.companion.app_helpers import SIZE, wait_until
from tests.companion.live_helpers import canonical, write_video
from tests.companion.test_live_hwatu import Table
from vision.capture import ImageFolderSource, StreamSource
from vision.stability import StabilityConfig

FPS = 15.0
FRAME = (480, 270)
ON_SCREEN = StabilityConfig(settle_s=0.2, vote_gap_s=0.035)  # frames drawn at 15 fps, read from a folder at 30


def matgo_opening() -> Script:
    """The opening of a seeded Matgo hand: five or more camera moves, nothing typed (no go, stop or shake)."""
    profile = GoStopProfile.load("matgo")
    for seed in range(50):
        state = GoStopRound.shuffled(seed, profile)
        if state.is_over:
            continue
        script = script_play(state, (GreedyBot(), RandomBot(seed)), seed).head(12)
        if len(script.camera_actions()) >= 5 and all(source == "camera" for _, _, source in script.actions):
            return script
    raise AssertionError("no suitable seed")


def write_images(folder: Path, frames: list[np.ndarray]) -> Path:
    """Lossless frames: a re-compressed video costs the recogniser cards that the camera itself would show."""
    folder.mkdir()
    for i, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:05d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    return folder


def play_args(game: str, **options: object) -> argparse.Namespace:
    defaults: dict[str, object] = {"game": game, "camera": None, "video": None, "images": None, "resume": None,
                                   "profile": None, "rules": None, "players": None, "lang": "en", "no_hints": True,
                                   "teach": False}
    return argparse.Namespace(**{**defaults, **options})


def mirrored(screen: CameraTableScreen) -> list[str]:
    state = screen.session.state  # type: ignore[attr-defined]
    return [str(m) for m in state.move_stack] if state is not None else []


async def test_kibitz_play_matgo_follows_a_rendered_hand_on_the_table_screen(
        shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIBITZ_RECORDS", str(tmp_path / "records"))
    script = matgo_opening()
    frames = [image for image, _ in ScriptRenderer(script, RenderConfig(size=FRAME, fps=FPS)).frames()]
    args = play_args("matgo", images=str(write_images(tmp_path / "frames", frames)))
    screen = build_screen("matgo", args, stability=ON_SCREEN, realtime=False)
    assert isinstance(screen, CameraTableScreen) and isinstance(screen.camera, HwatuCameraBridge)
    async with KibitzApp(screen).run_test(size=SIZE) as pilot:
        await wait_until(pilot, screen.camera.finished.is_set, seconds=240)
        await wait_until(pilot, lambda: "end of input" in screen.camera_line.plain)
        recorded = [a.action for a in load_record(screen.camera.record_path).rounds[-1].actions]
        await wait_until(pilot, lambda: mirrored(screen) == recorded, seconds=10)
        # every move believed is the true one; the last may stay undecided when the video ends (no later look)
        assert len(recorded) >= 4
        assert canonical(mirrored(screen)) == canonical(script.camera_actions()[: len(recorded)])
        status = str(screen.query_one("#status", Static).render()).lower()
        assert "matgo" in status and "to " in status  # whose turn it is, from the mirrored hand
        # a move typed on the screen goes to the camera's game, which refuses what the rules refuse
        screen.query_one("#command", Input).value = "play pine-crane take maple-deer"
        screen.query_one("#command", Input).focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: "pine-crane cannot take maple-deer" in screen.message, seconds=10)
        recorded = [a.action for a in load_record(screen.camera.record_path).rounds[-1].actions]
        assert mirrored(screen) == recorded
    assert screen.camera.record_path.parent == tmp_path / "records"
    assert screen.camera.record_path.name.startswith("matgo-")


def played_match(path: Path, hands: int = 2) -> tuple[LiveSession, list[GoStopRound]]:
    """A worker-side Go-Stop session that saw ``hands`` hands of greedy play (typed calls, each view after
    each action), recorded at ``path``; the last hand is left after its first few actions."""
    session = LiveSession.create(path, HwatuLive("gostop", me=0), players=("you", "b", "c"), dealer=0)
    truths, bot, seed = [], GreedyBot(), 0
    for n in range(hands):
        seed += 1
        truth = GoStopRound.shuffled(seed, dealer=session.game.dealer() if n else 0)
        while truth.is_over:  # a void deal: shuffle again
            seed += 1
            truth = GoStopRound.shuffled(seed, dealer=truth.dealer)
        table = Table()
        for _ in range(2):  # a deal is believed on the second look
            session.observe(table.view(truth, show_hand=True))
        assert session.phase == "playing", [e.message for e in session.log[-3:]]
        last = n == hands - 1
        while not truth.is_over and not (last and len(truth.move_stack) >= 5):
            move = bot.choose(truth)
            truth.push(move)
            if move.kind in (MoveKind.KOIKOI, MoveKind.STOP, MoveKind.SHAKE):
                session.type_action(str(move))
                if truth.is_over:
                    session.observe(table.view(truth))  # a round-ending key waits for one more look
            else:
                session.observe(table.view(truth, show_hand=True))
        truths.append(truth)
    return session, truths


def test_the_mirror_keeps_the_whole_match_and_follows_a_revision(tmp_path: Path) -> None:
    live, truths = played_match(tmp_path / "gostop.jsonl")
    mirror = HwatuSession("gostop", live.game.hwatu.profile, 3, "camera")  # type: ignore[attr-defined]
    bridge = HwatuCameraBridge(live, ImageFolderSource(tmp_path), mirror)  # UI side only: never started
    assert bridge.sync(bridge._snapshot())
    first, second = truths
    assert len(mirror.match.results) == 1  # the first hand is scored in the match before the second is dealt
    assert list(mirror.match.results[0].net) == list(first.result.net)
    assert [str(m) for m in mirror.state.move_stack] == live.actions()
    assert canonical(live.actions()) == canonical(str(m) for m in second.move_stack)
    assert not bridge.sync(bridge._snapshot())  # nothing new: nothing done

    # the worker takes its last action back (a revision): the mirror follows without a rebuild
    state = mirror.state
    live.game.pop()
    live.writer.record.rounds[-1].actions.pop()
    assert bridge.sync(bridge._snapshot())
    assert mirror.state is state and [str(m) for m in state.move_stack] == live.actions()
    live.close()


def test_a_recorded_hwatu_game_resumes_and_a_damaged_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "gostop.jsonl"
    live, _ = played_match(path, hands=1)
    actions = live.actions()
    live.close()
    video = write_video(tmp_path / "table.avi", [np.zeros((FRAME[1], FRAME[0], 3), np.uint8)] * 3, FPS)
    screen = build_screen("gostop", play_args("gostop", video=str(video), resume=str(path)))
    assert isinstance(screen, CameraTableScreen)
    assert screen.camera.live.actions() == actions  # replayed before the app starts
    screen.camera.live.close()

    lines = path.read_text().splitlines()
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join([*lines[:3], "{not json", *lines[4:]]) + "\n")
    with pytest.raises(RecordError, match=r"damaged\.jsonl, line 4"):
        build_screen("gostop", play_args("gostop", video=str(video), resume=str(damaged)))
    with pytest.raises(RecordError, match="this is a gostop record, not matgo"):
        build_screen("matgo", play_args("matgo", video=str(video), resume=str(path)))
    with pytest.raises(KibitzError, match="--resume goes on with a game followed by the camera"):
        build_screen("gostop", play_args("gostop", resume=str(path)))


def test_a_phone_stream_is_a_source_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIBITZ_RECORDS", str(tmp_path))
    screen = build_screen("hato", play_args("hato", stream="rtsp://192.0.2.1/table", players=4))
    assert isinstance(screen, CameraTableScreen) and isinstance(screen.camera.source, StreamSource)
    assert screen.camera.source.name == "rtsp://192.0.2.1/table" and screen.session.players == 4
    assert screen.camera.live.zones.role_of(None, (990.0, 10.0), (1000, 1000)) == "captures-1"
    screen.camera.stop()  # never started: closes the record


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_other_player_has_a_capture_zone_along_the_far_edge(players: int) -> None:
    zones = seat_zones(players)
    size = (1000, 1000)
    far = [zones.role_of(None, (x, 60.0), size) for x in np.linspace(990.0, 130.0, 4 * players)]
    seen = list(dict.fromkeys(far))  # in order, right to left
    assert seen == [f"captures-{p}" for p in range(1, players)]  # counter-clockwise from the right
    assert zones.role_of(None, (500.0, 700.0), size) == "captures-0"
    assert zones.role_of(None, (500.0, 900.0), size) == "hand-0"
    assert zones.role_of(None, (500.0, 400.0), size) == "field"
    assert zones.role_of(None, (50.0, 400.0), size) == "stock"
    assert {seat_zones(2).role_of(None, (x, 60.0), size) for x in (130.0, 560.0, 990.0)} == {"captures-1"}
