"""The joining games followed live: tiles per zone in, checked moves out, inferred like Koi-Koi's cards.

The camera sees the line (role ``field``), each player's face-down tiles in front of them (role
``captures-P``: the pile a player pays with plays the part of a capture pile) and, where the user lays
their tiles out, their own hand (``hand-P``). All backs look alike: one visual class, ``back``; a tile face
up is its code, and the two copies of a civil tile are one class. A move is the tile that appeared in the
line, or one more back in front of the player to move (which of their own tiles only a visible hand can
tell; else the user types it). The leader's open end is told by the next tile laid on it. At the count the
face-down tiles are turned up where they lie: ``show P TILES`` once all of a player's unseen tiles are seen.
Tiles laid for good (all but the newest two) are settled: unseen, or read otherwise where they lie, they are still
themselves; a tile read a pip off is a likelier misread than another; a tile read where a laid one lies, that one
seen there too, is no play (tiles are never laid on others); a few things read as tiles beside a fresh deal are
clutter, left out from then on.

The state lives in a ``DominoSession`` (mode "camera"), so the app shows what the camera found.
``table_from_observation`` turns a ``vision.dominoes`` observation into the ``ObservedTable`` this reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.live.domino_count import by_elimination
from companion.live.game import Candidate, Expect, Prediction, SetupResult
from companion.live.strays import near
from companion.live.table import FIELD, ObservedTable, SeenCard, captures, hand
from companion.tables.dominoes import DominoSession, check_shown
from engine.dominoes.deal import DominoDeal
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import parse_tile
from engine.dominoes.tileset import DECKS, TileSet, count_tiles, tiles_of
from engine.errors import InvalidCardError, InvalidStateError, KibitzError
from vision.dominoes.observation import DominoTableObservation
from vision.observation import BACK, UNKNOWN

SHOW = "show"
MAX_CLUTTER = 2
"""Things read as tiles in the line or the face-down rows that a fresh deal still starts beside (a box, a marker
card): the session leaves out whatever lies there from then on. More than this is a deal still on the table."""
FRESH = 2
"""The newest tiles laid (in the line, or face down) may still be a misread move; older ones are settled: never
moved again this deal, so unseen or read otherwise where they lie they are still themselves."""


class DominoLive:
    """The domino adapter of the live table (see ``companion.live.game.LiveGame``)."""

    def __init__(self, profile: DominoProfile | None = None, me: int | None = 0, players: int | None = None,
                 session: DominoSession | None = None) -> None:
        self.profile = profile or DominoProfile.load("jielong")
        self.session = session or DominoSession(self.profile, "camera", players, you=me or 0)
        self.name = self.profile.game
        self.players = self.session.players
        self.me = me
        self.tiles = DECKS[self.session.match.deck]
        self._unread: dict[tuple[int, str], list[str]] = {}  # (player, tiles shown): those known by elimination

    # ----------------------------------------------------------------- state
    @property
    def profile_name(self) -> str:
        return self.profile.name

    @property
    def round(self) -> DominoRound:
        return self.session.round

    @property
    def history(self) -> list[str]:
        return self.session.history

    def visual_class(self, label: str) -> str | None:
        if label == BACK:
            return BACK
        if label == UNKNOWN:
            return None
        try:
            tile = parse_tile(label)
        except InvalidCardError:
            return None
        return tile.code if tile in self.tiles else None

    def to_move(self) -> int | None:
        state = self.session.state
        return None if state is None or state.is_over else state.turn

    def awaiting(self) -> str | None:
        if self.session.state is None:
            return None
        if self.session.counting:
            players = ", ".join(str(p + 1) for p in self.session.to_show())
            return f"the deal is over: turn up the face-down tiles of player {players} where they lie"
        state = self.round
        if state.turn == self.me and not state.is_over and _all_down(state):
            return "you cannot follow: lay a tile face down (type down TILE unless your hand is in view)"
        return None

    def is_over(self) -> bool:
        return self.session.state is not None and self.session.hand_over

    def result(self) -> dict[str, Any] | None:
        result = self.session.result if self.session.state is not None else None
        if result is None:
            return None
        return {"reason": result.reason, "winner": result.winner, "pips": list(result.pips),
                "net": list(result.net)}

    def dealer(self) -> int:
        return self.round.leader if self.session.state is not None else self.session.match.leader

    def where(self, cls: str) -> str:
        if cls == BACK:
            state = self.round
            counts = [count_tiles(state.down[p]) + len(state.down_unseen[p]) for p in range(self.players)]
            return "face down: " + ", ".join(f"{n} before player {p + 1}" for p, n in enumerate(counts))
        return self.round.where(parse_tile(cls))

    def misread_likeness(self, label: str, cls: str) -> float:
        """How likely ``label`` is a misread of tile ``cls`` (1: like any other misread): a pip or two off is
        likelier than another tile altogether (the reader drops or adds a pip; it does not invent a tile)."""
        if BACK in (label, cls):
            return 1.0
        try:
            seen, tile = parse_tile(label), parse_tile(cls)
        except InvalidCardError:
            return 1.0
        off = abs(seen.low - tile.low) + abs(seen.high - tile.high)  # low <= high on both: the closer pairing
        return 0.7 if off <= 1 else 0.9 if off <= 2 else 1.0

    def suspects(self, cls: str) -> list[int]:
        moves = self.round.move_stack
        if cls == BACK:
            return [i for i, m in enumerate(moves) if m.kind is MoveKind.DOWN]
        return [i for i, m in enumerate(moves) if m.tile is not None and m.tile.code == cls]

    # ----------------------------------------------------------------- the deal
    def setup(self, table: ObservedTable) -> SetupResult:
        """A fresh deal: nothing in the line or in front of anyone (but ``MAX_CLUTTER`` things read as tiles: clutter);
        the user's hand shown whole or not at all."""
        laid = [c for c in table.cards if c.role == FIELD or (c.role or "").startswith("captures-")]
        if len(laid) > MAX_CLUTTER:
            return SetupResult(None, f"waiting for a deal: {len(laid)} tiles still in the line or face down")
        size = self.session.match.hand_size
        mine = [c.label for c in table.faces(hand(self.me))] if self.me is not None else []
        if len(mine) not in (0, size):
            return SetupResult(None, f"waiting for your hand: {len(mine)} of {size} tiles seen")
        try:
            tiles = TileSet.parse(mine) if mine else TileSet()
        except InvalidCardError as exc:
            return SetupResult(None, f"waiting for a readable hand: {exc}")
        hands: list[list[str]] = [[] for _ in range(self.players)]
        hidden = [size] * self.players
        if self.me is not None and mine:
            hands[self.me], hidden[self.me] = tiles.codes(), 0
        deal = {"field": [], "hands": hands, "hidden": hidden, "deck": self.session.match.deck}
        aside = f"; {len(laid)} thing(s) read as tiles taken for clutter" if laid else ""
        return SetupResult(deal, f"dealt: {'your hand seen' if mine else 'no hand seen'}{aside}", tuple(laid))

    def start(self, deal: dict[str, Any], dealer: int | None = None) -> None:
        self.session.start_round(deal_from_json(deal), dealer)
        self._unread.clear()  # a new deal's count owes nothing to the last one's

    def revealed(self, table: ObservedTable) -> dict[str, Any] | None:
        """Never: a deal here starts only from a whole hand (or a typed one)."""
        return None

    def deal(self) -> dict[str, Any]:
        return deal_to_json(self.round.deal)

    # ----------------------------------------------------------------- actions
    def push(self, action: str, source: str) -> int:
        if self.session.counting:
            player = _show_player(action)
            self.session.show(action)
            return player
        player = self.round.turn
        self.session.apply(action, source)
        return player

    def pop(self) -> str:
        return self.session.pop_action()

    def fork(self, actions: tuple[str, ...], deal: dict[str, Any] | None = None,
             dealer: int | None = None) -> DominoLive:
        copy = DominoLive(self.profile, self.me, self.players)
        copy.start(self.deal() if deal is None else deal, self.dealer() if dealer is None else dealer)
        for action in actions:
            copy.push(action, "camera")
        return copy

    def unseen(self, action: str) -> bool:
        return False  # every action leaves a tile somewhere new

    def normalise(self, text: str) -> str:
        if self.session.counting:
            player = _show_player(text)
            tiles = TileSet.parse(text.replace(",", " ").split()[2:] or ["-"])
            return f"{SHOW} {player + 1} {tiles}"
        state = self.round
        move = DominoMove.parse(text)
        reason = state.illegal_reason(move)
        if reason is not None:
            raise reason
        same = [m for m in state.generate_legal_moves()
                if m.kind is move.kind and m.tile == move.tile and move.end in (None, m.end)]
        return str(same[0] if len(same) == 1 else move)

    # ----------------------------------------------------------------- prediction and candidates
    def prediction(self, base: tuple[str, ...] = ()) -> Prediction:
        pushed = self._replay(base)
        try:
            return self._predict()
        finally:
            for _ in range(pushed):
                self.session.pop_action()

    def _predict(self) -> Prediction:
        state = self.round
        settled = len(state.line) - FRESH
        items = [Expect(tile.code, FIELD, fixed=i < settled)
                 for i, (_, tile, _) in enumerate(state.line)]
        shown = dict(self.session.shown)
        newest = self._newest_down()
        for p in range(self.players):
            if p in shown:
                unread = list(self._unread.get((p, str(shown[p])), ()))  # unseen, as the camera could not read them
                for tile in (*tiles_of(state.down[p]), *shown[p]):
                    hidden = tile.code in unread
                    if hidden:
                        unread.remove(tile.code)
                    items.append(Expect(tile.code, captures(p), may_hide=hidden))
            else:
                backs = count_tiles(state.down[p]) + len(state.down_unseen[p])
                fresh = int(p == newest and backs > 0)
                items += [Expect(BACK, captures(p), fixed=True)] * (backs - fresh)
                items += [Expect(BACK, captures(p))] * fresh
        if self.me is not None and self._typing_down(state):  # laid already, perhaps, and not typed yet
            items.append(Expect(BACK, captures(self.me), may_hide=True))
        optional: frozenset[str] = frozenset()
        if self.me is not None:
            items += [Expect(tile.code, hand(self.me)) for tile in tiles_of(state.hands[self.me])]
            optional = frozenset({hand(self.me)})
        return Prediction(tuple(items), optional)

    def _typing_down(self, state: DominoRound) -> bool:
        """The user must lay a tile face down and say which (their hand is known, the camera cannot tell)."""
        return (state.turn == self.me and not state.is_over and not state.hidden[state.turn] and _all_down(state)
                and not self.session.counting)

    def _newest_down(self) -> int | None:
        """Who laid the newest face-down tile, if it was among the last ``FRESH`` moves (that back is not settled
        yet). Turns go round: the last move was the player's before the one to move (or, once over, the mover's)."""
        state = self.round
        last = state.turn if state.is_over else state.turn - 1
        for k, move in enumerate(reversed(state.move_stack[-FRESH:])):
            if move.kind is MoveKind.DOWN:
                return (last - k) % self.players
        return None

    def candidates(self, table: ObservedTable, novel: frozenset[str], max_actions: int,
                   base: tuple[str, ...] = ()) -> list[Candidate]:
        """Breadth-first over the actions whose tile the camera saw somewhere new; sequences reaching the same
        state are kept once (the first found)."""
        pushed = self._replay(base)
        try:
            return self._search(table, novel, max_actions)
        finally:
            for _ in range(pushed):
                self.session.pop_action()

    def _search(self, table: ObservedTable, novel: frozenset[str], max_actions: int) -> list[Candidate]:
        seen = {self._key()}
        frontier: list[_Path] = [_Path((), ())]
        out: list[Candidate] = self._blocked_count(table)
        for _ in range(max_actions):
            grown: list[_Path] = []
            for path in frontier:
                for action in path.actions:
                    self.push(action, "camera")
                for action in self._next_actions(table, novel):
                    player = self.push(action, "camera")
                    key = self._key()
                    if key not in seen:
                        seen.add(key)
                        longer = _Path((*path.actions, action), (*path.players, player))
                        grown.append(longer)
                        out.append(Candidate(longer.actions, longer.players, self._predict(), 0, self.is_over()))
                    self.session.pop_action()
                for _ in path.actions:
                    self.session.pop_action()
            frontier = grown
        return out

    def _blocked_count(self, table: ObservedTable) -> list[Candidate]:
        """Tiles turned up in front of players while the deal still runs: the table saw that nobody can play
        again (the camera cannot know the hidden hands). The deal comes to each player in turn laying a tile
        face down until the rules see the block too, then the count: one candidate, the passes implied."""
        state = self.round
        turned = [p for p in range(self.players) if p != self.me and any(
            self.visual_class(c.label) not in (None, BACK) for c in table.faces(captures(p)))]
        if state.is_over or not turned:
            return []
        actions: list[str] = []
        players: list[int] = []
        try:
            while not state.is_over and len(actions) < self.players * self.session.match.hand_size:
                moves = state.generate_legal_moves()
                if any(m.kind is MoveKind.PLAY for m in moves if m.tile is not None and not state.hidden[state.turn]):
                    return []  # a known hand can still play: not blocked
                down = DominoMove.down() if state.hidden[state.turn] else max(
                    (m for m in moves if m.kind is MoveKind.DOWN), key=lambda m: m.tile or 0)
                players.append(self.push(str(down), "camera"))  # pushed first: a refused push is not popped
                actions.append(str(down))
            implied = len(actions)
            while self.session.counting:
                shows = self._shows(table)
                if not shows:
                    return []
                players.append(self.push(shows[0], "camera"))
                actions.append(shows[0])
            return [Candidate(tuple(actions), tuple(players), self._predict(), implied, self.is_over())]
        except KibitzError:
            return []
        finally:
            for _ in actions:
                self.session.pop_action()

    def _next_actions(self, table: ObservedTable, novel: frozenset[str]) -> list[str]:
        session = self.session
        if session.counting:
            return self._shows(table)
        state = self.round
        if state.is_over:
            return []
        hand_seen = self.me is not None and bool(table.faces(hand(self.me)))
        on_laid = self._on_laid_tiles(table, state, novel)
        out = []
        for move in state.generate_legal_moves():
            if move.kind is MoveKind.PLAY:
                ok = move.tile is not None and move.tile.code in novel and move.tile.code not in on_laid
            else:
                ok = ((BACK in novel or self._typing_down(state))  # (a back the state allows for is not novel)
                      and (move.tile is None or (hand_seen and state.turn == self.me)))
            if ok:
                out.append(str(move))
        return out

    def _on_laid_tiles(self, table: ObservedTable, state: DominoRound, novel: frozenset[str]) -> set[str]:
        """Of the ``novel`` classes, those seen in the line only at the place of a tile laid before, seen there too
        as itself (``strays.near``: tiles in a line lie a length apart end to end, and 0.7 of one where a double lies
        across): a tile is never laid on another, so such a read is a second look at that tile (a quad over it and
        the token beside it, a half of it read as another tile), not a new one. Laying it would be a phantom move."""
        line = table.in_role(FIELD)
        laid = {tile.code for _, tile, _ in state.line}
        anchors = [c for c in line if self.visual_class(c.label) in laid]
        out: dict[str, bool] = {}
        for card in line:
            cls = self.visual_class(card.label)
            if cls not in novel or cls in laid:
                continue
            stacked = any(near(card, a) for a in anchors)
            out[cls] = out.get(cls, True) and stacked
        return {cls for cls, stacked in out.items() if stacked}

    def _shows(self, table: ObservedTable) -> list[str]:
        """``show P TILES`` for each player whose unseen tiles all lie face up in front of them now. Where none of
        the players left can show as read, the tiles the camera could not read may be known by elimination
        (``companion.live.domino_count``); those are expected unseen where they lie."""
        state = self.round
        out = []
        earlier = [tiles for _, tiles in self.session.shown]
        left = self.session.to_show()
        reads: dict[int, TileSet] = {}
        for p in left:
            faces = [c.label for c in table.faces(captures(p)) if self.visual_class(c.label) not in (None, BACK)]
            try:
                reads[p] = TileSet.parse(faces) - TileSet(state.down[p])
                check_shown(state, p, reads[p], earlier)
            except KibitzError:
                continue
            out.append(f"{SHOW} {p + 1} {reads[p]}")
        if not out and left and len(reads) == len(left):
            for p, tiles in by_elimination(state, reads, earlier).items():
                self._unread[(p, str(tiles))] = (tiles - reads[p]).codes()
                out.append(f"{SHOW} {p + 1} {tiles}")
        return out

    def _key(self) -> tuple[Any, ...]:
        state = self.round
        return (state.hands, state.hidden, state.down, tuple(map(len, state.down_unseen)), state.laid, state.ends,
                state.turn, state.phase, tuple(self.session.shown))

    def _replay(self, actions: Sequence[str]) -> int:
        """Push ``actions`` (a hypothesis from outside: checked); all or nothing."""
        pushed = 0
        try:
            for action in actions:
                self.push(action, "camera")
                pushed += 1
        except KibitzError:
            for _ in range(pushed):
                self.session.pop_action()
            raise
        return pushed


