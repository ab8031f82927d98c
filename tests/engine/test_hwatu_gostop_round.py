"""Go-Stop hands on positions built for each rule: ppeok, jjok, ttadak, sweeps, bombs, shakes, go and stop,
chongtong, three ppeoks, nagari, and what a player's view learns from a shake."""

import random

import pytest

from engine.bots import RandomBot
from engine.capture import Phase
from engine.cards import Card, Month
from engine.cardset import CardSet
from engine.errors import IllegalMoveError, InvalidStateError
from engine.hwatu.deal import explicit_deal
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import Event, GoStopRound
from engine.hwatu.match import GoStopMatch
from engine.hwatu.play import play_round
from engine.moves import Move
from engine.profile import load_profile_data

GOSTOP = GoStopProfile.load("gostop")


def cards(codes: str) -> CardSet:
    return CardSet.parse(codes)


def push(r: GoStopRound, *moves: str) -> GoStopRound:
    for text in moves:
        r.push(Move.parse(text))
    return r


def profile_with(**changes: dict) -> GoStopProfile:
    data = load_profile_data("gostop")
    for table, values in changes.items():
        data[table].update(values)
    return GoStopProfile.from_data(data)


FIELD = "pine-plain-1 plum-plain-1 cherry-plain-1 iris-plain-1"


def ppeok_round(p0: str, p1: str, profile: GoStopProfile = GOSTOP) -> GoStopRound:
    """Player 1 makes a ppeok of pines; players 2 and 3 then capture two plains each."""
    deal = explicit_deal(
        [p0, p1, "cherry-plain-2 paulownia-plain-1 wisteria-plain-1"], FIELD,
        "pine-ribbon wisteria-cuckoo clover-boar peony-ribbon chrysanthemum-ribbon",
    )
    r = GoStopRound(deal, profile)
    assert Move.flip(Card.PINE_RIBBON, Card.PINE_PLAIN_1) not in push(r, "play pine-crane take pine-plain-1").legal_moves
    with pytest.raises(IllegalMoveError, match="makes a ppeok"):
        r.push(Move.flip(Card.PINE_RIBBON, Card.PINE_PLAIN_1))
    push(r, "flip pine-ribbon")
    assert cards("pine-crane pine-plain-1 pine-ribbon") <= r.field_cards() and not r.captures(0)
    assert r.stacks[0] == 0 and r.ppeoks == (1, 0, 0) and r.events == (Event("ppeok", 0, Month.PINE),)
    if r.is_over:
        return r
    return push(r, "play plum-plain-2 take plum-plain-1", "flip wisteria-cuckoo",
                "play cherry-plain-2 take cherry-plain-1", "flip clover-boar")


def test_ppeok_and_taking_it_steals_a_pi_from_each_opponent():
    r = ppeok_round("pine-crane iris-plain-2 maple-deer", "plum-plain-2 pine-plain-2 peony-plain-1")
    push(r, "play iris-plain-2 take iris-plain-1", "flip peony-ribbon", "play pine-plain-2")
    assert r.phase is Phase.FLIP  # the fourth pine waits on the field for the flip
    push(r, "flip chrysanthemum-ribbon")
    stolen = cards("iris-plain-1 cherry-plain-1")  # each opponent's cheapest pi
    assert r.events[-1] == Event("ppeok-capture", 1, Month.PINE, stolen.mask)
    assert r.captures(1) == cards("pine-crane pine-ribbon pine-plain-1 pine-plain-2 plum-plain-1 plum-plain-2") | stolen
    assert r.captures(0) == cards("iris-plain-2") and r.captures(2) == cards("cherry-plain-2")
    assert r.stacks[0] == -1


def test_taking_ones_own_ppeok_steals_two():
    r = ppeok_round("pine-crane pine-plain-2 maple-deer", "plum-plain-2 iris-plain-2 peony-plain-1")
    push(r, "play pine-plain-2", "flip peony-ribbon")
    assert r.events[-1] == Event("ja-ppeok", 0, Month.PINE, cards("plum-plain-1 plum-plain-2 cherry-plain-1 cherry-plain-2").mask)
    assert not r.captures(1) and not r.captures(2) and len(r.captures(0)) == 8


def test_three_ppeoks_win_at_once():
    deal = explicit_deal(["pine-crane maple-deer", "plum-plain-2", "cherry-plain-2"], FIELD, "pine-ribbon")
    r = GoStopRound(deal)
    r.ppeoks = (2, 0, 0)  # this is the third ppeok of the hand
    push(r, "play pine-crane take pine-plain-1", "flip pine-ribbon")
    assert r.is_over and r.result is not None and r.result.reason == "three-ppeok"
    assert r.result.winner == 0 and r.result.net == (14, -7, -7)
    r.pop()
    assert r.result is None and r.ppeoks == (2, 0, 0) and r.phase is Phase.FLIP


