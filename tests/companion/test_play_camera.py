"""``kibitz play koikoi --video/--camera/--resume`` through real Textual pilots and the real recogniser
(onnxruntime): a rendered scripted round (held-out art) drives the screen through real moves, a correction
reaches the worker's session and the record, a camera unplugged mid-game is retried and loses nothing, a game
killed mid-way goes on from its record, and a damaged record is refused naming its line."""

from __future__ import annotations

import argparse
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from companion.app.app import KibitzApp
from companion.app.dialogs import CorrectionDialog
from companion.app.koikoi_screen import KoiKoiScreen, build_screen
from companion.commands.play import run as play_command
from companion.live.app_bridge import CameraBridge
from companion.live.koikoi import KoiKoiLive
from companion.live.session import LiveSession
from companion.record import Header, RecordError, RecordWriter, load_record
from companion.session import KoiKoiSession
from datasets.scripted.render import FrameTruth, RenderConfig, ScriptRenderer
from datasets.scripted.script import Script, script_round
from engine.errors import KibitzError
from engine.koikoi.bots import GreedyBot
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.moves import MoveKind
from tests.companion.app_helpers import SIZE
from tests.companion.live_helpers import canonical, write_video
from vision.capture import FrameSource, SourceError
from vision.stability import StabilityConfig

FPS = 15.0
FRAME = (480, 270)
STABLE = StabilityConfig(settle_s=0.4, vote_gap_s=0.07)
Rendered = tuple[Script, list[np.ndarray], list[FrameTruth]]


def opening() -> Script:
    """The opening of a seeded round: five or more camera moves, no koi-koi decision, and the step after the
    last move (a hand passing over, then the still table). Cut right after an opponent's play, a resumed camera
    may see it once or twice only, and with the finder's unsure boxes about, such a play may as well be their
    flip after an unseen play: it waits for a later look (it did with the session-4 models)."""
    for seed in range(50):
        script = script_round(seed).head(13)
        if len(script.camera_actions()) >= 5 and all(source == "camera" for _, _, source in script.actions):
            return script
    raise AssertionError("no suitable seed")


@pytest.fixture(scope="module")
def rendered(shared_data: Path) -> Rendered:
    script = opening()
    frames, truths = [], []
    for image, truth in ScriptRenderer(script, RenderConfig(size=FRAME, fps=FPS)).frames():
        frames.append(image)
        truths.append(truth)
    return script, frames, truths


def play_args(**options: object) -> argparse.Namespace:
    defaults: dict[str, object] = {"game": "koikoi", "camera": None, "video": None, "images": None, "resume": None,
                                   "profile": None, "rules": None, "lang": "en", "no_hints": True, "teach": False}
    return argparse.Namespace(**{**defaults, **options})


def camera_screen(**options: object) -> KoiKoiScreen:
    """The screen ``kibitz play koikoi`` builds, with every frame of a file delivered (no camera pacing)."""
    return build_screen("koikoi", play_args(**options), stability=STABLE, realtime=False)


def shown(screen: KoiKoiScreen) -> list[str]:
    return [str(move) for _, move, _ in screen.session.history] if screen.session.view is not None else []


def side(screen: KoiKoiScreen) -> str:
    return str(screen.query_one("#side", Static).render())


async def wait_until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 240.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("the app never reached the expected state")


async def follow_to_the_end(pilot: Pilot[None], screen: KoiKoiScreen) -> None:
    """Until the source has ended and the screen shows every move the record holds."""
    bridge = screen.camera
    assert bridge is not None
    await wait_until(pilot, bridge.finished.is_set)
    await wait_until(pilot, lambda: "end of input" in side(screen))
    await wait_until(pilot, lambda: shown(screen) == recorded(bridge.record_path), seconds=10)


def recorded(path: Path) -> list[str]:
    record = load_record(path)
    return [a.action for a in record.rounds[-1].actions] if record.rounds else []


@pytest.mark.parametrize("guess", ["right", "wrong"])
def test_the_first_dealer_is_found_whichever_seat_is_guessed(rendered: Rendered, guess: str) -> None:
    """Nobody tells the camera who deals the first round; the match draws a seat. With the session-12 finder the
    first changed view was explained as well by the wrong seat's play (their card onto the field) as by the
    dealer's capture waiting for a clearer look, and the wrong seat's play was taken. Now such a view is held
    until one seat explains the table clearly better."""
    from tests.companion.live_helpers import follow
    from vision.recognizer import Recognizer

    script, frames, truths = rendered
    live = KoiKoiLive(me=0)
    live.session.match.dealer = script.dealer if guess == "right" else 1 - script.dealer
    session = LiveSession(live)
    follow(script, zip(frames, truths, strict=True), Recognizer(), session=session, config=STABLE)
    assert canonical(session.actions()) == canonical(script.camera_actions())
    assert session.game.dealer() == script.dealer


