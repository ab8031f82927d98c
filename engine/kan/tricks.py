"""Trick rules on raw masks: which cards may be played, and who wins a trick.

Follow the suit led (or the suit named with a led joker) if you can, else play anything. The joker may
be played to any trick regardless of suit and always wins, but not to the first or the last trick, so a
joker still held at the ninth trick must be played to it. Without the joker the highest trump wins,
else the highest card of the suit led.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.kan.cards import Card, Suit
from engine.kan.cardset import JOKER_BIT, POINT_MASK, SUIT_MASKS, mask_of

TRICKS: Final = 10
_JOKER: Final = int(Card.JOKER)


class Trick(NamedTuple):
    """A finished trick: ``cards`` in play order from ``leader``; ``suit`` is the suit to follow."""

    leader: int
    cards: tuple[Card, ...]
    suit: Suit
    winner: int

    @property
    def points(self) -> int:
        return (mask_of(self.cards) & POINT_MASK).bit_count()

    def __str__(self) -> str:
        cards = " ".join(c.code for c in self.cards)
        return f"player {self.leader + 1} led {cards} ({self.suit.letter}): player {self.winner + 1} won"


def playable(known: int, possible: int, led: Suit | None, trick_index: int) -> int:
    """The cards a player may play: ``known`` are the cards surely in the hand, ``possible`` adds cards the
    hand may hold unseen (0 when it is fully known); ``led`` is ``None`` for a lead.

    With unseen cards the player must follow only when a known card of the suit shows they can.
    """
    hand = known | possible
    if trick_index == TRICKS - 2 and known & JOKER_BIT:
        return JOKER_BIT  # the joker may not wait for the last trick
    if led is None:
        allowed = hand
    else:
        suit_mask = SUIT_MASKS[led]
        follow = hand & suit_mask
        must_follow = known & suit_mask if possible else follow
        allowed = follow | hand & JOKER_BIT if must_follow else hand
    if trick_index == 0 or trick_index == TRICKS - 1:
        allowed &= ~JOKER_BIT
    return allowed


def winning_index(cards: tuple[Card, ...], led: Suit, trump: Suit) -> int:
    """Position in ``cards`` of the card that wins (or is winning) the trick."""
    best, best_key = 0, -1
    for i, card in enumerate(cards):
        if card == _JOKER:
            return i
        suit = card // 13
        key = 40 + card % 13 if suit == trump else 20 + card % 13 if suit == led else 0
        if key > best_key:
            best, best_key = i, key
    return best
