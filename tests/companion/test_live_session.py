"""The live session and its record: every action written as it is committed, keys and corrections, a crash
and a resume that loses nothing, and records that cannot be replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.live.koikoi import KoiKoiLive
from companion.live.session import LiveSession
from companion.record import RecordError, load_record
from engine.capture import Phase
from engine.koikoi.bots import GreedyBot
from engine.koikoi.round import KoiKoiRound
from tests.companion.test_live_infer import Table
from vision.capture import CaptureEvent


def dealt(path: Path, seed: int = 11) -> tuple[KoiKoiRound, Table, LiveSession]:
    truth = KoiKoiRound.shuffled(seed)
    table = Table()
    session = LiveSession.create(path, KoiKoiLive(me=0), players=("me", "them"), dealer=truth.dealer)
    for _ in range(2):
        session.observe(table.view(truth, show_hand=True))
    return truth, table, session


def play_turns(truth: KoiKoiRound, table: Table, session: LiveSession, moves: int) -> None:
    bot = GreedyBot()
    for _ in range(moves):
        truth.push(bot.choose(truth))
        session.observe(table.view(truth))


def test_actions_are_recorded_as_they_are_committed(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    truth, table, session = dealt(path)
    play_turns(truth, table, session, 4)
    session.camera_event(CaptureEvent("lost", "camera 0: camera lost, retrying", 0.0))
    record = load_record(path)  # read while the session is still writing
    (r,) = record.rounds
    assert r.deal["field"] == truth.deal.field.codes() and r.deal["hands"][0] == truth.deal.hands[0].codes()
    assert r.deal["hidden"] == [0, 8] and r.deal["stock_size"] == 24
    assert [a.action for a in r.actions] == [str(m) for m in truth.move_stack]
    assert {a.source for a in r.actions} == {"camera"}
    assert record.notes[-1][1] == "camera 0: camera lost, retrying"
    session.close()


def test_a_crash_and_a_resume_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    truth, table, session = dealt(path)
    play_turns(truth, table, session, 3)
    written = path.read_bytes()
    del session  # the program dies without closing anything
    resumed = LiveSession.resume(path, KoiKoiLive(me=0))
    assert resumed.actions() == [str(m) for m in truth.move_stack]
    assert resumed.phase == "playing" and resumed.game.round.field == truth.field
    play_turns(truth, table, resumed, 3)
    resumed.close()
    assert path.read_bytes().startswith(written)
    assert [a.action for a in load_record(path).rounds[0].actions] == [str(m) for m in truth.move_stack]


def test_a_correction_retracts_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    truth, table, session = dealt(path)
    play_turns(truth, table, session, 2)
    last = session.actions()[-1]
    assert last.startswith("flip ")
    other = next(c for c in truth.view(0).unknown() if not any(
        f.month == c.month for f in truth.field_cards()))
    events = session.correct(f"flip {other.code}")
    assert events[0].kind == "move" and session.actions()[-1] == f"flip {other.code}"
    r = load_record(path).rounds[0]
    assert [a.action for a in r.retracted] == [last]
    assert (r.actions[-1].action, r.actions[-1].source) == (f"flip {other.code}", "corrected")
    session.close()
    assert LiveSession.resume(path, KoiKoiLive(me=0)).actions()[-1] == f"flip {other.code}"


def test_an_impossible_correction_changes_nothing(tmp_path: Path) -> None:
    truth, table, session = dealt(tmp_path / "game.jsonl")
    play_turns(truth, table, session, 2)
    before = session.actions()
    events = session.correct("flip pine-crane take pine-crane")
    assert events[-1].kind == "error" and session.actions() == before


def test_keys_and_typed_hand(tmp_path: Path) -> None:
    truth = KoiKoiRound.shuffled(11)
    table = Table()
    session = LiveSession(KoiKoiLive(me=0), dealer=truth.dealer)
    session.set_hand(truth.hand(0).codes())
    for _ in range(2):
        session.observe(table.view(truth))  # the hand is not shown: it was typed
    assert session.game.deal()["hands"][0] == truth.hand(0).codes()
    assert session.type_action("koikoi")[-1].kind == "error"  # nobody is deciding


def test_resume_refuses_a_record_that_does_not_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    truth, table, session = dealt(path)
    play_turns(truth, table, session, 2)
    session.close()
    lines = path.read_text().splitlines()
    entry = json.loads(lines[-1])
    entry["action"] = "play pine-crane take maple-deer"
    lines[-1] = json.dumps(entry)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match=rf"line {len(lines)}: action #2 'play pine-crane take maple-deer'"):
        LiveSession.resume(path, KoiKoiLive(me=0))


def test_resume_refuses_another_games_record(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    dealt(path)[2].close()
    text = path.read_text().replace('"game":"koikoi"', '"game":"dominoes"', 1)
    path.write_text(text)
    with pytest.raises(RecordError, match="line 1: this is a dominoes record"):
        LiveSession.resume(path, KoiKoiLive(me=0))


def test_the_live_command_reports_bad_sources_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from companion.commands import live

    parser = argparse.ArgumentParser()
    live.register(parser.add_subparsers())
    args = parser.parse_args(["live", str(tmp_path / "nope.mp4"), "--record", str(tmp_path / "g.jsonl")])
    assert args.run(args) == 2
    assert "nope.mp4: no such file or folder" in capsys.readouterr().err
    args = parser.parse_args(["live", str(tmp_path), "--record", str(tmp_path / "missing.jsonl"), "--resume"])
    assert args.run(args) == 2
    assert "missing.jsonl: no such record" in capsys.readouterr().err


def test_a_hand_card_unreadable_at_the_deal_is_known_once_played(tmp_path: Path) -> None:
    """A hand card cut by the frame edge reads as unknown: the deal starts anyway, that card hidden like the
    opponent's, and the play names it."""
    truth = KoiKoiRound.shuffled(5)
    cut = next(iter(truth.hand(0)))
    table = Table()
    path = tmp_path / "game.jsonl"
    session = LiveSession.create(path, KoiKoiLive(me=0), players=("me", "them"), dealer=truth.dealer)
    for _ in range(2):
        session.observe(table.view(truth, show_hand=True, relabel={cut: "unknown"}))
    assert session.phase == "playing"
    (r,) = load_record(path).rounds
    assert r.deal["hidden"] == [1, 8] and cut.code not in r.deal["hands"][0] and len(r.deal["hands"][0]) == 7
    bot = GreedyBot()
    while cut in truth.hand(0):
        truth.push(bot.choose(truth))
        session.observe(table.view(truth))
    assert session.actions() == [str(m) for m in truth.move_stack]
    assert any(cut.code in a for a in session.actions())
    session.close()


