"""Kan followed live: each seat's trick spot and taken-tricks pile read as card codes, the plays inferred.

Roles: ``trick-N`` is the spot in front of player N where their card of the current trick lies, ``captures-N``
the pile of tricks player N has taken, ``hand-N`` the user's own hand (optional: it may be held up). A
mat names its zones so (``zones``). A finished trick lies on the spots until its winner gathers it before
leading the next (gathered, it lies in the pile, near its other cards); piles may be face down, so a card
in a pile costs little when unseen.

Only plays can be seen. Everything said (kan, iku/koi, showing cards, the trump, declarations, stop or
continue) is typed: ``awaiting`` says what the game waits for. The suit named with a led joker is not seen
either: the cards that follow it tell (a candidate whose named suit differs from the next card seen costs
more), and a view with the joker alone waits.

There is no playing-card recogniser in this issue: the adapter works on typed observations (see
``tests/companion/test_live_kan.py``, which feeds it tables made from real engine games). The state lives in
a ``KanTableSession`` (mode "camera"), so a screen can show what the camera found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from companion.live.game import Candidate, Expect, Prediction, SetupResult
from companion.live.table import ObservedTable, ZoneMap, captures, hand
from companion.tables.kan import KanTableSession, parse_action
from engine.errors import InvalidStateError, KibitzError
from engine.kan.actions import Action, ActionKind
from engine.kan.cards import Card, Suit
from engine.kan.cardset import CardSet, cards_of
from engine.kan.deal import KanDeal
from engine.kan.hands import HAND_SIZE, PLAYERS, Hands
from engine.kan.profile import KanProfile
from engine.kan.table import DealSetup, Phase

_CARDS: Final = {card.code: card for card in Card}
_MISNAMED_SUIT: Final = 2  # implied actions charged to a joker lead whose suit the next card seen contradicts
_TALK: Final = {
    Phase.ANNOUNCE: "say kan (type 'kan {card} by N')",
    Phase.GIVE: "give back a card for the pin (type 'give', or 'give CARD' if you saw it)",
    Phase.CALL: "say iku or koi (type it)",
    Phase.SHOW: "show cards to the partner (type 'show two|another|same|single|none [CARDS]')",
    Phase.TRUMP: "name the trump (type 'trump C|D|H|S')",
    Phase.DECLARE: "declare or pass (type 'juuroku', 'gyaku-juuroku' or 'pass')",
    Phase.DECIDE: "stop the round or continue (type 'stop' or 'continue')",
}


def trick_spot(player: int) -> str:
    return f"trick-{player}"


def zones(me: int = 0) -> ZoneMap:
    """Mat zones named by seat: ``trick-N``, ``tricks-N`` (taken piles), ``hand`` (the user's)."""
    names = {f"trick-{p}": trick_spot(p) for p in range(PLAYERS)}
    names |= {f"tricks-{p}": captures(p) for p in range(PLAYERS)}
    names["hand"] = hand(me)
    return ZoneMap(me=me, players=PLAYERS, names=names, regions=())


def visual_class(label: str) -> str | None:
    """Every Kan card looks different: its code; backs and unknowns have none."""
    return label if label in _CARDS else None


class KanLive:
    """The Kan adapter of the live table (see ``companion.live.game.LiveGame``)."""

    name = "kan"
    players = PLAYERS

    def __init__(self, profile: KanProfile | None = None, me: int | None = 0,
                 session: KanTableSession | None = None) -> None:
        self.profile = profile or KanProfile.load("kan")
        self.me = me
        self.session = session or KanTableSession(self.profile, mode="camera", you=me or 0)
        self._deal: dict[str, Any] = {}

    # ----------------------------------------------------------------- state
    @property
    def profile_name(self) -> str:
        return self.profile.name

    @property
    def state(self) -> KanDeal:
        if self.session.state is None:
            raise InvalidStateError("no Kan deal is being followed")
        return self.session.state

    @property
    def history(self) -> list[str]:
        return [str(a) for a in self.session.state.move_stack] if self.session.state is not None else []

    def visual_class(self, label: str) -> str | None:
        return visual_class(label)

    def to_move(self) -> int | None:
        s = self.session.state
        return None if s is None or s.is_over or s.turn < 0 else s.turn

    def awaiting(self) -> str | None:
        s = self.session.state
        if s is None or s.phase in (Phase.PLAY, Phase.OVER):
            return None
        who = f"player {s.turn + 1}" if s.turn >= 0 else "the holder"
        return f"{who} to {_TALK[s.phase].format(card=s.announcing().code if s.phase is Phase.ANNOUNCE else '')}"

    def is_over(self) -> bool:
        return self.session.state is not None and self.session.state.is_over

    def result(self) -> dict[str, Any] | None:
        s = self.session.state
        if s is None or s.result is None:
            return None
        r = s.result
        return {"deal": r.number, "trump": r.trump.letter, "kankei": [p + 1 for p in r.kankei],
                "kankei_points": r.kankei_points, "kankei_won": r.kankei_won, "declaration": r.declaration.word,
                "stopped": r.stopped}

    def dealer(self) -> int:
        return self.session.match.dealer

    def where(self, cls: str) -> str:
        card = _CARDS.get(cls)
        return self.state.where(card) if card is not None else "not a card"

    def suspects(self, cls: str) -> list[int]:
        card = _CARDS.get(cls)
        return [i for i, a in enumerate(self.state.move_stack) if a.kind is ActionKind.PLAY and a.card is card]

    # ----------------------------------------------------------------- the deal
    def setup(self, table: ObservedTable) -> SetupResult:
        """A fresh deal: nothing on the trick spots or in the piles; the user's ten cards spread in their zone
        or not shown at all (typed instead)."""
        lying = [c for c in table.faces() if c.role is not None and c.role.startswith(("trick-", "captures-"))]
        if lying:
            return SetupResult(None, f"waiting for a deal: {len(lying)} cards still on the table")
        mine = [c.label for c in table.faces(hand(self.me))] if self.me is not None else []
        if len(mine) not in (0, HAND_SIZE):
            return SetupResult(None, f"waiting for your hand: {len(mine)} of {HAND_SIZE} cards seen")
        unknown = [label for label in mine if label not in _CARDS]
        if unknown or len(set(mine)) != len(mine):
            return SetupResult(None, f"waiting for a readable hand: {', '.join(unknown) or 'a card seen twice'}")
        hands: list[list[str]] = [[] for _ in range(PLAYERS)]
        hidden = [HAND_SIZE] * PLAYERS
        if self.me is not None and mine:
            hands[self.me], hidden[self.me] = sorted(mine), 0
        return SetupResult({"field": [], "hands": hands, "hidden": hidden},
                           "dealt: your hand seen" if mine else "dealt: nothing on the table")

    def start(self, deal: dict[str, Any], dealer: int | None = None) -> None:
        session = self.session
        if session.state is not None and session.state.is_over and not session.recorded:
            session.next_hand()  # the finished deal goes into the match first
        if dealer is not None and session.match.current is None:
            session.match.dealer = dealer
        try:
            hands = Hands(tuple(CardSet.parse(list(h)) for h in deal["hands"]), tuple(int(n) for n in deal["hidden"]))
            setup = _setup_from_json(deal["setup"]) if deal.get("setup") else None
        except (KeyError, TypeError) as exc:
            raise InvalidStateError(f"a Kan deal needs hands and hidden: {exc}") from exc
        state = session.start_deal(hands, setup)
        self._deal = {**deal, "setup": _setup_to_json(state.setup)}

    def revealed(self, table: ObservedTable) -> dict[str, Any] | None:
        """Never: a deal here starts only from a whole hand (or a typed one)."""
        return None

    def deal(self) -> dict[str, Any]:
        return self._deal

    # ----------------------------------------------------------------- actions
    def push(self, action: str, source: str) -> int:
        state = self.state
        parsed = parse_action(action)
        player = state.turn if state.turn >= 0 else parsed.player if parsed.player is not None else -1
        self.session.apply(str(parsed), source)
        return player

    def pop(self) -> str:
        last = self.state.peek()
        if last is None:
            raise InvalidStateError("there is no action to take back")
        self.session.undo()
        return str(last)

    def fork(self, actions: tuple[str, ...], deal: dict[str, Any] | None = None,
             dealer: int | None = None) -> KanLive:
        copy = KanLive(self.profile, self.me)
        base = self._deal if deal is None else {**deal, "setup": deal.get("setup") or self._deal.get("setup")}
        copy.start(base, self.dealer() if dealer is None else dealer)
        for action in actions:
            copy.push(action, "camera")
        return copy

    def unseen(self, action: str) -> bool:
        return parse_action(action).kind is not ActionKind.PLAY

    def normalise(self, text: str) -> str:
        return str(parse_action(text))

    # ----------------------------------------------------------------- prediction and candidates
    def prediction(self, base: tuple[str, ...] = ()) -> Prediction:
        state = self.state
        pushed = _replay(state, base)
        try:
            return self._predict(state)
        finally:
            for _ in range(pushed):
                state.pop()

    def _predict(self, state: KanDeal) -> Prediction:
        items = [Expect(card.code, trick_spot(p)) for p, card in zip(_seats(state, state.lead), state.trick,
                                                                       strict=False)]
        for k, trick in enumerate(state.tricks):
            lying = k == len(state.tricks) - 1 and not state.trick  # not gathered before the next lead
            for p, card in zip(_seats(state, trick.leader), trick.cards, strict=True):
                if lying:
                    items.append(Expect(card.code, trick_spot(p), captures(trick.winner), k, may_hide=True))
                else:
                    items.append(Expect(card.code, captures(trick.winner), may_hide=True))
        optional: frozenset[str] = frozenset()
        if self.me is not None:
            items += [Expect(c.code, hand(self.me)) for c in cards_of(state.hands[self.me])]
            optional = frozenset({hand(self.me)})
        return Prediction(tuple(items), optional)

    def candidates(self, table: ObservedTable, novel: frozenset[str], max_actions: int,
                   base: tuple[str, ...] = ()) -> list[Candidate]:
        """Breadth-first over plays (after ``base``) of cards seen somewhere new. Only the players in turn
        can have played, so a card seen on a spot is tried for the player whose turn it was."""
        state = self.state
        pushed = _replay(state, base)
        try:
            return self._search(state, table, novel, max_actions)
        finally:
            for _ in range(pushed):
                state.pop()

    def _search(self, state: KanDeal, table: ObservedTable, novel: frozenset[str],
                max_actions: int) -> list[Candidate]:
        spots = {c.role: c.label for c in table.faces() if c.role is not None and c.role.startswith("trick-")}
        frontier: list[_Path] = [_Path((), (), 0)]
        out: list[Candidate] = []
        seen = {_state_key(state)}
        for _ in range(max_actions):
            grown: list[_Path] = []
            for path in frontier:
                for action in path.actions:
                    state.push(action, check=False)
                for action in _plays(state, novel, spots):
                    player = state.turn
                    state.push(action, check=False)
                    key = _state_key(state)
                    if key not in seen:
                        seen.add(key)
                        implied = path.implied + _joker_doubt(state, action, spots)
                        longer = _Path((*path.actions, action), (*path.players, player), implied)
                        grown.append(longer)
                        out.append(Candidate(tuple(str(a) for a in longer.actions), longer.players,
                                             self._predict(state), implied, state.is_over))
                    state.pop()
                for _ in path.actions:
                    state.pop()
            frontier = grown
        return out


@dataclass(frozen=True)
class _Path:
    actions: tuple[Action, ...]
    players: tuple[int, ...]
    implied: int


def _plays(state: KanDeal, novel: frozenset[str], spots: dict[str, str]) -> list[Action]:
    """The legal plays now of a card the camera saw somewhere new, but not on another player's spot (a card
    in a pile: a trick gathered before the camera saw all of it)."""
    if state.phase is not Phase.PLAY:
        return []
    own = trick_spot(state.turn)
    others = {label for role, label in spots.items() if role != own}
    return [a for a in state.generate_legal_moves()
            if a.card is not None and a.card.code in novel and a.card.code not in others]


def _state_key(state: KanDeal) -> tuple[Any, ...]:
    """What the table and the rules can ever tell of a state: a trick gathered before the camera saw who
    played which card leaves states that differ only there, and nothing later can tell them apart, so the
    first found stands for all (unless a void or a known card makes them differ)."""
    return (state.hands, state.hidden, state.won, state.trick, state.voids, state.turn, state.phase,
            state.led)


def _joker_doubt(state: KanDeal, action: Action, spots: dict[str, str]) -> int:
    """A led joker names a suit nobody sees: the next player's card on the table says which it was."""
    if action.card is not Card.JOKER or action.suit is None or len(state.trick) != 1:
        return 0
    nxt = _CARDS.get(spots.get(trick_spot(state.turn), ""))
    if nxt is None or nxt is Card.JOKER:
        return 0
    return 0 if nxt.suit is action.suit else _MISNAMED_SUIT


def _seats(state: KanDeal, leader: int) -> list[int]:
    """The players of a trick in play order from ``leader``."""
    order = [leader]
    while len(order) < PLAYERS:
        order.append(state.right[order[-1]])
    return order


def _replay(state: KanDeal, actions: tuple[str, ...]) -> int:
    """Push ``actions`` (checked: a hypothesis from outside); on an illegal one undo them and raise."""
    pushed = 0
    try:
        for text in actions:
            state.push(parse_action(text))
            pushed += 1
    except KibitzError:
        for _ in range(pushed):
            state.pop()
        raise
    return pushed


def _setup_to_json(setup: DealSetup) -> dict[str, Any]:
    return {"number": setup.number, "trump": setup.trump.letter if setup.trump is not None else None,
            "order": list(setup.order), "joker_partner": setup.joker_partner, "ace_partner": setup.ace_partner}


def _setup_from_json(data: dict[str, Any]) -> DealSetup:
    trump = data.get("trump")
    return DealSetup(int(data["number"]), Suit.parse(trump) if trump else None, tuple(int(p) for p in data["order"]),
                     int(data["joker_partner"]), int(data["ace_partner"]))


__all__ = ["KanLive", "trick_spot", "visual_class", "zones"]

