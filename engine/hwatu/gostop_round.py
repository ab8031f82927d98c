"""One hand of Go-Stop or Matgo: the shared capture mechanic, with the hand card resolved together
with the flip (ppeok, jjok, ttadak), pi stealing, shakes and bombs, go or stop, and the settlement.

Turn order is seat order (player ``p + 1`` after ``p``); see ``engine.hwatu.deal`` for how seats map
to a real, counter-clockwise table.
"""

from __future__ import annotations

import random
from typing import Any, Final, NamedTuple

from engine.capture import CaptureRound, Phase, capture_moves, take_reason
from engine.cards import Card, Month
from engine.cardset import MONTH_MASK_BY_CARD, NIBBLE_LOW, cards_of
from engine.deal import Deal
from engine.errors import IllegalMoveError, InvalidStateError, KibitzError
from engine.hwatu.cards import PI
from engine.hwatu.deal import four_of_a_month, shuffled_deal
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_scoring import (
    GoStopResult,
    Table,
    best_total,
    elements,
    no_winner,
    sake_options,
    settle_fixed,
    settle_stop,
)
from engine.hwatu.yaku import Yaku
from engine.moves import Move, MoveKind

_DEFAULT_PROFILE = GoStopProfile.load("gostop")
_PLAY: Final = MoveKind.PLAY
_FLIP: Final = MoveKind.FLIP
_PLAYING: Final = Phase.PLAY
_FLIPPING: Final = Phase.FLIP
# Which steal setting pays for each event.
_STEAL_KEY: Final = {
    "ppeok-capture": "ppeok", "ja-ppeok": "ja-ppeok", "jjok": "jjok", "ttadak": "ttadak", "sweep": "sweep",
    "bomb": "bomb",
}


class Event(NamedTuple):
    """Something that happened in a turn: ``Event("ttadak", 1, Month.PINE, stolen)``; ``stolen`` is the
    mask of the pi taken from the other players for it."""

    name: str  # "ppeok", "ppeok-capture", "ja-ppeok", "jjok", "ttadak", "sweep", "bomb", "shake"
    player: int
    month: Month | None = None
    stolen: int = 0


