"""The Koi-Koi round: captures, turn flow, koi-koi calls, endings and errors."""

import random

import pytest

from engine.capture import Phase
from engine.cards import Card
from engine.cardset import CardSet
from engine.deal import Deal
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidStateError, KibitzError
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move
from tests.engine.koikoi_helpers import make_deal

H1 = "pine-crane plum-warbler cherry-curtain wisteria-cuckoo iris-bridge peony-butterflies clover-boar pampas-moon"
H2 = "pine-ribbon plum-ribbon cherry-ribbon wisteria-ribbon iris-ribbon peony-ribbon clover-ribbon pampas-geese"
FIELD = "pine-plain-1 pine-plain-2 plum-plain-1 maple-deer maple-ribbon maple-plain-1 willow-swallow paulownia-plain-3"


def new_round(stock_top: str = "", field: str = FIELD, h1: str = H1, h2: str = H2, **kw) -> KoiKoiRound:
    return KoiKoiRound(make_deal(h1, h2, field, stock_top), **kw)


def test_legal_moves_offer_each_capture_choice():
    r = new_round()
    moves = set(r.legal_moves)
    assert Move.play(Card.PINE_CRANE, Card.PINE_PLAIN_1) in moves
    assert Move.play(Card.PINE_CRANE, Card.PINE_PLAIN_2) in moves
    assert Move.play(Card.PLUM_WARBLER, Card.PLUM_PLAIN_1) in moves
    assert Move.play(Card.CHERRY_CURTAIN) in moves  # no match: laid on the field
    assert len(moves) == 9
    assert Move.play(Card.PINE_CRANE) not in r.legal_moves  # a choice must be made


def test_play_capture_then_flip_capture():
    r = new_round(stock_top="maple-plain-2")
    r.push(Move.play(Card.PINE_CRANE, Card.PINE_PLAIN_2))
    assert r.phase is Phase.FLIP and r.captures(0) == CardSet.parse("pine-crane pine-plain-2")
    assert r.stock_top() is Card.MAPLE_PLAIN_2
    # three maples on the field: the fourth takes them all
    r.push(Move.flip(Card.MAPLE_PLAIN_2))
    assert r.captures(0) == CardSet.parse("pine-crane pine-plain-2 maple-deer maple-ribbon maple-plain-1 maple-plain-2")
    assert r.turn == 1 and r.phase is Phase.PLAY
    assert r.field_cards() == CardSet.parse("pine-plain-1 plum-plain-1 willow-swallow paulownia-plain-3")


def test_no_match_stays_on_field_and_player_is_never_forced_to_match():
    r = new_round(stock_top="iris-plain-1")
    r.push(Move.play(Card.CHERRY_CURTAIN))  # holding matching cards, still may lay this one
    assert Card.CHERRY_CURTAIN in r.field_cards() and not r.captures(0)


def test_errors_say_why():
    r = new_round(stock_top="iris-plain-1")
    with pytest.raises(IllegalMoveError, match="player 1 cannot play pine-ribbon: it is in player 2's hand"):
        r.push(Move.play(Card.PINE_RIBBON, Card.PINE_PLAIN_1))
    with pytest.raises(IllegalMoveError, match="on the field"):
        r.push(Move.play(Card.MAPLE_DEER))
    with pytest.raises(IllegalMoveError, match="turn to play a card from hand, not to flip"):
        r.push(Move.flip(Card.IRIS_PLAIN_1))
    with pytest.raises(AmbiguousMoveError, match="choose which"):
        r.push(Move.play(Card.PINE_CRANE))
    with pytest.raises(IllegalMoveError, match="say take plum-plain-1"):
        r.push(Move.play(Card.PLUM_WARBLER))
    with pytest.raises(IllegalMoveError, match="matches nothing"):
        r.push(Move.play(Card.CHERRY_CURTAIN, Card.PINE_PLAIN_1))
    with pytest.raises(IllegalMoveError, match="not on the field"):
        r.push(Move.play(Card.PINE_CRANE, Card.PINE_RIBBON))
    with pytest.raises(IllegalMoveError, match="koikoi"):
        r.push(Move.koikoi())
    r.push(Move.play(Card.CHERRY_CURTAIN))
    with pytest.raises(IllegalMoveError, match="top card is iris-plain-1, not maple-plain-2"):
        r.push(Move.flip(Card.MAPLE_PLAIN_2))
    with pytest.raises(IllegalMoveError, match="takes all three"):
        r2 = new_round(stock_top="maple-plain-2")
        r2.push(Move.play(Card.CHERRY_CURTAIN))
        r2.push(Move.flip(Card.MAPLE_PLAIN_2, Card.MAPLE_DEER))
    assert len(r.move_stack) == 1  # nothing was lost by the failed pushes
    assert all(issubclass(e, (ValueError, KibitzError)) for e in (IllegalMoveError, AmbiguousMoveError))


