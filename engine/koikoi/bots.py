"""Koi-Koi bots: greedy takes the highest immediate value and stops as soon as it can score."""

from __future__ import annotations

from typing import Final

from engine.capture import Phase
from engine.cards import ALL_CARDS, Kind
from engine.koikoi.round import KoiKoiRound
from engine.koikoi.yaku import yaku_total
from engine.moves import Move

# What a card is worth to a player who only looks one move ahead.
CARD_VALUE: Final = {Kind.BRIGHT: 8.0, Kind.ANIMAL: 4.0, Kind.RIBBON: 4.0, Kind.PLAIN: 1.0}
VALUE_BY_CARD: Final = tuple(CARD_VALUE[card.kind] for card in ALL_CARDS)


def immediate_value(state: KoiKoiRound, move: Move) -> float:
    """Value of the cards a move captures plus ten per point of yaku it completes.

    A move that captures nothing costs a little of the card it leaves on the field, so that the bot
    discards plains before brights.
    """
    p = state.turn
    before_cards = state.captured[p]
    before_yaku = yaku_total(before_cards, state.profile, state.koikoi[p] > 0)
    state.push(move, check=False)
    gained = state.captured[p] & ~before_cards
    after_yaku = yaku_total(state.captured[p], state.profile, state.koikoi[p] > 0)
    state.pop()
    value = 10.0 * (after_yaku - before_yaku)
    while gained:
        low = gained & -gained
        gained ^= low
        value += VALUE_BY_CARD[low.bit_length() - 1]
    if value == 0 and move.card is not None:
        value -= 0.1 * VALUE_BY_CARD[move.card]
    return value


class GreedyBot:
    """Highest immediate value; stops as soon as it has a yaku (a bird in the hand)."""

    name = "greedy"

    def choose(self, state: KoiKoiRound) -> Move:
        if state.phase is Phase.DECIDE:
            return Move.stop()
        moves = state.generate_legal_moves()
        if len(moves) == 1:
            return moves[0]
        return max(moves, key=lambda move: immediate_value(state, move))
