"""A two-player capture round (Koi-Koi, Matgo) as a table would show it: the engine plays (bots), and each
action becomes a physical step (a hand reaches in, a card lands on the field or on the card it takes, captured
cards are gathered into the player's piles), with the ground-truth action beside it.

Positions are table millimetres on a 600 x 340 mm play area, origin top-left, the recorded player (seat 0)
at the bottom edge. The zones are the roles the live layer uses: ``captures-1`` along the top, the field in
two rows in the middle with the ``stock`` to its left, ``captures-0`` below it and ``hand-0`` at the bottom.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.bots import Bot, RandomBot
from engine.capture import CaptureRound
from engine.cards import Card, Kind
from engine.cardset import CardSet
from engine.koikoi.bots import GreedyBot
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move, MoveKind

TABLE_MM = (600.0, 340.0)
CARD_MM = (34.0, 54.0)
# Zones as (x0, y0, x1, y1) in table mm.
ZONES: dict[str, tuple[float, float, float, float]] = {
    "captures-1": (70.0, 4.0, 596.0, 68.0),
    "stock": (4.0, 100.0, 66.0, 180.0),
    "field": (70.0, 72.0, 596.0, 208.0),
    "captures-0": (70.0, 212.0, 596.0, 274.0),
    "hand-0": (70.0, 278.0, 596.0, 338.0),
}
FIELD_COLUMNS = 12
STACK_OFFSETS = ((13.0, 17.0), (-13.0, 17.0), (13.0, -17.0))  # mm from the card laid on, first to third
PILE_ORDER = (Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.PLAIN)
PILE_SPANS = {
    Kind.BRIGHT: (75.0, 175.0),
    Kind.ANIMAL: (182.0, 318.0),
    Kind.RIBBON: (325.0, 456.0),
    Kind.PLAIN: (463.0, 594.0),
}


@dataclass(frozen=True)
class Placed:
    """One card on the table: label (a card code or "back"), zone role, centre (mm), angle (radians)."""

    label: str
    role: str
    centre: tuple[float, float]
    angle: float = 0.0


@dataclass(frozen=True)
class Step:
    """The table after one physical step. ``reach`` is where the hand went (None: nobody touched the table);
    ``action`` the engine action the step completes (None for gathering, picking up a hand, a hand passing);
    ``hover`` keeps the hand resting still over the table for that many seconds before it leaves."""

    cards: tuple[Placed, ...]
    reach: tuple[float, float] | None
    action: str | None = None
    player: int | None = None
    hold_s: float = 1.0
    hover_s: float = 0.0


@dataclass
class Script:
    seed: int
    steps: list[Step]
    actions: list[tuple[str, int, str]]  # every engine action in order: (text, player, "camera" or "typed")
    deal: dict[str, object]
    dealer: int
    hand_on_table: bool
    result: dict[str, object] = field(default_factory=dict)

    def camera_actions(self) -> list[str]:
        return [a for a, _, source in self.actions if source == "camera"]

    def head(self, steps: int) -> Script:
        """The first ``steps`` steps and the actions they show (with the keys pressed right after them)."""
        shown = sum(step.action is not None for step in self.steps[:steps])
        actions: list[tuple[str, int, str]] = []
        for action in self.actions:
            if action[2] == "camera":
                if shown == 0:
                    break
                shown -= 1
            actions.append(action)
        return Script(self.seed, self.steps[:steps], actions, self.deal, self.dealer, self.hand_on_table)


@dataclass(frozen=True)
class ScriptConfig:
    gather_after_play: float = 0.3  # gather a capture before flipping (else after the flip)
    pass_over: float = 0.12  # a hand passes over the table and leaves without changing anything
    hover: float = 0.06  # a hand rests still over the table for a while
    hand_on_table: float = 0.5  # the player leaves their hand spread face up instead of picking it up
    hold_s: tuple[float, float] = (0.8, 1.2)


class _Table:
    """Where each physical card lies, updated step by step."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.slots: dict[int, Card] = {}  # field slot -> card
        self.on_field: dict[Card, tuple[tuple[float, float], float]] = {}  # card -> (centre, angle) on the field
        self.stacked: dict[Card, int] = {}  # field card -> how many cards were laid on it
        self.piles: list[dict[Kind, list[Card]]] = [{k: [] for k in PILE_ORDER} for _ in range(2)]
        self.hand: list[Card] = []
        self.stock = 0

    def slot_centre(self, slot: int) -> tuple[float, float]:
        x0, y0 = ZONES["field"][:2]
        row, column = divmod(slot, FIELD_COLUMNS)
        x = x0 + 24.0 + column * (CARD_MM[0] + 9.0)
        y = y0 + 34.0 + row * (CARD_MM[1] + 14.0)
        return (x, y)

    def jitter(self) -> float:
        return float(np.radians(self.rng.gauss(0.0, 2.5)))

    def lay(self, card: Card, on: Card | None) -> tuple[float, float]:
        """Put a card on the field: on the card it takes (offset, so both show) or in a free slot."""
        if on is not None and on in self.on_field:
            (x, y), _ = self.on_field[on]
            dx, dy = STACK_OFFSETS[self.stacked.get(on, 0) % len(STACK_OFFSETS)]  # a Go-Stop stack: fanned
            self.stacked[on] = self.stacked.get(on, 0) + 1
            centre = (x + dx + self.rng.uniform(-2, 2), y + dy + self.rng.uniform(-2, 2))
        else:
            slot = next(s for s in range(2 * FIELD_COLUMNS) if s not in self.slots)
            self.slots[slot] = card
            cx, cy = self.slot_centre(slot)
            centre = (cx + self.rng.uniform(-1.5, 1.5), cy + self.rng.uniform(-1.5, 1.5))
        self.on_field[card] = (centre, self.jitter())
        return centre

    def gather(self, player: int, cards: list[Card]) -> tuple[float, float]:
        for card in cards:
            self.on_field.pop(card, None)
            for pile in self.piles:  # a plain stolen from the other player's pile leaves it
                if card in pile[card.kind]:
                    pile[card.kind].remove(card)
            for slot, held in list(self.slots.items()):
                if held == card:
                    del self.slots[slot]
            self.piles[player][card.kind].append(card)
        return _zone_centre(f"captures-{player}")

    def placed(self) -> tuple[Placed, ...]:
        out = [
            Placed("back", "stock", (35.0 + 0.4 * i, 140.0 - 0.4 * i), self.jitter() * 0.3)
            for i in range(min(self.stock, 4))
        ]
        field_cards = sorted(self.on_field.items(), key=lambda kv: kv[0] not in self.slots.values())
        out += [Placed(card.code, "field", centre, angle) for card, (centre, angle) in field_cards]
        for player in (0, 1):
            out += self._pile_cards(player)
        x0, y0, _, y1 = ZONES["hand-0"]
        y = (y0 + y1) / 2
        for i, card in enumerate(self.hand):
            out.append(Placed(card.code, "hand-0", (x0 + 30.0 + i * (CARD_MM[0] + 8.0), y), self.jitter()))
        return tuple(out)

    def _pile_cards(self, player: int) -> list[Placed]:
        y0, y1 = ZONES[f"captures-{player}"][1], ZONES[f"captures-{player}"][3]
        y = (y0 + y1) / 2
        angle = 0.0 if player == 0 else np.pi  # the far player's cards face them
        out = []
        for kind in PILE_ORDER:
            cards = self.piles[player][kind]
            lo, hi = PILE_SPANS[kind]
            step = min(14.0, (hi - lo - CARD_MM[0]) / max(len(cards) - 1, 1))
            for i, card in enumerate(cards):
                out.append(
                    Placed(
                        card.code,
                        f"captures-{player}",
                        (lo + CARD_MM[0] / 2 + i * step, y),
                        float(angle + np.radians((card * 5 + i) % 7 - 3) * 0.4),
                    )
                )
        return out


