"""Kan on the table screen: the session alone (demo, manual, what the seat may see, undo, the ledger), the real
screen driven through whole deals with App.run_test(), and snapshots in two languages."""

from __future__ import annotations

import pytest

from companion.app.app import KibitzApp
from companion.app.table_screen import TableScreen
from companion.i18n import LANGS
from companion.tables.kan import KanTableSession, build_screen, parse_action
from companion.tables.kan_texts import REASONS, TEXTS, reason_text
from engine.errors import KibitzError
from engine.kan.actions import ActionKind
from engine.kan.bots import GreedyBot
from engine.kan.cards import Card
from engine.kan.deal import KanDeal
from engine.kan.hints import Reason
from engine.kan.table import Phase
from tests.companion.app_helpers import SIZE, hints_shown, wait_until


def text_of(session: KanTableSession, lang: str = "en") -> str:
    return "\n".join(p.body.plain for p in [*session.panels(lang), *session.side_panels(lang)])


def play_demo_deal(session: KanTableSession) -> None:
    while not session.hand_over:
        if session.your_turn:
            session.apply(session.choices("en")[0].token)
        else:
            session.play_bot()


# ----------------------------------------------------------------- the session alone
def test_every_text_is_in_every_language_with_the_same_fields() -> None:
    import string

    for table in (TEXTS, REASONS):
        for key, texts in table.items():
            assert set(texts) == set(LANGS), key
            fields = {f for _, f, _, _ in string.Formatter().parse(texts["en"]) if f}
            for lang in LANGS:
                assert {f for _, f, _, _ in string.Formatter().parse(texts[lang]) if f} <= fields | {"s"}, (key, lang)


def test_a_demo_deal_shows_only_what_the_seat_knows() -> None:
    session = KanTableSession(seed=3)
    while not session.your_turn:
        session.play_bot()
    state = session.state
    assert state is not None
    shown = text_of(session)
    others = [c for p in range(1, 5) for c in state.hand(p) if c not in state.view(0).hand(p)]
    hand_panel = session.panels("en")[1].body.plain
    assert all((c.symbol if c is not Card.JOKER else "JOKER") in hand_panel for c in state.hand(0))
    assert not any(f" {c.symbol}" in hand_panel for c in others)
    assert "Trick" in session.panels("en")[0].title and "trump ♣" in session.panels("en")[0].title
    assert "kankei" in shown
    assert session.choices("en") and all(parse_action(c.token) in state.generate_legal_moves()
                                          for c in session.choices("en"))


def test_a_demo_deal_ends_with_the_result_and_the_ledger() -> None:
    session = KanTableSession(seed=5)
    play_demo_deal(session)
    state = session.state
    assert state is not None and state.result is not None
    status = session.status("en")
    assert f"{state.result.kankei_points}-{state.result.mukankei_points}" in status
    ledger = session.side_panels("en")[1].body.plain
    assert f"kankei {state.result.kankei_points}-{state.result.mukankei_points}" in ledger
    if not state.result.kankei_won:
        assert "deal-lost -1" in ledger
    session.next_hand()
    assert session.state is not None and session.state is not state and not session.hand_over


def test_the_bots_play_their_seats_and_the_user_cannot_play_for_them() -> None:
    session = KanTableSession(seed=3)
    while session.your_turn:
        session.apply(session.choices("en")[0].token)
    assert session.bot_to_move and session.choices("en") == ()
    with pytest.raises(KibitzError, match="a bot plays it"):
        session.apply("play 10H")


def test_demo_undo_takes_back_the_bots_replies_too() -> None:
    session = KanTableSession(seed=3)
    while not session.your_turn:
        session.play_bot()
    state = session.state
    assert state is not None
    before = list(state.move_stack)
    session.apply(session.choices("en")[0].token)
    while not session.your_turn and not session.hand_over:
        session.play_bot()
    session.undo()
    assert state.move_stack == before and session.your_turn


def manual_session() -> tuple[KanTableSession, KanDeal]:
    truth = KanDeal.shuffled(21)
    session = KanTableSession(mode="manual", seed=1)
    assert not session.started and "10 cards" in session.deal_prompt("en")
    session.start_from_text(" ".join(c.code for c in truth.hand(0)))
    return session, truth


def test_manual_entry_follows_a_whole_deal_from_what_is_said_and_played() -> None:
    session, truth = manual_session()
    bot = GreedyBot()
    while not truth.is_over:
        action = bot.choose(truth)
        heard = truth.observed(action, 0)
        truth.push(action)
        session.apply(str(heard))
    state = session.state
    assert state is not None and state.result is not None and truth.result is not None
    assert state.result.kankei_points == truth.result.kankei_points
    assert session.view().hidden == (0, 0, 0, 0, 0)


def test_manual_illegal_moves_say_why_and_change_nothing() -> None:
    session, truth = manual_session()
    state = session.state
    assert state is not None
    with pytest.raises(KibitzError, match="kan"):
        session.apply("play 10H")
    with pytest.raises(KibitzError, match="unknown card|cannot read"):
        session.apply("play 1Z")
    assert state.move_stack == []
    session.apply(f"kan JOKER by {truth.talk.joker_holder + 1}")
    session.undo()
    assert state.move_stack == [] and state.phase is Phase.ANNOUNCE
    with pytest.raises(KibitzError):
        session.undo()


