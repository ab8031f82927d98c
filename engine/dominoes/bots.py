"""Domino bots. The random bot is ``engine.bots.RandomBot`` (it uses ``random_move``).

Greedy keeps the line open for itself: of the tiles it may lay it prefers the one that leaves open a
number it holds most of (so it can play again when the turn comes back), the heavier tile on a tie; when
it must lay a tile face down it gives up its heaviest one, so the light ones stay to be played.
"""

from __future__ import annotations

from engine.bots import Bot, RandomBot
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import NUMBERS, PIPS
from engine.dominoes.tileset import NUMBER_BITS, UNIT, count_tiles
from engine.errors import KibitzError


class GreedyBot:
    name = "greedy"

    def choose(self, state: DominoRound) -> DominoMove:
        moves = state.generate_legal_moves()
        if len(moves) == 1:
            return moves[0]
        if moves[-1].kind is MoveKind.DOWN:
            return max(moves, key=lambda m: -1 if m.tile is None else PIPS[m.tile] * 32 + m.tile)
        hand = state.hands[state.turn]
        return max(moves, key=lambda m: follow_up(state, hand, m))


def follow_up(state: DominoRound, hand: int, move: DominoMove) -> tuple[int, int]:
    """(tiles left in ``hand`` that fit the ends this play leaves open, pips of the tile laid)."""
    tile = move.tile
    assert tile is not None
    left = hand - UNIT[tile] if hand >> 2 * tile & 3 else hand
    if not state.ends:
        open_numbers = 1 << move.end if move.end is not None else NUMBERS[tile]
    elif len(state.ends) == 1:
        open_numbers = 1 << move.end  # type: ignore[operator]
    else:
        matched = tile.other(move.end)  # type: ignore[arg-type]
        kept = state.ends[1] if state.ends[0] == matched else state.ends[0]
        open_numbers = 1 << move.end | 1 << kept  # type: ignore[operator]
    wanted = 0
    for n in range(7):
        if open_numbers >> n & 1:
            wanted |= NUMBER_BITS[n]
    return count_tiles(left & wanted * 3), PIPS[tile]


def make_bot(name: str, seed: int) -> Bot:
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    raise KibitzError(f"unknown bot {name!r}; choose random or greedy")


def make_bots(names: list[str], players: int, seed: int) -> list[Bot]:
    if len(names) != players:
        raise KibitzError(f"--bots needs {players} names for {players} players (random or greedy), not {len(names)}")
    return [make_bot(name.strip(), seed * 10 + i) for i, name in enumerate(names)]
