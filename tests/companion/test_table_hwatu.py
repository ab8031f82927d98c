"""The hwatu table: the session alone (demo hands, manual deals and moves, undo, void deals, hints with their
reasons), whole hands driven through the real screen, and snapshots in English and Korean."""

from __future__ import annotations

import argparse

import pytest

from companion.app.app import KibitzApp
from companion.app.table_screen import TableScreen
from companion.tables.hwatu import HwatuSession, build_screen
from engine.capture import Phase
from engine.cards import Card
from engine.cardset import CardSet
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidStateError, KibitzError
from engine.hwatu.deal import explicit_deal
from engine.hwatu.report import load_profile
from engine.moves import Move
from tests.companion.app_helpers import SIZE, hints_shown, wait_until

# Go-Stop, you first: 7 cards each, 6 on the field (pine and cherry pairs to choose from)
HAND = "pine-crane cherry-plain-1 maple-deer iris-plain-1 peony-plain-1 clover-plain-1 pampas-plain-1"
FIELD = "pine-plain-1 pine-ribbon cherry-curtain plum-plain-1 wisteria-plain-1 willow-swallow"


def demo(game: str = "gostop", players: int = 3, seed: int = 4) -> HwatuSession:
    return HwatuSession(game, load_profile(game), players, "demo", seed=seed)


def manual(game: str = "gostop", players: int = 3) -> HwatuSession:
    return HwatuSession(game, load_profile(game), players, "manual", seed=1)


def play_demo_hand(session: HwatuSession) -> None:
    while not session.hand_over:
        if session.bot_to_move:
            session.play_bot()
        else:
            assert session.your_turn
            session.apply(session.choices("en")[0].token)


@pytest.mark.parametrize(("game", "players"), [("gostop", 3), ("matgo", 2), ("hato", 2), ("hato", 5),
                                               ("minhwatu", 4)])
def test_demo_hands_play_out_and_settle_into_the_match(game: str, players: int) -> None:
    session = demo(game, players)
    play_demo_hand(session)
    result = session.state.result
    assert sum(result.net) == 0 and "hand 1/10" in session.status("en")
    assert len(session.panels("en")[2].body.plain.splitlines()) == players  # a captures line per player
    session.next_hand()
    assert session.match.scores == list(result.net) or result.reason == "patu"
    assert session.started and not session.hand_over and "hand 2/10" in session.status("en")


def test_the_screen_shows_korean_month_numbers() -> None:
    session = manual()
    session.start_from_text(f"{HAND} / {FIELD}")
    field = session.panels("en")[0].body.plain
    assert "12 Willow: swallow" in field and "1 Pine: ribbon, plain" in field
    session.apply("play pampas-plain-1")
    session.apply("flip paulownia-phoenix")
    assert "11 Paulownia: phoenix" in session.panels("en")[0].body.plain
    assert "11 Paulownia" in session.panels("ko")[0].body.plain.replace("오동", "Paulownia")


def test_manual_moves_for_every_player_with_shorthand_and_clear_errors() -> None:
    session = manual()
    with pytest.raises(InvalidStateError, match="7 cards to each hand and 6 to the field"):
        session.start_from_text("pine-crane / pine-plain-1")
    session.start_from_text(f"{HAND} / {FIELD} / dealer 1")
    state = session.state
    assert state.turn == 0 and state.hidden == (0, 7, 7) and state.stock is None
    with pytest.raises(AmbiguousMoveError, match="pine-plain-1 or pine-ribbon"):
        session.apply("pine-crane")
    with pytest.raises(IllegalMoveError, match="maple-ribbon"):
        session.apply("play maple-ribbon")
    assert state.move_stack == [] and state.phase is Phase.PLAY  # nothing changed
    session.apply("pine-crane take pine-ribbon")
    session.apply("flip pampas-moon")  # the flip names the card turned up
    assert state.turn == 1 and Card.PAMPAS_MOON in state.field_cards()
    session.apply("cherry-plain-2")  # player 2's card: it takes the only cherry left
    assert state.move_stack[-1] == Move.play(Card.CHERRY_PLAIN_2, Card.CHERRY_CURTAIN)
    session.undo()
    assert state.turn == 1 and state.phase is Phase.PLAY and len(state.move_stack) == 2
    tokens = {c.token for c in session.choices("en")}  # player 2 may hold any unseen card, no seen one
    assert "play pine-plain-2 take pine-plain-1" in tokens and not any("pine-crane" in x for x in tokens)


def test_a_manual_deal_with_four_of_a_month_on_the_table_is_void() -> None:
    session = manual("hato", 3)
    session.start_from_text("pine-crane plum-plain-1 cherry-plain-1 iris-plain-1 peony-plain-1 clover-plain-1 "
                            "pampas-plain-1 / maple-deer maple-ribbon maple-plain-1 maple-plain-2 willow-swallow "
                            "paulownia-phoenix")
    assert session.hand_over and "void deal" in session.status("en")
    session.next_hand()
    assert not session.started and session.match.results == []