def script_round(seed: int, config: ScriptConfig | None = None, dealer: int = 0) -> Script:
    """Play a seeded Koi-Koi round with bots (greedy for seat 0, random for seat 1) as physical steps."""
    state = KoiKoiRound.shuffled(seed, dealer=dealer)
    tries = 0
    while state.is_over:  # dealt-hand yaku or a redeal: take the next shuffle
        tries += 1
        state = KoiKoiRound.shuffled(seed * 1000 + tries, dealer=dealer)
    return script_play(state, (GreedyBot(), RandomBot(seed)), seed, config)


def script_play(state: CaptureRound, bots: Sequence[Bot], seed: int, config: ScriptConfig | None = None) -> Script:
    """Any two-player capture round (Koi-Koi, Matgo, two-player Hato) played out by ``bots`` from its deal.

    Calls (koi-koi, go, stop) and shakes are typed: the camera cannot see them (a shake's card still lands
    on the table, in the step that shows the play, which then has no camera action). A bomb is seen: its
    three cards land on the fourth and are gathered together."""
    if state.players != 2:
        raise ValueError(f"the scripted table seats two players, not {state.players}")
    config = config or ScriptConfig()
    rng = random.Random(seed)
    table = _Table(rng)
    for card in state.field_cards():
        table.lay(card, None)
    table.stock = state.stock_left
    table.hand = sorted(state.hand(0))
    hand_on_table = rng.random() < config.hand_on_table
    deal = {
        "field": state.field_cards().codes(),
        "hands": [state.hand(0).codes(), []],
        "hidden": [0, len(state.hand(1))],
        "stock_size": state.stock_left,
    }
    dealer = state.dealer

    def hold() -> float:
        return rng.uniform(*config.hold_s)

    # The dealer's hand withdraws over the table: the deal is seen in two still periods.
    steps = [Step(table.placed(), None, hold_s=1.2), Step(table.placed(), _random_spot(rng), hold_s=hold())]
    if not hand_on_table:
        table.hand = []
        steps.append(Step(table.placed(), _zone_centre("hand-0"), hold_s=hold()))
    actions: list[tuple[str, int, str]] = []
    waiting: list[Card] = []
    while not state.is_over:
        player = state.turn
        move: Move = bots[player].choose(state)
        field = state.field_cards()
        state.push(move)
        if move.kind in (MoveKind.KOIKOI, MoveKind.STOP):
            actions.append((str(move), player, "typed"))
            continue
        seen = move.kind is not MoveKind.SHAKE
        actions.append((str(move), player, "camera" if seen else "typed"))
        assert move.card is not None
        # The card lands on what it takes (or on the three of its month), captured or not yet: Go-Stop
        # captures only after the flip (it may stack instead), Koi-Koi at once.
        under = [move.take] if move.take is not None else [c for c in field if c.month == move.card.month]
        taken = _not_gathered(state.captured[player], table.piles[player], waiting)
        if taken:
            first = [c for c in (move.card, *under) if c in taken]
            waiting += first + sorted(taken - set(first))  # stolen plains and a bomb's other cards too
        if player == 0:
            table.hand = [c for c in table.hand if c in state.hand(0)]
        if move.kind is MoveKind.FLIP:
            table.stock -= 1
        where = table.lay(move.card, next((c for c in under if c in table.on_field), None))
        steps.append(Step(table.placed(), where, str(move) if seen else None, player, hold()))
        gather = waiting and (move.kind is MoveKind.FLIP or rng.random() < config.gather_after_play)
        if gather:
            table.gather(player, waiting)
            steps.append(Step(table.placed(), _zone_centre(f"captures-{player}"), hold_s=hold()))
            waiting = []
        if rng.random() < config.pass_over:
            steps.append(Step(table.placed(), _random_spot(rng), hold_s=hold()))
        if rng.random() < config.hover:
            steps.append(Step(table.placed(), _random_spot(rng), hold_s=hold(), hover_s=rng.uniform(1.0, 1.6)))
    result = state.result
    assert result is not None
    outcome: dict[str, object] = {"reason": result.reason, "winner": result.winner}
    for name in ("points", "net"):
        if hasattr(result, name):
            outcome[name] = list(getattr(result, name))
    return Script(seed, steps, actions, deal, dealer, hand_on_table, outcome)


def _not_gathered(captured: int, piles: dict[Kind, list[Card]], waiting: list[Card]) -> set[Card]:
    """Cards the engine counts as captured that are neither in the player's piles nor waiting to go there."""
    return set(CardSet(captured)) - {c for pile in piles.values() for c in pile} - set(waiting)


def _zone_centre(role: str) -> tuple[float, float]:
    x0, y0, x1, y1 = ZONES[role]
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _random_spot(rng: random.Random) -> tuple[float, float]:
    x0, y0, x1, y1 = ZONES["field"]
    return (rng.uniform(x0, x1), rng.uniform(y0, y1))
