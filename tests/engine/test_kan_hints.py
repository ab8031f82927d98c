"""Kan hints: the clearly best move wins in constructed positions, samples respect what the player knows,
the reasons name the right cards and odds, and the talk actions are weighed through the same search."""

from __future__ import annotations

import pickle
import random

import pytest

from engine.kan.actions import Action, ActionKind
from engine.kan.bots import GreedyBot
from engine.kan.cards import Card, Suit
from engine.kan.cardset import SUIT_MASKS
from engine.kan.deal import KanDeal
from engine.kan.hands import Hands
from engine.kan.hints import HintBot, deal_amount, hints, show_shortlist, trick_odds
from engine.kan.ledger import DealOutcome, Declaration
from engine.kan.profile import KanProfile
from engine.kan.table import DealSetup, Phase


def to_play(deal: KanDeal, bot: GreedyBot | None = None) -> KanDeal:
    bot = bot or GreedyBot()
    while deal.phase is not Phase.PLAY:
        deal.push(bot.choose(deal))
    return deal


def test_the_search_pickles_and_ranks_every_legal_card() -> None:
    deal = to_play(KanDeal.shuffled(5))
    found = hints(deal, deal.turn, seed=1)
    pickle.loads(pickle.dumps(found.search))  # it runs in the app's hint process
    found.search.add_samples(4)
    ranked = found.search.ranked()
    assert {v.move for v in ranked} == set(deal.generate_legal_moves())
    assert found.unit == "points" and all(0 <= v.mean <= 16 for v in ranked)


def test_sampled_worlds_keep_the_voids_a_player_showed() -> None:
    deal = to_play(KanDeal.shuffled(2))
    bot = GreedyBot()
    while not any(deal.voids[p] & 0xF for p in range(5)):
        deal.push(bot.choose(deal))
    me = deal.turn if deal.phase is Phase.PLAY else 0
    view = deal.view(me)
    rng = random.Random(3)
    for _ in range(40):
        world = view.sample_world(rng)
        for p in range(5):
            for suit in Suit:
                if view.voids[p] >> suit & 1:
                    assert not world.hands[p] & SUIT_MASKS[suit]
        assert world.hands[me] == deal.hands[me]


def test_the_joker_is_played_when_the_trick_decides_the_deal() -> None:
    # Trump clubs; player 1 (seat 0) holds the joker; the opponents' ace of hearts leads a trick full of points.
    hands = Hands.arrange({0: "JOKER 3H 4D 5D 6D 7D 8D 9D 10D 2S", 1: "AH KC", 2: "AC KH", 3: "QH QC",
                           4: "JH JC"}, seed=1)
    deal = to_play(KanDeal(hands, DealSetup(1, Suit.CLUBS)))
    assert deal.kankei is not None and 0 in deal.kankei
    bot = GreedyBot()
    # play up to a trick where seat 0 follows a trick holding points (not the first trick: no joker there)
    while not (deal.turn == 0 and deal.trick and len(deal.tricks) >= 1 and sum(c.points for c in deal.trick) >= 2
               and Card.JOKER in deal.hand(0)):
        if deal.is_over or deal.phase is not Phase.PLAY:
            pytest.skip("the arranged deal did not reach the position")
        deal.push(bot.choose(deal))
    found = hints(deal, 0, seed=2)
    found.search.add_samples(40)
    best = found.best()
    assert best.card is Card.JOKER
    assert found.reasons[best].key == "joker_takes" and found.reasons[best].numbers[0] >= 2


def test_a_partner_winning_trick_gets_a_point_card_rather_than_a_winner() -> None:
    for seed in range(200):
        deal = to_play(KanDeal.shuffled(seed))
        bot = GreedyBot()
        while not deal.is_over:
            if deal.phase is Phase.PLAY and deal.trick and len(deal.trick) == 4:
                moves = deal.generate_legal_moves()
                reasons = hints(deal, deal.turn, seed=seed, odds_worlds=4).reasons
                giving = [m for m in moves if reasons[m].key == "partner_points"]
                low = [m for m in moves if reasons[m].key == "partner_low"]
                if giving and low:
                    found = hints(deal, deal.turn, seed=seed)
                    found.search.add_samples(30)
                    best = found.search.ranked()[0]
                    assert found.reasons[best.move].key == "partner_points"
                    assert best.move.card in found.reasons[best.move].cards
                    return
            deal.push(bot.choose(deal))
    pytest.fail("no last-to-play choice between a point card and a low card in 200 deals")


