"""Hidden information in a deal: what one player sees (``view``), a full deal that agrees with it
(``sample_world``, for Monte Carlo) and the count at the end, when the unseen tiles are turned up.

A view is built by replaying the round's moves from the deal with the other hands hidden; a face-down
tile laid by someone else becomes an unseen one (``DominoMove.down()``). A face-down pass shows that the
player held nothing for the open end: the round keeps that as ``void`` and each unseen face-down tile's
forbidden numbers, and the sampler deals accordingly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.dominoes.deal import DominoDeal
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.settle import Settlement
from engine.dominoes.tiles import Tile
from engine.dominoes.tileset import UNIT, TileSet, add_masks, contains, count_of, tiles_of
from engine.dominoes.unseen import assign
from engine.errors import IllegalMoveError, InvalidStateError

if TYPE_CHECKING:
    from engine.dominoes.round import DominoRound

_TRIES = 100


def count(round_: DominoRound, revealed: Sequence[TileSet]) -> Settlement:
    """The settlement from the tiles each player turns up at the count (see ``DominoRound.count``)."""
    if not round_.is_over:
        raise IllegalMoveError("the round is not over: nothing is counted yet")
    if len(revealed) != round_.players:
        raise InvalidStateError(f"{len(revealed)} lists of tiles for {round_.players} players")
    if round_.result is not None and not any(revealed):
        return round_.result
    pool = round_.unseen_mask()
    shown = 0
    for p, tiles in enumerate(revealed):
        expected = len(round_.down_unseen[p]) + round_.hidden[p]
        if len(tiles) != expected:
            raise InvalidStateError(f"player {p + 1} turned up {len(tiles)} tiles; {expected} were unseen")
        shown = add_masks(shown, tiles.mask)
    if not contains(pool, shown):
        extra = next(t for t in tiles_of(shown) if count_of(shown, t) > count_of(pool, t))
        raise InvalidStateError(f"{extra.code} cannot be among the unseen tiles: {round_.where(extra)}")
    for p, tiles in enumerate(revealed):
        slots = [round_.void[p]] * round_.hidden[p] + list(round_.down_unseen[p])
        try:
            assign(slots, list(tiles), random.Random(0))
        except InvalidStateError:
            raise InvalidStateError(
                f"player {p + 1} cannot have turned up {tiles}: they laid face down when they held nothing "
                "for the open end, so no such tile was theirs"
            ) from None
    # In hand or face down makes no difference to the count; eight doubles charge the hands.
    if round_.ending == "eight-doubles":
        return round_.settlement([h + t.mask for h, t in zip(round_.hands, revealed, strict=True)], round_.down)
    return round_.settlement(round_.hands, [d + t.mask for d, t in zip(round_.down, revealed, strict=True)])


def view(round_: DominoRound, player: int) -> DominoRound:
    """What ``player`` sees (see ``DominoRound.view``); a hand shown to claim a void deal stays shown."""
    deal = round_.deal
    shown: set[int | None] = {player, round_.claimant}
    if round_.is_over and round_.ending != "redeal":
        shown = set(range(round_.players))
    hands = tuple(hand if p in shown else TileSet() for p, hand in enumerate(deal.hands))
    hidden = tuple(deal.hidden[p] if p in shown else deal.hand_size for p in range(round_.players))
    return replay(round_, DominoDeal(hands, hidden, deal.deck), shown)


def replay(
    round_: DominoRound, deal: DominoDeal, shown: set[int | None], downs: Sequence[Tile] = ()
) -> DominoRound:
    """A round from ``deal`` with ``round_``'s moves pushed again: face-down tiles of players not ``shown``
    become unseen, and unseen ones take the tiles ``downs`` gives, in order."""
    copy = type(round_)(deal, round_.profile, round_.leader)
    given = iter(downs)
    for i, move in enumerate(round_.move_stack):
        if copy.is_over:
            break  # a full deal may show the line blocked before the table could tell (see sample_world)
        mover = (round_.leader + i) % round_.players
        if move.kind is MoveKind.DOWN and mover not in shown:
            move = DominoMove.down()
        elif move.kind is MoveKind.DOWN and move.tile is None and downs:
            move = DominoMove.down(next(given))
        copy.push(move, check=False)
    return copy


def sample_world(round_: DominoRound, rng: random.Random) -> DominoRound:
    """A full-information round (same moves) where the unseen tiles are dealt at random in agreement with
    what was seen. Deals that would have been void or won at once by doubles, or that deny the lead tile's
    holder, are not drawn. Where the table could not yet tell that nobody can play again, the world may be
    over already ("blocked"): laying the rest face down would count the same."""
    for _ in range(_TRIES):
        world = _sample_once(round_, rng)
        if world is not None:
            return world
    raise InvalidStateError("no deal of the unseen tiles fits this round")


def _sample_once(round_: DominoRound, rng: random.Random) -> DominoRound | None:
    n = round_.players
    hand_slots = [(p, round_.void[p]) for p in range(n) for _ in range(round_.hidden[p])]
    down_slots = [(p, forbidden) for p in range(n) for forbidden in round_.down_unseen[p]]
    placed = assign([f for _, f in hand_slots + down_slots], tiles_of(round_.unseen_mask()), rng)
    dealt = [round_.hands[p] + round_.down[p] for p in range(n)]
    for (p, _), tile in zip(hand_slots + down_slots, placed, strict=True):
        dealt[p] += UNIT[tile]
    for p, tile, _ in round_.line:
        dealt[p] += UNIT[tile]
    deal = DominoDeal(tuple(TileSet(mask) for mask in dealt), (), round_.deal.deck)
    downs = _in_move_order(round_, down_slots, placed[len(hand_slots):])
    try:
        world = replay(round_, deal, set(range(n)), downs)
    except InvalidStateError:
        return None  # the lead tile with the wrong player
    if world.ending in ("redeal", "eight-doubles") and world.ending != round_.ending:
        return None  # a void or eight-doubles deal the table would not have played
    return world


def _in_move_order(round_: DominoRound, slots: Sequence[tuple[int, int]], tiles: Sequence[Tile]) -> list[Tile]:
    """The tiles placed in the unseen face-down slots (per player, in the order laid), in move order."""
    per_player: dict[int, list[Tile]] = {}
    for (p, _), tile in zip(slots, tiles, strict=True):
        per_player.setdefault(p, []).append(tile)
    ordered = []
    for i, move in enumerate(round_.move_stack):
        if move.kind is MoveKind.DOWN and move.tile is None:
            ordered.append(per_player[(round_.leader + i) % round_.players].pop(0))
    return ordered
