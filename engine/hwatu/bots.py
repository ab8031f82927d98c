"""Hwatu bots: greedy takes the most valuable capture in sight and stops as soon as it may.

The random bot is ``engine.bots.RandomBot`` (it uses ``random_move``). Greedy does not peek at the
stock: a Go-Stop hand card is judged by what it would take if the flip leaves it alone.
"""

from __future__ import annotations

from typing import Final

from engine.capture import Phase
from engine.cards import ALL_CARDS, Kind
from engine.cardset import MONTH_MASK_BY_CARD, cards_of
from engine.hwatu.cards import GODORI
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.gostop_scoring import best_total
from engine.hwatu.hato import bonuses, card_points
from engine.hwatu.hato_round import HatoRound
from engine.moves import Move, MoveKind

# What a Go-Stop card is worth to a player who looks one move ahead.
_KIND_VALUE: Final = {Kind.BRIGHT: 6.0, Kind.ANIMAL: 3.0, Kind.RIBBON: 2.5, Kind.PLAIN: 1.0}
_GOSTOP_VALUES: Final = tuple(_KIND_VALUE[c.kind] + (1.5 if GODORI >> c & 1 else 0.0) for c in ALL_CARDS)


class GreedyBot:
    """Highest immediate value for Hato, Go-Stop and Matgo; stops at the first chance (a bird in the hand)."""

    name = "greedy"

    def choose(self, state: HatoRound | GoStopRound) -> Move:
        if state.phase is Phase.DECIDE:
            return Move.stop()
        moves = state.generate_legal_moves()
        if len(moves) == 1:
            return moves[0]
        return max(moves, key=lambda move: greedy_value(state, move))


def greedy_value(state: HatoRound | GoStopRound, move: Move) -> float:
    """What the greedy bot sees in a play or flip (``hato_value`` or ``gostop_value``)."""
    if isinstance(state, HatoRound):
        return hato_value(state, move)
    return gostop_value(state, move)


def hato_value(state: HatoRound, move: Move) -> float:
    """Card points and bonus points the move gains; a discard costs a little of the card left behind."""
    p = state.turn
    profile = state.profile
    before = state.captured[p]
    state.push(move, check=False)
    after = state.captured[p]
    state.pop()
    if after == before and move.card is not None:
        return -0.1 * (profile.card_points[move.card] + 1)
    gained = card_points(after, profile) - card_points(before, profile)
    bonus = sum(b.points for b in bonuses(after, profile)) - sum(b.points for b in bonuses(before, profile))
    return gained + bonus


def gostop_value(state: GoStopRound, move: Move) -> float:
    """Card values and ten per point the move's captures add, pi stolen included."""
    p = state.turn
    before = state.captured[p]
    if move.kind is MoveKind.FLIP and state.phase is Phase.FLIP:
        state.push(move, check=False)
        after = state.captured[p]
        state.pop()
    else:
        after = before | play_gain(state, move)
    if after == before:
        blank = move.kind is MoveKind.FLIP  # a bomb's blank turn costs nothing
        return 0.05 if blank else -0.1 * _GOSTOP_VALUES[move.card or 0]
    value = sum(_GOSTOP_VALUES[c] for c in cards_of(after & ~before))
    value += 10.0 * (best_total(after, state.profile) - best_total(before, state.profile))
    if move.kind is MoveKind.BOMB:
        value += 3.0 * (state.players - 1)  # the pi it steals, and the doubling
    elif move.kind is MoveKind.SHAKE:
        value += 2.0
    return value


def play_gain(state: GoStopRound, move: Move) -> int:
    """What a hand card (or bomb) takes, itself included, if the flip does not change it (a mask)."""
    card = move.card
    if card is None:
        return 0
    month = MONTH_MASK_BY_CARD[card]
    if move.kind is MoveKind.BOMB:
        return month
    matches = state.field & month
    n = matches.bit_count()
    if n == 0 or move.kind is MoveKind.FLIP:
        return 0
    return (matches if n != 2 or move.take is None else 1 << move.take) | 1 << card
