"""Rounds and matches: the trump schedule (tome-suppe included), deals 2 and 3 (showing cards, who names the
trump and leads), declarations, stopping after a sukonku, and the running zero-sum score."""

import random
from dataclasses import replace

import pytest

from engine.bots import RandomBot
from engine.errors import IllegalMoveError
from engine.kan.actions import Action, ShowWay
from engine.kan.bots import GreedyBot
from engine.kan.cards import Card, Suit
from engine.kan.deal import KanDeal
from engine.kan.hands import Hands
from engine.kan.ledger import Declaration
from engine.kan.match import KanMatch, KanRound
from engine.kan.play import play_deal, play_match
from engine.kan.profile import KanProfile
from engine.kan.table import DealSetup, Phase, Side

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def test_trump_schedule_over_a_ten_round_match_ends_with_tome_suppe_in_spades():
    match = KanMatch(seed=3)
    assert match.trump_schedule() == [C, D, H, C, D, H, C, D, H, S]
    assert KanMatch(rounds=4).trump_schedule() == [C, D, H, S]
    assert KanMatch(KanProfile(last_round_trump=None), rounds=4).trump_schedule() == [C, D, H, C]
    rng = random.Random(3)
    play_match(match, [GreedyBot(), RandomBot(rng), GreedyBot(), RandomBot(rng), RandomBot(rng)])
    assert [r.results[0].trump for r in match.finished] == match.trump_schedule()
    assert match.is_over and len(match.ledgers) == 10
    with pytest.raises(IllegalMoveError, match="the match is over"):
        match.new_deal()


def test_a_match_keeps_a_zero_sum_score_and_rounds_follow_the_rules():
    match = play_match(KanMatch(seed=11, rounds=10), [RandomBot(random.Random(5))] * 5)
    assert sum(match.scores) == 0
    for p in range(5):
        assert match.scores[p] == sum(ledger.amounts[p] for ledger in match.ledgers)
    for round_ in match.finished:
        results = round_.results
        assert 1 <= len(results) <= 3
        assert all(r.kankei == results[0].kankei for r in results)  # the same partnership all round
        assert all(r.kankei_won and not r.stopped for r in results[:-1])  # it went on only after kankei wins
        last = results[-1]
        assert not last.kankei_won or last.stopped or len(results) == 3
        assert all(r.showing is not None for r in results[1:]) and results[0].showing is None


def second_deal(number: int = 2, trump: Suit | None = None) -> KanDeal:
    setup = DealSetup(number, trump, joker_partner=0, ace_partner=2)
    return KanDeal(Hands.arrange({2: "5H KH QS", 0: "JOKER 2S"}), setup)


def test_in_deal_2_the_pins_partner_shows_and_the_jokers_partner_names_the_trump_and_leads():
    deal = second_deal()
    assert deal.phase is Phase.SHOW and deal.turn == 2
    ways = {a.way for a in deal.legal_moves}
    assert ways == set(ShowWay)  # the five allowed ways
    assert len(deal.legal_moves) == 1 + 10 + 10 + 45 + 90
    with pytest.raises(IllegalMoveError, match="player 3 cannot show JOKER: it is in player 1's hand"):
        deal.push(Action.show(ShowWay.SINGLE, Card.JOKER))
    with pytest.raises(IllegalMoveError, match="say which card"):
        deal.push(Action.show(ShowWay.TWO))
    deal.push(Action.parse("show another KH 5H"))
    assert deal.phase is Phase.TRUMP and deal.turn == 0
    assert deal.view(0).hand(2) == deal.hand(2) & deal.view(0).hand(2) and Card.KING_OF_HEARTS in deal.view(0).hand(2)
    assert Card.KING_OF_HEARTS not in deal.view(1).hand(2) and deal.view(1).talk.showing.cards == ()
    assert deal.view(1).talk.showing.way is ShowWay.ANOTHER  # the gesture is seen, the cards are not
    deal.push(Action.trump(H))
    assert deal.trump is H and deal.phase is Phase.DECLARE and deal.turn == 0 and deal.lead == 0
    assert list(deal.legal_moves) == [Action.juuroku(), Action.pass_()]
    deal.push(Action.pass_())
    assert deal.turn == 1 and deal.side(1) is Side.MUKANKEI  # the mukankei on the leader's right
    assert list(deal.legal_moves) == [Action.gyaku_juuroku(), Action.pass_()]
    with pytest.raises(IllegalMoveError, match="the mukankei' turn to declare: gyaku-juuroku or pass"):
        deal.push(Action.juuroku())
    deal.push(Action.gyaku_juuroku())
    assert deal.talk.declaration is Declaration.GYAKU_JUUROKU
    assert deal.phase is Phase.PLAY and deal.turn == 0