@dataclass(frozen=True)
class _Path:
    actions: tuple[str, ...]
    players: tuple[int, ...]


def _all_down(state: DominoRound) -> bool:
    return all(m.kind is MoveKind.DOWN for m in state.generate_legal_moves())


def _show_player(text: str) -> int:
    words = text.split()
    if len(words) < 2 or words[0] != SHOW or not words[1].isdigit():
        raise InvalidStateError(f"the deal is being counted: 'show P TILES', not {text!r}")
    return int(words[1]) - 1


def deal_to_json(deal: DominoDeal) -> dict[str, Any]:
    return {"field": [], "hands": [h.codes() for h in deal.hands], "hidden": list(deal.hidden), "deck": deal.deck}


def deal_from_json(data: dict[str, Any]) -> DominoDeal:
    """The recorded deal back as an engine ``DominoDeal`` (hands as far as known)."""
    try:
        hands = tuple(TileSet.parse(list(h)) for h in data["hands"])
        return DominoDeal(hands, tuple(int(n) for n in data["hidden"]), str(data.get("deck", "chinese")))
    except (KeyError, TypeError) as exc:
        raise InvalidStateError(f"a domino deal needs hands and hidden: {exc}") from exc


# ----------------------------------------------------------------- from the recogniser to roles
FAR_INNER = 0.25  # DominoZones: the top band's inner share, where a side's pile may reach under a tilted camera


