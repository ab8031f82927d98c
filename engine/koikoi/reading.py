"""What an opponent's past plays say about their hand, if they play as the greedy bot does.

The greedy bot (``bots.GreedyBot``) plays the card of highest immediate value. Hands only shrink in
Koi-Koi, so every card still in its hand was in it at each of its past plays and was worth no more than
the card it played then (ties go to the lower card, as ``max`` over the legal moves does). That rules cards
out one by one, independently of the rest of the hand: the hands consistent with the plays are exactly the
hands drawn from the cards never ruled out, so dealing them stays uniform over a smaller set
(``deal_world``). A human need not play so; the hints read hands only when told the opponent is that bot.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.capture import Phase, taken
from engine.cardset import MONTH_MASK_BY_CARD, cards_of
from engine.koikoi.bots import VALUE_BY_CARD
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.koikoi.yaku import yaku_total
from engine.moves import Move, MoveKind


class GreedyReader:
    """The greedy bot's valuation on plain ints (as ``bots.immediate_value``), with yaku totals remembered."""

    def __init__(self, profile: KoiKoiProfile) -> None:
        self.profile = profile
        self._yaku: dict[int, int] = {}

    def yaku(self, captured: int, called: bool) -> int:
        key = captured | called << 48
        total = self._yaku.get(key)
        if total is None:
            total = self._yaku[key] = yaku_total(captured, self.profile, called)
        return total

    def value(self, card: int, got: int, mine: int, called: bool) -> float:
        """What the greedy bot sees in playing ``card`` and taking ``got`` (a mask; 0 lays it)."""
        if not got:
            return -0.1 * VALUE_BY_CARD[card]
        gained = got | 1 << card
        value = 10.0 * (self.yaku(mine | gained, called) - self.yaku(mine, called))
        return value + sum(VALUE_BY_CARD[c] for c in cards_of(gained))

    def best_value(self, card: int, field: int, mine: int, called: bool) -> float:
        """The most the greedy bot sees in playing ``card`` (the better take of two matches)."""
        matches = field & MONTH_MASK_BY_CARD[card]
        if matches.bit_count() != 2:
            return self.value(card, matches, mine, called)
        first = matches & -matches
        return max(self.value(card, first, mine, called), self.value(card, matches ^ first, mine, called))

    def hand_cards(self, state: KoiKoiRound, player: int, unseen: int) -> int:
        """The ``unseen`` cards (a mask) that ``player``'s hidden hand may hold, were they the greedy bot."""
        allowed = unseen
        for field, mine, called, move in _past_plays(state, player):
            assert move.card is not None
            card = int(move.card)
            played = self.value(card, taken(move, field), mine, called)
            for other in cards_of(allowed):
                worth = self.best_value(other, field, mine, called)
                if worth > played or (worth == played and other < card):
                    allowed &= ~(1 << other)
        return allowed


def _past_plays(state: KoiKoiRound, player: int) -> Iterator[tuple[int, int, bool, Move]]:
    """The public part of each hand card ``player`` played this round: (field, their captures, koi-koi called,
    the move). A copy without its history (a player's view) has none to tell."""
    for snapshot, move in state.history():
        field, captured, turn, phase, koikoi = snapshot[2], snapshot[3], snapshot[5], snapshot[6], snapshot[7]
        if turn == player and phase is Phase.PLAY and move.kind is MoveKind.PLAY and move.card is not None:
            yield field, captured[player], koikoi[player] > 0, move


def deal_world(view: KoiKoiRound, rng: random.Random, player: int, allowed: int, keep_out: int = 0) -> KoiKoiRound:
    """A sampled world whose hidden hand of ``player`` is drawn from ``allowed`` (less ``keep_out``, a card known
    to lie elsewhere); the rest of the unknown cards shuffled into the stock. Uniform as ``sample_world`` when
    too few cards are allowed (the reading was wrong: they do not play greedily)."""
    world = view.sample_world(rng)
    assert isinstance(world, KoiKoiRound) and world.stock is not None
    need = view.hidden[player]
    pool = cards_of(allowed & ~keep_out)
    if not need or len(pool) < need or view.stock is not None:
        return world
    mask = 0
    for card in rng.sample(pool, need):
        mask |= 1 << card
    rest = cards_of(view.unknown().mask & ~mask)
    rng.shuffle(rest)
    hands = list(world.hands)
    hands[player] = view.hands[player] | mask
    world.hands = tuple(hands)
    world.stock = tuple(rest)
    return world