def test_reasons_name_the_card_the_suit_and_the_odds() -> None:
    deal = to_play(KanDeal.shuffled(7))
    found = hints(deal, deal.turn, seed=0)
    for move, reason in found.reasons.items():
        assert move.card in reason.cards
        if reason.key in ("lead", "lead_trump"):
            assert reason.suit is move.card.suit and 0.0 <= reason.numbers[0] <= 1.0  # type: ignore[union-attr]


def test_trick_odds_an_unbeatable_card_always_holds() -> None:
    deal = to_play(KanDeal.shuffled(11))
    bot = GreedyBot()
    while not (deal.trick and deal.phase is Phase.PLAY):
        deal.push(bot.choose(deal))
    view = deal.view(deal.turn)
    worlds = [view.sample_world(random.Random(i)) for i in range(20)]
    moves = deal.generate_legal_moves()
    for move in moves:
        odds = trick_odds(view, deal.turn, move, worlds)
        assert 0.0 <= odds.holds <= 1.0 and 0.0 <= odds.follow <= 1.0
    if Action.play(Card.JOKER) in moves:
        assert trick_odds(view, deal.turn, Action.play(Card.JOKER), worlds).holds == 1.0


def test_talk_actions_go_through_the_same_search() -> None:
    deal = KanDeal.shuffled(3)
    bot = GreedyBot()
    kinds = set()
    while deal.phase is not Phase.PLAY:
        found = hints(deal, deal.turn, seed=1)
        found.search.add_samples(2)
        kinds.add(deal.phase)
        assert all(m in found.reasons for m in found.search.moves)
        deal.push(bot.choose(deal))
    assert Phase.ANNOUNCE in kinds and Phase.CALL in kinds
    # deal 2: showing, trump and the declaration are weighed too
    setup = DealSetup(2, None, deal.order, *deal.kankei)  # type: ignore[misc]
    second = KanDeal.shuffled(4, setup)
    for phase in (Phase.SHOW, Phase.TRUMP, Phase.DECLARE):
        assert second.phase is phase
        found = hints(second, second.turn, seed=1)
        found.search.add_samples(3)
        if phase is Phase.SHOW:
            assert list(found.search.moves) == show_shortlist(second.hands[second.turn])
        if phase is Phase.TRUMP:
            assert {m.suit for m in found.search.moves} == set(Suit)
            assert {found.reasons[m].key for m in found.search.moves} == {"trump"}
        if phase is Phase.DECLARE:
            assert found.unit == "ledger"
            values = {v.move.kind: v.mean for v in found.search.ranked()}
            assert values[ActionKind.PASS] > values[ActionKind.JUUROKU]  # all 16 is rare: pass
        second.push(bot.choose(second))


def test_deal_amount_follows_the_ledger_lines() -> None:
    profile = KanProfile()
    assert deal_amount(DealOutcome(9), 1, profile) == 1
    assert deal_amount(DealOutcome(8), 1, profile) == -1
    assert deal_amount(DealOutcome(16), 2, profile) == 2
    assert deal_amount(DealOutcome(0), 1, profile) == -11
    assert deal_amount(DealOutcome(0), 3, profile) == -1 - 9
    assert deal_amount(DealOutcome(16, Declaration.JUUROKU), 2, profile) == 9
    assert deal_amount(DealOutcome(15, Declaration.JUUROKU), 2, profile) == -17
    assert deal_amount(DealOutcome(1, Declaration.GYAKU_JUUROKU), 2, profile) == 33


def test_the_hint_bot_plays_whole_deals() -> None:
    deal = KanDeal.shuffled(9)
    bots = [HintBot(samples=2, seed=1), GreedyBot(), GreedyBot(), GreedyBot(), GreedyBot()]
    while not deal.is_over:
        deal.push(bots[deal.turn].choose(deal))
    assert deal.result is not None and 0 <= deal.result.kankei_points <= 16