def test_demo_undo_goes_back_to_your_last_choice_and_bots_wait_their_turn() -> None:
    session = demo()
    while not session.your_turn:
        session.play_bot()
    before = list(session.state.move_stack)
    session.apply(session.choices("en")[0].token)
    while not session.your_turn and not session.hand_over:
        if session.state.turn != session.you:
            with pytest.raises(IllegalMoveError, match="bot"):
                session.apply(str(session.state.generate_legal_moves()[0]))
        session.play_bot()
    session.undo()
    assert session.state.move_stack == before and session.your_turn
    fresh = manual()
    fresh.start_from_text(f"{HAND} / {FIELD}")
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        fresh.undo()


def test_hints_rank_the_moves_with_reasons_in_the_app_language() -> None:
    session = manual()
    session.start_from_text(f"{HAND} / {FIELD} / dealer 1")
    search = session.hint_search("en", seed=1)
    search.add_samples(12)
    lines = search.lines()
    assert {line.token for line in lines} >= {"play pine-crane take pine-ribbon", "play pine-crane take pine-plain-1"}
    by_token = {line.token: line for line in lines}
    assert "takes 1 crane, 1 ribbon" in by_token["play pine-crane take pine-ribbon"].reason
    assert "lays 10 deer" in by_token["play maple-deer"].reason
    korean = session.hint_search("ko", seed=1)
    assert "먹기" in korean.lines()[0].reason or "깔기" in korean.lines()[0].reason


def test_the_go_hint_quotes_stop_now_go_expected_and_others_first() -> None:
    from tests.engine.test_hwatu_hints import gostop_at_decision

    session = manual()
    session.state = gostop_at_decision()
    search = session.hint_search("en", seed=2)
    search.add_samples(20)
    go = next(line for line in search.lines() if line.token == "koikoi")
    stop = next(line for line in search.lines() if line.token == "stop")
    assert f"against {stop.value:+.0f} now" in go.reason and "others win first" in go.reason
    assert f"{go.value:+.1f}" in go.reason and "stop now" in stop.reason


def test_build_screen_reads_the_common_options() -> None:
    args = argparse.Namespace(game="hato", demo=True, players=4, lang="ko", no_hints=True, rules=None, profile=None)
    screen = build_screen("hato", args)
    assert isinstance(screen, TableScreen) and screen.session.players == 4 and screen.lang == "ko"
    with pytest.raises(OSError, match="missing.avi: no such video file"):  # before any record is made
        build_screen("gostop", argparse.Namespace(video="missing.avi"))
    with pytest.raises(KibitzError, match="Go-Stop 3, Matgo 2"):
        build_screen("matgo", argparse.Namespace(players=3))


# ----------------------------------------------------------------------------- teaching mode
def at(game: str, hands: list[str], field: str, captured: list[str], players: int = 3) -> HwatuSession:
    """A manual session at a constructed position, your turn to play."""
    session = manual(game, players)
    session.start_deal(explicit_deal(hands, field))
    session.state.captured = tuple(CardSet.parse(c).mask for c in captured)
    return session


def test_advice_guards_the_set_a_rival_needs_takes_the_contested_capture_first_and_keeps_the_fourth() -> None:
    session = at("gostop", ["wisteria-plain-1 peony-butterflies plum-plain-2", "pine-plain-1", "cherry-plain-1"],
                 "wisteria-cuckoo peony-ribbon peony-plain-1 peony-plain-2 maple-plain-1",
                 ["", "plum-warbler pampas-geese", ""])
    notes = session.advice("en")
    assert notes[0] == "guard: Player 2 needs 4 cuckoo for godori (the three birds) and you can take it now"
    assert notes[1].startswith("capture 4 cuckoo first: 2 unseen card(s)") and "Peony can wait" in notes[1]
    assert notes[2].startswith("three Peony cards lie on the field and you hold the fourth")
    assert "고도리" in session.advice("ko")[0]
    session.state.push(Move.play(Card.PLUM_PLAIN_2))  # now it is the flip: no capture advice
    assert not any(n.startswith(("guard", "capture")) for n in session.advice("en"))


def test_advice_warns_of_pi_bak_and_gwang_bak_in_go_stop_only() -> None:
    pi = "plum-plain-1 plum-plain-2 cherry-plain-1 cherry-plain-2 iris-plain-1 iris-plain-2 clover-plain-1"
    session = at("gostop", ["maple-plain-1 paulownia-plain-1", "pine-plain-1", "peony-plain-1"],
                 "wisteria-plain-1 pampas-plain-1", ["", f"pine-crane cherry-curtain {pi}", ""])
    notes = session.advice("en")
    assert "pi-bak risk: you have 0 pi (under 6 pays double if a winner scores pi) and Player 2 has 7" in notes[0]
    assert notes[1].startswith("gwang-bak risk: you have no bright and Player 2 has 2")
    assert notes[2].startswith("nothing to capture: lay your cheapest card")
    korean = session.advice("ko")
    assert "피박" in korean[0] and "광박" in korean[1]
    session.state.captured = (CardSet.parse("pampas-moon maple-plain-2 " + pi).mask, *session.state.captured[1:])
    assert not any("bak" in n for n in session.advice("en"))  # a bright and seven pi of your own: safe
    hato = at("hato", ["maple-plain-1 iris-plain-1", "plum-plain-1 pine-plain-1"], "cherry-plain-1 peony-plain-1",
              ["iris-ribbon iris-bridge iris-plain-2", f"pine-crane cherry-curtain {pi}"], players=2)
    assert hato.advice("en") == ["nothing to capture: lay a card nobody can take (the rest of its month is seen): "
                                 "5 plain"]


