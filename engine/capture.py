"""The capture mechanic shared by Koi-Koi and the Korean hwatu games.

A turn has two phases: play a hand card, then flip the stock's top card; each captures a field card
of its month (the player chooses when two match, three matching are all taken, no match leaves the
card on the field). Games add their own end-of-turn decisions and scoring by overriding the hooks
``_end_turn``, ``_decide`` (every move kind other than play and flip), ``_exhausted`` and the snapshot
pair; ``_land`` lets a game resolve the hand card together with the flip (Go-Stop's ppeok, jjok, ttadak).

State lives in a few ints and tuples; ``push`` saves a snapshot tuple and ``pop`` restores it.
"""

from __future__ import annotations

import enum
import random
from typing import Any, Final

from engine.cards import ALL_CARDS as CARDS
from engine.cards import Card
from engine.cardset import FULL, MONTH_MASK_BY_CARD, CardSet, cards_of
from engine.deal import Deal
from engine.errors import AmbiguousMoveError, IllegalMoveError, KibitzError
from engine.history import History
from engine.moves import Move, MoveKind


class Phase(enum.IntEnum):
    PLAY = 0  # the player to move plays a hand card
    FLIP = 1  # the same player flips the stock
    DECIDE = 2  # the player raised their score and decides (koi-koi/go or stop)
    OVER = 3

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


# Hot-path aliases: a module global is found faster than an enum attribute.
_PLAY: Final = MoveKind.PLAY
_FLIP: Final = MoveKind.FLIP
_PLAYING: Final = Phase.PLAY
_FLIPPING: Final = Phase.FLIP


def _landing_moves(kind: MoveKind, candidates: int, field: int) -> list[Move]:
    """All canonical moves landing any card of ``candidates`` (a mask) on ``field``."""
    moves: list[Move] = []
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        moves += capture_moves(kind, low.bit_length() - 1, field)
    return moves


# Every canonical move, made once: _MOVES[kind][card][take + 1] (take -1 for "no take").
_MOVES: Final = tuple(
    tuple(tuple(Move(kind, card, None if t < 0 else CARDS[t]) for t in range(-1, 48)) for card in Card)
    for kind in (MoveKind.PLAY, MoveKind.FLIP)
)


def taken(move: Move, field: int) -> int:
    """The field cards (a mask) that ``move`` lands on and takes: its chosen one of two, else all of its month."""
    assert move.card is not None
    matches = field & MONTH_MASK_BY_CARD[move.card]
    return 1 << move.take if move.take is not None and matches.bit_count() == 2 else matches


def capture_moves(kind: MoveKind, card: int, field: int) -> list[Move]:
    """The canonical moves of landing ``card`` on ``field``: one per possible choice of take."""
    matches = field & MONTH_MASK_BY_CARD[card]
    table = _MOVES[kind][card]
    n = matches.bit_count()
    if n == 1:
        return [table[matches.bit_length()]]
    if n == 2:
        low = matches & -matches
        return [table[low.bit_length()], table[(matches ^ low).bit_length()]]
    return [table[0]]