def test_move_parse_and_format_round_trip():
    for move in (Move.play(Card.PINE_CRANE, Card.PINE_PLAIN_1), Move.flip(Card.MAPLE_DEER), Move.koikoi(), Move.stop()):
        assert Move.parse(str(move)) == move
        assert eval(repr(move)) == move
    assert Move.parse("go") == Move.koikoi()
    assert Move.parse("PLAY 1-crane take pine_plain_1") == Move.play(Card.PINE_CRANE, Card.PINE_PLAIN_1)
    for bad in ("", "dance pine-crane", "play", "play pine-crane with pine-plain-1", "play pine-crame"):
        with pytest.raises(InvalidMoveError):
            Move.parse(bad)
    with pytest.raises(InvalidMoveError, match="different months"):
        Move.parse("play pine-crane take maple-deer")


def _drive_to_decision() -> KoiKoiRound:
    """Player 1 completes inoshikacho on their second turn."""
    h1 = "clover-boar peony-butterflies maple-deer pine-crane plum-warbler cherry-curtain wisteria-cuckoo iris-bridge"
    h2 = "pine-ribbon plum-ribbon cherry-ribbon wisteria-ribbon iris-ribbon willow-ribbon pampas-geese chrysanthemum-ribbon"
    field = "clover-plain-1 peony-plain-1 maple-plain-1 pampas-plain-1 pampas-plain-2 willow-swallow paulownia-plain-1 iris-plain-1"
    r = KoiKoiRound(make_deal(h1, h2, field, "paulownia-plain-2 paulownia-plain-3 willow-lightning wisteria-plain-1"))
    r.push(Move.play(Card.CLOVER_BOAR, Card.CLOVER_PLAIN_1))
    r.push(Move.flip(Card.PAULOWNIA_PLAIN_2, Card.PAULOWNIA_PLAIN_1))
    r.push(Move.play(Card.CHRYSANTHEMUM_RIBBON))  # player 2 lays a card
    r.push(Move.flip(Card.PAULOWNIA_PLAIN_3))
    r.push(Move.play(Card.PEONY_BUTTERFLIES, Card.PEONY_PLAIN_1))
    assert r.phase is Phase.FLIP
    r.push(Move.flip(Card.WILLOW_LIGHTNING, Card.WILLOW_SWALLOW))
    assert r.phase is Phase.PLAY  # no yaku yet
    r.push(Move.play(Card.IRIS_RIBBON, Card.IRIS_PLAIN_1))
    r.push(Move.flip(Card.WISTERIA_PLAIN_1))
    r.push(Move.play(Card.MAPLE_DEER, Card.MAPLE_PLAIN_1))
    return r


def test_raising_the_score_asks_koikoi_or_stop():
    r = _drive_to_decision()
    r.push(Move.flip(r.stock_top()))  # type: ignore[arg-type]
    assert r.phase is Phase.DECIDE and r.turn == 0
    assert set(r.legal_moves) == {Move.koikoi(), Move.stop()}
    assert [y.name for y in r.yaku(0)] == ["inoshikacho"]
    with pytest.raises(IllegalMoveError, match="must decide first"):
        r.push(Move.play(Card.PINE_CRANE))
    r.push(Move.stop())
    assert r.is_over and r.result is not None
    assert r.result.winner == 0 and r.result.points == (5, 0) and r.result.reason == "stop"
    assert not r.legal_moves and list(r.legal_moves) == []


def test_koikoi_caller_gets_nothing_when_opponent_stops_and_opponent_doubles():
    """Player 1 calls koi-koi; we search continuations until player 2 makes a yaku and stops."""
    for seed in range(300):
        r = _drive_to_decision()
        r.push(Move.flip(r.stock_top()))  # type: ignore[arg-type]
        r.push(Move.koikoi())
        assert r.koikoi == (1, 0) and r.turn == 1
        rng = random.Random(seed)
        while not r.is_over:
            if r.phase is Phase.DECIDE:
                r.push(Move.stop() if r.turn == 1 else Move.koikoi() if Move.koikoi() in r.legal_moves else Move.stop())
            else:
                r.push(r.random_move(rng))
        assert r.result is not None
        if r.result.winner == 1 and r.result.reason == "stop":
            break
    else:
        pytest.fail("player 2 never stopped")
    assert r.result.points[0] == 0  # the koi-koi caller gets nothing
    base = r.result.base
    assert base == sum(y.points for y in r.result.yaku) > 0
    assert r.result.points[1] == base * (2 if base >= 7 else 1) * 2  # doubled against the koi-koi call


def test_koikoi_then_stop_only_after_raising_again():
    r = _drive_to_decision()
    r.push(Move.flip(r.stock_top()))  # type: ignore[arg-type]
    r.push(Move.koikoi())
    best = r.best[0]
    assert best == 5
    # After the call, player 1's further turns that do not raise the total never offer a decision.
    rng = random.Random(11)
    seen_decision_below = False
    while not r.is_over:
        if r.phase is Phase.DECIDE:
            total = sum(y.points for y in r.yaku(r.turn))
            assert total > r.best[r.turn]
            seen_decision_below = seen_decision_below or total <= best
            r.push(Move.stop())
        else:
            r.push(r.random_move(rng))
    assert not seen_decision_below