def test_advice_on_go_or_stop_looks_at_the_closest_rival() -> None:
    from tests.engine.test_hwatu_hints import gostop_at_decision

    session = manual()
    session.state = gostop_at_decision()
    first = session.advice("en")[0]
    assert first.startswith(("a go can pay: the closest rival", "stop: only"))
    state = session.state
    state.captured = (state.captured[0], CardSet.parse("pine-ribbon plum-ribbon cherry-ribbon").mask, 0)
    assert session.advice("en")[0].startswith("stop is safer: Player 2 has 3 points, 0 short of the threshold")
    assert "고박" in session.advice("ko")[0]
    state.push(Move.stop())
    assert session.advice("en") == ()  # the hand is over


def test_advice_is_only_for_your_turn() -> None:
    session = demo("gostop", 3, seed=4)
    while session.your_turn:
        session.apply(session.choices("en")[0].token)
    assert not session.your_turn and session.advice("en") == ()


async def test_teaching_mode_shows_the_advice_under_the_hints() -> None:
    session = at("gostop", ["wisteria-plain-1 peony-butterflies plum-plain-2", "pine-plain-1", "cherry-plain-1"],
                 "wisteria-cuckoo peony-ribbon peony-plain-1 peony-plain-2 maple-plain-1",
                 ["", "plum-warbler pampas-geese", ""])
    app = KibitzApp(TableScreen(session, lang="en", hints=True, teach=True, bot_delay=0.01, hint_samples=8))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        shown = app.screen.hints_text().plain
        assert "Advice" in shown and "guard: Player 2 needs 4 cuckoo" in shown


# ----------------------------------------------------------------------------- through the real screen
def app_for(session: HwatuSession, lang: str = "en", hints: bool = False, samples: int | None = None) -> KibitzApp:
    return KibitzApp(TableScreen(session, lang=lang, hints=hints, bot_delay=0.01, hint_samples=samples))


async def test_a_demo_hand_through_the_screen_bots_and_chosen_moves() -> None:
    session = demo("matgo", 2, seed=7)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            if session.hand_over:
                break
            if session.your_turn:
                await pilot.press("down", "enter")  # a move from the list
            await pilot.pause(0.02)
        assert session.hand_over and sum(session.state.result.net) == 0
        assert "won the hand" in app.screen.session.status("en") or "no winner" in session.status("en")
        await pilot.press("n")
        await pilot.pause(0.05)
        assert "hand 2/10" in str(app.screen.query_one("#status").render())


async def submit(pilot, selector: str, text: str) -> None:
    """Type a line into an input (set at once: typing key by key adds nothing here) and press enter."""
    field = pilot.app.screen.query_one(selector)
    field.focus()
    field.value = text
    await pilot.press("enter")
    await pilot.pause(0.05)


async def test_manual_entry_through_the_screen_deal_moves_errors_and_undo() -> None:
    session = manual()
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        await submit(pilot, "#deal-line", "pine-crane / pine-plain-1")
        assert not session.started and "7 cards to each hand" in str(app.screen.query_one("#deal-error").render())
        await submit(pilot, "#deal-line", f"{HAND} / {FIELD} / dealer 1")
        assert session.started
        screen = app.screen
        await submit(pilot, "#command", "play maple-ribbon")
        assert "maple-ribbon" in screen.message and session.state.move_stack == []
        assert "maple-ribbon" in str(screen.query_one("#status").render())
        await submit(pilot, "#command", "pine-crane take pine-ribbon")
        await submit(pilot, "#command", "flip pampas-moon")
        assert len(session.state.move_stack) == 2 and screen.message == ""
        assert "8 Pampas: moon" in str(screen.query_one("#hwatu-field").render())
        await submit(pilot, "#command", "undo")
        assert len(session.state.move_stack) == 1
        assert "1 crane" in str(screen.query_one("#hwatu-history").render())


async def hints_settled(pilot) -> None:
    screen = pilot.app.screen
    await wait_until(pilot, lambda: screen.session.your_turn and hints_shown(screen), what="hints never settled")


def test_snapshot_gostop_demo_with_hints(snap_compare) -> None:
    assert snap_compare(app_for(demo("gostop", 3, seed=4), hints=True, samples=16), terminal_size=SIZE,
                        run_before=hints_settled)


def test_snapshot_hato_manual_in_korean(snap_compare) -> None:
    session = manual("hato", 3)
    session.start_from_text(f"{HAND} / {FIELD} / dealer 2")
    session.apply("cherry-plain-2")
    session.apply("flip paulownia-phoenix")

    async def settle(pilot) -> None:
        await pilot.pause(0.1)

    assert snap_compare(app_for(session, lang="ko"), terminal_size=SIZE, run_before=settle)