class GoStopRound(CaptureRound):
    """``GoStopRound.shuffled(7)``, then ``push(move)`` until ``is_over``; ``result`` says who pays whom.

    Between a play and its flip the hand card lies on the field and ``pending`` holds it with its take:
    its capture is made with the flip, because a flip of the same month turns it into a ppeok, a jjok or
    a ttadak. After a bomb, ``dummies`` counts the player's blank turns: a ``flip`` in the play phase.
    """

    profile: GoStopProfile
    go_order: tuple[int, ...]
    go_base: tuple[int, ...]
    shakes: tuple[int, ...]
    bombs: tuple[int, ...]
    dummies: tuple[int, ...]
    ppeoks: tuple[int, ...]
    stacks: tuple[int, ...]
    pending: tuple[int, int | None] | None
    events: tuple[Event, ...]
    result: GoStopResult | None

    def __init__(
        self, deal: Deal, profile: GoStopProfile | None = None, dealer: int = 0, nagari: int = 0
    ) -> None:
        profile = profile or _DEFAULT_PROFILE
        if len(deal.hands) != profile.players:
            raise InvalidStateError(f"profile {profile.name} is for {profile.players} players, not {len(deal.hands)}")
        super().__init__(deal, dealer)
        self.profile = profile
        self.nagari = nagari  # hands without a winner just before this one: each doubles the score
        n = self.players
        self.go_order = ()  # the players who called go, in calling order
        self.go_base = (0,) * n  # each player's element sum at their last go
        self.shakes = (0,) * n
        self.bombs = (0,) * n
        self.dummies = (0,) * n
        self.ppeoks = (0,) * n  # ppeoks made
        self.stacks = (-1,) * 12  # by month index: who made the ppeok lying on the field
        self.pending = None
        self.events = ()
        self.result = None
        self._check_deal()

    @classmethod
    def shuffled(
        cls, seed: int | random.Random, profile: GoStopProfile | None = None, dealer: int = 0, nagari: int = 0
    ) -> GoStopRound:
        profile = profile or _DEFAULT_PROFILE
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deal = shuffled_deal(rng, profile.players, profile.hand_size, profile.field_size, dealer)
        return cls(deal, profile, dealer, nagari)

    def _check_deal(self) -> None:
        """Four of a month on the table (patu) or in one seen hand (chongtong, or patu), before any move."""
        profile = self.profile
        if profile.four_on_field == "patu" and four_of_a_month(self.field):
            self._end(no_winner("patu", self.players))
            return
        fours = [p for p in range(self.players) if not self.hidden[p] and four_of_a_month(self.hands[p])]
        if not fours or profile.four_in_hand == "play":
            return
        if profile.four_in_hand == "patu" or len(fours) > 1:
            self._end(no_winner("patu", self.players))
        else:
            self._end(settle_fixed("chongtong", fours[0], profile.chongtong, self.players, self.nagari, profile))

    # ----------------------------------------------------------------- snapshots
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.hands, self.hidden, self.field, self.captured, self.stock_left, self.turn, self.phase,
            self.go_order, self.go_base, self.shakes, self.bombs, self.dummies, self.ppeoks, self.stacks,
            self.pending, self.events, self.result,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self.hands, self.hidden, self.field, self.captured, self.stock_left, self.turn, self.phase,
            self.go_order, self.go_base, self.shakes, self.bombs, self.dummies, self.ppeoks, self.stacks,
            self.pending, self.events, self.result,
        ) = snap

    # ----------------------------------------------------------------- legality
    def generate_legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase is Phase.PLAY:
            p = self.turn
            moves = super().generate_legal_moves() + self._declarations(p)
            if self.dummies[p] and self.stock_left > 0:
                moves += self._flip_moves()
            return moves
        if phase is Phase.FLIP:
            return self._flip_moves()
        return super().generate_legal_moves()

    def random_move(self, rng: random.Random) -> Move:
        phase = self.phase
        if phase is _PLAYING:
            p = self.turn
            if self.dummies[p] or self.hidden[p] or _months_with_three(self.hands[p]):
                moves = self.generate_legal_moves()
                return moves[int(rng.random() * len(moves))]
        move = super().random_move(rng)
        card = move[1]
        if phase is _FLIPPING and move[2] is not None and card is not None and self._makes_ppeok(card):
            return Move(_FLIP, card)  # a ppeok takes nothing
        return move

    def illegal_reason(self, move: Move) -> KibitzError | None:
        try:
            kind = MoveKind(move[0])
            card, take = move[1], move[2]
        except (ValueError, IndexError, TypeError):
            return IllegalMoveError(f"{move!r} is not a move")
        if self.phase is Phase.PLAY:
            if kind is MoveKind.SHAKE:
                return self._shake_reason(card, take)
            if kind is MoveKind.BOMB:
                return self._bomb_reason(card, take)
            if kind is MoveKind.FLIP and not self.dummies[self.turn]:
                return IllegalMoveError(
                    f"player {self.turn + 1} must play a card before flipping (blank turns come only after a bomb)"
                )
            if kind is MoveKind.FLIP:
                return self._flip_reason(card, take)
        elif self.phase is Phase.FLIP and kind is MoveKind.FLIP:
            return self._flip_reason(card, take)
        return super().illegal_reason(move)

    def _flip_moves(self) -> list[Move]:
        top = self.stock_top()
        candidates = 1 << top if top is not None else self._unknown_mask()
        moves: list[Move] = []
        for card in cards_of(candidates):
            if self._makes_ppeok(card):
                moves.append(Move(_FLIP, card))
            else:
                moves += capture_moves(_FLIP, card, self.field)
        return moves

    def _flip_reason(self, card: Card | None, take: Card | None) -> KibitzError | None:
        reason = self._source_reason(_FLIP, card)
        if reason is not None or card is None:
            return reason
        if self._makes_ppeok(card):
            if take is not None:
                return IllegalMoveError(f"{card.code} makes a ppeok: the three cards stay on the field, give no take")
            return None
        return take_reason(card, take, self.field)

    def _makes_ppeok(self, flipped: int) -> bool:
        """Whether flipping this card makes a ppeok: the hand card took a single field card of its month."""
        if self.pending is None:
            return False
        played = self.pending[0]
        month = MONTH_MASK_BY_CARD[played]
        return MONTH_MASK_BY_CARD[flipped] == month and (self.field & month & ~(1 << played)).bit_count() == 1

    def _declarations(self, p: int) -> list[Move]:
        """The shakes and bombs open to player ``p``."""
        possible = self.hands[p] | (self._unknown_mask() if self.hidden[p] else 0)
        moves: list[Move] = []
        for low in cards_of(_months_with_three(possible)):
            month = MONTH_MASK_BY_CARD[low]
            on_field = self.field & month
            if not on_field:
                shakes = [c for c in cards_of(possible & month) if not self._shake_reason(c, None)]
                moves += [Move(MoveKind.SHAKE, c) for c in shakes]
            elif on_field.bit_count() == 1:
                take = Card(on_field.bit_length() - 1)
                bomb = Move(MoveKind.BOMB, cards_of(month & ~on_field)[0], take)
                if not self._bomb_reason(bomb.card, take):
                    moves.append(bomb)
        return moves

    def _shake_reason(self, card: Card | None, take: Card | None) -> KibitzError | None:
        reason = self._source_reason(_PLAY, card)
        if reason is not None or card is None:
            return reason
        p = self.turn
        month = MONTH_MASK_BY_CARD[card]
        spent = 0 if self.hands[p] >> card & 1 else 1
        if not self._can_hold(p, month & ~(1 << card), 2, spent):
            return IllegalMoveError(f"player {p + 1} cannot shake {card.code}: that needs three of its month in hand")
        if self.field & month:
            on_field = Card((self.field & month).bit_length() - 1).code
            return IllegalMoveError(
                f"{card.code} cannot be shaken: {on_field} of its month is on the field (with the other three: bomb)"
            )
        if take is not None:
            return IllegalMoveError(f"a shaken {card.code} matches nothing on the field: give no take")
        return None

    def _bomb_reason(self, card: Card | None, take: Card | None) -> KibitzError | None:
        if card is None:
            return IllegalMoveError("bomb needs a card")
        p = self.turn
        month = MONTH_MASK_BY_CARD[card]
        on_field = self.field & month
        if on_field.bit_count() != 1:
            return IllegalMoveError(f"{card.code} cannot bomb: a bomb needs the fourth of its month alone on the field")
        fourth = Card(on_field.bit_length() - 1)
        if take != fourth:
            return IllegalMoveError(f"a bomb names the field card it takes: bomb {card.code} take {fourth.code}")
        three = month & ~on_field
        if not self._can_hold(p, three, 3, 0):
            codes = " ".join(c.code for c in cards_of(three))
            return IllegalMoveError(f"player {p + 1} cannot bomb: a bomb plays all three of {codes} from hand")
        return None

    def _can_hold(self, p: int, cards: int, need: int, spent: int) -> bool:
        """Whether ``need`` of ``cards`` can be in player ``p``'s hand (hidden cards count if unknown),
        with ``spent`` hidden cards already used for something else."""
        known = (self.hands[p] & cards).bit_count()
        if known >= need:
            return True
        unknown = (self._unknown_mask() & cards & ~self.hands[p]).bit_count() if self.hidden[p] else 0
        return known + min(unknown, self.hidden[p] - spent) >= need

    # ----------------------------------------------------------------- applying moves
    def _apply(self, move: Move) -> None:
        if move[0] == _FLIP and self.phase is _PLAYING:  # a blank turn after a bomb
            p = self.turn
            self.dummies = _set(self.dummies, p, self.dummies[p] - 1)
        super()._apply(move)

    def _land(self, kind: MoveKind, card: int, take: int | None) -> None:
        if kind == _PLAY:
            # The hand card waits on the field for the flip, which may turn it into a ppeok, jjok or ttadak.
            self.field |= 1 << card
            self.pending = (card, take)
            return
        pending = self.pending
        if pending is None:
            self._capture(card, take)
            return
        self.pending = None
        played, played_take = pending
        month = MONTH_MASK_BY_CARD[card]
        if month != MONTH_MASK_BY_CARD[played]:
            self._capture(played, played_take)
            self._capture(card, take)
            return
        others = (self.field & month & ~(1 << played)).bit_count()
        p = self.turn
        if others == 1:  # ppeok: the hand card, its match and the flip stay on the field together
            self.field |= 1 << card
            self.stacks = _set(self.stacks, card // 4, p)
            self.ppeoks = _set(self.ppeoks, p, self.ppeoks[p] + 1)
            self.events += (Event("ppeok", p, Month(card // 4 + 1)),)
            if self.ppeoks[p] == 3 and self.profile.three_ppeok:
                profile = self.profile
                self._end(settle_fixed("three-ppeok", p, profile.three_ppeok, self.players, self.nagari, profile))
            return
        # jjok (the flip takes the card just laid alone) or ttadak (all four of the month at once)
        got = self.field & month | 1 << card
        self.field &= ~month
        self.captured = _set(self.captured, p, self.captured[p] | got)
        self._steal("jjok" if others == 0 else "ttadak", card)

    def _capture(self, card: int, take: int | None) -> None:
        """The plain capture of one card (a hand card lying on the field, or a flipped card)."""
        bit = 1 << card
        field = self.field & ~bit
        matches = field & MONTH_MASK_BY_CARD[card]
        n = matches.bit_count()
        if not n:
            self.field = field | bit
            return
        got = 1 << take if n == 2 and take is not None else matches
        p = self.turn
        self.field = field & ~got
        self.captured = _set(self.captured, p, self.captured[p] | got | bit)
        if n == 3 and self.stacks[card // 4] >= 0:
            maker = self.stacks[card // 4]
            self.stacks = _set(self.stacks, card // 4, -1)
            self._steal("ja-ppeok" if maker == p else "ppeok-capture", card)

    def _steal(self, name: str, card: int | None) -> None:
        """The mover takes pi from each other player (the cheapest they hold) for the event ``name``."""
        count = self.profile.steal[_STEAL_KEY[name]]
        p = self.turn
        piles = list(self.captured)
        stolen = 0
        for q in range(self.players):
            for _ in range(count if q != p else 0):
                bit = self._cheapest_pi(piles[q])
                if not bit:
                    break
                piles[q] ^= bit
                piles[p] |= bit
                stolen |= bit
        self.captured = tuple(piles)
        self.events += (Event(name, p, None if card is None else Month(card // 4 + 1), stolen),)

    def _cheapest_pi(self, pile: int) -> int:
        """The pi a player gives up: a single pi before a double, a double before a triple (a bit, or 0)."""
        profile = self.profile
        for group in (PI & ~(profile.double_pi | profile.triple_pi), profile.double_pi, profile.triple_pi):
            mine = pile & group
            if mine:
                return mine & -mine
        return 0

    def _end_turn(self) -> None:
        if self.phase is Phase.OVER:  # three ppeoks ended the hand
            return
        p = self.turn
        if not self.field and (self._turns_left() or self.profile.sweep_last_turn):
            self._steal("sweep", None)
        base = best_total(self.captured[p], self.profile)
        if base >= self.profile.threshold and base > self.go_base[p]:
            self.phase = Phase.DECIDE
        else:
            self._next_player()

    def _turns_left(self) -> bool:
        """Whether anyone has a turn after this one: cards (or blank turns) to play and a stock to flip."""
        return self.stock_left > 0 and (any(self.hands) or any(self.hidden) or any(self.dummies))

    def _next_player(self) -> None:
        if not self._turns_left():
            self._exhausted()
            return
        turn = self.turn
        for _ in range(self.players):  # the next player with something to play (uneven observed deals)
            turn = (turn + 1) % self.players
            if self.hands[turn] or self.hidden[turn] or self.dummies[turn]:
                break
        self.turn = turn
        self.phase = Phase.PLAY

    def _decisions(self) -> list[Move]:
        p = self.turn
        if self.stock_left > 0 and self.hand_size(p) + self.dummies[p]:
            return [Move.go(), Move.stop()]
        return [Move.stop()]  # no turn left to improve in: the last card stops

    def _decide(self, move: Move) -> None:
        kind, card, take = move
        p = self.turn
        if kind == MoveKind.KOIKOI:
            self.go_order += (p,)
            self.go_base = _set(self.go_base, p, best_total(self.captured[p], self.profile))
            self._next_player()
        elif kind == MoveKind.STOP:
            table = Table(self.go_order, self.shakes, self.bombs, self.nagari)
            self._end(settle_stop(self.captured, p, table, self.profile))
        elif kind == MoveKind.SHAKE and card is not None:
            self._shake(p, card, take)
        elif kind == MoveKind.BOMB and card is not None and take is not None:
            self._bomb(p, card, take)
        else:
            raise IllegalMoveError(f"{move} is not a move of Go-Stop")

    def _shake(self, p: int, card: Card, take: Card | None) -> None:
        month = MONTH_MASK_BY_CARD[card]
        others = month & ~(1 << card)
        if self.hidden[p]:  # the shown cards become known when nothing else of the month is unseen
            unseen = self._unknown_mask() & others & ~self.hands[p]
            missing = 2 - (self.hands[p] & others).bit_count()
            if 0 < missing == unseen.bit_count() <= self.hidden[p]:
                self.hands = _set(self.hands, p, self.hands[p] | unseen)
                self.hidden = _set(self.hidden, p, self.hidden[p] - missing)
        self.shakes = _set(self.shakes, p, self.shakes[p] + 1)
        self.events += (Event("shake", p, card.month),)
        CaptureRound._apply(self, Move(_PLAY, card, take))

    def _bomb(self, p: int, card: Card, take: Card) -> None:
        month = MONTH_MASK_BY_CARD[card]
        three = month & ~(1 << take)
        unseen = (three & ~self.hands[p]).bit_count()
        self.hands = _set(self.hands, p, self.hands[p] & ~three)
        if unseen:
            self.hidden = _set(self.hidden, p, self.hidden[p] - unseen)
        self.field &= ~(1 << take)
        self.captured = _set(self.captured, p, self.captured[p] | month)
        self.bombs = _set(self.bombs, p, self.bombs[p] + 1)
        self.dummies = _set(self.dummies, p, self.dummies[p] + self.profile.bomb_dummies)
        self._steal("bomb", card)
        self.phase = Phase.FLIP

    def _exhausted(self) -> None:
        self._end(no_winner("nagari", self.players, self.go_order))

    def _end(self, result: GoStopResult) -> None:
        self.result = result
        self.phase = Phase.OVER

    # ----------------------------------------------------------------- scoring queries
    def score(self, player: int) -> int:
        """A player's element sum now, the sake cup counted the better way."""
        return best_total(self.captured[player], self.profile)

    def elements(self, player: int) -> list[Yaku]:
        """The scoring elements a player's pile holds now, the sake cup counted the better way."""
        pile = self.captured[player]
        options = [elements(pile, self.profile, as_pi) for as_pi in sake_options(pile, self.profile)]
        return max(options, key=lambda found: sum(y.points for y in found))

    def gos(self, player: int) -> int:
        return self.go_order.count(player)

    def settlement_if_stopped(self, player: int) -> GoStopResult:
        """What the hand would pay if ``player`` stopped now (whether or not they may)."""
        table = Table(self.go_order, self.shakes, self.bombs, self.nagari)
        return settle_stop(self.captured, player, table, self.profile)


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _months_with_three(mask: int) -> int:
    """The lowest bit of every month holding at least three cards of ``mask``."""
    a, b, c, d = mask, mask >> 1, mask >> 2, mask >> 3
    return (a & b & c | a & b & d | a & c & d | b & c & d) & NIBBLE_LOW
