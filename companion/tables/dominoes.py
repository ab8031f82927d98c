"""The joining games (Jie Long, Ce Deng, Kkoribuchigi) at the app's table screen: one deal after another,
followed from seat ``you``.

- demo: the true deal; bots play the other seats, the screen shows only what ``you`` see.
- manual: the user types their own tiles and who leads, then every move at the table as it happens:
  ``play 3:5`` (``open 5`` where the leader names the end), ``down 6:6`` for their own face-down tile and
  ``down`` for another player's. At the end the face-down tiles are turned up (``show 2 1:3 6:6``, one
  player at a time) and the deal is settled.
- camera: the same as manual, driven by ``companion.live.dominoes`` from what the camera sees
  (``companion.live.domino_camera``: a worker thread, the screen's session its mirror).

Business logic only; the panels' text comes from ``dominoes_panels``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.i18n import t
from companion.tables import dominoes_panels as panels
from companion.tables.base import MoveChoice, PanelText, TableHintSearch, TableSession
from companion.tables.dominoes_texts import reason_text
from engine.dominoes.bots import GreedyBot
from engine.dominoes.deal import DominoDeal
from engine.dominoes.hints import hint_search, move_reason
from engine.dominoes.match import DominoMatch
from engine.dominoes.moves import DominoMove
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.settle import Settlement
from engine.dominoes.tileset import TileSet, contains
from engine.dominoes.unseen import assign
from engine.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, KibitzError

MODES = ("demo", "manual", "camera")


class DominoSession(TableSession):
    def __init__(self, profile: DominoProfile, mode: str = "demo", players: int | None = None,
                 seed: int | None = None, you: int = 0, rounds: int | None = None, leader: int = -1) -> None:
        if mode not in MODES:
            raise InvalidStateError(f"a domino table is followed in {', '.join(MODES)} mode, not {mode!r}")
        self.profile = profile
        self.game = profile.game
        self.mode = mode
        self.match = DominoMatch(profile, players, seed, rounds, leader)
        self.players = self.match.players
        if not 0 <= you < self.players:
            raise InvalidStateError(f"you sit at seat 1 to {self.players}, not {you + 1}")
        self.you = you
        self.bot = GreedyBot()
        self.state: DominoRound | None = None
        self.shown: list[tuple[int, TileSet]] = []  # the count: each player's unseen tiles as turned up
        self.recorded = False
        if mode == "demo":
            self.start_round(None)

    # ----------------------------------------------------------------- the state
    @property
    def round(self) -> DominoRound:
        if self.state is None:
            raise IllegalMoveError("no deal yet: type your tiles first")
        return self.state

    @property
    def seen(self) -> DominoRound:
        """The deal as ``you`` see it (the demo holds the truth; a finished deal is shown whole)."""
        state = self.round
        return state.view(self.you) if self.mode == "demo" and not state.is_over else state

    @property
    def counting(self) -> bool:
        """The deal is over but unseen tiles must be turned up before it can be settled."""
        return self.state is not None and self.state.is_over and self.state.result is None and bool(self.to_show())

    @property
    def result(self) -> Settlement | None:
        state = self.state
        if state is None or not state.is_over:
            return None
        if state.result is not None:
            return state.result
        if self.to_show():
            return None
        return state.count([self._shown_by(p) for p in range(self.players)])

    def to_show(self) -> list[int]:
        """Players whose unseen tiles (face down, or in hand when they count) are still to be turned up."""
        state = self.round
        if not state.is_over or state.result is not None:
            return []
        done = {p for p, _ in self.shown}
        return [p for p in range(self.players) if p not in done and unseen_count(state, p)]

    def _shown_by(self, player: int) -> TileSet:
        return next((tiles for p, tiles in self.shown if p == player), TileSet())

    @property
    def history(self) -> list[str]:
        """Every action of the deal as text, the count's ``show`` actions last."""
        if self.state is None:
            return []
        return [str(m) for m in self.state.move_stack] + [f"show {p + 1} {tiles}" for p, tiles in self.shown]

    # ----------------------------------------------------------------- flow
    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def hand_over(self) -> bool:
        return self.state is not None and self.state.is_over and not self.counting

    @property
    def match_over(self) -> bool:
        return self.match.is_over or (self.hand_over and self.match.round_number >= self.match.rounds
                                      and self.round.ending != "redeal")

    @property
    def your_turn(self) -> bool:
        return self.state is not None and not self.state.is_over and self.state.turn == self.you

    @property
    def bot_to_move(self) -> bool:
        return self.mode == "demo" and self.state is not None and not self.state.is_over and not self.your_turn

    def play_bot(self) -> None:
        self.round.push(self.bot.choose(self.round))

    def start_round(self, deal: DominoDeal | None, leader: int | None = None) -> None:
        """The next deal: ``deal`` as seen at the table (``None``: shuffled), led by ``leader`` (``None``:
        whom the match names, the previous winner or the lead tile's holder)."""
        self._record()
        self.state = self.match.new_round(deal, leader)
        self.shown = []
        self.recorded = False

    def _record(self) -> None:
        """Count the finished deal in the match (once)."""
        if self.state is None or self.recorded or not self.hand_over:
            return
        result = self.result
        if result is not None:
            self.match.record(self.state, result)
        self.recorded = True

    def next_hand(self) -> None:
        if self.state is not None and not self.hand_over:
            raise IllegalMoveError("the deal is not over yet")
        self._record()
        if self.match.is_over:
            return
        if self.mode == "demo":
            self.start_round(None)
        else:
            self.state = None

    def deal_prompt(self, lang: str) -> str:
        return t("dom_deal_prompt", lang, n=self.match.hand_size)

    def start_from_text(self, text: str) -> None:
        """``1:3 6:6 ... lead 2``: your tiles, then who leads (1 = you, counted in turn order)."""
        words = text.replace(",", " ").split()
        leader: int | None = None
        if "lead" in words:
            at = words.index("lead")
            if len(words) != at + 2 or not words[at + 1].isdigit():
                raise InvalidMoveError("end the deal with 'lead P': P is the player who leads, 1 = you")
            leader = (self.you + int(words[at + 1]) - 1) % self.players
            if not 1 <= int(words[at + 1]) <= self.players:
                raise InvalidMoveError(f"the leader is player 1 to {self.players}, not {words[at + 1]}")
            words = words[:at]
        tiles = TileSet.parse(words)
        size = self.match.hand_size
        if len(tiles) != size:
            raise InvalidStateError(f"a hand holds {size} tiles; {len(tiles)} were typed ({tiles})")
        if leader is None and not self.match.results and self.profile.lead_holder is None:
            raise InvalidMoveError("who leads the first deal? end with 'lead P' (1 = you, 2 = the next player)")
        self.start_round(self.deal_with(tiles), leader)

    def deal_with(self, tiles: TileSet) -> DominoDeal:
        """A deal where only your hand is known."""
        hands = tuple(tiles if p == self.you else TileSet() for p in range(self.players))
        hidden = tuple(0 if p == self.you else self.match.hand_size for p in range(self.players))
        return DominoDeal(hands, hidden, self.match.deck)

    # ----------------------------------------------------------------- moves
    def apply(self, text: str, source: str = "typed") -> None:
        state = self.round
        if self.counting:
            self.show(text)
            return
        if state.is_over:
            raise IllegalMoveError("the deal is over: press n for the next one")
        if self.mode == "demo" and state.turn != self.you:
            raise IllegalMoveError(f"player {state.turn + 1} (a bot) is to move")
        state.push(DominoMove.parse(text))

    def show(self, text: str) -> None:
        """``show P TILES``: player P turns up their unseen tiles at the count."""
        words = text.replace(",", " ").split()
        if len(words) < 2 or words[0].lower() != "show" or not words[1].isdigit():
            players = ", ".join(str(p + 1) for p in self.to_show())
            raise InvalidMoveError(f"the deal is counted: type 'show P TILES' for player {players}")
        player = int(words[1]) - 1
        if player not in self.to_show():
            raise IllegalMoveError(f"player {words[1]} has nothing unseen to turn up")
        tiles = TileSet.parse(words[2:] or ["-"])
        check_shown(self.round, player, tiles, [s for _, s in self.shown])
        self.shown.append((player, tiles))

    def pop_action(self) -> str:
        """Take back the last action (a ``show`` before any move); returns its text."""
        state = self.round
        if self.shown:
            player, tiles = self.shown.pop()
            return f"show {player + 1} {tiles}"
        self.recorded = False
        return str(state.pop())

    def undo(self) -> None:
        """Manual and camera: the last action. Demo: back to your previous turn (the bots' moves too)."""
        state = self.round
        if self.recorded:
            raise IllegalMoveError("the deal is counted in the match already")
        if self.mode != "demo":
            self.pop_action()
            return
        mine = [i for i, m in enumerate(state.move_stack) if (state.leader + i) % self.players == self.you]
        if not mine:
            raise IllegalMoveError("you have made no move to take back")
        while len(state.move_stack) > mine[-1]:
            state.pop()

    # ----------------------------------------------------------------- what the screen shows
    def status(self, lang: str) -> str:
        return panels.status_line(self, lang)

    def panels(self, lang: str) -> Sequence[PanelText]:
        return panels.main_panels(self, lang)

    def side_panels(self, lang: str) -> Sequence[PanelText]:
        return panels.side_panels(self, lang)

    def choices(self, lang: str) -> Sequence[MoveChoice]:
        if self.state is None or self.state.is_over or (self.mode == "demo" and not self.your_turn):
            return []
        view = self.seen
        return [MoveChoice(str(m), panels.move_label(view, m, lang)) for m in view.generate_legal_moves()]

    def advice(self, lang: str) -> Sequence[str]:
        return panels.advice(self, lang)

    def hint_search(self, lang: str, seed: int) -> TableHintSearch | None:
        if not self.your_turn:
            return None
        view = self.seen
        search = hint_search(view, self.you, seed)
        labels = {i: (str(m), panels.move_label(view, m, lang), reason_text(move_reason(view, self.you, m), lang))
                  for i, m in enumerate(search.moves)}
        return TableHintSearch(search, labels, unit="pts")