def test_a_hand_short_by_more_than_unreadable_cards_is_not_a_deal(tmp_path: Path) -> None:
    truth = KoiKoiRound.shuffled(5)
    hidden = tuple(truth.hand(0))[:1]
    session = LiveSession(KoiKoiLive(me=0), dealer=truth.dealer)
    table = Table()
    for _ in range(2):
        events = session.observe(table.view(truth, show_hand=True, hide=hidden))
    assert session.phase == "setup" and "7 of 8" in events[-1].message


def test_a_hand_card_unreadable_at_the_deal_is_learnt_once_two_looks_read_it(tmp_path: Path) -> None:
    truth = KoiKoiRound.shuffled(7)
    cut = next(c for c in truth.hand(0) if "plain" not in c.code)  # a plain could be learnt as its twin
    table = Table()
    path = tmp_path / "game.jsonl"
    session = LiveSession.create(path, KoiKoiLive(me=0), players=("me", "them"), dealer=truth.dealer)
    for _ in range(2):
        session.observe(table.view(truth, show_hand=True, relabel={cut: "unknown"}))
    assert session.game.deal()["hidden"][0] == 1
    first = session.observe(table.view(truth, show_hand=True))  # the card reads now: once is not enough
    assert "revealed" not in [e.kind for e in first]
    second = session.observe(table.view(truth, show_hand=True))
    revealed = [e for e in second if e.kind == "revealed"]
    assert revealed and cut.code in revealed[0].message
    assert cut.code in session.game.deal()["hands"][0] and session.game.deal()["hidden"][0] == 0
    assert load_record(path).notes[-1][1] == revealed[0].message
    bot = GreedyBot()
    while not truth.is_over and len(truth.move_stack) < 8:
        truth.push(bot.choose(truth))
        session.observe(table.view(truth))
    assert session.actions() == [str(m) for m in truth.move_stack]
    session.close()


def test_a_hand_card_first_read_in_the_view_of_a_move_does_not_block_it(tmp_path: Path) -> None:
    """The unreadable hand card may first read in the very view where the player's first play shows (live Matgo
    hand 9, session 12): the move is explained with that card as the hidden one, not left as a conflict, and the
    card is learnt from the next looks."""
    truth = KoiKoiRound.shuffled(7)
    cut = next(c for c in truth.hand(0) if "plain" not in c.code)
    table = Table()
    session = LiveSession(KoiKoiLive(me=0), dealer=truth.dealer)
    for _ in range(2):
        session.observe(table.view(truth, show_hand=True, relabel={cut: "unknown"}))
    assert session.game.deal()["hidden"][0] == 1
    bot = GreedyBot()
    while truth.turn != 0 or truth.phase is not Phase.PLAY:
        truth.push(bot.choose(truth))
        session.observe(table.view(truth, show_hand=True, relabel={cut: "unknown"}))
    move = next(m for m in truth.generate_legal_moves() if m.card != cut)
    truth.push(move)
    events = [e for _ in range(3) for e in session.observe(table.view(truth, show_hand=True))]
    kinds = [e.kind for e in events]
    assert "conflict" not in kinds and "move" in kinds and "revealed" in kinds, kinds
    assert session.actions() == [str(m) for m in truth.move_stack]
    assert cut.code in session.game.deal()["hands"][0]


def test_a_misread_hand_card_is_not_taken_for_the_unreadable_one(tmp_path: Path) -> None:
    """A known hand card read as another card leaves its own class unseen in the hand: nothing is learnt."""
    truth = KoiKoiRound.shuffled(7)
    cut, other = list(truth.hand(0))[:2]
    stranger = next(c for c in truth.view(0).unknown() if c.month not in (cut.month, other.month))
    session = LiveSession(KoiKoiLive(me=0), dealer=truth.dealer)
    table = Table()
    for _ in range(2):
        session.observe(table.view(truth, show_hand=True, relabel={cut: "unknown"}))
    for _ in range(3):
        events = session.observe(table.view(truth, show_hand=True, relabel={cut: "unknown", other: stranger.code}))
        assert "revealed" not in [e.kind for e in events]
    assert session.game.deal()["hidden"][0] == 1
