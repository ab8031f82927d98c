"""Koi-Koi followed live: the deal read from the table, the predicted table of a round, and candidate turns
enumerated with the engine (push/pop on the player's view: the opponent's hand and the stock are unknown, so
any unseen card may be played or flipped, and each move names the card the camera saw).

The state lives in the app's ``KoiKoiSession`` (mode "camera"), so the screen shows what the camera found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.live.game import Candidate, Expect, Prediction, SetupResult
from companion.live.table import FIELD, ObservedTable, captures, hand
from companion.session import KoiKoiSession
from engine.capture import Phase
from engine.cards import Card
from engine.cardset import CardSet
from engine.deal import Deal
from engine.errors import InvalidStateError, KibitzError
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move, MoveKind
from vision.observation import UNKNOWN

_PLAIN = re.compile(r"^(?P<plant>[a-z]+)-plain-[12]$")


def visual_class(label: str) -> str | None:
    """Plain-1 and plain-2 of a month look alike and play alike: one class ("pine-plain"). The coloured
    paulownia plain-3 and the willow lightning card stand alone. Backs and "unknown" have no class."""
    return _VISUAL.get(label)


def _visual_class(label: str) -> str:
    match = _PLAIN.match(label)
    return f"{match['plant']}-plain" if match else label


_CARDS = {card.code: card for card in Card}
_VISUAL = {code: _visual_class(code) for code in _CARDS}  # looked up for every card of every candidate
_CLASS_CARDS: dict[str, tuple[Card, ...]] = {}
for _card in Card:
    _CLASS_CARDS.setdefault(visual_class(_card.code) or "", ())
    _CLASS_CARDS[visual_class(_card.code) or ""] += (_card,)


class KoiKoiLive:
    """The Koi-Koi adapter of the live table (see ``companion.live.game.LiveGame``)."""

    name = "koikoi"
    players = 2

    def __init__(self, profile: KoiKoiProfile | None = None, me: int | None = 0,
                 session: KoiKoiSession | None = None, recent: int = 4, max_wild: int = 1) -> None:
        self.max_wild = max_wild
        self.profile = profile or KoiKoiProfile.load("default")
        self.me = me
        self.session = session or KoiKoiSession(self.profile, mode="camera", you=me or 0)
        self.recent = recent
        self._gathered: list[tuple[int, int]] = []  # per move on the stack: (player, mask of cards it captured)

    # ----------------------------------------------------------------- state
    @property
    def profile_name(self) -> str:
        return self.profile.name

    @property
    def round(self) -> KoiKoiRound:
        return self.session.state

    @property
    def history(self) -> list[str]:
        return [str(m) for m in self.round.move_stack] if self.session.view is not None else []

    def visual_class(self, label: str) -> str | None:
        return visual_class(label)

    def to_move(self) -> int | None:
        r = self.session.view
        return None if r is None or r.is_over else r.turn

    def awaiting(self) -> str | None:
        r = self.session.view
        if r is None or r.phase is not Phase.DECIDE:
            return None
        yaku = ", ".join(y.name for y in r.yaku(r.turn))
        options = " or ".join(str(m) for m in r.generate_legal_moves())
        return f"player {r.turn + 1} made {yaku}: {options}?"

    def is_over(self) -> bool:
        return self.session.view is not None and self.session.view.is_over

    def result(self) -> dict[str, Any] | None:
        r = self.session.view
        if r is None or r.result is None:
            return None
        res = r.result
        return {"reason": res.reason, "winner": res.winner, "points": list(res.points),
                "yaku": [y.name for y in res.yaku], "koikoi": list(res.koikoi)}

    def dealer(self) -> int:
        return self.session.view.dealer if self.session.view is not None else self.session.match.dealer

    def where(self, cls: str) -> str:
        r = self.round
        return " and ".join(f"{c.code} {r.where(c)}" for c in _CLASS_CARDS.get(cls, ()))

    def suspects(self, cls: str) -> list[int]:
        return [i for i, m in enumerate(self.round.move_stack)
                if m.card is not None and (visual_class(m.card.code) == cls
                                           or (m.take is not None and visual_class(m.take.code) == cls))]

    # ----------------------------------------------------------------- the deal
    def setup(self, table: ObservedTable) -> SetupResult:
        """A fresh deal: exactly ``field_size`` cards on the field, no captures; the player's hand spread in
        their zone (all of it) or not shown at all."""
        field = [c.label for c in table.faces(FIELD)]
        piles = [c for c in table.faces() if c.role is not None and c.role.startswith("captures-")]
        mine = [c.label for c in table.faces(hand(self.me))] if self.me is not None else []
        unreadable = _unreadable_in_hand(table, self.me)
        want_field, want_hand = self.deal_sizes()
        if piles:
            return SetupResult(None, f"waiting for a deal: {len(piles)} cards still in the capture zones")
        if len(field) != want_field:
            return SetupResult(None, f"waiting for a deal: the field shows {len(field)} of {want_field} cards")
        if len(mine) not in (0, want_hand) and not (len(mine) >= want_hand - MAX_UNREAD_HAND
                                                    and len(mine) + unreadable == want_hand):
            return SetupResult(None, f"waiting for your hand: {len(mine)} of {want_hand} cards seen")
        try:
            field_cards, hand_cards = _concrete([field, mine])
        except InvalidStateError as exc:
            return SetupResult(None, f"waiting for a readable deal: {exc}")
        hands: list[list[str]] = [[] for _ in range(self.players)]
        hidden = [want_hand] * self.players
        if self.me is not None and hand_cards:
            hands[self.me] = [c.code for c in hand_cards]
            hidden[self.me] = want_hand - len(hand_cards)
        deal = {"field": [c.code for c in field_cards], "hands": hands, "hidden": hidden,
                "stock_size": 48 - want_field - want_hand * self.players}
        seen = "your hand and " if hand_cards else ""
        if hand_cards and len(hand_cards) < want_hand:
            unread = want_hand - len(hand_cards)
            seen = f"{len(hand_cards)} of your {want_hand} cards ({unread} unreadable, known once played) and "
        return SetupResult(deal, f"dealt: {seen}{want_field} field cards seen")

    def deal_sizes(self) -> tuple[int, int]:
        """Cards on the field and in each hand at the deal."""
        return self.profile.field_size, self.profile.hand_size

    def start(self, deal: dict[str, Any], dealer: int | None = None) -> None:
        if dealer is not None:
            self.session.match.dealer = dealer
        self.session.start_round(deal_from_json(deal))
        self._gathered = []

    def deal(self) -> dict[str, Any]:
        return deal_to_json(self.round.deal)

    def revealed(self, table: ObservedTable) -> dict[str, Any] | None:
        """A hidden own-hand card read in the hand: every known hand card is seen there too (so a misread of
        one of them is not taken for it), and the extra faces are cards whose place is unknown."""
        r = self.round
        if self.me is None or not r.hidden[self.me]:
            return None
        seen = [_VISUAL.get(c.label) for c in table.faces(hand(self.me))]
        known = [_cls(c) for c in r.hand(self.me)]
        extra = list(seen)
        for cls in known:
            if cls not in extra:
                return None
            extra.remove(cls)
        unknown = r.unknown()
        found = [next((c for c in _CLASS_CARDS.get(cls or "", ()) if c in unknown), None) for cls in extra]
        cards = list(dict.fromkeys(c for c in found if c is not None))
        if not cards or len(cards) > r.hidden[self.me]:
            return None
        deal = self.deal()
        deal["hands"][self.me] = [*deal["hands"][self.me], *(c.code for c in cards)]
        deal["hidden"][self.me] -= len(cards)
        return deal

    # ----------------------------------------------------------------- actions
    def push(self, action: str, source: str) -> int:
        move = Move.parse(action)
        r = self.round
        player = r.turn
        before = r.captured[player]
        self.session.apply(move, "camera" if source == "camera" else source)
        self._gathered.append((player, r.captured[player] & ~before))
        return player

    def pop(self) -> str:
        move = self.session.undo()
        self._gathered.pop()
        return str(move)

    def fork(self, actions: tuple[str, ...], deal: dict[str, Any] | None = None,
             dealer: int | None = None) -> KoiKoiLive:
        copy = KoiKoiLive(self.profile, self.me, recent=self.recent, max_wild=self.max_wild)
        copy.start(self.deal() if deal is None else deal, self.dealer() if dealer is None else dealer)
        for action in actions:
            copy.push(action, "camera")
        return copy

    def unseen(self, action: str) -> bool:
        return Move.parse(action).kind in (MoveKind.KOIKOI, MoveKind.STOP)

    def normalise(self, text: str) -> str:
        return str(self.session.resolve(text))

    # ----------------------------------------------------------------- prediction and candidates
    def prediction(self, base: tuple[str, ...] = ()) -> Prediction:
        r = self.round
        gathered = self._replay(r, tuple(Move.parse(a) for a in base), check=True)
        try:
            return self._predict(r, gathered)
        finally:
            for _ in base:
                r.pop()

    def _predict(self, r: KoiKoiRound, gathered: list[tuple[int, int]]) -> Prediction:
        items = [Expect(_cls(c), FIELD) for c in r.field_cards()]
        waiting: dict[int, int] = {}  # card -> group: captured lately, may still lie on the field
        under: set[int] = set()  # captured before the same player's newest capture: may lie under it
        latest: dict[int, int] = {}
        for group, (player, mask) in enumerate(gathered[-self.recent:]):
            for card in CardSet(mask):
                waiting[card] = group
            if mask:
                latest[player] = group
        for group, (player, mask) in enumerate(gathered[-self.recent:]):
            if mask and group < latest[player]:
                under.update(CardSet(mask))
        for p in range(self.players):
            for card in r.captures(p):
                group = waiting.get(card)
                items.append(Expect(_cls(card), captures(p), FIELD if group is not None else None,
                                    -1 if group is None else group, may_hide=group is None or card in under))
        optional: frozenset[str] = frozenset()
        unnamed: tuple[tuple[str, int], ...] = ()
        if self.me is not None:
            items += [Expect(_cls(c), hand(self.me)) for c in r.hand(self.me)]
            optional = frozenset({hand(self.me)})
            if r.hidden[self.me]:
                unnamed = ((hand(self.me), r.hidden[self.me]),)
        return Prediction(tuple(items), optional, unnamed)

    def candidates(self, table: ObservedTable, novel: frozenset[str], max_actions: int,
                   base: tuple[str, ...] = ()) -> list[Candidate]:
        """Breadth-first over legal moves (after the ``base`` actions) whose card the camera saw somewhere new
        (or, on the player's own turn, any card of their known hand). Sequences reaching the same state (a
        play and a flip that both just landed on the field, in either order) are kept once: the first found."""
        r = self.round
        start = tuple(Move.parse(a) for a in base)
        base_gathered = self._replay(r, start, check=True)
        try:
            return self._search(r, table, novel, max_actions, base_gathered)
        finally:
            for _ in start:
                r.pop()

    def _search(self, r: KoiKoiRound, table: ObservedTable, novel: frozenset[str], max_actions: int,
                base_gathered: list[tuple[int, int]]) -> list[Candidate]:
        labels = {c.label for c in table.cards}
        wild = min(wildcards(table), self.max_wild)
        seen: set[tuple[Any, ...]] = {self._key(r)}
        frontier: list[_Path] = [_Path((), (), 0)]
        out: list[Candidate] = []
        for _ in range(max_actions):
            grown: list[_Path] = []
            for path in frontier:
                if len(out) >= MAX_CANDIDATES:
                    return out  # the shorter explanations are all in; longer ones would take minutes
                gathered = self._replay(r, path.moves, base_gathered)
                for step, guessed in self._next_steps(r, novel, labels, wild - path.wild):
                    players = tuple(self._apply(r, move, gathered) for move in step)
                    key = self._key(r)
                    if key not in seen:
                        seen.add(key)
                        longer = _Path((*path.moves, *step), (*path.players, *players),
                                       path.implied + len(step) - 1, path.wild + guessed)
                        grown.append(longer)
                        out.append(Candidate(tuple(str(m) for m in longer.moves), longer.players,
                                             self._predict(r, gathered), longer.implied, r.is_over, key))
                    for _ in step:
                        r.pop()
                        gathered.pop()
                for _ in path.moves:
                    r.pop()
            frontier = grown
        return out

    def _key(self, r: KoiKoiRound) -> tuple[Any, ...]:
        """The state a candidate leads to, for telling apart sequences that only differ in order."""
        return _state_key(r)

    def state_key(self, base: tuple[str, ...] = ()) -> tuple[Any, ...]:
        """The state after the (not committed) ``base`` actions (explanations reaching it are one)."""
        r = self.round
        moves = tuple(Move.parse(a) for a in base)
        self._replay(r, moves, check=True)
        try:
            return self._key(r)
        finally:
            for _ in moves:
                r.pop()

    def _replay(self, r: KoiKoiRound, moves: tuple[Move, ...], gathered: list[tuple[int, int]] | None = None,
                check: bool = False) -> list[tuple[int, int]]:
        """Push ``moves`` and return the capture groups after them (checked for a hypothesis from outside)."""
        gathered = list(self._gathered if gathered is None else gathered)
        pushed = 0
        try:
            for move in moves:
                self._apply(r, move, gathered, check)
                pushed += 1
        except KibitzError:
            for _ in range(pushed):
                r.pop()
            raise
        return gathered

    @staticmethod
    def _apply(r: KoiKoiRound, move: Move, gathered: list[tuple[int, int]], check: bool = False) -> int:
        player = r.turn
        before = r.captured[player]
        r.push(move, check=check)
        gathered.append((player, r.captured[player] & ~before))
        return player

    def _next_steps(self, r: KoiKoiRound, novel: frozenset[str], labels: set[str], wild: int = 0
                    ) -> list[tuple[tuple[Move, ...], int]]:
        """Visible moves worth trying from here, those naming a card exactly as seen first, each with the
        number of guesses it takes (0 or 1). A move is tried when its card was seen somewhere new, is in the
        player's known hand, or takes a card seen somewhere new (the card that took it may be unreadable); with
        ``wild`` guesses left, any other legal move too (an unreadable or unfound card may be its card). In
        the decision phase a koi-koi comes first, implied: play went on, so the player must have called it."""
        if r.is_over:
            return []
        implied: tuple[Move, ...] = ()
        if r.phase is Phase.DECIDE:
            if Move.koikoi() not in r.generate_legal_moves():
                return []
            implied = (Move.koikoi(),)
            r.push(Move.koikoi(), check=False)
        own = r.hand(r.turn) if r.turn == self.me and r.phase is Phase.PLAY else CardSet()
        steps = []
        for m in r.generate_legal_moves():
            if m.card is None:
                continue
            seen = _cls(m.card) in novel or m.card in own or (m.take is not None and _cls(m.take) in novel)
            if seen or wild > 0:
                steps.append(((*implied, m), 0 if seen else 1))
        steps.sort(key=lambda s: (s[1], s[0][-1].card is None or s[0][-1].card.code not in labels))
        if implied:
            r.pop()
        return steps


MAX_CANDIDATES = 5000
"""A search stops growing here: re-explaining six Matgo actions jointly, on a table that contradicted the game
in many places, once reached 705,000 sequences (two minutes); they come shortest first: the likely ones stay."""


MAX_UNREAD_HAND = 2
"""Own-hand cards at the deal that may lie unreadable (cut by the frame edge, glare): the deal starts with
them unknown, as the opponent's are, rather than never."""


