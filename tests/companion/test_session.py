"""The app's business logic, without a terminal: demo and table sessions, typing, undo, corrections."""

import pytest

from companion.session import KoiKoiSession
from engine.bots import RandomBot
from engine.capture import Phase
from engine.cards import Card
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidStateError
from engine.koikoi.bots import GreedyBot
from engine.koikoi.profile import KoiKoiProfile
from engine.moves import Move

PROFILE = KoiKoiProfile.load("default")
HAND = "pine-crane plum-warbler cherry-curtain wisteria-cuckoo iris-bridge peony-butterflies clover-boar pampas-moon"
FIELD = "pine-plain-1 pine-plain-2 plum-plain-1 maple-deer maple-ribbon maple-plain-1 willow-swallow paulownia-plain-3"


def table_session() -> KoiKoiSession:
    session = KoiKoiSession(PROFILE, mode="manual", seed=1)
    session.start_round(session.table_deal(HAND, FIELD, leader=0))
    return session


def test_demo_session_plays_a_whole_match_against_the_bot():
    session = KoiKoiSession(PROFILE, mode="demo", seed=3, bot=GreedyBot(), rounds=2)
    me = RandomBot(3)
    while not session.match.is_over:
        session.start_round()
        while not session.state.is_over:
            if session.bot_to_move:
                session.play_bot()
            else:
                assert session.truth is not None
                session.apply(me.choose(session.truth), "typed")
                assert session.truth.field == session.state.field  # the view follows the true round
    assert len(session.match.results) == 2
    assert session.model().match_over


def test_only_the_apps_own_greedy_bot_has_its_hand_read():
    """The hints read the opponent's hand from its plays only when that opponent is the demo's greedy bot."""
    assert KoiKoiSession(PROFILE, mode="demo", seed=3, bot=GreedyBot()).greedy_opponent
    assert not KoiKoiSession(PROFILE, mode="demo", seed=3, bot=RandomBot(3)).greedy_opponent
    assert not table_session().greedy_opponent


def test_the_view_in_demo_mode_never_shows_the_opponents_hand():
    session = KoiKoiSession(PROFILE, mode="demo", seed=5, bot=GreedyBot())
    session.start_round()
    model = session.model()
    assert len(model.hand) == 8 and model.opponent_hand == 8
    assert session.state.hand(1 - session.you).mask == 0


def test_table_deal_and_typing_moves_forgivingly():
    session = table_session()
    assert session.state.hidden == (0, 8) and session.state.stock is None
    assert session.resolve("plum-warbler") == Move.play(Card.PLUM_WARBLER, Card.PLUM_PLAIN_1)
    with pytest.raises(AmbiguousMoveError, match="take pine-plain-1 or take pine-plain-2"):
        session.resolve("pine-crane")
    assert session.resolve("pine-crane take pine-plain-2") == Move.play(Card.PINE_CRANE, Card.PINE_PLAIN_2)
    session.apply(session.resolve("cherry-curtain"))
    assert session.state.phase is Phase.FLIP
    # The flip names the card that was seen; typed without a verb it is a flip now.
    assert session.resolve("maple-plain-2") == Move.flip(Card.MAPLE_PLAIN_2)
    session.apply(session.resolve("maple-plain-2"))
    assert session.state.turn == 1
    # The opponent plays a card nobody had seen.
    session.apply(session.resolve("iris-ribbon"))
    with pytest.raises(IllegalMoveError, match="pine-crane cannot come from the stock"):
        session.apply(Move.flip(Card.PINE_CRANE))


def test_table_deal_refuses_wrong_counts_and_demo_needs_no_deal():
    session = KoiKoiSession(PROFILE, mode="manual")
    with pytest.raises(InvalidStateError, match="8 hand cards and 8 field cards, not 7 and 8"):
        session.table_deal(HAND.rsplit(" ", 1)[0], FIELD)
    with pytest.raises(InvalidStateError, match="starts from the deal"):
        session.start_round()


def test_undo_and_correct_a_misread_flip():
    session = table_session()
    session.apply(session.resolve("cherry-curtain"))
    session.apply(session.resolve("maple-plain-2"))  # the camera saw maple-plain-2 ...
    session.apply(session.resolve("iris-ribbon"))
    fixed = session.correct(1, Card.WILLOW_RAINMAN)  # ... but it was the rain man
    assert fixed == Move.flip(Card.WILLOW_RAINMAN, Card.WILLOW_SWALLOW)
    assert [m for _, m, _ in session.history][1:] == [fixed, Move.play(Card.IRIS_RIBBON)]
    assert [s for _, _, s in session.history] == ["typed", "corrected", "typed"]
    assert Card.MAPLE_DEER in session.state.field_cards()  # the maples were never taken
    assert session.undo() == Move.play(Card.IRIS_RIBBON)
    assert len(session.history) == 2


def test_a_correction_that_breaks_later_moves_changes_nothing():
    session = table_session()
    session.apply(session.resolve("cherry-curtain"))
    session.apply(session.resolve("iris-plain-1"))
    session.apply(session.resolve("iris-ribbon take iris-plain-1"))  # needs the flipped iris
    before = [m for _, m, _ in session.history]
    with pytest.raises(IllegalMoveError, match="cannot correct"):
        session.correct(1, Card.WILLOW_RAINMAN)
    assert [m for _, m, _ in session.history] == before
    assert session.state.captures(1).mask != 0


def test_listeners_hear_every_move_with_its_source():
    heard = []
    session = table_session()
    session.listeners.append(lambda move, player, source: heard.append((str(move), player, source)))
    session.apply(session.resolve("cherry-curtain"), "camera")
    assert heard == [("play cherry-curtain", 0, "camera")]
