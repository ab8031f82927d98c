"""Hidden information in a Kan deal: one player's view, and sampled worlds consistent with it.

A player knows their own hand, the cards everybody saw (kan shows the joker and the pin; the pin handed to
a double holder's partner), the cards shown or given to them, and the tricks. Until the kan announcements
nobody but the holders knows anything of the partnership; a single holder knows only their own side.
"""

from __future__ import annotations

import random
from typing import Final

from engine.errors import InvalidStateError
from engine.kan.actions import Action, ActionKind
from engine.kan.cards import Card
from engine.kan.deal import KanDeal
from engine.kan.hands import PLAYERS
from engine.kan.table import Phase

_TRIES: Final = 200


def view(state: KanDeal, player: int) -> KanDeal:
    """``state`` as ``player`` sees it; itself a playable deal (see ``KanDeal.view``)."""
    if not 0 <= player < PLAYERS:
        raise InvalidStateError(f"players are 0..{PLAYERS - 1} in code (1..{PLAYERS} at the table), not {player}")
    talk = state.talk
    known = list(talk.public)
    for observer, holder, mask in talk.private:
        if observer == player:
            known[holder] |= mask
    hands = tuple(h if q == player else h & known[q] for q, h in enumerate(state.hands))
    hidden = tuple(state.hidden[q] + (state.hands[q] & ~hands[q]).bit_count() for q in range(PLAYERS))
    joker = talk.joker_holder if talk.announced >= 1 or talk.joker_holder == player else -1
    ace = talk.ace_holder if talk.announced >= 2 or talk.ace_holder == player else -1
    showing = talk.showing
    if showing is not None and player not in (showing.by, showing.to):
        showing = showing._replace(cards=())
    seen = _copy(state)
    seen.hands, seen.hidden = hands, hidden
    seen.talk = talk._replace(
        joker_holder=joker, ace_holder=ace, showing=showing, private=tuple(f for f in talk.private if f[0] == player)
    )
    if state.phase is Phase.ANNOUNCE:
        seen.turn = joker if talk.announced == 0 else ace
    return seen


def observed(state: KanDeal, action: Action, player: int) -> Action:
    """``action`` (about to be pushed on the full ``state``) as ``player`` perceives it: a card given back is
    seen by the giver and the receiver, shown cards by the shower and the namer; the rest is public."""
    if action.kind is ActionKind.GIVE and player not in (state.turn, state.talk.joker_partner):
        return Action.give()
    if action.kind is ActionKind.SHOW and action.way is not None and player not in (state.turn, state.setup.namer):
        return Action.show(action.way)
    return action


def sample_world(state: KanDeal, rng: random.Random) -> KanDeal:
    """A full-information copy of ``state`` with its unknown cards dealt at random (see ``KanDeal.sample_world``)."""
    world = _copy(state)
    world.hands = _deal_unknown(state, rng)
    world.hidden = (0,) * PLAYERS
    talk = state.talk
    if state.number == 1 and state.phase is Phase.ANNOUNCE:
        joker = talk.joker_holder if talk.joker_holder >= 0 else world.holder(Card.JOKER)
        ace = talk.ace_holder if talk.ace_holder >= 0 else world.holder(world.pin)
        world.talk = talk._replace(joker_holder=joker, ace_holder=ace)
        world.turn = joker if talk.announced == 0 else ace
    return world


def _copy(state: KanDeal) -> KanDeal:
    """A shallow copy with an empty history (the copy cannot undo what happened before it)."""
    copy = object.__new__(KanDeal)
    copy.__dict__.update(state.__dict__)
    copy.move_stack = []
    copy._stack = []
    return copy


def _deal_unknown(state: KanDeal, rng: random.Random) -> tuple[int, ...]:
    """Hands with every unseen card placed: each player gets as many as they hide, none of a suit they
    showed they lack; the most constrained cards go first, to players weighted by the room they have."""
    cards = list(state.unknown())
    if len(cards) != sum(state.hidden):
        raise InvalidStateError(f"{len(cards)} unknown cards for {sum(state.hidden)} unseen places")
    excluded = [state.void_cards(p) for p in range(PLAYERS)]
    players = [p for p in range(PLAYERS) if state.hidden[p]]
    for _ in range(_TRIES):
        rng.shuffle(cards)
        cards.sort(key=lambda c: sum(1 for p in players if not excluded[p] >> c & 1))
        room = list(state.hidden)
        hands = list(state.hands)
        for card in cards:
            options = [p for p in players if room[p] and not excluded[p] >> card & 1]
            if not options:
                break
            pick = rng.random() * sum(room[p] for p in options)
            for p in options:
                pick -= room[p]
                if pick < 0:
                    break
            room[p] -= 1
            hands[p] |= 1 << card
        else:
            return tuple(hands)
    raise InvalidStateError("no deal of the unseen cards fits what was seen (a suit a player lacks, the joker)")
