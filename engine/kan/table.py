"""Small values around a Kan deal: seating, phases, what was said before play, and the deal's result.

Seats: players 1..5 (0..4 in code) start in seats 0..4 numbered in turn order. Play goes
counter-clockwise, so the next player in turn order is the one on a player's RIGHT; ``order`` lists the
players in turn order and changes only when partners had to move apart.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from engine.errors import InvalidStateError
from engine.kan.actions import ActionKind, ShowWay
from engine.kan.cards import Card, Suit
from engine.kan.hands import PLAYERS, SEATS
from engine.kan.ledger import DealOutcome, Declaration
from engine.kan.tricks import Trick


class Phase(enum.IntEnum):
    ANNOUNCE = 0  # deal 1: the holders of the joker and of the pin say kan, showing it
    GIVE = 1  # a double holder's partner gives back a card for the pin
    CALL = 2  # deal 1: the partners say iku or koi (who leads)
    SHOW = 3  # deals 2 and 3: one partner shows cards to the other
    TRUMP = 4  # deals 2 and 3: the other names the trump
    DECLARE = 5  # juuroku (kankei), then gyaku juuroku (mukankei), or pass
    PLAY = 6
    DECIDE = 7  # after a sukonku: stop the round or play on
    OVER = 8

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Side(enum.IntEnum):
    KANKEI = 0  # the partners of the joker and the pin
    MUKANKEI = 1  # the other three

    def __repr__(self) -> str:
        return f"Side.{self.name}"


def right_of(order: tuple[int, ...]) -> tuple[int, ...]:
    """``right[p]``: the player on ``p``'s right, who plays after ``p``."""
    right = [0] * PLAYERS
    for seat, player in enumerate(order):
        right[player] = order[(seat + 1) % PLAYERS]
    return tuple(right)


@dataclass(frozen=True, slots=True)
class DealSetup:
    """How a deal starts. Deal 1 has its trump from the schedule and finds its partners in the cards;
    deals 2 and 3 keep the partnership (``joker_partner``, ``ace_partner``: who held the joker and who the
    pin in deal 1) and let the kankei choose the trump (``trump=None``)."""

    number: int = 1
    trump: Suit | None = Suit.CLUBS
    order: tuple[int, ...] = SEATS
    joker_partner: int = -1
    ace_partner: int = -1

    def __post_init__(self) -> None:
        if sorted(self.order) != list(SEATS):
            raise InvalidStateError(f"order must seat players 1..{PLAYERS} once each, not {self.order}")
        if self.number < 1:
            raise InvalidStateError(f"deals are numbered from 1, not {self.number}")
        partners = (self.joker_partner, self.ace_partner)
        if self.number == 1:
            if partners != (-1, -1) or self.trump is None:
                raise InvalidStateError("a round's first deal has its trump set and finds its partners in the cards")
        elif self.joker_partner == self.ace_partner or not all(p in SEATS for p in partners):
            raise InvalidStateError(f"deal {self.number} needs the two partners of deal 1, not {partners}")

    @property
    def namer(self) -> int:
        """Deals 2 and 3: who names the trump and leads (the joker's partner in deal 2, the pin's in 3)."""
        return self.joker_partner if self.number % 2 == 0 else self.ace_partner

    @property
    def shower(self) -> int:
        """Deals 2 and 3: who shows cards to the namer."""
        return self.ace_partner if self.number % 2 == 0 else self.joker_partner


class SeatChange(NamedTuple):
    """Partners sat side by side: ``player`` (the one on the right) moved past ``past``."""

    player: int
    past: int

    def __str__(self) -> str:
        return f"player {self.player + 1} moved past player {self.past + 1}"


def seat_rule(order: tuple[int, ...], partners: tuple[int, int]) -> tuple[tuple[int, ...], SeatChange | None]:
    """Partners may not sit side by side: the one on the right moves past one player (swaps seats with them)."""
    a, b = (order.index(p) for p in partners)
    if (a + 1) % PLAYERS == b or (b + 1) % PLAYERS == a:
        mover = b if (a + 1) % PLAYERS == b else a
        beyond = (mover + 1) % PLAYERS
        seats = list(order)
        seats[mover], seats[beyond] = seats[beyond], seats[mover]
        return tuple(seats), SeatChange(order[mover], order[beyond])
    return order, None


class Showing(NamedTuple):
    """Cards ``by`` showed ``to``, unseen by the rest (``cards`` is empty in their views)."""

    way: ShowWay
    cards: tuple[Card, ...]
    by: int
    to: int


class Talk(NamedTuple):
    """Everything settled before and around play, replaced as a whole when it changes (cheap snapshots).

    ``public[p]``: cards everybody knows are in player ``p``'s hand (shown with kan, the handed pin);
    ``private``: ``(observer, player, cards)`` facts only the observer knows (a given-back card, shown cards).
    """

    joker_holder: int  # deal 1: who holds the joker (-1: unknown to this state)
    ace_holder: int  # deal 1: who holds the pin (the trump ace)
    announced: int  # deal 1: kan said for the joker (1), then for the pin (2)
    joker_partner: int  # the kankei: -1 until known
    ace_partner: int
    words: tuple[ActionKind, ...]  # iku / koi, joker partner first
    showing: Showing | None
    declaration: Declaration
    declare_step: int  # 0: the kankei decide, 1: the mukankei
    seat_change: SeatChange | None
    order: tuple[int, ...]
    public: tuple[int, ...]
    private: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal: the partnership, the points, and how the talk went."""

    number: int
    trump: Suit
    kankei: tuple[int, int]  # (joker partner, ace partner)
    kankei_points: int
    declaration: Declaration
    kankei_won: bool
    stopped: bool
    seat_change: SeatChange | None
    showing: Showing | None
    words: tuple[ActionKind, ...]
    tricks: tuple[Trick, ...]

    @property
    def outcome(self) -> DealOutcome:
        return DealOutcome(self.kankei_points, self.declaration, self.stopped)

    @property
    def mukankei_points(self) -> int:
        return 16 - self.kankei_points

    @property
    def sukonku(self) -> bool:
        return self.kankei_points == 16

    @property
    def gyaku_sukonku(self) -> bool:
        return self.kankei_points == 0