def test_jjok_the_flip_takes_the_card_just_laid():
    deal = explicit_deal(
        ["pine-crane maple-deer", "plum-plain-2 peony-plain-1", "cherry-plain-2 wisteria-plain-1"], FIELD,
        "clover-boar wisteria-cuckoo peony-ribbon maple-plain-1",
    )
    r = push(GoStopRound(deal), "play pine-crane take pine-plain-1", "flip clover-boar",
             "play plum-plain-2 take plum-plain-1", "flip wisteria-cuckoo",
             "play cherry-plain-2 take cherry-plain-1", "flip peony-ribbon", "play maple-deer")
    assert Move.flip(Card.MAPLE_PLAIN_1, Card.MAPLE_DEER) in r.legal_moves
    push(r, "flip maple-plain-1 take maple-deer")
    assert r.events[-1] == Event("jjok", 0, Month.MAPLE, cards("plum-plain-1 cherry-plain-1").mask)
    assert cards("maple-deer maple-plain-1 plum-plain-1 cherry-plain-1") <= r.captures(0)


def test_ttadak_takes_all_four_of_a_month_in_one_turn():
    deal = explicit_deal(
        ["iris-plain-2 pine-crane", "plum-plain-2 peony-plain-1", "cherry-plain-2 wisteria-plain-1"],
        "pine-plain-1 pine-plain-2 plum-plain-1 cherry-plain-1 iris-plain-1",
        "clover-boar wisteria-cuckoo peony-ribbon pine-ribbon",
    )
    r = push(GoStopRound(deal), "play iris-plain-2 take iris-plain-1", "flip clover-boar",
             "play plum-plain-2 take plum-plain-1", "flip wisteria-cuckoo",
             "play cherry-plain-2 take cherry-plain-1", "flip peony-ribbon",
             "play pine-crane take pine-plain-2", "flip pine-ribbon")
    assert r.events[-1] == Event("ttadak", 0, Month.PINE, cards("plum-plain-1 cherry-plain-1").mask)
    assert cards("pine-crane pine-ribbon pine-plain-1 pine-plain-2") <= r.captures(0)


def test_sweeping_the_table_steals_but_not_on_the_last_turn():
    deal = explicit_deal(["pine-crane iris-plain-2", "plum-plain-2 peony-plain-2", "iris-ribbon wisteria-plain-2"],
                         "pine-plain-1 plum-plain-1", "iris-plain-1 maple-plain-1 maple-ribbon")
    r = push(GoStopRound(deal), "play pine-crane take pine-plain-1", "flip iris-plain-1",
             "play plum-plain-2 take plum-plain-1", "flip maple-plain-1",
             "play iris-ribbon take iris-plain-1", "flip maple-ribbon take maple-plain-1")
    assert not r.field_cards()
    assert r.events[-1] == Event("sweep", 2, None, cards("pine-plain-1 plum-plain-1").mask)
    last = explicit_deal(["pine-crane", "maple-deer", "cherry-curtain"], "pine-plain-1 plum-plain-1 cherry-plain-1 iris-plain-1",
                         "plum-ribbon maple-plain-1 iris-ribbon")
    moves = ("play pine-crane take pine-plain-1", "flip plum-ribbon take plum-plain-1", "play maple-deer",
             "flip maple-plain-1 take maple-deer", "play cherry-curtain take cherry-plain-1", "flip iris-ribbon take iris-plain-1")
    r = push(GoStopRound(last), *moves)
    assert not r.field_cards() and [e.name for e in r.events] == ["jjok"]  # the last turn's sweep does not count
    assert r.result is not None and r.result.reason == "nagari"
    r = push(GoStopRound(last, profile_with(steal={"sweep-last-turn": True})), *moves)
    assert [e.name for e in r.events] == ["jjok", "sweep"]


