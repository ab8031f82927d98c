"""The domino table: the session alone (demo, manual entry, the count), the real screen driven through
pilots, and how the screen looks in English and Korean."""

import pytest

from companion.app.app import KibitzApp
from companion.i18n import missing_translations
from companion.tables.dominoes import DominoSession, build_screen
from companion.tables.dominoes_texts import REASONS
from engine.dominoes.bots import GreedyBot
from engine.dominoes.moves import MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.errors import KibitzError
from tests.companion.app_helpers import SIZE, hints_shown, wait_until

JIELONG = DominoProfile.load("jielong")
CEDENG = DominoProfile.load("cedeng")

# Seed 7 of Ce Deng, shuffled as DominoMatch shuffles it: the hands the manual tests type in.
TRUTH_SEED = 7


def truth_round(seed: int = TRUTH_SEED, leader: int = 1) -> DominoRound:
    return DominoRound.shuffled(seed, 4, JIELONG, leader=leader)


def manual_session(truth: DominoRound, rounds: int = 1) -> DominoSession:
    session = DominoSession(JIELONG, "manual", 4, seed=1, rounds=rounds)
    lead = (truth.leader - session.you) % 4 + 1
    session.start_from_text(f"{truth.hand(0)} lead {lead}")
    return session


def typed(move, player: int, you: int = 0) -> str:
    """What the user types for a move at the table: their own face-down tile, another player's unseen one."""
    if move.kind is MoveKind.DOWN and player != you:
        return "down"
    return str(move)


# ----------------------------------------------------------------- the session alone
def test_demo_plays_the_bots_and_waits_for_you():
    session = DominoSession(CEDENG, "demo", seed=5, rounds=2)
    while not session.hand_over:
        if session.bot_to_move:
            session.play_bot()
        else:
            assert session.your_turn and session.choices("en")
            session.apply(session.choices("en")[0].token)
    result = session.result
    assert result is not None and sum(result.net) == 0
    session.next_hand()
    assert session.match.scores == list(result.net) and session.started and not session.hand_over


def test_demo_undo_goes_back_to_your_previous_turn_and_illegal_moves_change_nothing():
    session = DominoSession(JIELONG, "demo", seed=2, leader=0)
    session.apply(session.choices("en")[0].token)
    while session.bot_to_move:
        session.play_bot()
    before = session.history
    tile = session.seen.hand(0).distinct()[0]
    must_lay_down = all(c.token.startswith("down") for c in session.choices("en"))
    bad = f"play {tile.code}" if must_lay_down else f"down {tile.code}"
    with pytest.raises(KibitzError, match="must play it|does not match"):
        session.apply(bad)
    assert session.history == before
    session.undo()
    assert session.history == [] and session.your_turn


def test_the_seen_state_hides_the_other_hands_in_demo():
    session = DominoSession(JIELONG, "demo", seed=4, leader=1)
    while session.bot_to_move:
        session.play_bot()
    seen = session.seen
    assert all(not seen.hands[p] and seen.hidden[p] for p in range(4) if p != 0)
    assert seen.hand(0) == session.round.hand(0)


def test_manual_entry_follows_a_real_deal_to_the_count():
    truth = truth_round()
    session = manual_session(truth)
    assert session.started and session.round.hidden == (0, 8, 8, 8)
    bot = GreedyBot()
    while not truth.is_over:
        player = truth.turn
        move = bot.choose(truth)
        truth.push(move)
        session.apply(typed(move, player))
    assert truth.result is not None
    assert session.counting and not session.hand_over and session.choices("en") == []
    with pytest.raises(KibitzError, match="show P TILES"):
        session.apply("play 1:3")
    for p in session.to_show():
        unseen = truth.face_down(p) + truth.hand(p)
        session.apply(f"show {p + 1} {unseen}")
    assert session.hand_over and session.result.net == truth.result.net


def test_manual_count_refuses_impossible_tiles():
    truth = truth_round()
    session = manual_session(truth)
    bot = GreedyBot()
    while not truth.is_over:
        player = truth.turn
        move = bot.choose(truth)
        truth.push(move)
        session.apply(typed(move, player))
    p = session.to_show()[0]
    laid = truth.line[0][1].code
    with pytest.raises(KibitzError):
        session.apply(f"show {p + 1} {laid}")  # laid in the line, and the wrong number of tiles
    assert session.shown == []


def test_manual_illegal_move_says_why_and_undo_takes_back_one_move():
    truth = truth_round()
    session = manual_session(truth)
    first = GreedyBot().choose(truth)
    session.apply(str(first))
    with pytest.raises(KibitzError, match="no 0:1 in this set"):
        session.apply("play 0:1")
    assert session.history == [str(first)]
    session.undo()
    assert session.history == []


def test_manual_deal_needs_the_leader_and_a_full_hand():
    session = DominoSession(JIELONG, "manual", 4, seed=1)
    with pytest.raises(KibitzError, match="who leads"):
        session.start_from_text("1:3 6:6 2:2 1:1 4:4 5:5 3:3 1:5")
    with pytest.raises(KibitzError, match="holds 8 tiles"):
        session.start_from_text("1:3 6:6 lead 1")
    assert not session.started
    session.start_from_text("1:3 6:6 2:2 1:1 4:4 5:5 3:3 1:5 lead 3")
    assert session.round.leader == 2 and session.round.turn == 2


