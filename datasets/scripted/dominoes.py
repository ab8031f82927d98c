"""A domino deal as a table would show it: the engine plays (greedy bots), and each move becomes a physical
step (a hand reaches in, a tile lands at the end of the line or face down in front of its player), with the
ground-truth action beside it. The frames come from ``datasets.scripted.domino_render``.

Positions are table millimetres on a 760 x 428 mm area, origin top-left, the recorded user (seat 0) at the
bottom edge, the next player (counter-clockwise) on the right, then across and on the left: the layout of
``companion.live.dominoes.DominoZones``. The line snakes through the middle from its closed end (marked by a
red token) in rows of eight; each player's face-down tiles lie in a row along their edge; the user's own tiles,
when laid out, lie face up along the bottom. At the end of the deal every player whose tiles nobody has seen
turns them up where they lie (with the tiles left in hand at a blocked end beside them).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from datasets.scripted.script import Placed, Step
from engine.dominoes.bots import GreedyBot
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import Tile
from engine.dominoes.tileset import TileSet, tiles_of

TABLE_MM = (760.0, 428.0)
TILE_MM = (20.5, 57.0)  # short, long side of the nominal tile (the shared Chinese art's shape)
FIELD_MM = (122.0, 68.0, 638.0, 291.0)  # the middle of the table, where the line lies
ROW_TILES = 8
ROW_GAP = 50.0
SIDES = {2: ("bottom", "top"), 3: ("bottom", "right", "left"), 4: ("bottom", "right", "top", "left")}
PILE_LINE = {"bottom": 334.0, "top": 36.0, "right": 700.0, "left": 60.0}  # where each side's row lies (y or x)
HAND_Y = 406.0
MARKER = "marker"  # the label of the closed-end token (not a tile)
BACK = "back"


@dataclass(frozen=True)
class Laid(Placed):
    """A tile on the table: ``label`` its code (``a:b``, a ≤ b) or ``back``; ``top`` / ``bottom`` the pips drawn on
    its halves (``angle`` turns the top half away from table up, as ``datasets.dominoes.layouts`` does)."""

    top: int = 0
    bottom: int = 0

    @property
    def face_up(self) -> bool:
        return self.label != BACK


@dataclass(frozen=True)
class DominoScriptConfig:
    pass_over: float = 0.12  # a hand passes over the table and leaves without changing anything
    hover: float = 0.06  # a hand rests still over the table for a while
    hand_on_table: float = 0.5  # the user lays their tiles out face up (else they type them)
    hold_s: tuple[float, float] = (0.8, 1.2)


@dataclass
class DominoScript:
    """A scripted deal. ``actions`` are the moves as the camera can tell them (``down ?`` for another player's
    face-down tile; ``show P TILES`` at the count), each with its player and source (``camera``, or ``typed``
    for the user's own face-down tile when their hand is not in view); ``hand`` is the user's dealt hand."""

    seed: int
    game: str
    players: int
    leader: int
    me: int
    steps: list[Step]
    actions: list[tuple[str, int, str]]
    hand: list[str]
    hand_on_table: bool
    result: dict[str, object] = field(default_factory=dict)

    def camera_actions(self) -> list[str]:
        return [a for a, _, source in self.actions if source == "camera"]

    def head(self, steps: int) -> DominoScript:
        """The first ``steps`` steps and the actions they show."""
        shown = sum(step.action is not None for step in self.steps[:steps])
        return DominoScript(self.seed, self.game, self.players, self.leader, self.me, self.steps[:steps],
                            self.actions[:shown], self.hand, self.hand_on_table)


class _Table:
    """Where each physical tile lies, updated move by move."""

    def __init__(self, rng: random.Random, players: int, size: int) -> None:
        self.rng = rng
        self.sides = SIDES[players]
        self.size = size
        self.line: list[Laid] = []
        self.marker: Laid | None = None
        self.piles: list[list[Laid]] = [[] for _ in range(players)]
        self.hand: list[Laid] = []

    def jitter(self, sigma_deg: float = 1.5) -> float:
        return float(np.radians(self.rng.gauss(0.0, sigma_deg)))

    def nudge(self, x: float, y: float, mm: float = 1.2) -> tuple[float, float]:
        return (x + self.rng.uniform(-mm, mm), y + self.rng.uniform(-mm, mm))

    def lay_line(self, tile: Tile, near: int, far: int) -> tuple[float, float]:
        """The next tile of the line: its ``near`` number touches the previous tile, ``far`` is left open."""
        i = len(self.line)
        row, column = divmod(i, ROW_TILES)
        pitch = TILE_MM[1] + 4.0  # tiles of the line lie end to end, a few millimetres apart
        x0 = (FIELD_MM[0] + FIELD_MM[2]) / 2 - (ROW_TILES - 1) / 2 * pitch
        rightwards = row % 2 == 0
        x = x0 + (column if rightwards else ROW_TILES - 1 - column) * pitch
        y = FIELD_MM[1] + 30.0 + row * ROW_GAP
        angle = -np.pi / 2 if rightwards else np.pi / 2  # the top half (``near``) towards where the line came from
        centre = self.nudge(x, y)
        self.line.append(Laid(tile.code, "field", centre, float(angle + self.jitter()), near, far))
        if i == 0:  # the closed end's token, just before the lead tile
            self.marker = Laid(MARKER, "field", (x - pitch / 2 - 12.0, y), 0.0)
        return centre

    def slot(self, player: int, index: int, count: int) -> tuple[tuple[float, float], float]:
        """Centre and angle of the ``index``-th of ``count`` tiles in front of ``player`` (long side towards them)."""
        side = self.sides[player]
        span = 400.0 if side in ("bottom", "top") else 215.0
        pitch = min(TILE_MM[0] + 9.0, span / max(count, 1))
        offset = (index - (count - 1) / 2) * pitch
        if side in ("bottom", "top"):
            return (TABLE_MM[0] / 2 + offset, PILE_LINE[side]), (0.0 if side == "bottom" else np.pi)
        centre_y = (FIELD_MM[1] + FIELD_MM[3]) / 2
        return (PILE_LINE[side], centre_y + offset), (np.pi / 2 if side == "right" else -np.pi / 2)

    def lay_down(self, player: int, tile: Tile) -> tuple[float, float]:
        (x, y), angle = self.slot(player, len(self.piles[player]), self.size)
        flip = self.rng.random() < 0.5
        top, bottom = (tile.high, tile.low) if flip else (tile.low, tile.high)
        centre = self.nudge(x, y)
        angle += self.jitter(2.5)
        self.piles[player].append(Laid(BACK, f"captures-{player}", centre, float(angle), top, bottom))
        return centre

    def turn_up(self, player: int, leftover: list[Tile]) -> None:
        """The count: the player's face-down tiles turned over where they lie, the tiles left in hand beside them."""
        pile = [Laid(f"{min(t.top, t.bottom)}:{max(t.top, t.bottom)}", t.role, t.centre, t.angle, t.top, t.bottom)
                for t in self.piles[player]]
        for tile in leftover:
            (x, y), angle = self.slot(player, len(pile), self.size)
            pile.append(Laid(tile.code, f"captures-{player}", self.nudge(x, y), float(angle + self.jitter(2.5)),
                             tile.low, tile.high))
        self.piles[player] = pile

    def lay_hand(self, tiles: list[Tile], me: int) -> None:
        pitch = TILE_MM[1] + 16.0
        self.hand = []
        for i, tile in enumerate(tiles):
            x = TABLE_MM[0] / 2 + (i - (len(tiles) - 1) / 2) * pitch
            flip = self.rng.random() < 0.5
            self.hand.append(Laid(tile.code, f"hand-{me}", self.nudge(x, HAND_Y), float(np.pi / 2 + self.jitter()),
                                  tile.high if flip else tile.low, tile.low if flip else tile.high))

    def take_from_hand(self, tile: Tile) -> None:
        i = next(i for i, t in enumerate(self.hand) if t.label == tile.code)
        self.hand.pop(i)

    def placed(self) -> tuple[Placed, ...]:
        marker = [self.marker] if self.marker is not None else []
        return tuple([*marker, *self.line, *(t for pile in self.piles for t in pile), *self.hand])


def dealt_round(seed: int, profile: DominoProfile, players: int) -> DominoRound:
    """A seeded deal that is played (not void, not won by eight doubles at once); the leader by lot."""
    for tries in range(100):
        state = DominoRound.shuffled(seed * 1000 + tries, players, profile, leader=(seed + tries) % players)
        if not state.is_over:
            return state
    raise ValueError(f"no playable {profile.game} deal found for seed {seed}")


def script_deal(seed: int, game: str = "jielong", players: int = 4, config: DominoScriptConfig | None = None,
                me: int = 0) -> DominoScript:
    """Play a seeded deal with greedy bots in every seat and turn it into physical steps."""
    config = config or DominoScriptConfig()
    profile = DominoProfile.load(game)
    if profile.arms != 1:
        raise ValueError("the scripted table lays a one-armed line only (the two-arm variant is not drawn)")
    rng = random.Random(seed)
    state = dealt_round(seed, profile, players)
    table = _Table(rng, players, state.size)
    hand = sorted(state.hand(me))
    hand_on_table = rng.random() < config.hand_on_table
    if hand_on_table:
        table.lay_hand(hand, me)

    def hold() -> float:
        return rng.uniform(*config.hold_s)

    # The deal is seen in two still periods: the table before and after a hand passes over it.
    steps = [Step(table.placed(), None, hold_s=1.2), Step(table.placed(), _random_spot(rng), hold_s=hold())]
    actions: list[tuple[str, int, str]] = []
    bot = GreedyBot()
    while not state.is_over:
        player = state.turn
        move: DominoMove = bot.choose(state)
        state.push(move)
        tile = move.tile
        assert tile is not None
        if move.kind is MoveKind.PLAY:
            _, _, end = state.line[-1]
            far = end if end is not None else tile.high
            where = table.lay_line(tile, tile.other(far), far)
            text, source = str(move), "camera"
        else:
            where = table.lay_down(player, tile)
            text = str(move) if player == me else str(DominoMove.down())
            source = "typed" if player == me and not hand_on_table else "camera"
        if player == me and hand_on_table:
            table.take_from_hand(tile)
        actions.append((text, player, source))
        steps.append(Step(table.placed(), where, text, player, hold()))
        if rng.random() < config.pass_over:
            steps.append(Step(table.placed(), _random_spot(rng), hold_s=hold()))
        if rng.random() < config.hover:
            steps.append(Step(table.placed(), _random_spot(rng), hold_s=hold(), hover_s=rng.uniform(1.0, 1.6)))
    # The count: everyone whose tiles nobody has seen turns them up at once (one look shows them all).
    shows = [p for p in range(players) if p != me and (state.down[p] or state.hands[p])]
    for player in shows:
        table.turn_up(player, list(tiles_of(state.hands[player])))
        shown = TileSet([*tiles_of(state.down[player]), *tiles_of(state.hands[player])])
        actions.append((f"show {player + 1} {shown}", player, "camera"))
    if shows:
        steps.append(Step(table.placed(), _random_spot(rng), "show", None, hold()))
    result = state.result
    assert result is not None
    return DominoScript(seed, game, players, state.leader, me, steps, actions, [t.code for t in hand], hand_on_table,
                        {"reason": state.ending, "winner": result.winner, "pips": list(result.pips),
                         "net": list(result.net)})


def _random_spot(rng: random.Random) -> tuple[float, float]:
    x0, y0, x1, y1 = FIELD_MM
    return (rng.uniform(x0, x1), rng.uniform(y0, y1))
