"""Hints: every legal move ranked by its expected match utility, by determinised Monte Carlo.

The search copies the player's view once, then, sample after sample, deals the unseen cards at
random (``sample_world``), plays each candidate move in that same world (common random numbers, so
the difference between two moves is measured on identical deals) and plays the round out with a
fast greedy-ish policy (``rollout.py``, its hand-card choice fitted to the search's own picks). When the
opponent is known to be the greedy bot (the app's own opponent), their hidden hand is dealt only from the
cards their past plays allow (``reading.py``). A round's points become a match utility through
``MatchContext``: late in a match, a win by 1 and a win by 60 are the same win. Clearly worse moves
stop being sampled early (a paired test against the leader), so the time goes to the close calls.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.capture import Phase, capture_moves, taken
from engine.cards import Card, Kind
from engine.errors import IllegalMoveError
from engine.koikoi.advice import Reason, move_reason
from engine.koikoi.progress import finishers, player_view
from engine.koikoi.reading import GreedyReader, deal_world
from engine.koikoi.rollout import NOISE, RolloutPolicy
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move, MoveKind

__all__ = ["DecisionHint", "HintBot", "HintSearch", "MatchContext", "MoveHint", "RolloutPolicy", "move_class"]

ROUND_SPREAD: Final = 6.0  # typical spread (standard deviation) of one round's point difference


@dataclass(frozen=True)
class MatchContext:
    """Where the round sits in its match; turns a round's points into a chance of winning the match."""

    round_number: int  # 1-based, the round being played
    rounds: int
    scores: tuple[int, int]  # match scores of players 0 and 1 before this round
    spread: float = ROUND_SPREAD

    @classmethod
    def single_round(cls) -> MatchContext:
        """No match around the round: the utility is winning the round (1), a draw (0.5) or losing (0)."""
        return cls(1, 1, (0, 0))

    @property
    def rounds_left(self) -> int:
        """Rounds still to play after this one."""
        return max(0, self.rounds - self.round_number)

    def win_probability(self, lead: float, rounds_left: int) -> float:
        """Chance that a lead holds over ``rounds_left`` rounds, each shifting it by about ``spread`` points."""
        if rounds_left <= 0:
            return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        return 0.5 * (1.0 + math.erf(lead / (self.spread * math.sqrt(2.0 * rounds_left))))

    def utility(self, points: Sequence[int], player: int) -> float:
        """The match utility for ``player`` of a round ending with ``points`` (player 0's, player 1's)."""
        lead = self.scores[player] + points[player] - self.scores[1 - player] - points[1 - player]
        return self.win_probability(lead, self.rounds_left)


@dataclass(frozen=True)
class MoveHint:
    move: Move
    value: float  # expected match utility
    points: float  # expected round points, own minus the opponent's
    samples: int
    reason: Reason


@dataclass(frozen=True)
class DecisionHint:
    advice: Move  # koi-koi or stop
    stop_points: int
    koikoi_expected: float  # expected round points after koi-koi, own minus the opponent's
    opponent_first: float  # chance the opponent completes a yaku before the player's next improvement
    stop_value: float
    koikoi_value: float
    samples: int
    reason: Reason


# ----------------------------------------------------------------------------------- the search
def _card_class(card: Card | None) -> int:
    """Plains of one month are interchangeable in Koi-Koi (the lightning is no ordinary plain)."""
    if card is None:
        return -1
    if card.kind is Kind.PLAIN and card is not Card.WILLOW_LIGHTNING:
        return 100 + card // 4
    return int(card)


def move_class(move: Move) -> tuple[int, int, int]:
    """Moves with equal classes are the same move for Koi-Koi (they differ in a plain's number only)."""
    return int(move.kind), _card_class(move.card), _card_class(move.take)


@dataclass
class _Candidate:
    """A move (and the moves equivalent to it) with its running sums over the sampled worlds."""

    moves: list[Move]
    prior: float = 0.0
    active: bool = True
    utilities: list[float] = field(default_factory=list)
    total_points: float = 0.0
    opponent_first: int = 0

    @property
    def n(self) -> int:
        return len(self.utilities)

    @property
    def value(self) -> float:
        return sum(self.utilities) / len(self.utilities) if self.utilities else 0.0

    @property
    def points(self) -> float:
        return self.total_points / len(self.utilities) if self.utilities else 0.0