@dataclass(frozen=True)
class DominoZones:
    """Where each role lies in the image (x0, y0, x1, y1 as fractions), the user's side at the bottom.

    Seats go counter-clockwise from the user: the next player on the right, then across, then the left."""

    players: int = 4
    me: int = 0
    hand_band: float = 0.88  # below this: the user's own tiles, laid out face up
    edge: float = 0.16  # the bands of the face-down piles along each side

    def role_of(self, center: tuple[float, float], size: tuple[int, int]) -> str:
        """The role of a tile centred at ``center`` in a ``size`` image: the bottom band first, then the top one,
        then the sides. A tile only in the top band's inner part (``FAR_INNER`` of its width) that lies deeper in a
        side's band is that side's (session 26: the left player's first face-down tile, under a tilted camera, lay
        there and was the top player's; a thing deep in the corner stays the top player's, as before)."""
        x, y = center[0] / size[0], center[1] / size[1]
        if y >= self.hand_band:
            return hand(self.me)
        sides = {2: ("bottom", "top"), 3: ("bottom", "right", "left"), 4: ("bottom", "right", "top", "left")}
        top = (self.edge - y) / self.edge  # how deep in the top band, as a share of its width
        side_depth, side = max(((x - (1 - self.edge)) / self.edge, "right"), ((self.edge - x) / self.edge, "left"))
        far = top > 0 and not (top < FAR_INNER and side_depth > top)
        where = ("bottom" if y >= 1 - 2 * self.edge else "top" if far else side if side_depth > 0 else None)
        order = sides.get(self.players, sides[4])
        if where is None or where not in order:
            return FIELD
        return captures((self.me + order.index(where)) % self.players)

    @staticmethod
    def label_in(role: str, label: str) -> str:
        """The label as the zone allows it: nothing lies face down in the line, so a back read there is a tile
        that could not be read (seen edge-on, in a hand)."""
        return UNKNOWN if role == FIELD and label == BACK else label


def table_from_observation(observation: DominoTableObservation, zones: DominoZones, time: float = 0.0,
                           frame: int = -1) -> ObservedTable:
    """Each tile of a recognised frame with the role of the zone its centre lies in."""
    cards = []
    for tile, label in zip(observation.tiles, observation.labels(), strict=True):
        role = zones.role_of(tile.center, observation.image_size)
        label = zones.label_in(role, label)
        quad = tile.quad
        long_side = max(((quad[i][0] - quad[i - 1][0]) ** 2 + (quad[i][1] - quad[i - 1][1]) ** 2) ** 0.5
                        for i in range(4))
        cards.append(SeenCard(label, role, tile.confidence, tile.center, long_side))
    return ObservedTable(tuple(cards), time, frame)