def unseen_count(state: DominoRound, player: int) -> int:
    """How many of the player's tiles nobody has seen: face down, or left in a hidden hand."""
    return len(state.down_unseen[player]) + state.hidden[player]


def check_shown(state: DominoRound, player: int, tiles: TileSet, earlier: Sequence[TileSet]) -> None:
    """Whether ``player`` can have turned up ``tiles``: as many as they have unseen, from the unseen tiles
    (less what others turned up), none with a number they showed they lacked when they laid it."""
    expected = unseen_count(state, player)
    if len(tiles) != expected:
        raise InvalidStateError(f"player {player + 1} has {expected} unseen tiles to turn up, not {len(tiles)}")
    pool = TileSet(state.unseen_mask())
    for other in earlier:
        pool = pool - other
    if not contains(pool.mask, tiles.mask):
        wrong = next(tile for tile in tiles.distinct() if tiles.count(tile) > pool.count(tile))
        raise InvalidStateError(f"player {player + 1} cannot turn up {wrong.code}: {state.where(wrong)}")
    slots = [state.void[player]] * state.hidden[player] + list(state.down_unseen[player])
    try:
        assign(slots, list(tiles), random.Random(0))
    except InvalidStateError:
        raise InvalidStateError(
            f"player {player + 1} cannot have {tiles}: they laid face down holding no tile for the open end"
        ) from None