def _unreadable_in_hand(table: ObservedTable, me: int | None) -> int:
    return 0 if me is None else sum(c.label == UNKNOWN for c in table.in_role(hand(me)))


def wildcards(table: ObservedTable) -> int:
    """Cards on the table the recogniser could not name (``unknown``), outside the hands: each may be the card
    of a move that nothing else shows."""
    return sum(c.label == UNKNOWN and c.role is not None and not c.role.startswith("hand-") for c in table.cards)


@dataclass(frozen=True)
class _Path:
    moves: tuple[Move, ...]
    players: tuple[int, ...]
    implied: int
    wild: int = 0  # moves whose card nothing on the table names (guessed for an unreadable card)


def _state_key(r: KoiKoiRound) -> tuple[Any, ...]:
    """The state up to interchangeable cards (which of two plains lies where does not matter)."""
    return (tuple(map(_canonical, r.hands)), r.hidden, _canonical(r.field), tuple(map(_canonical, r.captured)),
            r.stock_left, r.turn, r.phase, r.koikoi)


_CARD_CLASS = {card: _VISUAL[card.code] for card in Card}
_PAIRS = [(cards[0], cards[1]) for cards in _CLASS_CARDS.values() if len(cards) == 2]


def _canonical(mask: int) -> int:
    """Where a mask holds only the second card of an interchangeable pair, name the first instead."""
    for first, second in _PAIRS:
        if mask >> second & 1 and not mask >> first & 1:
            mask ^= (1 << second) | (1 << first)
    return mask