def test_hints_rank_your_moves_with_reasons_in_your_language():
    session = DominoSession(JIELONG, "demo", seed=6, leader=0)
    search = session.hint_search("uk", seed=1)
    search.add_samples(8)
    lines = search.lines()
    assert {line.token for line in lines} == {c.token for c in session.choices("uk")}
    assert all(line.reason for line in lines)
    assert any("відкрито" in line.label or "залишає" in line.reason for line in lines)


def test_every_domino_text_has_all_five_languages():
    import companion.tables.dominoes_texts  # noqa: F401  (registers the texts)

    assert [m for m in missing_translations() if m[0].startswith("dom_")] == []
    assert set(REASONS) >= {"down_dead", "down_heaviest", "down_light", "keep_open", "block_next", "run"}


def test_a_missing_camera_source_or_a_lone_resume_is_refused_with_a_reason(tmp_path):
    with pytest.raises(OSError, match="nope"):
        build_screen("jielong", {"images": str(tmp_path / "nope")})
    with pytest.raises(KibitzError, match="--resume"):
        build_screen("jielong", {"resume": str(tmp_path / "game.jsonl")})


def test_settlement_preview_estimates_unseen_face_down_tiles():
    session = DominoSession(JIELONG, "demo", seed=3, leader=1)
    for _ in range(60):
        if any(session.seen.down_unseen):
            break
        if session.bot_to_move:
            session.play_bot()
        elif session.your_turn:
            session.apply(session.choices("en")[0].token)
    side = session.side_panels("en")[0].body.plain
    assert "if nobody lays another tile face down" in side and "~" in side


# ----------------------------------------------------------------- the real screen
def demo_app(seed: int = 3, lang: str = "en", hints: bool = False, game: str = "jielong"):
    screen = build_screen(game, {"demo": True, "seed": seed, "lang": lang, "no_hints": not hints})
    screen.bot_delay = 0.01
    screen.hint_samples = 12
    return KibitzApp(screen), screen


async def choose_from_list(pilot, index: int) -> None:
    """Pick a move in the legal-moves list with the keyboard."""
    moves = pilot.app.screen.query_one("#moves")
    moves.focus()
    moves.highlighted = index
    await pilot.press("enter")
    await pilot.pause(0.02)


async def type_command(pilot, text: str) -> None:
    await pilot.press("slash")
    pilot.app.screen.query_one("#command").value = text
    await pilot.press("enter")
    await pilot.pause(0.02)


async def test_demo_screen_plays_a_deal_through():
    app, screen = demo_app(seed=9)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            session = screen.session
            if session.hand_over:
                break
            if session.your_turn:
                await choose_from_list(pilot, 0)
            await pilot.pause(0.02)
        assert screen.session.hand_over
        assert "wins" in str(app.screen.query_one("#status").render())
        await pilot.press("n")
        await pilot.pause(0.05)
        assert screen.session.match.round_number == 2 and not screen.session.hand_over


async def test_manual_screen_deal_moves_illegal_and_undo():
    truth = truth_round()
    screen = build_screen("jielong", {"lang": "en", "no_hints": True})
    app = KibitzApp(screen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        deal = f"{truth.hand(0)} lead {truth.leader + 1}"
        app.screen.query_one("#deal-line").value = deal
        await pilot.press("enter")
        await pilot.pause(0.05)
        session = screen.session
        assert session.started and session.round.leader == truth.leader
        move = GreedyBot().choose(truth)
        for text in (str(move), "play 0:1"):
            await type_command(pilot, text)
        assert session.history == [str(move)]
        assert "no 0:1 in this set" in screen.message
        await pilot.press("escape", "u")
        await pilot.pause(0.02)
        assert session.history == []


# ----------------------------------------------------------------- how it looks
async def _your_turn(pilot, moves: int) -> None:
    """Let the bots play, making your first listed move ``moves`` times, until it is your turn again."""
    screen = pilot.app.screen
    for _ in range(600):
        if screen.session.your_turn:
            if moves == 0:
                return
            moves -= 1
            await choose_from_list(pilot, 0)
        await pilot.pause(0.02)
    raise AssertionError("never your turn")


async def _hints_settled(pilot) -> None:
    await _your_turn(pilot, 3)
    await wait_until(pilot, lambda: hints_shown(pilot.app.screen), what="hints never settled")


def test_snapshot_demo_with_hints_in_english(snap_compare):
    app, _ = demo_app(seed=12, game="cedeng", hints=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=_hints_settled)


def test_snapshot_demo_in_korean_without_hints(snap_compare):
    app, _ = demo_app(seed=13, lang="ko", game="kkori")

    async def mid_deal(pilot) -> None:
        await _your_turn(pilot, 4)
        await pilot.pause(0.05)

    assert snap_compare(app, terminal_size=SIZE, run_before=mid_deal)