PRUNE_MIN: Final = 16  # worlds a move gets before it may be dropped
PRUNE_Z: Final = 3.0  # how many standard errors worse than the leader a dropped move must be


def _prune_now(samples: int) -> bool:
    """Check at 16, 24, 32, 48, 64, 96...: geometric spacing keeps the checks' cost linear overall."""
    if samples < PRUNE_MIN:
        return False
    top = 1 << (samples.bit_length() - 1)
    return samples in (top, top + top // 2)


class HintSearch:
    """Anytime determinised Monte Carlo over ``state`` as ``player`` sees it.

    ``step(budget_s)`` adds samples; ``ranked()`` (PLAY or FLIP phase) and ``decision()`` (DECIDE
    phase) read the estimates at any time. In the FLIP phase the flipped card is face up: pass it as
    ``flipped`` when ``state`` does not know its stock; without it the flip is sampled like the rest.
    ``greedy_opponent``: the opponent is the greedy bot, so its hand is read from its plays in ``state``'s
    history; ``fitted=False`` plays out by the hand-tuned rule, ``weights`` by other weights than the shipped ones;
    ``prune=False`` samples every move in every world.
    """

    def __init__(
        self, state: KoiKoiRound, player: int, context: MatchContext, seed: int = 0, flipped: Card | None = None,
        greedy_opponent: bool = False, fitted: bool = True, prune: bool = True,
        weights: Sequence[float] | None = None,
    ) -> None:
        self.player = player
        self.prune = prune  # drop clearly worse moves early (off: every move gets every world, for fitting)
        self.context = context
        self._view = view = player_view(state, player)
        self.mode = "none"
        if view.turn == player and not view.is_over:
            self.mode = {Phase.PLAY: "play", Phase.FLIP: "flip", Phase.DECIDE: "decide"}[view.phase]
        if self.mode != "flip":
            flipped = None
        elif flipped is None:
            flipped = state.stock_top()  # the card being turned up: public at the moment of choosing
        if flipped is not None and flipped != view.stock_top() and not view.unknown().mask >> flipped & 1:
            raise IllegalMoveError(f"{flipped.code} cannot be the flipped card: it is {view.where(flipped)}")
        self.flipped = flipped
        self._rng = random.Random(seed)
        self._policy = RolloutPolicy(view, fitted, weights)
        self._allowed: int | None = None  # the cards the opponent's hidden hand may hold (None: any unknown one)
        if greedy_opponent:
            self._allowed = GreedyReader(view.profile).hand_cards(state, 1 - player, view.unknown().mask)
        self._near = (
            finishers(view.profile, view.captured[0], view.captured[1]),
            finishers(view.profile, view.captured[1], view.captured[0]),
        )
        self._samples = 0
        self._playouts = 0
        self._candidates: dict[tuple[int, int, int], _Candidate] = {}
        self._utility_cache: dict[tuple[int, ...], float] = {}
        self._reasons: dict[Move, Reason] = {}
        if self.mode == "play":
            for move in view.generate_legal_moves():
                self._candidate(move)
        elif self.mode == "flip" and flipped is not None:
            for move in capture_moves(MoveKind.FLIP, flipped, view.field):
                self._candidate(move)
        elif self.mode == "decide" and Move.koikoi() in view.generate_legal_moves():
            self._candidate(Move.koikoi())

    def _candidate(self, move: Move) -> _Candidate:
        key = move_class(move)
        found = self._candidates.get(key)
        if found is None:
            found = self._candidates[key] = _Candidate([move], prior=self._prior(move))
        elif move not in found.moves:
            found.moves.append(move)
        return found

    def _prior(self, move: Move) -> float:
        """The rollout policy's own liking for a move: the ranking before any sample."""
        view = self._view
        if move.card is None:
            return 0.0
        return self._policy.land_score(self.player, move.card, taken(move, view.field), self._near,
                                       view.unknown().mask)

    @property
    def samples(self) -> int:
        """Worlds sampled so far."""
        return self._samples

    @property
    def playouts(self) -> int:
        """Play-outs so far (each world plays out every candidate still in the running)."""
        return self._playouts

    # ----------------------------------------------------------------- sampling
    @property
    def _searchable(self) -> bool:
        """Something to sample: candidate moves, or an unknown flip whose moves each world reveals."""
        return bool(self._candidates) or (self.mode == "flip" and self.flipped is None)

    def step(self, budget_s: float) -> None:
        """Sample worlds for about ``budget_s`` seconds (at least one world)."""
        if not self._searchable:
            return
        deadline = time.perf_counter() + budget_s
        while True:
            self._sample_world()
            if time.perf_counter() >= deadline:
                return

    def add_samples(self, worlds: int) -> None:
        """Sample exactly ``worlds`` more worlds (reproducible, unlike a time budget)."""
        if not self._searchable:
            return
        for _ in range(worlds):
            self._sample_world()

    def add_playouts(self, playouts: int) -> None:
        """Sample worlds until ``playouts`` more play-outs are done (at least one world): a budget that costs
        about the same CPU in every position, as fewer candidates then get more worlds."""
        if not self._searchable:
            return
        target = self._playouts + playouts
        while True:
            self._sample_world()
            if self._playouts >= target:
                return

    def _sample_world(self) -> None:
        rng = random.Random(self._rng.getrandbits(64))
        if self._allowed is None:
            world = self._view.sample_world(rng)
            assert isinstance(world, KoiKoiRound)
        else:
            keep_out = 0 if self.flipped is None else 1 << self.flipped
            world = deal_world(self._view, rng, 1 - self.player, self._allowed, keep_out)
        noise = [rng.random() * NOISE for _ in range(48)]
        if self.flipped is not None:
            _put_on_top(world, self.flipped)
        if self.mode == "flip" and self.flipped is None:
            top = world.stock_top()
            assert top is not None
            candidates = [self._candidate(m) for m in capture_moves(MoveKind.FLIP, top, world.field)]
        else:
            candidates = [c for c in self._candidates.values() if c.active]
        for candidate in candidates:
            world.push(candidate.moves[0], check=False)
            points, winner = self._policy.rollout(world, noise)
            world.pop()
            candidate.utilities.append(self._utility(points))
            candidate.total_points += points[self.player] - points[1 - self.player]
            candidate.opponent_first += winner == 1 - self.player
        self._playouts += len(candidates)
        self._samples += 1
        if self.mode == "play" and self.prune and _prune_now(self._samples):
            self._prune()

    def _utility(self, points: tuple[int, ...]) -> float:
        cached = self._utility_cache.get(points)
        if cached is None:
            cached = self._utility_cache[points] = self.context.utility(points, self.player)
        return cached

    def _prune(self) -> None:
        """Stop sampling moves clearly worse than the leader (paired differences over the same worlds)."""
        active = [c for c in self._candidates.values() if c.active]
        if len(active) <= 2:
            return
        leader = max(active, key=lambda c: (c.value, c.points))
        for candidate in active:
            if candidate is leader or candidate.n < PRUNE_MIN:
                continue
            diffs = [a - b for a, b in zip(candidate.utilities, leader.utilities, strict=False)]
            mean = sum(diffs) / len(diffs)
            var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
            if mean + PRUNE_Z * math.sqrt(var / len(diffs)) < 0:
                candidate.active = False
                if sum(c.active for c in self._candidates.values()) <= 2:
                    return

    # ----------------------------------------------------------------- results
    def ranked(self) -> list[MoveHint]:
        """Every legal move of a PLAY or FLIP phase, best first (equivalent moves share an estimate)."""
        if self.mode not in ("play", "flip"):
            return []
        order = sorted(
            self._candidates.values(), key=lambda c: (c.n > 0, c.value, c.points, c.prior), reverse=True
        )
        return [
            MoveHint(move, c.value, c.points, c.n, self._reason(move)) for c in order for move in c.moves
        ]

    def estimates(self) -> list[tuple[Move, float, float]]:
        """(move, value, points) once per distinct move, in the order the moves were generated, no reasons: for
        fitting the play-outs to the search (``datasets.hints``)."""
        return [(c.moves[0], c.value, c.points) for c in self._candidates.values()]

    def _reason(self, move: Move) -> Reason:
        reason = self._reasons.get(move)
        if reason is None:
            reason = self._reasons[move] = move_reason(self._view, self.player, move)
        return reason

    def decision(self) -> DecisionHint | None:
        """Koi-koi or stop, in the DECIDE phase of the player (``None`` otherwise)."""
        if self.mode != "decide":
            return None
        view, player = self._view, self.player
        stop_points = view.score_if_stopped(player)
        stop_value = self._utility((stop_points, 0) if player == 0 else (0, stop_points))
        go = next(iter(self._candidates.values()), None)
        if go is None or not go.n:
            key = "decision.stop" if go is not None else "decision.last"
            reason = Reason(key, numbers=(stop_points, 0.0, 0.0))
            return DecisionHint(Move.stop(), stop_points, 0.0, 0.0, stop_value, 0.0, 0, reason)
        opponent_first = go.opponent_first / go.n
        advice = Move.koikoi() if go.value > stop_value else Move.stop()
        numbers = (stop_points, go.points, opponent_first)
        parts: tuple[Reason, ...] = ()
        context = self.context
        lead = context.scores[player] + stop_points - context.scores[1 - player]
        if advice == Move.stop() and context.rounds_left <= 2 and lead > 0 and context.rounds > 1:
            parts = (Reason("decision.lead", numbers=(lead, context.rounds_left)),)
        key = "decision.koikoi" if advice == Move.koikoi() else "decision.stop"
        reason = Reason(key, numbers=numbers, parts=parts)
        return DecisionHint(advice, stop_points, go.points, opponent_first, stop_value, go.value, go.n, reason)


def _put_on_top(world: KoiKoiRound, card: Card) -> None:
    """Make ``card`` the next stock card of a sampled world, swapping it with whatever was there."""
    assert world.stock is not None
    stock = list(world.stock)
    if stock[0] == card:
        return
    if card in stock:
        at = stock.index(card)
        stock[0], stock[at] = stock[at], stock[0]
    else:  # dealt into the opponent's hand in this world
        hands = list(world.hands)
        owner = next(p for p in range(world.players) if hands[p] >> card & 1)
        hands[owner] = hands[owner] & ~(1 << card) | 1 << stock[0]
        world.hands = tuple(hands)
        stock[0] = card
    world.stock = tuple(stock)


# ----------------------------------------------------------------------------------- the bot
class HintBot:
    """Plays the hints' best move: a fixed number of sampled worlds per move, a number of play-outs
    (``playouts``: worlds until the candidates have been played out that often, so a decision costs
    about the same CPU whatever the number of candidates), or a time budget."""

    name = "hints"

    def __init__(
        self,
        samples: int = 100,
        budget_s: float | None = None,
        context: MatchContext | None = None,
        seed: int = 0,
        playouts: int | None = None,
        greedy_opponent: bool = False,
        fitted: bool = True,
        weights: Sequence[float] | None = None,
    ) -> None:
        self.samples = samples
        self.greedy_opponent = greedy_opponent  # the opponent is the greedy bot: read its hand from its plays
        self.fitted = fitted
        self.weights = weights  # the play-outs' weights (None: the shipped ones)
        self.budget_s = budget_s
        self.playouts = playouts
        self.context = context or MatchContext.single_round()  # set it before each round of a match
        self.rng = random.Random(seed)

    def choose(self, state: KoiKoiRound) -> Move:
        moves = state.generate_legal_moves()
        if len({move_class(m) for m in moves}) == 1:
            return moves[0]
        search = HintSearch(state, state.turn, self.context, seed=self.rng.getrandbits(32),
                            greedy_opponent=self.greedy_opponent, fitted=self.fitted, weights=self.weights)
        if self.budget_s is not None:
            search.step(self.budget_s)
        elif self.playouts is not None:
            search.add_playouts(self.playouts)
        else:
            search.add_samples(self.samples)
        decision = search.decision()
        if decision is not None:
            return decision.advice
        return search.ranked()[0].move