def _cls(card: Card) -> str:
    return _CARD_CLASS[card]


def _concrete(groups: list[list[str]]) -> list[list[Card]]:
    """Labels to distinct cards: interchangeable plains are handed out -1 then -2 across all groups."""
    pools = {cls: list(cards) for cls, cards in _CLASS_CARDS.items()}
    out = []
    for labels in groups:
        cards = []
        for label in labels:
            cls = visual_class(label)
            if cls is None:
                raise InvalidStateError(f"{label!r} is not a card")
            exact = _CARDS[label]
            pool = pools[cls]
            if not pool:
                raise InvalidStateError(f"{label} is seen more often than the deck has it")
            card = exact if exact in pool else pool[0]
            pool.remove(card)
            cards.append(card)
        out.append(cards)
    return out


def deal_to_json(deal: Deal) -> dict[str, Any]:
    return {"field": deal.field.codes(), "hands": [h.codes() for h in deal.hands], "hidden": list(deal.hidden),
            "stock_size": deal.stock_size}


def deal_from_json(data: dict[str, Any]) -> Deal:
    """The recorded deal back as an engine ``Deal`` (hands as far as known, the stock unknown)."""
    try:
        hands = tuple(CardSet.parse(list(h)) for h in data["hands"])
        return Deal(hands, CardSet.parse(list(data["field"])), None, tuple(int(n) for n in data["hidden"]),
                    int(data["stock_size"]))
    except (KeyError, TypeError) as exc:
        raise InvalidStateError(f"a Koi-Koi deal needs field, hands, hidden and stock_size: {exc}") from exc