class CaptureRound(History[Move]):
    """One round of a matching game for 2-5 players; subclasses give it scoring and decisions."""

    players: int
    dealer: int
    hands: tuple[int, ...]
    hidden: tuple[int, ...]
    field: int
    captured: tuple[int, ...]
    stock: tuple[Card, ...] | None
    stock_left: int
    turn: int
    phase: Phase

    def __init__(self, deal: Deal, dealer: int = 0) -> None:
        self.players = len(deal.hands)
        if not 0 <= dealer < self.players:
            raise IllegalMoveError(f"dealer must be player 1..{self.players}")
        self.deal = deal
        self.dealer = dealer
        self.hands = tuple(h.mask for h in deal.hands)
        self.hidden = deal.hidden
        self.field = deal.field.mask
        self.captured = (0,) * self.players
        self.stock = deal.stock
        self.stock_left = deal.stock_size
        self.turn = dealer
        self.phase = Phase.PLAY
        self._start_history()

    # ----------------------------------------------------------------- snapshots and push/pop
    def _snapshot(self) -> tuple[Any, ...]:
        return (self.hands, self.hidden, self.field, self.captured, self.stock_left, self.turn, self.phase)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (self.hands, self.hidden, self.field, self.captured, self.stock_left, self.turn, self.phase) = snap[:7]

    def push(self, move: Move, check: bool = True) -> None:
        """Apply a move. With ``check`` (the default) an impossible move raises an error saying why."""
        if check:
            reason = self.illegal_reason(move)
            if reason is not None:
                raise reason
        self._remember(move)
        self._apply(move)

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def hand(self, player: int) -> CardSet:
        """The known cards of a hand (see ``hidden`` for the unknown ones)."""
        return CardSet(self.hands[player])

    def hand_size(self, player: int) -> int:
        return self.hands[player].bit_count() + self.hidden[player]

    def field_cards(self) -> CardSet:
        return CardSet(self.field)

    def captures(self, player: int) -> CardSet:
        return CardSet(self.captured[player])

    def stock_top(self) -> Card | None:
        """The next stock card when the stock order is known, else ``None``."""
        if self.stock is None or self.stock_left <= 0:
            return None
        return self.stock[len(self.stock) - self.stock_left]

    def unknown(self) -> CardSet:
        """Cards whose place is not known: in a hidden hand or in an unknown stock."""
        return CardSet(self._unknown_mask())

    def _unknown_mask(self) -> int:
        known = self.field
        for hand in self.hands:
            known |= hand
        for pile in self.captured:
            known |= pile
        if self.stock is not None and self.stock_left:
            for card in self.stock[len(self.stock) - self.stock_left :]:
                known |= 1 << card
        return FULL & ~known

    def where(self, card: Card) -> str:
        """Where a card is, in words, for error messages."""
        bit = 1 << card
        if self.field & bit:
            return "on the field"
        for p in range(self.players):
            if self.hands[p] & bit:
                return f"in player {p + 1}'s hand"
            if self.captured[p] & bit:
                return f"captured by player {p + 1}"
        if self.stock is not None and card in self.stock[len(self.stock) - self.stock_left :]:
            return "in the stock"
        return "not seen yet"

    # ----------------------------------------------------------------- legality
    def generate_legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase is Phase.PLAY:
            p = self.turn
            candidates = self.hands[p] | (self._unknown_mask() if self.hidden[p] else 0)
            return _landing_moves(MoveKind.PLAY, candidates, self.field)
        if phase is Phase.FLIP:
            top = self.stock_top()
            candidates = 1 << top if top is not None else self._unknown_mask()
            return _landing_moves(MoveKind.FLIP, candidates, self.field)
        if phase is Phase.DECIDE:
            return self._decisions()
        return []

    def random_move(self, rng: random.Random) -> Move:
        """A random legal move without listing them all: a random card, then a random choice of take.

        Used by the random bot and Monte Carlo playouts, where it is the hot path.
        """
        phase = self.phase
        if phase is _PLAYING or phase is _FLIPPING:
            if phase is _PLAYING:
                p = self.turn
                candidates = self.hands[p] | (self._unknown_mask() if self.hidden[p] else 0)
                kind = _PLAY
            else:
                top = self.stock_top()
                candidates = 1 << top if top is not None else self._unknown_mask()
                kind = _FLIP
            for _ in range(int(rng.random() * candidates.bit_count())):
                candidates &= candidates - 1
            options = capture_moves(kind, (candidates & -candidates).bit_length() - 1, self.field)
            return options[0] if len(options) == 1 else options[int(rng.random() * len(options))]
        moves = self.generate_legal_moves()
        if not moves:
            raise IllegalMoveError("the round is over")
        return moves[int(rng.random() * len(moves))]

    def illegal_reason(self, move: Move) -> KibitzError | None:
        """``None`` for a legal move, else the error that ``push`` would raise."""
        if self.phase is Phase.OVER:
            return IllegalMoveError("the round is over")
        try:
            kind = MoveKind(move[0])
        except (ValueError, IndexError, TypeError):
            return IllegalMoveError(f"{move!r} is not a move")
        who = f"player {self.turn + 1}"
        expected = {Phase.PLAY: MoveKind.PLAY, Phase.FLIP: MoveKind.FLIP}.get(self.phase)
        if self.phase is Phase.DECIDE:
            if move in self._decisions():
                return None
            return IllegalMoveError(f"{who} must decide first: {' or '.join(str(m) for m in self._decisions())}")
        if kind is not expected:
            doing = "play a card from hand" if expected is MoveKind.PLAY else "flip the stock"
            return IllegalMoveError(f"it is {who}'s turn to {doing}, not to {kind.name.lower()}")
        card, take = move[1], move[2]
        return self._source_reason(kind, card) or take_reason(card, take, self.field)  # type: ignore[arg-type]

    def _source_reason(self, kind: MoveKind, card: Card | None) -> KibitzError | None:
        """Why ``card`` cannot come from the mover's hand (play) or the stock (flip), ``None`` if it can."""
        if card is None:
            return IllegalMoveError(f"{kind.name.lower()} needs a card")
        bit = 1 << card
        if kind is MoveKind.PLAY:
            in_hand = self.hands[self.turn] & bit or (self.hidden[self.turn] and self._unknown_mask() & bit)
            if not in_hand:
                who = f"player {self.turn + 1}"
                return IllegalMoveError(f"{who} cannot play {Card(card).code}: it is {self.where(card)}")
            return None
        if self.stock_left <= 0:
            return IllegalMoveError("the stock is empty")
        top = self.stock_top()
        if top is not None and top != card:
            return IllegalMoveError(f"the stock's top card is {top.code}, not {Card(card).code}")
        if top is None and not self._unknown_mask() & bit:
            return IllegalMoveError(f"{Card(card).code} cannot come from the stock: it is {self.where(card)}")
        return None

    def _decisions(self) -> list[Move]:
        return []

    # ----------------------------------------------------------------- applying moves
    def _apply(self, move: Move) -> None:
        kind, card, take = move
        if kind > _FLIP:
            self._decide(move)
            return
        p = self.turn
        bit = 1 << card  # type: ignore[operator]
        if kind == _PLAY:
            hand = self.hands[p]
            if hand & bit:
                self.hands = _replace(self.hands, p, hand ^ bit)
            else:
                self.hidden = _replace(self.hidden, p, self.hidden[p] - 1)
        else:
            self.stock_left -= 1
        self._land(kind, card, take)  # type: ignore[arg-type]
        if kind == _PLAY:
            self.phase = _FLIPPING
        else:
            self._end_turn()

    def _land(self, kind: MoveKind, card: int, take: int | None) -> None:
        """Lay a played or flipped card on the field and capture what it takes, at once."""
        field = self.field
        matches = field & MONTH_MASK_BY_CARD[card]
        got = (1 << take if take is not None else 0) if matches.bit_count() == 2 else matches
        if got:
            p = self.turn
            self.field = field & ~got
            self.captured = _replace(self.captured, p, self.captured[p] | got | 1 << card)
        else:
            self.field = field | 1 << card

    def _end_turn(self) -> None:
        self._next_player()

    def _next_player(self) -> None:
        if not any(self.hands) and not any(self.hidden):
            self._exhausted()
            return
        self.turn = (self.turn + 1) % self.players
        self.phase = Phase.PLAY

    def _decide(self, move: Move) -> None:
        raise IllegalMoveError(f"{move} is not a move of this game")

    def _exhausted(self) -> None:
        self.phase = Phase.OVER

    # ----------------------------------------------------------------- hidden information
    def _masked_copy(self, player: int) -> CaptureRound:
        """A copy of the current state as ``player`` sees it: other hands and the stock unknown."""
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view.move_stack = list(self.move_stack)
        view._stack = []
        view.hands = tuple(h if i == player else 0 for i, h in enumerate(self.hands))
        view.hidden = tuple(
            self.hidden[i] if i == player else self.hidden[i] + self.hands[i].bit_count() for i in range(self.players)
        )
        view.stock = None
        return view

    def view(self, player: int) -> CaptureRound:
        """What ``player`` can see: their own hand, the field, the captures; the rest unknown.

        The view is itself a playable round: moves by others name the cards they reveal.
        """
        return self._masked_copy(player)

    def sample_world(self, rng: random.Random) -> CaptureRound:
        """A full-information copy where the unknown cards are dealt at random (for Monte Carlo)."""
        unknown = cards_of(self._unknown_mask())
        rng.shuffle(unknown)
        world = object.__new__(type(self))
        world.__dict__.update(self.__dict__)
        world.move_stack = []
        world._stack = []
        hands = list(self.hands)
        at = 0
        for p in range(self.players):
            for card in unknown[at : at + self.hidden[p]]:
                hands[p] |= 1 << card
            at += self.hidden[p]
        world.hands = tuple(hands)
        world.hidden = (0,) * self.players
        if self.stock is None:
            world.stock = tuple(unknown[at : at + self.stock_left])
        else:
            world.stock = self.stock[len(self.stock) - self.stock_left :]
        return world

    def __repr__(self) -> str:
        hands = ", ".join(f"hand {i + 1}: [{self.hand(i)}]+{self.hidden[i]}" for i in range(self.players))
        return (
            f"<{type(self).__name__} {self.phase.name} player {self.turn + 1}; field [{self.field_cards()}]; "
            f"{hands}; stock {self.stock_left}>"
        )