def test_a_bomb_takes_four_steals_and_gives_two_blank_turns():
    deal = explicit_deal(
        ["pine-crane maple-deer maple-ribbon maple-plain-1 iris-plain-2", "plum-plain-2 peony-plain-1 wisteria-plain-1",
         "cherry-plain-2 paulownia-plain-1 clover-plain-1"],
        "pine-plain-1 plum-plain-1 cherry-plain-1 maple-plain-2",
        "clover-boar wisteria-cuckoo peony-ribbon iris-ribbon willow-swallow chrysanthemum-plain-1 pampas-plain-1",
    )
    r = push(GoStopRound(deal), "play pine-crane take pine-plain-1", "flip clover-boar",
             "play plum-plain-2 take plum-plain-1", "flip wisteria-cuckoo",
             "play cherry-plain-2 take cherry-plain-1", "flip peony-ribbon")
    bomb = Move.bomb(Card.MAPLE_DEER, Card.MAPLE_PLAIN_2)
    assert bomb in list(r.legal_moves) and Move.play(Card.MAPLE_DEER, Card.MAPLE_PLAIN_2) in r.legal_moves
    assert Move.bomb(Card.MAPLE_RIBBON, Card.MAPLE_PLAIN_2) in r.legal_moves  # any of the three names the bomb
    with pytest.raises(IllegalMoveError, match="bomb maple-deer take maple-plain-2"):
        r.push(Move.bomb(Card.MAPLE_DEER))
    with pytest.raises(IllegalMoveError, match="must play a card before flipping"):
        r.push(Move.flip(Card.IRIS_RIBBON))
    r.push(bomb)
    assert r.phase is Phase.FLIP and r.bombs == (1, 0, 0) and r.dummies == (2, 0, 0)
    assert r.events[-1] == Event("bomb", 0, Month.MAPLE, cards("plum-plain-1 cherry-plain-1").mask)
    assert cards("maple-deer maple-ribbon maple-plain-1 maple-plain-2") <= r.captures(0)
    assert r.hand(0) == cards("iris-plain-2")
    push(r, "flip iris-ribbon", "play peony-plain-1 take peony-ribbon", "flip willow-swallow",
         "play paulownia-plain-1", "flip chrysanthemum-plain-1")
    assert r.turn == 0 and Move.flip(Card.PAMPAS_PLAIN_1) in r.legal_moves  # a blank turn: flip without playing
    push(r, "flip pampas-plain-1")
    assert r.dummies == (1, 0, 0) and r.hand(0) == cards("iris-plain-2") and r.turn == 1
    assert Card.PAMPAS_PLAIN_1 in r.field_cards()


def test_shaking_shows_three_of_a_month_and_doubles_the_winner():
    deal = explicit_deal(["maple-deer maple-ribbon maple-plain-1 pine-crane", "plum-plain-2", "cherry-plain-2"],
                         FIELD, "clover-boar")
    r = GoStopRound(deal)
    shakes = {m for m in r.legal_moves if m.kind.name == "SHAKE"}
    assert shakes == {Move.shake(c) for c in (Card.MAPLE_DEER, Card.MAPLE_RIBBON, Card.MAPLE_PLAIN_1)}
    with pytest.raises(IllegalMoveError, match="needs three of its month in hand"):
        r.push(Move.shake(Card.PINE_CRANE))
    push(r, "shake maple-deer", "flip clover-boar")
    assert r.shakes == (1, 0, 0) and r.events[0] == Event("shake", 0, Month.MAPLE)
    assert Card.MAPLE_DEER in r.field_cards()
    assert r.settlement_if_stopped(0).multipliers == ("shake",)
    bomb_instead = explicit_deal(["maple-deer maple-ribbon maple-plain-1", "plum-plain-2", "cherry-plain-2"],
                                 "maple-plain-2 pine-plain-1")
    with pytest.raises(IllegalMoveError, match="bomb"):
        GoStopRound(bomb_instead).push(Move.shake(Card.MAPLE_DEER))


def test_a_players_view_learns_the_shaken_cards():
    deal = explicit_deal(["maple-plain-2 pine-crane", "maple-deer maple-ribbon maple-plain-1 plum-plain-2",
                          "cherry-plain-2 iris-plain-2"], FIELD, "clover-boar wisteria-cuckoo")
    r = push(GoStopRound(deal), "play pine-crane take pine-plain-1", "flip clover-boar")
    view = r.view(0)
    assert view.hidden[1] == 4 and not view.hand(1)
    for v in (r, view):
        push(v, "shake maple-ribbon")
    assert view.hand(1) == cards("maple-deer maple-plain-1") and view.hidden[1] == 1
    assert view.field == r.field and view.shakes == r.shakes