def test_manual_hand_must_be_ten_cards_of_the_deck() -> None:
    session = KanTableSession(mode="manual")
    with pytest.raises(KibitzError, match="10 cards"):
        session.start_from_text("AS KS")
    with pytest.raises(KibitzError, match="not in the Kan deck"):
        session.start_from_text("2H AS KS QS JS 10S 9S 8S 7S 6S")
    assert not session.started


def test_hints_rank_the_seat_s_choices_with_reasons_in_its_language() -> None:
    session = KanTableSession(seed=3)
    while not session.your_turn:
        session.play_bot()
    search = session.hint_search("uk", seed=1)
    assert search is not None
    search.add_samples(3)
    lines = search.lines()
    assert {line.token for line in lines} == {c.token for c in session.choices("uk")}
    assert all(line.reason for line in lines)
    assert reason_text(Reason("discard", (Card.TEN_OF_HEARTS,), Card.ACE_OF_SPADES.suit), "en") == \
        "cannot follow ♠ nor win: throws 10♥, worth nothing"


def test_the_camera_is_refused_with_a_reason() -> None:
    import argparse

    args = argparse.Namespace(camera=0, video=None, images=None, demo=False, lang="en")
    with pytest.raises(KibitzError, match="playing-card recogniser"):
        build_screen("kan", args)


# ----------------------------------------------------------------- the real screen
def demo_screen(seed: int = 3, lang: str = "en", hints: bool = False) -> tuple[KibitzApp, TableScreen]:
    session = KanTableSession(seed=seed, rounds=1)
    screen = TableScreen(session, lang=lang, hints=hints, bot_delay=0.01, hint_samples=6)
    return KibitzApp(screen), screen


async def wait_for(pilot, condition) -> None:  # type: ignore[no-untyped-def]
    await wait_until(pilot, condition)


async def test_a_demo_deal_is_played_through_the_screen() -> None:
    app, screen = demo_screen()
    session = screen.session
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(60):
            await wait_for(pilot, lambda: session.your_turn or session.hand_over)
            if session.hand_over:
                break
            await pilot.press("down", "enter")  # a legal move from the list
            await pilot.pause(0.02)
        await pilot.pause(0.05)
        assert "over" in str(screen.query_one("#status").render())
        assert "kankei" in str(screen.query_one("#kan-ledger").render())
        await pilot.press("n")
        await pilot.pause(0.05)
        assert session.started and not session.hand_over


async def test_hints_appear_on_the_user_s_turn() -> None:
    app, screen = demo_screen(hints=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: hints_shown(screen), what="hints never settled")
        text = str(screen.query_one("#hints").render())
        assert "1." in text and "expected" in text


async def test_manual_entry_through_the_screen_with_an_illegal_move_and_undo() -> None:
    truth = KanDeal.shuffled(21)
    session = KanTableSession(mode="manual", seed=1)
    app = KibitzApp(TableScreen(session, hints=False, bot_delay=0.01))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        await pilot.press(*" ".join(c.code for c in truth.hand(0)), "enter")
        await pilot.pause(0.05)
        assert session.started
        screen = app.screen
        command = screen.query_one("#command")
        command.focus()
        await pilot.press(*"play 10H", "enter")
        await pilot.pause(0.05)
        assert "kan" in str(screen.query_one("#status").render()) and session.state.move_stack == []  # type: ignore[union-attr]
        bot = GreedyBot()
        for _ in range(3):
            action = bot.choose(truth)
            heard = str(truth.observed(action, 0))
            truth.push(action)
            command.focus()
            await pilot.press(*heard, "enter")
            await pilot.pause(0.02)
        assert [str(a) for a in session.state.move_stack][:1] == [str(truth.move_stack[0])]  # type: ignore[union-attr]
        command.focus()
        await pilot.press(*"undo", "enter")
        await pilot.pause(0.02)
        assert len(session.state.move_stack) == 2  # type: ignore[union-attr]
        assert session.state.move_stack[-1].kind in (ActionKind.KAN, ActionKind.GIVE, ActionKind.IKU,  # type: ignore[union-attr]
                                                     ActionKind.KOI)


# ----------------------------------------------------------------- snapshots
def at_your_turn(app: KibitzApp, hints: bool):  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        screen = app.screen
        session = screen.session  # type: ignore[attr-defined]
        await wait_for(pilot, lambda: session.your_turn and session.state.trick)
        if hints:
            await wait_until(pilot, lambda: hints_shown(screen), what="hints never settled")
        await pilot.pause(0.05)
    return run_before


@pytest.mark.parametrize(("lang", "hints"), [("en", True), ("ko", False)])
def test_table_screen_snapshot(snap_compare, lang: str, hints: bool) -> None:  # type: ignore[no-untyped-def]
    app, _ = demo_screen(seed=3, lang=lang, hints=hints)
    assert snap_compare(app, terminal_size=SIZE, run_before=at_your_turn(app, hints))
