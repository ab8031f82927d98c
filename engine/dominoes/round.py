"""One deal of a joining game (Jie Long, Ce Deng, Kkoribuchigi): lay tiles on the open end, or one face down.

The leader (the first player, the head) lays any tile and names the open end; the other end is closed
(with ``arms = 2`` both stay open). Each player in turn must lay a tile matching an open end if they
hold one; otherwise they lay one tile face down, and its pips count against them. A double leaves its
own number open, so doubles may follow doubles (the second 3:3 on the first). The deal ends when every
hand is empty, or as soon as nobody can ever play again (no hand holds the open number): then the tiles
left in hand count as if laid face down, which is what playing on would come to.

State lives in a few ints and tuples (tile multisets as two-bit counts, see ``tileset``); ``push`` saves a
snapshot tuple and ``pop`` restores it. Seats are in turn order, counter-clockwise at the table.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any, Final

from engine.dominoes import observed
from engine.dominoes.deal import DominoDeal
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.settle import Settlement, settle, settle_eight_doubles, void_deal
from engine.dominoes.tiles import ALL_TILES, HIGH, LOW, NUMBERS, Tile
from engine.dominoes.tileset import (
    DECKS,
    DOUBLE_BITS,
    NUMBER_BITS,
    UNIT,
    TileSet,
    count_of,
    count_tiles,
    kinds_of,
    pips_of,
    present,
)
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidStateError, KibitzError
from engine.history import History


class Phase(enum.IntEnum):
    PLAY = 0
    OVER = 1

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


_PLAY: Final = MoveKind.PLAY
_OVER: Final = Phase.OVER
# Every canonical move, made once: _PLAYS[tile][end + 1] (end -1: none named, the two-arm lead), _DOWNS[tile].
_PLAYS: Final = tuple(tuple(DominoMove.play(t, None if e < 0 else e) for e in range(-1, 7)) for t in ALL_TILES)
_DOWNS: Final = tuple(DominoMove.down(t) for t in ALL_TILES)
_DOWN_UNSEEN: Final = DominoMove.down()
_OTHER: Final = tuple(tuple(HIGH[t] if n == LOW[t] else LOW[t] for n in range(7)) for t in range(28))


_DEFAULT_PROFILE: Final = DominoProfile.load("jielong")


class DominoRound(History[DominoMove]):
    """``DominoRound.shuffled(7, profile=DominoProfile.load("cedeng"))``, then ``push(move)`` until ``is_over``;
    ``result`` settles the deal (``None`` while unseen tiles still have to be turned up: see ``count``)."""

    hands: tuple[int, ...]  # known tiles in each hand
    hidden: tuple[int, ...]  # unseen tiles in each hand
    down: tuple[int, ...]  # known face-down tiles in front of each player
    down_unseen: tuple[tuple[int, ...], ...]  # per unseen face-down tile: the numbers it cannot have
    void: tuple[int, ...]  # numbers (bit n) each player has shown not to hold
    laid: int  # the tiles in the line
    line: tuple[tuple[int, Tile, int | None], ...]  # (player, tile, end left open) in the order laid
    ends: tuple[int, ...]  # the open numbers: () before the lead, (x,) one arm, (x, y) sorted two arms
    turn: int
    phase: Phase
    ending: str | None  # "played-out", "blocked", "redeal", "eight-doubles"
    result: Settlement | None

    def __init__(self, deal: DominoDeal, profile: DominoProfile | None = None, leader: int = 0) -> None:
        self.profile = profile = profile or _DEFAULT_PROFILE
        self.players = n = deal.players
        size, deck = profile.deal_for(n)
        if (deal.hand_size, deal.deck) != (size, deck):
            raise InvalidStateError(
                f"{profile.game} deals {size} {deck} tiles to each of {n} players, "
                f"not {deal.hand_size} {deal.deck} tiles"
            )
        if not 0 <= leader < n:
            raise InvalidStateError(f"the leader must be player 1 to {n}, not {leader + 1}")
        self.deal = deal
        self.leader = leader
        self.size = size
        self.deck = DECKS[deck].mask
        self.arms = profile.arms
        self.hands = tuple(hand.mask for hand in deal.hands)
        self.hidden = deal.hidden
        self.down = (0,) * n
        self.down_unseen = ((),) * n
        self.void = (0,) * n
        self.laid = 0
        self.line = ()
        self.ends = ()
        self.turn = leader
        self.phase = Phase.PLAY
        self.ending = None
        self.result = None
        self.claimant: int | None = None  # who showed seven or eight doubles
        self._start_history()
        self._check_leader()
        self._check_doubles()

    @classmethod
    def shuffled(
        cls, seed: int | random.Random, players: int | None = None, profile: DominoProfile | None = None,
        leader: int | None = None,
    ) -> DominoRound:
        """A seeded deal; ``leader`` defaults to the holder of the profile's lead tile, else player 1."""
        profile = profile or _DEFAULT_PROFILE
        players = players or max(profile.players)
        size, deck = profile.deal_for(players)
        deal = DominoDeal.shuffled(seed, players, size, deck)
        if leader is None:
            leader = holder_of(deal, profile.lead_holder) if profile.lead_holder is not None else 0
        return cls(deal, profile, leader if leader is not None else 0)

    # ----------------------------------------------------------------- the deal
    def _check_leader(self) -> None:
        tile = self.profile.lead_holder
        if tile is None:
            return
        holder = holder_of(self.deal, tile)
        if holder is not None and holder != self.leader:
            raise InvalidStateError(f"player {holder + 1} holds {tile.code} and leads, not player {self.leader + 1}")
        if holder is None and not self.hidden[self.leader]:
            raise InvalidStateError(f"player {self.leader + 1} leads but does not hold {tile.code}")

    def _check_doubles(self) -> None:
        """Seven doubles in one hand void the deal, eight win it at once (where the profile says so)."""
        profile = self.profile
        for p, hand in enumerate(self.hands):
            if self.hidden[p]:
                continue  # an unseen hand claims nothing until it is shown
            doubles = count_tiles(hand & DOUBLE_BITS * 3)
            if profile.eight_doubles == "win" and doubles >= 8:
                self.claimant = p
                self._finish("eight-doubles")
                return
            if profile.seven_doubles == "redeal" and doubles == 7:
                self.claimant = p
                self._finish("redeal")
                return

    # ----------------------------------------------------------------- snapshots and push/pop
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.hands, self.hidden, self.down, self.down_unseen, self.void, self.laid, self.line, self.ends,
            self.turn, self.phase, self.ending, self.result,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self.hands, self.hidden, self.down, self.down_unseen, self.void, self.laid, self.line, self.ends,
            self.turn, self.phase, self.ending, self.result,
        ) = snap

    def push(self, move: DominoMove, check: bool = True) -> None:
        """Apply a move (``end`` filled in where only one is possible). With ``check`` (the default) an
        impossible move raises an error saying why; without it the move must be canonical and legal."""
        if check:
            resolved = self._resolve(move)
            if isinstance(resolved, KibitzError):
                raise resolved
            move = resolved
        self._remember(move)
        self._apply(move)

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def hand(self, player: int) -> TileSet:
        """The known tiles of a hand (``hidden[player]`` more are unseen)."""
        return TileSet(self.hands[player])

    def hand_size(self, player: int) -> int:
        return count_tiles(self.hands[player]) + self.hidden[player]

    def face_down(self, player: int) -> TileSet:
        """The known face-down tiles in front of a player (``len(down_unseen[player])`` more are unseen)."""
        return TileSet(self.down[player])

    def laid_tiles(self) -> TileSet:
        return TileSet(self.laid)

    def unseen(self) -> TileSet:
        """Tiles whose place is not known: in a hidden hand, face down unseen, or out of the game."""
        return TileSet(self.unseen_mask())

    def unseen_mask(self) -> int:
        """``unseen()`` as a raw multiset mask."""
        pool = self.deck - self.laid
        for mask in self.hands:
            pool -= mask
        for mask in self.down:
            pool -= mask
        return pool  # field by field: the parts never exceed the set, so nothing borrows

    def where(self, tile: Tile) -> str:
        """Where the copies of a tile are, in words, for error messages."""
        places = []
        if count_of(self.laid, tile):
            places.append("laid in the line")
        for p in range(self.players):
            if count_of(self.hands[p], tile):
                places.append(f"in player {p + 1}'s hand")
            if count_of(self.down[p], tile):
                places.append(f"face down in front of player {p + 1}")
        if count_of(self.unseen_mask(), tile):
            places.append("unseen")
        if not count_of(self.deck, tile):
            return f"there is no {tile.code} in this set"
        return f"{tile.code} is " + " and ".join(places)

    def _open_words(self) -> str:
        if len(self.ends) == 1 or (len(self.ends) == 2 and self.ends[0] == self.ends[1]):
            return f"the open end {self.ends[0]}"
        return f"the open ends {self.ends[0]} and {self.ends[1]}"

    def pips_so_far(self, player: int) -> int:
        """The pips of the player's known face-down tiles (what they pay so far)."""
        return pips_of(self.down[player])

    # ----------------------------------------------------------------- legality
    def generate_legal_moves(self) -> list[DominoMove]:
        if self.phase is _OVER:
            return []
        p = self.turn
        own = present(self.hands[p])
        unseen = self._could_hold_bits(p) if self.hidden[p] else 0
        ends = self.ends
        if not ends:
            return self._leads(own | unseen)
        wanted = NUMBER_BITS[ends[0]] | (NUMBER_BITS[ends[-1]])
        moves = self._plays((own | unseen) & wanted)
        if own & wanted:
            return moves
        moves += [_DOWNS[t] for t in kinds_of(self.hands[p])]
        if self.hidden[p]:
            moves.append(_DOWN_UNSEEN)
        return moves

    def _leads(self, candidates: int) -> list[DominoMove]:
        holder_tile = self.profile.lead_holder
        if self.profile.lead_with_holder_tile and holder_tile is not None:
            candidates &= UNIT[holder_tile]
        moves = []
        for t in kinds_of(candidates):
            if self.arms == 2:
                moves.append(_PLAYS[t][0])
            else:
                moves.append(_PLAYS[t][LOW[t] + 1])
                if HIGH[t] != LOW[t]:
                    moves.append(_PLAYS[t][HIGH[t] + 1])
        return moves

    def _plays(self, candidates: int) -> list[DominoMove]:
        moves = []
        ends = self.ends
        for t in kinds_of(candidates):
            table = _PLAYS[t]
            first = ends[0]
            if NUMBERS[t] >> first & 1:
                moves.append(table[_OTHER[t][first] + 1])
            if len(ends) == 2 and ends[1] != first and NUMBERS[t] >> ends[1] & 1:
                move = table[_OTHER[t][ends[1]] + 1]
                if move not in moves:
                    moves.append(move)
        return moves

    def random_move(self, rng: random.Random) -> DominoMove:
        """A random legal move without listing them all in the common case (one arm, known hand).

        Used by the random bot and Monte Carlo playouts, where it is the hot path.
        """
        p = self.turn
        ends = self.ends
        if len(ends) == 1 and not self.hidden[p] and self.phase is not _OVER:
            own = present(self.hands[p])
            x = ends[0]
            matching = own & NUMBER_BITS[x]
            choices = matching or own
            for _ in range(int(rng.random() * choices.bit_count())):
                choices &= choices - 1
            t = (choices & -choices).bit_length() >> 1
            return _PLAYS[t][_OTHER[t][x] + 1] if matching else _DOWNS[t]
        moves = self.generate_legal_moves()
        if not moves:
            raise IllegalMoveError("the round is over")
        return moves[int(rng.random() * len(moves))]

    def illegal_reason(self, move: DominoMove) -> KibitzError | None:
        """``None`` for a legal move, else the error that ``push`` would raise."""
        resolved = self._resolve(move)
        return resolved if isinstance(resolved, KibitzError) else None

    def _resolve(self, move: DominoMove) -> DominoMove | KibitzError:
        """The canonical form of a legal move, or why it is not legal."""
        if self.phase is _OVER:
            return IllegalMoveError("the round is over")
        try:
            kind, tile, end = MoveKind(move[0]), move[1], move[2]
            if tile is not None:
                tile = Tile(tile)
        except (ValueError, IndexError, TypeError):
            return InvalidMoveError(f"{move!r} is not a move")
        if end is not None and (not isinstance(end, int) or not 0 <= end <= 6):
            return InvalidMoveError(f"{end!r} is not an end (ends have 0 to 6 pips)")
        if kind is MoveKind.DOWN:
            return self._resolve_down(tile)
        if tile is None:
            return InvalidMoveError("a tile laid in the line is seen: say which")
        reason = self._holding_reason(tile, "play")
        if reason is not None:
            return reason
        if not self.ends:
            return self._resolve_lead(tile, end)
        options = sorted({_OTHER[tile][x] for x in set(self.ends) if tile.has(x)})
        if not options:
            return IllegalMoveError(f"{tile.code} does not match {self._open_words()}")
        if end is None:
            if len(options) > 1:
                return AmbiguousMoveError(
                    f"{tile.code} fits both open ends: say which number stays open ({' or '.join(map(str, options))})"
                )
            end = options[0]
        if end not in options:
            return IllegalMoveError(f"{tile.code} on {self._open_words()} leaves {' or '.join(map(str, options))} "
                                    f"open, not {end}")
        return _PLAYS[tile][end + 1]

    def _resolve_lead(self, tile: Tile, end: int | None) -> DominoMove | KibitzError:
        holder_tile = self.profile.lead_holder
        if self.profile.lead_with_holder_tile and holder_tile is not None and tile is not holder_tile:
            return IllegalMoveError(f"player {self.turn + 1} holds {holder_tile.code} and must lead it")
        if self.arms == 2:
            if end is not None:
                return InvalidMoveError("in the two-arm game both ends of the lead stay open: name no end")
            return _PLAYS[tile][0]
        if end is None:
            if not tile.is_double:
                return AmbiguousMoveError(
                    f"the leader names the open end: say which end of {tile.code} stays open "
                    f"({tile.low} or {tile.high})"
                )
            end = tile.low
        if not tile.has(end):
            return IllegalMoveError(f"{tile.code} has no end {end}: it leaves {tile.low} or {tile.high} open")
        return _PLAYS[tile][end + 1]

    def _resolve_down(self, tile: Tile | None) -> DominoMove | KibitzError:
        p = self.turn
        who = f"player {p + 1}"
        if not self.ends:
            return IllegalMoveError(f"{who} leads: the leader lays any tile in the line, never face down")
        wanted = NUMBER_BITS[self.ends[0]] | NUMBER_BITS[self.ends[-1]]
        if tile is not None:
            reason = self._holding_reason(tile, "lay face down")
            if reason is not None:
                return reason
            if UNIT[tile] & wanted:
                return IllegalMoveError(
                    f"{who} holds a matching tile and must play it ({tile.code} fits {self._open_words()})"
                )
        elif not self.hidden[p]:
            return InvalidMoveError(f"{who}'s tiles are all known: say which tile goes face down")
        match = present(self.hands[p]) & wanted
        if match:
            shown = ALL_TILES[match.bit_length() >> 1].code
            return IllegalMoveError(
                f"{who} holds a matching tile and must play it ({shown} fits {self._open_words()})"
            )
        return _DOWN_UNSEEN if tile is None else _DOWNS[tile]

    def _holding_reason(self, tile: Tile, doing: str) -> KibitzError | None:
        """Why the player to move cannot have ``tile`` in hand, ``None`` if they can."""
        p = self.turn
        if count_of(self.hands[p], tile):
            return None
        if self.hidden[p] and count_of(self.unseen_mask(), tile):
            if NUMBERS[tile] & self.void[p]:
                shown = next(n for n in range(7) if self.void[p] >> n & 1 and tile.has(n))
                return IllegalMoveError(
                    f"player {p + 1} cannot {doing} {tile.code}: they laid a tile face down on an open {shown}, "
                    f"so they hold no {shown}"
                )
            return None
        return IllegalMoveError(f"player {p + 1} cannot {doing} {tile.code}: {self.where(tile)}")

    def _could_hold_bits(self, player: int) -> int:
        """The unseen tiles (one bit each, as ``present`` gives) that ``player`` could still hold."""
        void = self.void[player]
        return sum(UNIT[t] for t in kinds_of(self.unseen_mask()) if not NUMBERS[t] & void)

    # ----------------------------------------------------------------- applying moves
    def _apply(self, move: DominoMove) -> None:
        kind, tile, end = move
        p = self.turn
        if kind is _PLAY:
            t: int = tile  # type: ignore[assignment]
            unit = UNIT[t]
            if self.hands[p] >> 2 * t & 3:
                self.hands = _replace(self.hands, p, self.hands[p] - unit)
            else:
                self.hidden = _replace(self.hidden, p, self.hidden[p] - 1)
            self.laid += unit
            self.line = (*self.line, (p, tile, end))  # type: ignore[arg-type]
            self.ends = self._ends_after(t, end)
        else:
            numbers = 1 << self.ends[0] | 1 << self.ends[-1]
            self.void = _replace(self.void, p, self.void[p] | numbers)
            if tile is None:
                self.hidden = _replace(self.hidden, p, self.hidden[p] - 1)
                self.down_unseen = (*self.down_unseen[:p], (*self.down_unseen[p], numbers), *self.down_unseen[p + 1:])
            else:
                unit = UNIT[tile]
                if self.hands[p] >> 2 * tile & 3:
                    self.hands = _replace(self.hands, p, self.hands[p] - unit)
                else:
                    self.hidden = _replace(self.hidden, p, self.hidden[p] - 1)
                self.down = _replace(self.down, p, self.down[p] + unit)
        if not any(self.hands) and not any(self.hidden):
            self._finish("played-out")
        elif self._blocked():
            self._finish("blocked")
        else:
            self.turn = (p + 1) % self.players

    def _ends_after(self, tile: int, end: int | None) -> tuple[int, ...]:
        ends = self.ends
        if not ends:
            return (end,) if end is not None else (LOW[tile], HIGH[tile])
        assert end is not None, "a tile laid on the line leaves an end open"
        if len(ends) == 1:
            return (end,)
        matched = _OTHER[tile][end]
        kept = ends[1] if ends[0] == matched else ends[0]
        return (end, kept) if end <= kept else (kept, end)

    def _blocked(self) -> bool:
        """Whether nobody can ever lay a tile again: no hand holds (or may hold) an open number."""
        wanted = NUMBER_BITS[self.ends[0]] | NUMBER_BITS[self.ends[-1]]
        for hand in self.hands:
            if (hand | hand >> 1) & wanted:  # ``present(hand) & wanted``, inlined: this runs after every move
                return False
        return not any(self.hidden[p] and self._could_hold_bits(p) & wanted for p in range(self.players))

    def _finish(self, ending: str) -> None:
        self.phase = Phase.OVER
        self.ending = ending
        unseen = any(self.hidden) or any(self.down_unseen)
        self.result = None if unseen and ending != "redeal" else self.settlement(self.hands, self.down)

    def settlement(self, hands: Sequence[int], down: Sequence[int]) -> Settlement:
        """The settlement charging each player ``hands[p]`` (left in hand) and ``down[p]`` (face down), as
        masks: the round's own at its end, or with the unseen tiles added once turned up (``count``)."""
        if self.ending == "redeal":
            return void_deal(self.players, self.profile, self.leader)
        if self.ending == "eight-doubles":
            assert self.claimant is not None
            return settle_eight_doubles([pips_of(h) for h in hands], self.claimant, self.profile, self.leader)
        pips = [pips_of(hands[p]) + pips_of(down[p]) for p in range(self.players)]
        unplayed = [count_tiles(hands[p]) + count_tiles(down[p]) for p in range(self.players)]
        return settle(pips, self.profile, unplayed, self.leader, self.ending or "played-out")

    # ----------------------------------------------------------------- hidden information (see ``observed``)
    def count(self, revealed: Sequence[TileSet]) -> Settlement:
        """The settlement once the unseen tiles that count are turned up: ``revealed[p]`` are player ``p``'s
        unseen face-down tiles and, when hands count (blocked, eight doubles), the unseen tiles in hand."""
        return observed.count(self, revealed)

    def view(self, player: int) -> DominoRound:
        """What ``player`` sees: their own hand, the line, who laid what face down (not which tiles); the rest
        unseen. A finished round is shown whole (everything is turned up at the count).

        The view is itself a playable round, so a table can be followed from its observed moves.
        """
        return observed.view(self, player)

    def sample_world(self, rng: random.Random) -> DominoRound:
        """A full-information round (same moves) where the unseen tiles are dealt at random in agreement with
        what was seen (for Monte Carlo); see ``observed.sample_world``."""
        return observed.sample_world(self, rng)

    def __repr__(self) -> str:
        hands = ", ".join(
            f"hand {p + 1}: [{self.hand(p)}]+{self.hidden[p]} down [{self.face_down(p)}]+{len(self.down_unseen[p])}"
            for p in range(self.players)
        )
        ends = "/".join(map(str, self.ends)) or "-"
        return f"<DominoRound {self.phase.name} player {self.turn + 1}; open {ends}; {hands}>"


def holder_of(deal: DominoDeal, tile: Tile) -> int | None:
    """The player whose known hand holds ``tile``, ``None`` when no known hand does."""
    return next((p for p, hand in enumerate(deal.hands) if tile in hand), None)


def _replace(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1:])