def test_go_counting_and_stop():
    deal = explicit_deal(
        ["pine-crane maple-deer cherry-curtain clover-plain-2", "iris-plain-2 clover-plain-1 plum-plain-1",
         "peony-plain-2 wisteria-plain-1 chrysanthemum-plain-1"],
        "pine-plain-1 cherry-plain-1 iris-plain-1 peony-plain-1",
        "pampas-moon paulownia-phoenix paulownia-plain-1 maple-plain-1 wisteria-ribbon clover-ribbon plum-ribbon"
        " chrysanthemum-ribbon plum-plain-2",
    )
    r = GoStopRound(deal)
    r.stock_left -= 2  # set up: player 1 has already captured two brights
    r.captured = (cards("pampas-moon paulownia-phoenix").mask, 0, 0)
    push(r, "play pine-crane take pine-plain-1", "flip paulownia-plain-1")
    assert r.phase is Phase.DECIDE and r.score(0) == 3 and set(r.legal_moves) == {Move.go(), Move.stop()}
    push(r, "go")
    assert r.gos(0) == 1 and r.go_base[0] == 3 and r.turn == 1
    push(r, "play iris-plain-2 take iris-plain-1", "flip maple-plain-1",
         "play peony-plain-2 take peony-plain-1", "flip wisteria-ribbon",
         "play maple-deer take maple-plain-1", "flip clover-ribbon")
    assert r.turn == 1  # no new points since the go: no decision
    push(r, "play clover-plain-1 take clover-ribbon", "flip plum-ribbon",
         "play wisteria-plain-1 take wisteria-ribbon", "flip chrysanthemum-ribbon",
         "play cherry-curtain take cherry-plain-1", "flip plum-plain-2 take plum-ribbon")
    assert r.phase is Phase.DECIDE and r.score(0) == 4  # four brights
    assert r.settlement_if_stopped(0).net == (20, -10, -10)  # (4 + 1 go) x 2 gwang-bak from each
    push(r, "go")
    assert r.gos(0) == 2 and r.settlement_if_stopped(0).score == 6
    r.pop()
    push(r, "stop")
    assert r.result is not None and r.result.reason == "stop" and r.result.gos == (1, 0, 0)
    assert r.result.net == (20, -10, -10) and [y.name for y in r.result.yaku] == ["gwang"]
    with pytest.raises(IllegalMoveError, match="over"):
        r.push(Move.stop())


def test_the_last_card_can_only_stop():
    r = GoStopRound(explicit_deal(["pine-crane", "plum-plain-2", "cherry-plain-2"], "pine-plain-1 iris-plain-1",
                                  "pampas-moon paulownia-phoenix iris-plain-2"))
    r.stock_left -= 2  # set up: player 1 has already captured two brights, and holds a last card
    r.captured = (cards("pampas-moon paulownia-phoenix").mask, 0, 0)
    push(r, "play pine-crane take pine-plain-1", "flip iris-plain-2 take iris-plain-1")
    assert r.phase is Phase.DECIDE and list(r.legal_moves) == [Move.stop()]


def test_chongtong_wins_at_once_and_four_on_the_table_is_void():
    four = "pine-crane pine-ribbon pine-plain-1 pine-plain-2 plum-plain-1"
    r = GoStopRound(explicit_deal([four, "maple-deer", "iris-plain-1"], "cherry-plain-1"))
    assert r.result is not None and r.result.reason == "chongtong" and r.result.net == (20, -10, -10)
    assert GoStopRound(explicit_deal(["maple-deer", four, "iris-plain-1"], "cherry-plain-1")).result.winner == 1
    two = explicit_deal([four, "maple-deer maple-ribbon maple-plain-1 maple-plain-2", "iris-plain-1"], "cherry-plain-1")
    assert GoStopRound(two).result.reason == "patu"
    table = explicit_deal(["maple-deer", "iris-plain-1", "cherry-plain-1"], four)
    assert GoStopRound(table).result.reason == "patu"
    assert not GoStopRound(table, profile_with(deal={"four-on-field": "play"})).is_over
    house = profile_with(deal={"four-in-hand": "play"})
    assert not GoStopRound(explicit_deal([four, "maple-deer", "iris-plain-1"], "cherry-plain-1"), house).is_over
    assert GoStopRound(explicit_deal([four, "maple-deer", "iris-plain-1"], "cherry-plain-1"),
                       nagari=1).result.net == (40, -20, -20)


def test_nagari_doubles_the_next_hand_of_a_match():
    never = profile_with(go={"threshold": 1000}, deal={"four-in-hand": "play"})
    match = GoStopMatch(never, seed=3, dealer=1)
    state = match.new_round()
    result = play_round(state, [RandomBot(p) for p in range(3)])
    assert result.reason == "nagari" and result.net == (0, 0, 0) and result.winner is None
    match.record(state)
    assert match.nagari == 1 and match.dealer == 1
    following = match.new_round()
    assert following.nagari == 1 and following.dealer == 1
    assert following.settlement_if_stopped(0).multipliers[-1:] == ("nagari",)


def test_the_winner_deals_and_leads_the_next_hand():
    match = GoStopMatch(seed=11)
    bots = [RandomBot(p) for p in range(3)]
    for _ in range(5):
        state = match.new_round()
        assert state.turn == match.dealer
        result = play_round(state, bots)
        before = match.dealer
        match.record(state)
        assert match.dealer == (result.winner if result.winner is not None else before)
    assert sum(match.scores) == 0


def test_profiles_must_match_the_number_of_hands():
    with pytest.raises(InvalidStateError, match="for 3 players, not 2"):
        GoStopRound(explicit_deal(["pine-crane", "plum-plain-1"], ""))
    assert GoStopRound.shuffled(random.Random(4), GoStopProfile.load("matgo")).players == 2