def test_in_deal_3_the_roles_swap_and_the_pins_partner_names_the_trump_and_leads():
    deal = second_deal(3)
    assert deal.phase is Phase.SHOW and deal.turn == 0
    deal.push(Action.parse("show none"))
    assert deal.turn == 2
    deal.push(Action.trump(S))
    deal.push(Action.juuroku())  # kankei declared: the mukankei are not asked
    assert deal.talk.declaration is Declaration.JUUROKU and deal.phase is Phase.PLAY and deal.turn == 2


def test_a_fixed_trump_in_a_later_deal_skips_the_showing():
    deal = second_deal(2, S)
    assert deal.phase is Phase.DECLARE and deal.trump is S and deal.lead == 0


class Sweep:
    """Kankei play their highest card, mukankei their lowest; talk as the greedy bot does."""

    name = "sweep"

    def __init__(self) -> None:
        self.talk = GreedyBot()

    def choose(self, state: KanDeal) -> Action:
        if state.phase is not Phase.PLAY:
            return self.talk.choose(state)
        moves = list(state.legal_moves)
        high = state.side(state.turn) is Side.KANKEI
        return (max if high else min)(moves, key=lambda a: a.card)


# every club is with the kankei, the pin's holder has the ten best: they take every trick
SWEEP_HANDS = Hands.arrange({0: "JOKER 4C 3C", 2: "AC KC QC JC 10C 9C 8C 7C 6C 5C"})


def sweeping_deal(profile: KanProfile | None = None) -> KanDeal:
    return KanDeal(SWEEP_HANDS, DealSetup(1, C), profile)


def test_after_a_sukonku_the_kankei_may_stop_the_round():
    deal = sweeping_deal()
    while deal.phase is not Phase.DECIDE:
        deal.push(Sweep().choose(deal))
    assert deal.side_points() == (16, 0) and deal.turn == 0  # the joker's partner decides
    assert list(deal.legal_moves) == [Action.stop(), Action.continue_()]
    deal.push(Action.stop())
    result = deal.result
    assert result is not None and result.sukonku and result.stopped and result.kankei_won
    round_ = KanRound(1, C)
    round_.record(deal)
    assert round_.is_over and round_.ledger.kankei_total == 1 + 1
    deal.pop()
    deal.push(Action.continue_())
    round_ = KanRound(1, C)
    round_.record(deal)
    assert not round_.is_over and round_.setup() == DealSetup(2, None, (0, 1, 2, 3, 4), 0, 2)


def test_without_the_stop_option_a_sukonku_just_ends_the_deal():
    deal = sweeping_deal(replace(KanProfile(), stop_after_sukonku=False))
    play_deal(deal, [Sweep()] * 5)
    assert deal.result is not None and deal.result.sukonku and not deal.result.stopped


def test_a_match_deals_the_rounds_deals_and_refuses_them_out_of_turn():
    match = KanMatch(seed=2, rounds=2)
    first = match.new_deal(SWEEP_HANDS)
    assert first.number == 1 and first.trump is C
    with pytest.raises(IllegalMoveError, match="not over yet"):
        match.record(first)
    while not first.is_over:
        first.push(Action.continue_() if first.phase is Phase.DECIDE else Sweep().choose(first))
    assert match.record(first) is None  # the round goes on
    second = match.new_deal()  # shuffled from the match's seed
    assert second.number == 2 and (second.setup.joker_partner, second.setup.ace_partner) == (0, 2)
    assert second.phase is Phase.SHOW and second.turn == 2
    stale = KanDeal(Hands.shuffled(1), DealSetup(3, None, joker_partner=0, ace_partner=2))
    play_deal(stale, [GreedyBot()] * 5)
    with pytest.raises(IllegalMoveError, match="expects deal 2, not deal 3"):
        match.record(stale)
    strangers = KanDeal(Hands.shuffled(1), DealSetup(2, None, joker_partner=1, ace_partner=3))
    play_deal(strangers, [GreedyBot()] * 5)
    with pytest.raises(IllegalMoveError, match="not set up for round 1"):
        match.record(strangers)
    play_deal(second, [GreedyBot()] * 5)
    ledger = match.record(second)
    result = second.result
    assert result is not None
    round_over = not result.kankei_won or result.stopped
    assert (ledger is not None) == round_over
    assert match.round_number == (2 if round_over else 1) and match.dealer == (1 if round_over else 0)
