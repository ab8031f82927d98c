"""Trick play: follow suit, the joker (never in the first or last trick, forced in the ninth, names the suit
when led, always wins), trumps, the trick winner leads, and the 9-point threshold of a deal."""

import random

import pytest

from engine.bots import RandomBot
from engine.errors import IllegalMoveError
from engine.kan.actions import Action
from engine.kan.cards import Card, Suit
from engine.kan.cardset import JOKER_BIT, SUIT_MASKS, CardSet
from engine.kan.deal import KanDeal
from engine.kan.hands import Hands
from engine.kan.ledger import DealOutcome, kankei_win
from engine.kan.play import play_deal
from engine.kan.table import DealSetup, Phase
from engine.kan.tricks import playable, winning_index

# Clubs are trump, so the AC is the pin: players 1 (joker) and 3 (pin) are partners; player 1 leads.
HANDS = Hands.parse(
    "JOKER AH 3H 4H 5H 3D 4D 5D 6D QC / "
    "3C 4C 5C 6C 7C 8C 9C 10C 7D 8D / "
    "AC KC JC 6H 7H 8H 9H 9D 10D JD / "
    "10H JH QH KH QD KD AD 2S 3S 4S / "
    "5S 6S 7S 8S 9S 10S JS QS KS AS"
)


def ready() -> KanDeal:
    deal = KanDeal(HANDS, DealSetup(1, Suit.CLUBS))
    for text in ("kan JOKER by 1", "kan AC by 3", "iku", "koi"):
        deal.push(Action.parse(text))
    assert deal.phase is Phase.PLAY and deal.turn == 0
    return deal


def play(deal: KanDeal, *codes: str) -> None:
    for code in codes:
        deal.push(Action.parse(f"play {code}"))


def legal_cards(deal: KanDeal) -> set[str]:
    return {a.card.code for a in deal.legal_moves if a.card is not None}


def test_follow_suit_if_you_can_else_anything():
    deal = ready()
    play(deal, "AH")
    assert legal_cards(deal) == {c.code for c in HANDS.hands[1]}  # no heart: anything
    play(deal, "7D")
    assert legal_cards(deal) == {"6H", "7H", "8H", "9H"}  # hearts held: hearts only
    with pytest.raises(IllegalMoveError, match=r"player 3 must follow suit \(♥\) and cannot play AC"):
        play(deal, "AC")
    with pytest.raises(IllegalMoveError, match="player 3 cannot play 2S: it is in player 4's hand"):
        play(deal, "2S")
    play(deal, "6H", "10H", "5S")
    (trick,) = deal.tricks
    assert trick.winner == 0 and trick.points == 1  # no trump: the highest heart wins
    assert deal.turn == 0 and deal.points(0) == 1  # the winner leads the next trick


def test_the_joker_is_barred_from_the_first_trick():
    deal = ready()
    assert "JOKER" not in legal_cards(deal)
    with pytest.raises(IllegalMoveError, match="not be played to the first trick"):
        deal.push(Action.play(Card.JOKER, Suit.HEARTS))
    play(deal, "3H", "3C", "6H", "10H", "5S")
    assert deal.tricks[0].winner == 1  # a small trump beats the hearts


def test_leading_the_joker_names_the_suit_and_the_joker_wins():
    deal = ready()
    play(deal, "AH", "7D", "6H", "10H", "5S")
    joker_leads = [a for a in deal.legal_moves if a.card is Card.JOKER]
    assert joker_leads == [Action.play(Card.JOKER, s) for s in Suit]
    with pytest.raises(IllegalMoveError, match="names the suit to follow"):
        deal.push(Action.play(Card.JOKER))
    deal.push(Action.parse("play JOKER D"))
    assert deal.led is Suit.DIAMONDS
    assert legal_cards(deal) == {"8D"}  # player 2 must follow the named suit
    with pytest.raises(IllegalMoveError, match="only a led joker names a suit"):
        deal.push(Action.play(Card.EIGHT_OF_DIAMONDS, Suit.CLUBS))
    play(deal, "8D", "JD", "AD", "6S")
    assert deal.tricks[1].winner == 0 and deal.tricks[1].suit is Suit.DIAMONDS and deal.points(0) == 3
    assert deal.voids[4] >> Suit.DIAMONDS & 1  # player 5 showed they have no diamond