def build_screen(game: str, args: Any, **camera: Any) -> Any:
    """The screen of ``kibitz play|demo jielong|cedeng|kkori`` (see ``companion.commands.play``); with
    ``--camera/--video/--images`` the camera follows the deal (``companion.live.domino_camera``; ``camera`` are
    the worker's options: recogniser, stability, realtime)."""
    from companion.app.table_screen import TableScreen
    from companion.live.app_bridge import follows_camera

    options = vars(args) if not isinstance(args, dict) else args
    profile = DominoProfile.load(options.get("rules") or options.get("profile") or game)
    if profile.game != game:
        raise KibitzError(f"the profile {profile.name!r} is for {profile.game}, not {game}")
    screen_options = {"lang": options.get("lang") or "en", "hints": not options.get("no_hints"),
                      "teach": bool(options.get("teach"))}
    if follows_camera(options):
        from companion.live.camera_screen import CameraTableScreen
        from companion.live.domino_camera import open_domino_camera

        if options.get("video"):
            camera.setdefault("realtime", True)  # a recording plays at its own pace, as the camera saw it
        bridge = open_domino_camera(options, profile, options.get("players"), **camera)
        assert bridge is not None  # a source was given, or --resume without one was refused
        return CameraTableScreen(bridge, **screen_options)
    mode = "demo" if options.get("demo") else "manual"
    session = DominoSession(profile, mode, options.get("players"), options.get("seed"), rounds=options.get("rounds"))
    return TableScreen(session, **screen_options)
