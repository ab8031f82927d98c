"""Koi-Koi bots: greedy takes the highest immediate value and stops as soon as it can score; the play-out bot
plays as the hint search's play-outs do."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Final

from engine.capture import Phase
from engine.cards import ALL_CARDS, Kind
from engine.cardset import FULL, MONTH_MASK_BY_CARD
from engine.koikoi.progress import finishers
from engine.koikoi.rollout import RolloutPolicy
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


class FirstYakuBot(ABC):
    """A bot that stops as soon as it has a yaku (a bird in the hand) and ``pick``s among two or more moves."""

    def choose(self, state: KoiKoiRound) -> Move:
        if state.phase is Phase.DECIDE:
            return Move.stop()
        moves = state.generate_legal_moves()
        return moves[0] if len(moves) == 1 else self.pick(state, moves)

    @abstractmethod
    def pick(self, state: KoiKoiRound, moves: list[Move]) -> Move:
        """The move to play of ``moves`` (two or more, PLAY or FLIP phase)."""


class GreedyBot(FirstYakuBot):
    """Highest immediate value; stops as soon as it has a yaku."""

    name = "greedy"

    def pick(self, state: KoiKoiRound, moves: list[Move]) -> Move:
        return max(moves, key=lambda move: immediate_value(state, move))


NO_NOISE: Final = (0.0,) * 48


class PlayoutBot(FirstYakuBot):
    """The hint search's play-out policy alone, without search or noise: a middle-strength opponent, and the
    player ``datasets.hints.tune`` tunes the play-out weights on (the search is as strong as its play-outs)."""

    name = "playout"

    def __init__(self, fitted: bool = True, weights: Sequence[float] | None = None) -> None:
        self.fitted = fitted
        self.weights = weights  # None: the shipped ones

    def pick(self, state: KoiKoiRound, moves: list[Move]) -> Move:
        p, field, captured = state.turn, state.field, state.captured
        policy = RolloutPolicy(state, self.fitted, self.weights)
        near = (finishers(state.profile, captured[0], captured[1]), finishers(state.profile, captured[1], captured[0]))
        card = moves[0].card
        assert card is not None
        if state.phase is Phase.PLAY:
            hand = state.hands[p]
            unseen = FULL & ~(hand | field | captured[0] | captured[1])
            card = ALL_CARDS[policy.choose_play(p, hand, field, unseen, near, NO_NOISE)]
        got = policy.best_take(p, field & MONTH_MASK_BY_CARD[card], near)
        return next(m for m in moves if m.card == card and (m.take is None or got >> m.take & 1))