def test_exhausted_round_scores_nobody_or_the_dealer():
    for profile, expected in ((KoiKoiProfile.load("default"), (0, 0)), (KoiKoiProfile.load("koikoi-japan"), (0, 1))):
        for seed in range(200):
            r = KoiKoiRound.shuffled(seed, profile, dealer=1)
            while not r.is_over:
                r.push(Move.koikoi() if Move.koikoi() in r.legal_moves else r.random_move(random.Random(seed)))
            assert r.result is not None
            if r.result.reason == "exhausted":
                assert r.result.points == expected
                assert r.hand_size(0) == r.hand_size(1) == 0 and r.stock_left == 8
                break
        else:
            pytest.fail("no exhausted round in 200 seeds")


def test_teshi_kuttsuki_and_redeals_at_the_deal():
    teshi = "pine-crane pine-ribbon pine-plain-1 pine-plain-2 plum-warbler cherry-curtain iris-bridge maple-deer"
    other = "plum-ribbon cherry-ribbon wisteria-ribbon iris-ribbon peony-ribbon clover-ribbon pampas-geese maple-ribbon"
    field = "plum-plain-1 plum-plain-2 cherry-plain-1 wisteria-plain-1 iris-plain-1 peony-plain-1 clover-plain-1 maple-plain-1"
    r = KoiKoiRound(make_deal(other, teshi, field))
    assert r.is_over and r.result is not None
    assert (r.result.reason, r.result.winner, r.result.points) == ("teshi", 1, (0, 6))
    japan = KoiKoiProfile.load("koikoi-japan")
    r = KoiKoiRound(make_deal(other, teshi, field), japan)
    assert r.result is not None and r.result.reason == "redeal" and r.result.points == (0, 0)
    four_field = "maple-deer maple-ribbon maple-plain-1 maple-plain-2 plum-plain-1 plum-plain-2 cherry-plain-1 wisteria-plain-1"
    h1 = "pine-crane plum-warbler cherry-curtain wisteria-cuckoo iris-bridge peony-butterflies clover-boar pampas-moon"
    h2 = "pine-ribbon plum-ribbon cherry-ribbon wisteria-ribbon iris-ribbon peony-ribbon clover-ribbon pampas-geese"
    r = KoiKoiRound(make_deal(h1, h2, four_field))
    assert r.result is not None and r.result.reason == "redeal"
    plays_on = KoiKoiProfile.from_data({**_profile_data(), "deal": {**_profile_data()["deal"], "four-on-field": "play"}})
    assert not KoiKoiRound(make_deal(h1, h2, four_field), plays_on).is_over


def _profile_data() -> dict:
    from engine.profile import load_profile_data

    return load_profile_data("default")


def test_invalid_deals_are_refused_with_reasons():
    with pytest.raises(InvalidStateError, match="dealt twice"):
        make_deal(H1, H1, FIELD)
    full = make_deal(H1, H2, FIELD)
    with pytest.raises(InvalidStateError, match="accounts for 47 cards"):
        Deal(full.hands, full.field, full.stock[1:])  # type: ignore[index]
    with pytest.raises(InvalidStateError, match="needs its stock_size"):
        Deal(full.hands, full.field, None)
    with pytest.raises(InvalidStateError, match="2 players"):
        KoiKoiRound(Deal.shuffled(1, players=3, hand_size=7, field_size=6))


def test_pop_undoes_exactly():
    r = KoiKoiRound.shuffled(9)
    rng = random.Random(9)
    snapshots = []
    while not r.is_over:
        snapshots.append((repr(r), r.hands, r.field, r.captured, r.phase, r.koikoi, r.best, r.result))
        r.push(r.random_move(rng))
    while r.move_stack:
        r.pop()
        assert (repr(r), r.hands, r.field, r.captured, r.phase, r.koikoi, r.best, r.result) == snapshots.pop()
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        r.pop()


def test_view_hides_the_opponent_and_the_stock_but_stays_playable():
    r = KoiKoiRound.shuffled(21)
    view = r.view(1)
    assert view.hand(0) == CardSet() and view.hidden == (8, 0) and view.hand(1) == r.hand(1)
    assert view.stock is None and view.stock_top() is None and view.field_cards() == r.field_cards()
    assert len(view.unknown()) == 8 + 24
    # The opponent may play any unknown card; the stock may reveal any unknown card.
    move = next(m for m in r.legal_moves if m.kind == 0)
    view.push(move)
    r.push(move)
    flip = next(iter(r.legal_moves))
    view.push(flip)
    r.push(flip)
    assert view.hidden == (7, 0) and view.field_cards() == r.field_cards() and view.captured == r.captured
    assert move.card not in view.unknown() and flip.card not in view.unknown()
    world = view.sample_world(random.Random(1))
    assert world.hidden == (0, 0) and len(world.hand(0)) == 7 and world.stock is not None


def test_legal_moves_membership_matches_generation_everywhere():
    rng = random.Random(5)
    for seed in range(30):
        r = KoiKoiRound.shuffled(seed)
        while not r.is_over:
            moves = r.generate_legal_moves()
            for m in moves:
                assert m in r.legal_moves
            assert r.random_move(rng) in moves
            r.push(moves[int(rng.random() * len(moves))])