async def test_a_rendered_video_drives_the_screen_through_real_moves_and_a_correction(
        rendered: Rendered, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIBITZ_RECORDS", str(tmp_path / "records"))
    script, frames, _ = rendered
    screen = camera_screen(video=str(write_video(tmp_path / "round.avi", frames, FPS)))
    bridge = screen.camera
    assert bridge is not None and bridge.record_path.parent == tmp_path / "records"
    async with KibitzApp(screen).run_test(size=SIZE) as pilot:
        await follow_to_the_end(pilot, screen)
        session = screen.session
        assert canonical(shown(screen)) == canonical(script.camera_actions())
        assert {source for _, _, source in session.history} == {"camera"}

        # The last move was "misread" (an opponent's card or a flip: any unseen card could have been it).
        index = len(session.history) - 1
        player, wrong_move, _ = session.history[index]
        assert wrong_move.kind is MoveKind.FLIP or player != session.you
        state = session.state
        other = next(c for c in state.unknown() if not any(
            f.month == c.month for f in (*state.field_cards(), *state.captures(0), *state.captures(1))))
        before = shown(screen)
        await correct(pilot, screen, index, next(iter(state.field_cards())).code)  # a card lying on the field: impossible
        await wait_until(pilot, lambda: "cannot correct" in screen.message, seconds=20)
        assert shown(screen) == before == recorded(bridge.record_path)
        await correct(pilot, screen, index, other.code)
        await wait_until(pilot, lambda: session.history[index][2] == "corrected", seconds=20)
        assert str(session.history[index][1]) == f"{str(wrong_move).split()[0]} {other.code}"
    record = load_record(bridge.record_path)
    (r,) = record.rounds
    assert [a.action for a in r.actions] == shown(screen)  # the worker's session, the record and the screen agree
    assert (r.actions[index].action, r.actions[index].source) == (shown(screen)[index], "corrected")
    assert [a.action for a in r.retracted] == [str(wrong_move)]


async def correct(pilot: Pilot[None], screen: KoiKoiScreen, index: int, card: str) -> None:
    """Press c, pick move ``index`` and type ``card``."""
    await pilot.press("c")
    await wait_until(pilot, lambda: isinstance(screen.app.screen, CorrectionDialog), seconds=10)
    dialog = screen.app.screen
    moves = dialog.query_one(OptionList)
    moves.highlighted = next(i for i in range(moves.option_count) if moves.get_option_at_index(i).id == str(index))
    dialog.query_one(Input).value = card
    await pilot.press("enter")


class UnpluggedCamera(FrameSource):
    """A live camera serving rendered frames; unplugged once at ``cut`` until ``plug_in`` is called."""

    live = True

    def __init__(self, frames: list[np.ndarray], truths: list[FrameTruth], cut: int) -> None:
        super().__init__("camera 7")
        self.frames, self.truths, self.cut = frames, truths, cut
        self.next = 0
        self.plugged = threading.Event()
        self.plugged.set()
        self.unplugged_once = False

    def open(self) -> None:
        if not self.plugged.is_set():
            raise SourceError("camera 7: no such device")

    def read(self) -> tuple[np.ndarray, int, float] | None:
        if self.next == self.cut and not self.unplugged_once:
            self.unplugged_once = True
            self.plugged.clear()
            return None
        if not self.plugged.is_set():
            return None
        i = min(self.next, len(self.frames) - 1)  # after the game, the camera keeps looking at the table
        extra = self.next - i
        self.next += 1
        return self.frames[i], self.next - 1, self.truths[i].time + extra / 30


def attempts(status: str) -> int:
    """The attempt the status line shows (0 if none): it is sampled, so under load it may skip a number."""
    found = re.search(r"attempt (\d+)", status)
    return int(found.group(1)) if found else 0


def between_moves(truths: list[FrameTruth]) -> int:
    """A frame in the middle of the game with no hand over the table."""
    played = [i for i, t in enumerate(truths) if t.step >= 7 and not t.hand]
    return played[len(played) // 2]


async def test_a_camera_unplugged_mid_game_is_retried_and_loses_nothing(rendered: Rendered, tmp_path: Path) -> None:
    script, frames, truths = rendered
    camera = UnpluggedCamera(frames, truths, between_moves(truths))
    profile = KoiKoiProfile.load("default")
    live = LiveSession.create(tmp_path / "game.jsonl", KoiKoiLive(profile, me=0), players=("you", "them"))
    bridge = CameraBridge(live, camera, KoiKoiSession(profile, mode="camera"), stability=STABLE, drop_stale=False,
                          retry_s=0.05, status_every=0.1)
    screen = KoiKoiScreen(bridge.mirror, hints=False, camera=bridge)
    async with KibitzApp(screen).run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "camera lost" in side(screen))
        before = shown(screen)
        assert before and before == recorded(bridge.record_path)
        await wait_until(pilot, lambda: attempts(side(screen)) >= 3, seconds=30)  # it keeps trying
        assert shown(screen) == before  # the game waits, intact
        camera.plugged.set()
        await wait_until(pilot, lambda: canonical(shown(screen)) == canonical(script.camera_actions()))
        # the camera is back: the status counts the cards again (the last table shows 21; mid-game counts are 10-19)
        await wait_until(pilot, lambda: re.search(r"\d+ fps, [1-9]\d cards", side(screen)) is not None, seconds=10)
    notes = [text for _, text in load_record(bridge.record_path).notes]
    assert any("camera lost" in n for n in notes) and any("camera back" in n for n in notes)
    assert recorded(bridge.record_path) == shown(screen)


async def test_a_game_killed_mid_way_goes_on_from_its_record(
        rendered: Rendered, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIBITZ_RECORDS", str(tmp_path))
    script, frames, _ = rendered
    cut = between_moves(rendered[2])
    first = camera_screen(video=str(write_video(tmp_path / "first.avi", frames[:cut], FPS)))
    assert first.camera is not None
    path = first.camera.record_path
    async with KibitzApp(first).run_test(size=SIZE) as pilot:
        await follow_to_the_end(pilot, first)  # the source dies mid-game; then the app is quit
    before = shown(first)
    assert before and recorded(path) == before
    written = path.read_bytes()

    second = camera_screen(video=str(write_video(tmp_path / "second.avi", frames[cut:], FPS)), resume=str(path))
    async with KibitzApp(second).run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: shown(second)[:len(before)] == before)  # the match is back at once
        await follow_to_the_end(pilot, second)
    assert canonical(shown(second)) == canonical(script.camera_actions())
    assert path.read_bytes().startswith(written)  # nothing that was written is lost or rewritten
    assert recorded(path) == shown(second)


def small_record(path: Path) -> Path:
    """A valid record of a few moves (header, round, actions)."""
    truth = KoiKoiRound.shuffled(11)
    with RecordWriter.create(path, Header("koikoi", "default", ("you", "them"), me=0)) as writer:
        writer.start_round(1, truth.dealer, {"field": truth.deal.field.codes(), "hands": [truth.deal.hands[0].codes(),
                           []], "hidden": [0, 8], "stock_size": 24})
        for _ in range(3):
            move = GreedyBot().choose(truth)
            writer.action(truth.turn, str(move), "camera")
            truth.push(move)
    return path


def test_a_damaged_record_is_refused_before_the_app_starts_naming_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    video = tmp_path / "table.avi"
    write_video(video, [np.zeros((FRAME[1], FRAME[0], 3), np.uint8)] * 3, FPS)
    good = small_record(tmp_path / "good.jsonl")
    lines = good.read_text().splitlines()

    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_text("\n".join([*lines[:3], "{not json", *lines[4:]]) + "\n")
    with pytest.raises(RecordError, match=r"corrupt\.jsonl, line 4: not valid JSON"):
        camera_screen(video=str(video), resume=str(corrupt))

    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text("\n".join(lines) + "\n" + lines[-1][:25])  # a crash in the middle of a line
    assert play_command(play_args(video=str(video), resume=str(truncated))) == 2
    error = capsys.readouterr().err
    assert f"truncated.jsonl, line {len(lines) + 1}: truncated" in error

    illegal = tmp_path / "illegal.jsonl"
    entry = json.loads(lines[-1])
    illegal.write_text("\n".join([*lines[:-1], json.dumps({**entry, "action": "play pine-crane take maple-deer"})])
                       + "\n")
    with pytest.raises(RecordError, match=rf"line {len(lines)}: action #3 'play pine-crane take maple-deer'"):
        camera_screen(video=str(video), resume=str(illegal))

    with pytest.raises(KibitzError, match="--resume goes on with a game followed by the camera"):
        build_screen("koikoi", play_args(resume=str(good)))
    assert play_command(play_args(video=str(tmp_path / "missing.avi"))) == 2
    assert "missing.avi: no such video file" in capsys.readouterr().err
