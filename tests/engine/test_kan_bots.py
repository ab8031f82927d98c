"""The greedy Kan bot: cheap losers, winners only for points, trumps for points, the joker saved, and
talk that lets two greedy partners agree; both bots play whole matches."""

import random

from engine.bots import RandomBot
from engine.kan.actions import Action, ActionKind
from engine.kan.bots import GreedyBot
from engine.kan.cards import Card, Suit
from engine.kan.deal import KanDeal
from engine.kan.hands import Hands
from engine.kan.match import KanMatch
from engine.kan.play import play_match
from engine.kan.table import DealSetup, Phase
from tests.engine.test_kan_tricks import play, ready

GREEDY = GreedyBot()


def choice(deal: KanDeal) -> str:
    action = GREEDY.choose(deal)
    assert action in deal.legal_moves
    return str(action)


def test_leads_a_side_ace_and_trumps_a_trick_that_holds_points():
    deal = ready()
    assert choice(deal) == "play AH"
    play(deal, "AH")
    assert choice(deal) == "play 3C"  # the cheapest trump takes the ace


def test_plays_the_cheapest_loser_to_a_trick_without_points():
    deal = ready()
    play(deal, "3H")
    assert choice(deal) == "play 7D"  # no heart, nothing to win: a low side card, not a trump


def test_wins_a_trick_worth_points_with_its_highest_card_of_the_suit():
    deal = ready()
    play(deal, "AH", "7D", "6H", "10H", "5S")
    play(deal, "3D", "8D", "JD")  # player 3 (a kankei) is winning a jack
    assert choice(deal) == "play AD"  # player 4, mukankei: the highest diamond takes it


def test_saves_the_joker_for_a_trick_worth_two_points():
    deal = ready()
    play(deal, "3H", "3C", "6H", "10H", "5S", "7D", "9D", "QD", "6S")
    assert choice(deal) == "play 3D"  # one point on the table: the joker waits
    deal = ready()
    play(deal, "3H", "3C", "6H", "10H", "5S", "7D", "JD", "QD", "6S")
    assert choice(deal) == "play JOKER"  # two points: now it is worth it


def test_talk_the_pins_holder_leads_and_the_partner_gives_back_its_cheapest_card():
    deal = KanDeal(Hands.arrange({0: "JOKER AC", 2: "3D 4D 5D 6D 7D 8D 9D 10D JD QD"}), DealSetup(1, Suit.CLUBS))
    while deal.phase is Phase.ANNOUNCE:
        deal.push(GREEDY.choose(deal))
    assert deal.phase is Phase.GIVE and deal.turn == 2
    assert GREEDY.choose(deal) == Action.give(Card.THREE_OF_DIAMONDS)
    deal.push(GREEDY.choose(deal))
    words = []
    while deal.phase is Phase.CALL:
        action = GREEDY.choose(deal)
        words.append(action.kind)
        deal.push(action)
    assert words == [ActionKind.KOI, ActionKind.IKU] and deal.lead == 2  # greedy partners always agree


def test_names_the_trump_its_hand_and_the_shown_cards_are_strongest_in():
    hands = Hands.arrange({2: "AS KS QS 8S 3C 4C 5C 3D 4D 3H", 0: "JS 10S 9S 4H 5H 6H 7H 8H 6D 7D"})
    deal = KanDeal(hands, DealSetup(2, None, joker_partner=0, ace_partner=2))
    shown = GREEDY.choose(deal)
    assert shown == Action.parse("show two KS AS")
    deal.push(shown)
    assert GREEDY.choose(deal) == Action.trump(Suit.SPADES)  # five hearts alone would not do it


def test_both_bots_play_whole_matches():
    rng = random.Random(8)
    match = play_match(KanMatch(seed=8, rounds=3), [GREEDY, RandomBot(rng), GREEDY, RandomBot(rng), RandomBot(rng)])
    assert match.is_over and sum(match.scores) == 0
