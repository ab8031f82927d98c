"""Hints for the joining games: every legal move ranked by its sampled expected settlement, with a reason.

A player sees their hand, the line and how many tiles each player laid face down (and, from each pass,
which numbers that player lacks). The search deals worlds that agree with this view
(``DominoRound.sample_world``), plays the candidate and lets greedy bots finish the deal for every seat.
The payoff is the player's net in the deal's settlement, so a hint weighs points, not pips: pairwise
differences, Ce Deng's clean finish and heavy head or tail, Kkoribuchigi's payers.

The reason is read from the view alone: the number a play leaves open (who can still follow it), and which
tile to lay face down (one that could never be played costs nothing extra; otherwise the heaviest).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final

from engine.dominoes.bots import GreedyBot
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import LOW, NUMBERS, PIPS, Tile
from engine.dominoes.tileset import NUMBER_BITS, count_tiles, kinds_of, pips_of, present
from engine.errors import IllegalMoveError
from engine.montecarlo import SampledSearch

_GREEDY: Final = GreedyBot()
HEAVY: Final = 9  # pips from which a tile is worth getting rid of in the line


@dataclass(frozen=True)
class DominoReason:
    """Why a move: a message key, the tiles and numbers it names, and further clauses (``parts``).

    The app renders it in its language (``companion.tables.dominoes_texts``); ``str`` gives English keys.
    """

    key: str
    tiles: tuple[Tile, ...] = ()
    numbers: tuple[int, ...] = ()
    parts: tuple[DominoReason, ...] = ()

    def __str__(self) -> str:
        head = " ".join([self.key, *(t.code for t in self.tiles), *map(str, self.numbers)])
        return "; ".join([head, *map(str, self.parts)])


# ----------------------------------------------------------------- the search
def sample(view: DominoRound, rng: random.Random) -> DominoRound:
    return view.sample_world(rng)


def play_out(player: int, world: DominoRound, move: DominoMove, rng: random.Random) -> float:
    """``player``'s net after ``move`` and greedy play to the end of the deal (``rng``: common random numbers;
    greedy needs none)."""
    if not world.is_over:  # a sampled world may already be blocked where the table cannot tell yet
        world.push(move, check=False)
        while not world.is_over:
            world.push(_GREEDY.choose(world), check=False)
    result = world.result
    assert result is not None, "a sampled world has no unseen tiles"
    return float(result.net[player])


def hint_search(view: DominoRound, player: int, seed: int = 0) -> SampledSearch[DominoRound, DominoMove]:
    """A search over the legal moves of ``player``, who is to move in ``view`` (what they see)."""
    if view.is_over or view.turn != player:
        raise IllegalMoveError(f"player {player + 1} is not to move")
    moves = view.generate_legal_moves()
    return SampledSearch(moves, partial(sample, view), partial(play_out, player), seed)


class HintBot:
    """Plays the best-ranked move after ``worlds`` sampled worlds (the benchmark's hint-following player)."""

    name = "hints"

    def __init__(self, worlds: int = 48, seed: int = 0) -> None:
        self.worlds = worlds
        self.seed = seed
        self.calls = 0

    def choose(self, state: DominoRound) -> DominoMove:
        moves = state.generate_legal_moves()
        if len(moves) == 1:
            return moves[0]
        self.calls += 1
        player = state.turn
        search = hint_search(state.view(player), player, self.seed * 1_000_003 + self.calls)
        search.add_samples(self.worlds)
        return search.ranked()[0].move


# ----------------------------------------------------------------- reasons
def move_reason(view: DominoRound, player: int, move: DominoMove) -> DominoReason:
    """Why ``move`` could be right for ``player`` in ``view``: the first fact that applies, with the
    settlement's clauses (clean finish, heavy head or tail, over the limit) added where a move touches them."""
    tile = move.tile
    if tile is None:
        return DominoReason("down_unseen")
    if move.kind is MoveKind.DOWN:
        return _down_reason(view, player, tile)
    return _play_reason(view, player, tile, _left_open(view, tile, move.end))


def _left_open(view: DominoRound, tile: Tile, end: int | None) -> int:
    if end is not None:
        return end
    return LOW[tile]  # the two-arm lead: both numbers stay open; the low one is named


def _play_reason(view: DominoRound, player: int, tile: Tile, end: int) -> DominoReason:
    mine = view.hands[player] - (1 << 2 * tile)
    more = count_tiles(mine & NUMBER_BITS[end] * 3)
    followers = _who_may_follow(view, player, end)
    nxt = (player + 1) % view.players
    pips = PIPS[tile]
    if not followers:
        key = "run" if more else "block_all"
        return DominoReason(key, (tile,), (end, more))
    if nxt not in followers and view.void[nxt] >> end & 1:
        return DominoReason("block_next", (tile,), (end, nxt + 1))
    if more:
        return DominoReason("keep_open", (tile,), (end, more))
    if pips >= HEAVY:
        return DominoReason("shed_heavy", (tile,), (end, pips))
    return DominoReason("play", (tile,), (end,))


def _who_may_follow(view: DominoRound, player: int, number: int) -> set[int]:
    """The other players who may hold a tile with ``number``: a known hand that does, or an unseen hand that
    has not shown it lacks the number while such a tile is unseen."""
    unseen_with = present(view.unseen_mask()) & NUMBER_BITS[number]
    out = set()
    for q in range(view.players):
        if q == player:
            continue
        known = present(view.hands[q]) & NUMBER_BITS[number]
        could = view.hidden[q] and unseen_with and not view.void[q] >> number & 1
        if known or could:
            out.add(q)
    return out


def _down_reason(view: DominoRound, player: int, tile: Tile) -> DominoReason:
    hand = view.hands[player]
    pips = PIPS[tile]
    kinds = kinds_of(hand)
    heaviest = max(PIPS[t] for t in kinds)
    lightest = min(PIPS[t] for t in kinds)
    if is_dead(view, player, tile):
        head = DominoReason("down_dead", (tile,), (pips,))
    elif pips == heaviest and heaviest > lightest:
        head = DominoReason("down_heaviest", (tile,), (pips,))
    elif pips == lightest and heaviest > lightest:
        keep = max((t for t in kinds if t != tile), key=lambda t: (_live_partners(view, player, t), PIPS[t]))
        head = DominoReason("down_light", (tile, keep), (pips,))
    else:
        head = DominoReason("down", (tile,), (pips,))
    return DominoReason(head.key, head.tiles, head.numbers, _down_clauses(view, player, tile))


def _down_clauses(view: DominoRound, player: int, tile: Tile) -> tuple[DominoReason, ...]:
    """The settlement's side of laying a tile face down."""
    profile = view.profile
    down = count_tiles(view.down[player]) + len(view.down_unseen[player])
    parts = []
    if profile.clean_finish > 1 and down == 0:
        parts.append(DominoReason("no_clean", numbers=(profile.clean_finish,)))
    limit = profile.head_heavy if player == view.leader else profile.tail_heavy
    if profile.heavy_payer > 1 and limit and down + 1 >= limit - 1:
        parts.append(DominoReason("heavy_near", numbers=(down + 1, limit, profile.heavy_payer)))
    if profile.mode == "kkori" and profile.over and view.players >= profile.over_from_players:
        total = pips_of(view.down[player]) + PIPS[tile]
        if total > profile.over or (profile.over_inclusive and total == profile.over):
            parts.append(DominoReason("over", numbers=(total, profile.over)))
    return tuple(parts)


def is_dead(view: DominoRound, player: int, tile: Tile) -> bool:
    """Whether ``tile`` can never be laid in the line: neither of its numbers is open and no other tile that
    could still be played (in a hand or unseen) has one of them, so nothing can ever open it."""
    if NUMBERS[tile] & sum(1 << e for e in view.ends):
        return False
    return _live_partners(view, player, tile) == 0


def _live_partners(view: DominoRound, player: int, tile: Tile) -> int:
    """Tiles other than ``tile`` itself, not laid and not known face down, that share a number with it."""
    live = view.unseen_mask() + sum(view.hands) - (1 << 2 * tile)  # fields never carry: within the set
    wanted = 0
    for n in range(7):
        if NUMBERS[tile] >> n & 1:
            wanted |= NUMBER_BITS[n]
    return count_tiles(live & wanted * 3)


def reasons(view: DominoRound, player: int, moves: Sequence[DominoMove]) -> list[DominoReason]:
    return [move_reason(view, player, m) for m in moves]


