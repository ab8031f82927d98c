"""The worlds a hwatu hint samples: the unseen cards dealt at random, as far as the player can tell.

What the player saw constrains the deal. The flipped card of a flip phase is face up, so it goes on top of
every sampled stock. A player who laid a card on the field instead of capturing showed they held no card
of any month then on the field (everyone captures when they can; the greedy bot always does), and hands
are never refilled, so those months' unseen cards are dealt elsewhere (``lay_exclusions``). Where the
constraints cannot all be met (someone kept a fourth card back) the rest is dealt freely.
"""

from __future__ import annotations

import random

from engine.capture import CaptureRound
from engine.cards import Card
from engine.cardset import MONTH_MASK_BY_CARD, cards_of
from engine.moves import MoveKind


def sample_world(
    view: CaptureRound, flipped: Card | None, exclusions: tuple[int, ...] | None, rng: random.Random
) -> CaptureRound:
    """A full deal consistent with ``view``, the face-up ``flipped`` card (if any) on top of the stock and no
    hand holding the cards ``exclusions`` (a mask per seat) rules out."""
    world = view.sample_world(rng)
    if exclusions is not None and any(exclusions):
        _redeal(world, view, exclusions, rng)
    if flipped is not None:
        _put_on_top(world, flipped)
    return world


def lay_exclusions(state: CaptureRound, player: int) -> tuple[int, ...]:
    """Per seat, the cards it cannot hold as far as ``player`` saw: every month that was on the field when
    the seat laid a hand card that captured nothing (a mask; 0 for ``player`` and unknown histories)."""
    out = [0] * state.players
    if len(state._stack) != len(state.move_stack):
        return tuple(out)
    for move, snap in zip(state.move_stack, state._stack, strict=True):
        field, turn = snap[2], snap[5]
        if move.kind is not MoveKind.PLAY or turn == player or move.card is None:
            continue
        if not field & MONTH_MASK_BY_CARD[move.card]:
            out[turn] |= _months(field)
    return tuple(out)


def _months(mask: int) -> int:
    """Every card of each month ``mask`` holds a card of."""
    out = 0
    for card in cards_of(mask):
        out |= MONTH_MASK_BY_CARD[card]
    return out


def _redeal(world: CaptureRound, view: CaptureRound, exclusions: tuple[int, ...], rng: random.Random) -> None:
    """Deal the unseen cards again, each hidden hand from the cards it may hold (the most constrained first)."""
    assert world.stock is not None
    pool = view._unknown_mask()
    hands = list(world.hands)
    seats = sorted((p for p in range(view.players) if view.hidden[p]), key=lambda p: -exclusions[p].bit_count())
    for p in seats:
        allowed = cards_of(pool & ~exclusions[p])
        rng.shuffle(allowed)
        got = allowed[: view.hidden[p]]
        if len(got) < view.hidden[p]:  # a constraint broken (a card kept back): fill from the rest
            rest = cards_of(pool & exclusions[p])
            rng.shuffle(rest)
            got += rest[: view.hidden[p] - len(got)]
        dealt = sum(1 << c for c in got)
        hands[p] = view.hands[p] | dealt
        pool &= ~dealt
    stock = cards_of(pool)
    rng.shuffle(stock)
    world.hands = tuple(hands)
    world.stock = tuple(stock) if view.stock is None else world.stock


def _put_on_top(world: CaptureRound, card: Card) -> None:
    assert world.stock is not None
    stock = list(world.stock[len(world.stock) - world.stock_left:])
    if stock[0] == card:
        return
    if card in stock:
        at = stock.index(card)
        stock[0], stock[at] = stock[at], stock[0]
    else:  # dealt into another hand in this world: swap it with the top card
        hands = list(world.hands)
        owner = next(p for p in range(world.players) if hands[p] >> card & 1)
        hands[owner] = hands[owner] & ~(1 << card) | 1 << stock[0]
        world.hands = tuple(hands)
        stock[0] = card
    world.stock = tuple(stock)
