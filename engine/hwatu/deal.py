"""Dealing hwatu: the first dealer by lot, the deal in two halves, and the void-deal checks.

Seats are numbered in turn order: player ``p + 1`` plays after player ``p``. Korean games go
counter-clockwise, so at a real table number the players counter-clockwise from the dealer (the player
on the dealer's right is next). Dealing follows the same order: the others, the dealer, then the table,
in two halves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import ALL_CARDS, Card
from engine.cardset import CardSet, full_months, mask_of
from engine.deal import Deal
from engine.errors import InvalidStateError


def dealer_by_lot(drawn: Sequence[Card], highest: bool = True) -> int | None:
    """Who deals after each player drew one card: the highest Korean month (willow 12 beats paulownia 11),
    or the lowest with ``highest=False``; ``None`` when the best month is drawn twice (draw again)."""
    numbers = [card.month.korean for card in drawn]
    best = max(numbers) if highest else min(numbers)
    return numbers.index(best) if numbers.count(best) == 1 else None


def draw_for_dealer(rng: random.Random, players: int, rule: str = "lot-highest") -> int:
    """The first dealer by the profile's rule, drawing again on a tie."""
    if rule == "player-0":
        return 0
    while True:
        dealer = dealer_by_lot(rng.sample(ALL_CARDS, players), highest=rule == "lot-highest")
        if dealer is not None:
            return dealer


def deal_in_halves(deck: Sequence[Card], players: int, hand_size: int, field_size: int, dealer: int = 0) -> Deal:
    """Deal ``deck`` (top card first) the Korean way: each half goes to the others in turn order, then the
    dealer, then the table; what is left is the stock."""
    if sorted(deck) != list(ALL_CARDS):
        raise InvalidStateError("a hwatu deal needs the 48 cards, each once")
    if 2 * players * hand_size + field_size > 48:
        raise InvalidStateError(f"{players} hands of {hand_size} and {field_size} on the table leave too short a stock")
    order = [(dealer + 1 + i) % players for i in range(players)]  # the dealer last
    hands: list[list[Card]] = [[] for _ in range(players)]
    field: list[Card] = []
    at = 0
    for hand_part, field_part in ((hand_size - hand_size // 2, field_size - field_size // 2),
                                  (hand_size // 2, field_size // 2)):
        for p in order:
            hands[p] += deck[at : at + hand_part]
            at += hand_part
        field += deck[at : at + field_part]
        at += field_part
    return Deal(tuple(CardSet(mask_of(h)) for h in hands), CardSet(mask_of(field)), tuple(deck[at:]))


def shuffled_deal(rng: random.Random, players: int, hand_size: int, field_size: int, dealer: int = 0) -> Deal:
    keys = [rng.random() for _ in range(48)]  # a sort on random keys: faster than shuffle()
    return deal_in_halves(sorted(ALL_CARDS, key=keys.__getitem__), players, hand_size, field_size, dealer)


def four_of_a_month(mask: int) -> bool:
    """Whether a hand or table holds all four cards of some month."""
    return full_months(mask) > 0


def explicit_deal(hands: Sequence[str], field: str, stock_top: str = "") -> Deal:
    """A deal named card by card (a position to study, or one typed in at the table): the hands and the
    table as card codes, the stock starting with ``stock_top`` and going on with the other cards in
    card order."""
    hand_sets = tuple(CardSet.parse(hand) for hand in hands)
    table = CardSet.parse(field)
    top = [Card.parse(code) for code in stock_top.split()]
    used = table | CardSet(top)
    for hand in hand_sets:
        used |= hand
    rest = [card for card in ALL_CARDS if card not in used]
    return Deal(hand_sets, table, tuple(top + rest))
