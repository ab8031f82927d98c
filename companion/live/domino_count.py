"""The count at the end of a domino deal, where the camera cannot read every tile turned up.

At the count every player turns their face-down tiles (and, at a blocked line, those left in hand) up where they
lie. The camera may miss one in every view: a 1:1's two pips lost in glare, a tile half under another. By then
every tile of the set is known to be somewhere but the turned-up ones, so the tiles nobody has accounted for are
the missing ones. Where they are exactly as many as the players still to show lack, and only one way of sharing
them out passes the rules (how many each has, what each lacked when they laid a tile face down), that way is the
count. Anything less sure is not guessed: the count waits for a better look, or for the user.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from companion.tables.dominoes import check_shown, unseen_count
from engine.dominoes.round import DominoRound
from engine.dominoes.tileset import TileSet
from engine.errors import KibitzError

MAX_UNREAD = 2  # tiles the camera may miss at a count and still be known by elimination: more is not a count seen


def by_elimination(state: DominoRound, reads: dict[int, TileSet], earlier: Sequence[TileSet]) -> dict[int, TileSet]:
    """Each player's whole show (``reads``: the tiles read in front of each player still to show, every one of them
    short), where the tiles nobody has accounted for fill them up in exactly one way the rules allow; else none."""
    pool = TileSet(state.unseen_mask())
    for shown in earlier:
        pool = pool - shown
    read = TileSet()
    for tiles in reads.values():
        read = read + tiles
    try:
        rest = pool - read
    except KibitzError:
        return {}  # a tile read is not one left to show: a misread
    players = sorted(reads)
    shorts = [unseen_count(state, p) - len(reads[p]) for p in players]
    if not players or min(shorts) < 1 or sum(shorts) != len(rest) or len(rest) > MAX_UNREAD:
        return {}  # a player is not short, more tiles are unaccounted for than they lack, or too many are
    ways = {}
    for parts in _shares(rest.codes(), shorts):
        shows = {p: reads[p] + TileSet.parse(part) for p, part in zip(players, parts, strict=True)}
        if _allowed(state, shows, earlier):
            ways[tuple(str(shows[p]) for p in players)] = shows
    return next(iter(ways.values())) if len(ways) == 1 else {}


def _shares(codes: list[str], sizes: list[int]) -> Iterator[list[list[str]]]:
    """Every way of dealing ``codes`` out in parts of ``sizes`` (the parts in order; equal codes give repeats)."""
    if not sizes:
        yield []
        return
    for chosen in combinations(range(len(codes)), sizes[0]):
        rest = [c for i, c in enumerate(codes) if i not in chosen]
        for parts in _shares(rest, sizes[1:]):
            yield [[codes[i] for i in chosen], *parts]


def _allowed(state: DominoRound, shows: dict[int, TileSet], earlier: Sequence[TileSet]) -> bool:
    seen = list(earlier)
    try:
        for player, tiles in shows.items():
            check_shown(state, player, tiles, seen)
            seen.append(tiles)
    except KibitzError:
        return False
    return True