def _replace(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1:])


def take_reason(card: int, take: int | None, field: int) -> KibitzError | None:
    """Why ``take`` is wrong for ``card`` landing on ``field`` (``None`` if it is right)."""
    code = Card(card).code
    matches = field & MONTH_MASK_BY_CARD[card]
    n = matches.bit_count()
    if take is not None and not field >> take & 1:
        return IllegalMoveError(f"{code} cannot take {Card(take).code}: it is not on the field")
    if n == 0 and take is not None:
        return IllegalMoveError(f"{code} matches nothing on the field, so it takes nothing")
    if n == 1 and take is None:
        only = Card(matches.bit_length() - 1).code
        return IllegalMoveError(f"{code} captures {only} (the only card of its month on the field): say take {only}")
    if n == 1 and matches != 1 << take:  # type: ignore[operator]
        return IllegalMoveError(f"{code} cannot take {Card(take).code}: different month")  # type: ignore[arg-type]
    if n == 2 and (take is None or not matches >> take & 1):
        options = " or ".join(c.code for c in cards_of(matches))
        return AmbiguousMoveError(f"{code} matches two field cards: choose which to take ({options})")
    if n == 3 and take is not None:
        return IllegalMoveError(f"{code} takes all three cards of its month on the field: give no take")
    return None
