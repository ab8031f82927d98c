"""Explain a stable table by legal actions: score each candidate's predicted table against what was seen,
rank them, and decide: commit, wait, or report a conflict. Never change the state on a guess.

Costs (lower is better), per card:
- seen where predicted: 0; seen where it may still lie (a capture not gathered yet): 0.1 beside its partner,
  0.45 alone;
- predicted but not seen: 1.0 (0.3 when an "unknown" detection lies in that zone; free in an optional zone
  that is empty, such as a hand held up);
- seen but not predicted: 0.4 + 0.6 x confidence;
- a seen card in the zone of a missing one: a misread, 0.5 + 0.5 x confidence (cheaper than both apart).
Each action adds a little, and each action the camera cannot see (an implied koi-koi) more, so that the
simplest explanation wins a tie.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from companion.live.game import Candidate, Expect, LiveGame, Prediction
from companion.live.table import ObservedTable, SeenCard
from vision.observation import UNKNOWN

Classify = Callable[[str], "str | None"]


@dataclass(frozen=True)
class Mismatch:
    """``missing``: ``cls`` should be in ``role`` and is not; ``extra``: ``seen`` is not explained;
    ``misread``: ``seen`` lies where ``cls`` should be and is probably that card."""

    kind: str
    cls: str
    role: str
    seen: SeenCard | None = None

    def describe(self) -> str:
        if self.kind == "missing":
            return f"{self.cls} not seen ({self.role})"
        assert self.seen is not None
        at = f"at ({self.seen.center[0]:.0f}, {self.seen.center[1]:.0f})"
        if self.kind == "misread":
            return f"{self.seen.label} {at} ({self.role}) is probably {self.cls}: misread"
        return f"{self.seen.label} {at} ({self.role}) is not explained"


@dataclass(frozen=True)
class Score:
    cost: float
    mismatches: tuple[Mismatch, ...]

    def count(self, kind: str) -> int:
        return sum(m.kind == kind for m in self.mismatches)


@dataclass(frozen=True)
class InferenceConfig:
    max_actions: int = 4
    margin: float = 0.5
    """A candidate is taken only when the next different one costs at least this much more."""
    max_misreads: int = 1
    """Misreads the rules may correct in one stable view before it is a conflict."""
    max_missing: int = 2
    """Cards out of sight (a hand resting on the table) tolerated while committing actions."""
    action_cost: float = 0.02
    implied_cost: float = 0.3


@dataclass(frozen=True)
class Ranked:
    candidate: Candidate
    score: Score
    total: float


@dataclass(frozen=True)
class Inference:
    """``verdict``: unchanged, moves, ambiguous, hidden or conflict. ``actions`` are the ones to commit."""

    verdict: str
    actions: tuple[str, ...]
    players: tuple[int, ...]
    best: Ranked
    options: tuple[Ranked, ...]
    message: str

    @property
    def corrected(self) -> tuple[Mismatch, ...]:
        """Misreads the rules explained away (reported, and not believed)."""
        return tuple(m for m in self.best.score.mismatches if m.kind == "misread") if self.verdict in (
            "moves", "unchanged") else ()


def score_table(prediction: Prediction, table: ObservedTable, classify: Classify) -> Score:
    seen: dict[str, list[SeenCard]] = defaultdict(list)
    unknown: dict[str, list[SeenCard]] = defaultdict(list)
    for card in table.cards:
        if card.role is None:
            continue  # off the mat: held up, passing by
        cls = classify(card.label)
        if cls is not None:
            seen[cls].append(card)
        elif card.label == UNKNOWN:
            unknown[card.role].append(card)
    occupied = {c.role for cards in seen.values() for c in cards}
    by_class: dict[str, list[Expect]] = defaultdict(list)
    for expect in prediction.cards:
        by_class[expect.cls].append(expect)

    cost = 0.0
    missing: list[Expect] = []
    extras: list[tuple[str, SeenCard]] = []
    waiting: list[tuple[Expect, SeenCard]] = []
    for cls, expects in by_class.items():
        pool = sorted(seen.pop(cls, []), key=lambda c: -c.confidence)
        unmatched = []
        for expect in expects:
            hit = next((c for c in pool if c.role == expect.role), None)
            if hit is None:
                unmatched.append(expect)
            else:
                pool.remove(hit)
        for expect in unmatched:
            hit = next((c for c in pool if expect.alt_role is not None and c.role == expect.alt_role), None)
            if hit is not None:
                pool.remove(hit)
                waiting.append((expect, hit))
            elif not (expect.role in prediction.optional_roles and expect.role not in occupied):
                missing.append(expect)
        extras += [(cls, c) for c in pool]
    extras += [(cls, c) for cls, cards in seen.items() for c in cards]
    cost += _waiting_cost(waiting)

    mismatches: list[Mismatch] = []
    extras.sort(key=lambda e: -e[1].confidence)
    for cls, card in extras:
        partner = next((m for m in missing if m.role == card.role), None)
        if partner is not None:
            missing.remove(partner)
            mismatches.append(Mismatch("misread", partner.cls, card.role or "", card))
            cost += 0.5 + 0.5 * card.confidence
        else:
            mismatches.append(Mismatch("extra", cls, card.role or "", card))
            cost += 0.4 + 0.6 * card.confidence
    for expect in missing:
        stand_in = unknown.get(expect.role)
        if stand_in:
            stand_in.pop()
            cost += 0.3
        else:
            cost += 1.0
        mismatches.append(Mismatch("missing", expect.cls, expect.role))
    cost += 0.1 * sum(len(v) for v in unknown.values())
    return Score(cost, tuple(mismatches))


def _waiting_cost(waiting: list[tuple[Expect, SeenCard]]) -> float:
    """Captured cards still on the field: cheap when they lie beside another card of their capture."""
    cost = 0.0
    for expect, card in waiting:
        partners = [c for e, c in waiting if e.group == expect.group and c is not card]
        near = any(_distance(card, c) < 0.9 * max(card.size, c.size) for c in partners)
        cost += 0.1 if near else 0.45
    return cost


def _distance(a: SeenCard, b: SeenCard) -> float:
    return float(((a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2) ** 0.5)


def novel_classes(prediction: Prediction, table: ObservedTable, classify: Classify) -> frozenset[str]:
    """Classes seen in some zone more often than the state puts them there (where they may be): the cards an
    action must have moved."""
    expected: dict[tuple[str, str], int] = defaultdict(int)
    for e in prediction.cards:
        expected[(e.cls, e.role)] += 1
        if e.alt_role is not None:
            expected[(e.cls, e.alt_role)] += 1
    observed: dict[tuple[str, str], int] = defaultdict(int)
    for card in table.cards:
        cls = classify(card.label)
        if cls is not None and card.role is not None:
            observed[(cls, card.role)] += 1
    return frozenset(cls for (cls, role), n in observed.items() if n > expected[(cls, role)])


def rank(game: LiveGame, table: ObservedTable, config: InferenceConfig) -> list[Ranked]:
    """Every candidate (the empty one first) with its score, best first."""
    current = game.prediction()
    novel = novel_classes(current, table, game.visual_class)
    candidates = [Candidate((), (), current), *game.candidates(table, novel, config.max_actions)]
    ranked = []
    for candidate in candidates:
        score = score_table(candidate.prediction, table, game.visual_class)
        extra = config.action_cost * len(candidate.actions) + config.implied_cost * candidate.implied
        ranked.append(Ranked(candidate, score, score.cost + extra))
    ranked.sort(key=lambda r: (r.total, len(r.candidate.actions)))
    return ranked


def infer(game: LiveGame, table: ObservedTable, config: InferenceConfig | None = None) -> Inference:
    config = config or InferenceConfig()
    ranked = rank(game, table, config)
    best = ranked[0]
    score = best.score
    extras = [m for m in score.mismatches if m.kind == "extra"]
    misreads = score.count("misread")
    missing = score.count("missing")
    close = tuple(r for r in ranked if r.total - best.total < config.margin)

    def verdict(kind: str, actions: tuple[str, ...], players: tuple[int, ...], message: str) -> Inference:
        return Inference(kind, actions, players, best, close, message)

    problems = "; ".join(m.describe() for m in score.mismatches)
    if extras or misreads > config.max_misreads:
        return verdict("conflict", (), (), _conflict_message(game, score))
    if not best.candidate.actions:
        if missing:
            return verdict("hidden", (), (), f"cards out of sight: {problems}")
        return verdict("unchanged", (), (), problems or "no change")
    if missing > config.max_missing:
        return verdict("conflict", (), (), _conflict_message(game, score))
    if len(close) == 1:
        return verdict("moves", best.candidate.actions, best.candidate.players, problems)
    prefix = _common_prefix([r.candidate.actions for r in close])
    options = " | ".join(", ".join(r.candidate.actions) or "no move" for r in close)
    if prefix:
        n = len(prefix)
        return verdict("moves", prefix, best.candidate.players[:n], f"then undecided between: {options}")
    return verdict("ambiguous", (), (), f"cannot tell: {options}")


def _common_prefix(sequences: list[tuple[str, ...]]) -> tuple[str, ...]:
    if not sequences or any(not s for s in sequences):
        return ()
    out: list[str] = []
    for items in zip(*sequences, strict=False):
        if len(set(items)) != 1:
            break
        out.append(items[0])
    return tuple(out)


def _conflict_message(game: LiveGame, score: Score) -> str:
    parts = []
    for m in score.mismatches:
        text = m.describe()
        if m.kind == "extra":
            text += f"; the game has it {game.where(m.cls)}"
            earlier = game.suspects(m.cls)
            if earlier:
                history = game.history
                text += "; recorded in " + ", ".join(f"#{i + 1} ({history[i]})" for i in earlier)
        parts.append(text)
    return "nothing legal explains the table: " + "; ".join(parts)