def test_the_joker_may_be_played_to_any_middle_trick_even_holding_the_suit():
    deal = ready()
    play(deal, "3H", "3C", "6H", "10H", "5S")  # player 2 trumps and leads the second trick
    play(deal, "7D", "9D", "QD", "6S")
    assert legal_cards(deal) == {"3D", "4D", "5D", "6D", "JOKER"}  # player 1 holds diamonds, yet may play the joker
    play(deal, "JOKER")
    assert deal.tricks[1].winner == 0 and deal.tricks[1].suit is Suit.DIAMONDS and deal.turn == 0


def test_trump_beats_the_suit_led():
    deal = ready()
    play(deal, "AH", "7D", "6H", "10H", "5S")  # player 1 leads again
    play(deal, "3D", "8D", "9D", "QD", "7S")  # no trump: the highest diamond wins
    assert deal.tricks[-1].winner == 3 and deal.turn == 3
    play(deal, "KD", "8S", "4D", "3C", "10D")  # player 2 has no diamond left and trumps
    assert deal.tricks[-1].winner == 1 and deal.tricks[-1].points == 1 and deal.turn == 1


def first_non_joker(deal: KanDeal) -> Action:
    moves = list(deal.legal_moves)
    return next((m for m in moves if m.card is not Card.JOKER), moves[0])


def test_a_joker_kept_to_the_ninth_trick_must_be_played_there_and_never_reaches_the_last():
    deal = ready()
    while len(deal.tricks) < 8:
        deal.push(first_non_joker(deal))
    while deal.turn != 0:
        deal.push(first_non_joker(deal))
    assert Card.JOKER in deal.hand(0)
    forced = list(deal.legal_moves)
    assert {a.card for a in forced} == {Card.JOKER}
    other = next(c for c in deal.hand(0) if c is not Card.JOKER)
    with pytest.raises(IllegalMoveError, match="must play the joker now"):
        deal.push(Action.play(other, None))
    deal.push(forced[0])
    while not deal.is_over:
        deal.push(first_non_joker(deal))
    assert Card.JOKER in deal.tricks[8].cards and deal.tricks[8].winner == 0
    assert len(deal.tricks) == 10 and sum(t.points for t in deal.tricks) == 16


def test_playable_on_raw_masks():
    hand = CardSet.parse("JOKER 3H 4D").mask
    hearts = SUIT_MASKS[Suit.HEARTS]
    assert playable(hand, 0, Suit.HEARTS, 3) == hand & hearts | JOKER_BIT  # follow, or the joker
    assert playable(hand, 0, Suit.HEARTS, 0) == hand & hearts  # no joker to the first trick
    assert playable(hand, 0, Suit.HEARTS, 9) == hand & hearts  # nor to the last
    assert playable(hand, 0, None, 8) == JOKER_BIT  # held at the ninth: forced
    assert playable(CardSet.parse("3S 4D").mask, 0, Suit.HEARTS, 4) == CardSet.parse("3S 4D").mask
    # an unseen hand must follow only when a card of the suit is known to be in it
    known, unseen = CardSet.parse("4D").mask, CardSet.parse("5H 6S").mask
    assert playable(known, unseen, Suit.HEARTS, 4) == known | unseen
    assert playable(known, unseen, Suit.DIAMONDS, 4) == known


def test_winning_index():
    cards = tuple(Card.parse(c) for c in ["5H", "AH", "2S", "KH", "3H"])
    assert winning_index(cards, Suit.HEARTS, Suit.CLUBS) == 1
    assert winning_index(cards, Suit.HEARTS, Suit.SPADES) == 2
    assert winning_index((*cards, Card.JOKER), Suit.HEARTS, Suit.SPADES) == 5


def test_a_deal_is_won_by_kankei_with_9_points_not_8():
    assert not kankei_win(DealOutcome(8)) and kankei_win(DealOutcome(9))
    seen = set()
    rng = random.Random(4)
    bots = [RandomBot(rng)] * 5
    for seed in range(400):
        deal = KanDeal.shuffled(seed)
        result = play_deal(deal, bots)
        assert result.kankei_points + result.mukankei_points == 16
        assert result.kankei_points == sum(deal.points(p) for p in result.kankei)
        assert result.kankei_won == (result.kankei_points >= 9)
        seen.add(result.kankei_points)
        if {8, 9} <= seen:
            break
    assert {8, 9} <= seen
