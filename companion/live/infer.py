"""Explain a stable table by legal actions: score each candidate's predicted table against what was seen,
rank them, and decide: commit, wait, or report a conflict. Never change the state on a guess.

Costs (lower is better), per card:
- seen where predicted: 0; seen where it may still lie (a capture not gathered yet): 0.1 beside its partner,
  0.45 alone, 0.9 when the rest of its capture is in the pile already;
- predicted but not seen: 1.0 (0.3 when an "unknown" detection lies in that zone or where the card may still
  lie: a wildcard, or when a card of its capture lies where it was: laid on it; free in an optional zone that
  is empty, such as a hand held up);
- seen but not predicted: 0.4 + 0.6 x confidence (a partly hidden card: 0.1 + 0.3 x confidence, never a
  conflict: it may be misread);
- a seen card in the zone of a missing one: a misread, 0.5 + 0.5 x confidence (cheaper than both apart);
  where a card laid for good (``fixed``) was last seen: a re-read, 0.1 + 0.2 x confidence, never a conflict;
- a seen card nothing else explains where the state holds cards it cannot name (an own hand card unreadable at the
  deal): 0.1 + 0.2 x confidence, never a conflict (the session learns the card once it is read there twice).
Each action adds a little, and each action the camera cannot see (an implied koi-koi) more, so that the
simplest explanation wins a tie. While explanations stand open that all show the same table (a domino lead whose
open end the next tile decides), one that begins with none of them costs 1.0 more: it says the view that left them
standing was misread, and a false tile in the next view must not turn a lead seen alone into another order of the
same tiles. (Explanations of a card the camera was unsure of show different tables, and cost nothing more.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.live.game import Candidate, Expect, LiveGame, Prediction
from companion.live.table import ObservedTable, SeenCard
from vision.observation import UNKNOWN

Classify = Callable[[str], "str | None"]
Likeness = Callable[[str, str], float]  # (label seen, class) -> 1: a misread like any other; below 1: likelier
Memory = Mapping[str, Sequence[tuple[float, float]]]  # visual class -> centres where it was last seen


@dataclass(frozen=True)
class Mismatch:
    """``missing``: ``cls`` should be in ``role`` and is not; ``covered``: the same for a card that may well be
    out of sight; ``extra``: ``seen`` is not explained; ``misread``: ``seen`` lies where ``cls`` should be and
    is probably that card; ``reread``: the same for a card laid for good, where it was last seen."""

    kind: str
    cls: str
    role: str
    seen: SeenCard | None = None

    def describe(self) -> str:
        if self.kind in ("missing", "covered"):
            return f"{self.cls} not seen ({self.role})"
        assert self.seen is not None
        at = f"at ({self.seen.center[0]:.0f}, {self.seen.center[1]:.0f})"
        if self.kind in ("misread", "reread"):
            return f"{self.seen.label} {at} ({self.role}) is probably {self.cls}: misread"
        return f"{self.seen.label} {at} ({self.role}) is not explained"


@dataclass(frozen=True)
class Score:
    cost: float
    mismatches: tuple[Mismatch, ...]
    placed: tuple[tuple[str, tuple[float, float]], ...] = ()  # where each predicted card was found (class, centre)

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
    abandon_cost: float = 1.0
    """An explanation that begins with none of the standing ones says the views that left them standing were
    misread: what it costs."""
    max_hypotheses: int = 4
    """Explanations kept side by side while the camera cannot tell them apart."""
    repair_depth: int = 4
    """On a conflict, how many committed actions may be explained again (a misread moving card)."""
    max_open_views: int = 3
    """Views that explanations may stand side by side; then the best one's next action is assumed (and said)."""
    max_open_actions: int = 4
    """Actions an explanation standing beside others may grow to before the same happens."""


@dataclass(frozen=True)
class Hypothesis:
    """Actions believed possible but not committed yet (several of these may stand side by side)."""

    actions: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    implied: int = 0


NOTHING_PENDING = (Hypothesis(),)


@dataclass(frozen=True)
class Ranked:
    """A full explanation from the committed state: a pending hypothesis and a candidate after it."""

    actions: tuple[str, ...]
    players: tuple[int, ...]
    score: Score
    total: float
    implied: int = 0
    over: bool = False
    state: Any = None  # the state it leads to, when the game can say

    @property
    def hypothesis(self) -> Hypothesis:
        return Hypothesis(self.actions, self.players, self.implied)


@dataclass(frozen=True)
class Inference:
    """``verdict``: unchanged, moves, ambiguous, hidden or conflict. ``actions`` are the ones to commit now;
    ``pending`` the explanations still standing after them (each relative to the state after ``actions``)."""

    verdict: str
    actions: tuple[str, ...]
    players: tuple[int, ...]
    pending: tuple[Hypothesis, ...]
    best: Ranked
    options: tuple[Ranked, ...]
    message: str

    @property
    def corrected(self) -> tuple[Mismatch, ...]:
        """Misreads the rules explained away (reported, and not believed)."""
        if self.verdict == "conflict":
            return ()
        return tuple(m for m in self.best.score.mismatches if m.kind == "misread")


def score_table(prediction: Prediction, table: ObservedTable, classify: Classify, memory: Memory | None = None,
                likeness: Likeness | None = None) -> Score:
    """Cost of seeing ``table`` when the state predicts ``prediction``; ``memory`` holds where each class
    was seen before (a misread is a card read differently where it lay); ``likeness`` scales a misread's cost
    by how easily the one is read as the other (a domino a pip off)."""
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
    placed: list[tuple[str, tuple[float, float]]] = []
    gathered: set[int] = set()  # capture groups seen (in part) in their pile already
    for cls, expects in by_class.items():
        pool = sorted(seen.pop(cls, []), key=lambda c: -c.confidence)
        unmatched = []
        for expect in sorted(expects, key=lambda e: e.alt_role is not None):  # the flexible ones last
            hit = next((c for c in pool if c.role == expect.role), None)
            if hit is None:
                unmatched.append(expect)
            else:
                pool.remove(hit)
                placed.append((cls, hit.center))
                if expect.alt_role is not None:
                    gathered.add(expect.group)
        for expect in unmatched:
            hit = next((c for c in pool if expect.alt_role is not None and c.role == expect.alt_role), None)
            if hit is not None:
                pool.remove(hit)
                waiting.append((expect, hit))
                placed.append((cls, hit.center))
            elif not (expect.role in prediction.optional_roles and expect.role not in occupied):
                missing.append(expect)
        extras += [(cls, c) for c in pool]
    extras += [(cls, c) for cls, cards in seen.items() for c in cards]

    unexplained = {id(c) for _, c in extras}
    explained = [c for c in table.cards if c.role is not None and id(c) not in unexplained]
    mismatches: list[Mismatch] = []
    unnamed = dict(prediction.unnamed)
    extras.sort(key=lambda e: -e[1].confidence)
    for cls, card in extras:
        partner, where = _misread_partner(card, missing, memory, likeness)
        if partner is None and card.partial:  # half hidden: read as a wildcard, any missing card of its zone
            partner = next((e for e in missing if card.role in (e.role, e.alt_role)), None)
        if partner is None and card.partial:  # not a conflict, but a clear read still counts against it
            cost += 0.1 + 0.3 * card.confidence
            continue
        if partner is None and unnamed.get(card.role or "", 0) > 0:  # an own card unreadable at the deal, read now
            unnamed[card.role or ""] -= 1
            cost += 0.1 + 0.2 * card.confidence
            continue
        if partner is None:
            mismatches.append(Mismatch("extra", cls, card.role or "", card))
            cost += 0.4 + 0.6 * card.confidence
            continue
        missing.remove(partner)
        placed.append((partner.cls, card.center))
        if partner.fixed and where:
            mismatches.append(Mismatch("reread", partner.cls, card.role or "", card))
            cost += 0.1 + 0.2 * card.confidence
            continue
        mismatches.append(Mismatch("misread", partner.cls, card.role or "", card))
        alike = likeness(card.label, partner.cls) if likeness is not None else 1.0
        cost += alike * (0.3 + 0.4 * card.confidence if where else 0.5 + 0.5 * card.confidence)
        if card.role == partner.alt_role:
            waiting.append((partner, card))  # it lies where its capture waits, only misread
    cost += _waiting_cost(waiting, gathered)
    for expect in missing:
        stand_in = unknown.get(expect.role)
        if expect.may_hide or expect.fixed:  # under newer captures, or settled; unless another card lies there
            # (a settled tile lies under nothing: a card explained as new at its very place is that tile, misread)
            covering = explained if expect.may_hide else ()
            cost += 0.8 if _covered_spot(expect, table, memory, placed, covering) else 0.15
            mismatches.append(Mismatch("covered", expect.cls, expect.role))
            continue
        stand_in = stand_in or (unknown.get(expect.alt_role) if expect.alt_role is not None else None)
        if not stand_in and _under_partner(expect, waiting, memory):
            cost += 0.3  # taken, and the card that took it lies where it lay: it is under that card
            mismatches.append(Mismatch("covered", expect.cls, expect.role))
            continue
        if stand_in:
            stand_in.pop()
            cost += 0.3
        elif _covered_spot(expect, table, memory, placed):
            cost += 1.5  # another card lies exactly where this one lay: it did not leave, it was misread
        else:
            cost += 1.0
        mismatches.append(Mismatch("missing", expect.cls, expect.role))
    cost += 0.1 * sum(len(v) for v in unknown.values())
    return Score(cost, tuple(mismatches), tuple(placed))


def _under_partner(expect: Expect, waiting: list[tuple[Expect, SeenCard]], memory: Memory | None) -> bool:
    """A card of the same capture, still on the field, lies on the spot where this one was last seen: it was laid
    on it (a capture is played onto the card it takes), which hides this one."""
    places = memory.get(expect.cls) if memory is not None and expect.alt_role is not None else None
    return bool(places) and any(e.group == expect.group and e.cls != expect.cls and _distance_to(c, p) < 0.6 * c.size
                                for e, c in waiting for p in places or ())  # (a twin there may be the card itself)


def _misread_partner(card: SeenCard, missing: list[Expect], memory: Memory | None,
                     likeness: Likeness | None = None) -> tuple[Expect | None, bool]:
    """The missing card this seen card most likely is: one last seen right where it lies (the same card, read
    differently), else, for a card never seen before, the missing one of the zone it is likeliest misread from.
    A missing card last seen somewhere else is not a partner: a card that moved is not a misread."""
    loose: Expect | None = None
    best = float("inf")
    for expect in missing:
        if card.role not in (expect.role, expect.alt_role):
            continue
        places = memory.get(expect.cls) if memory is not None else None
        if places:
            if any(_distance_to(card, p) < 0.25 * card.size for p in places):
                return expect, True
        elif card.role == expect.role:
            alike = likeness(card.label, expect.cls) if likeness is not None else 1.0
            if alike < best:
                loose, best = expect, alike
    return loose, False


def _covered_spot(expect: Expect, table: ObservedTable, memory: Memory | None,
                  placed: Sequence[tuple[str, tuple[float, float]]] = (), covering: Sequence[SeenCard] = ()) -> bool:
    """Another card lies right where this one was last seen. Places where a card of the same class was found
    now do not count: that is its interchangeable twin (or itself), not a sign of a misread; nor do the cards
    in ``covering`` (newer captures explained as such, which do lie on the older ones)."""
    places = memory.get(expect.cls) if memory is not None else None
    if not places:
        return False
    near = 0.25 * max((c.size for c in table.cards), default=0.0)
    found = [centre for cls, centre in placed if cls == expect.cls]
    free = [p for p in places if not any(abs(p[0] - f[0]) + abs(p[1] - f[1]) < near for f in found)]
    ids = {id(c) for c in covering}
    return any(_distance_to(c, p) < 0.25 * c.size for c in table.cards if id(c) not in ids for p in free)


def _distance_to(card: SeenCard, point: tuple[float, float]) -> float:
    return float(((card.center[0] - point[0]) ** 2 + (card.center[1] - point[1]) ** 2) ** 0.5)


def remember(memory: dict[str, list[tuple[float, float]]], score: Score) -> None:
    """Where the explained cards lie now (a misread card under the name the rules gave it); cards out of
    sight keep the place they were last seen at."""
    fresh: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for cls, centre in score.placed:
        fresh[cls].append(centre)
    memory.update(fresh)


def _waiting_cost(waiting: list[tuple[Expect, SeenCard]], gathered: set[int]) -> float:
    """Captured cards still on the field: cheap when they lie beside another card of their capture, dear when
    the rest of their capture is in the pile already (a capture is gathered in one go)."""
    cost = 0.0
    for expect, card in waiting:
        partners = [c for e, c in waiting if e.group == expect.group and c is not card]
        near = any(_distance(card, c) < 0.55 * max(card.size, c.size) for c in partners)
        cost += 0.1 if near else 0.9 if expect.group in gathered else 0.45
    return cost


def _distance(a: SeenCard, b: SeenCard) -> float:
    return float(((a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2) ** 0.5)


def novel_classes(prediction: Prediction, table: ObservedTable, classify: Classify) -> frozenset[str]:
    """Classes seen in some zone more often than the state puts them there: the cards an action must have
    moved (or misreads)."""
    expected: dict[tuple[str, str], int] = defaultdict(int)
    for e in prediction.cards:
        expected[(e.cls, e.role)] += 1
    observed: dict[tuple[str, str], int] = defaultdict(int)
    for card in table.cards:
        cls = classify(card.label)
        if cls is not None and card.role is not None:
            observed[(cls, card.role)] += 1
    return frozenset(cls for (cls, role), n in observed.items() if n > expected[(cls, role)])


def rank(game: LiveGame, table: ObservedTable, config: InferenceConfig,
         pending: tuple[Hypothesis, ...] = NOTHING_PENDING, memory: Memory | None = None) -> list[Ranked]:
    """Every explanation, best first: each pending hypothesis and each of its beginnings (a later view may
    show that only part of it happened), alone and followed by each candidate; one that begins with none of the
    pending hypotheses' first actions, where those all show the same table, pays ``abandon_cost``."""
    ranked: dict[tuple[str, ...], Ranked] = {}
    starts: dict[tuple[str, ...], Hypothesis] = {}
    for hyp in pending:
        for n in range(len(hyp.actions), -1, -1):
            head = hyp.actions[:n]
            if head not in starts and not (head and game.unseen(head[-1])):
                starts[head] = Hypothesis(head, hyp.players[:n], sum(map(game.unseen, head)))
    firsts = _seen_alike(game, pending)
    state_key = getattr(game, "state_key", None)
    likeness = getattr(game, "misread_likeness", None)
    for hyp in starts.values():
        current = game.prediction(hyp.actions)
        novel = novel_classes(current, table, game.visual_class)
        here = Candidate((), (), current, state=state_key(hyp.actions) if state_key is not None else None)
        for c in [here, *game.candidates(table, novel, config.max_actions, hyp.actions)]:
            actions = hyp.actions + c.actions
            if actions in ranked:
                continue
            score = score_table(c.prediction, table, game.visual_class, memory, likeness)
            implied = hyp.implied + c.implied
            total = score.cost + config.action_cost * len(actions) + config.implied_cost * implied
            if firsts and actions[:1] not in firsts:
                total += config.abandon_cost
            ranked[actions] = Ranked(actions, hyp.players + c.players, score, total, implied, c.over, c.state)
    return sorted(ranked.values(), key=lambda r: (r.total, len(r.actions)))


def _seen_alike(game: LiveGame, pending: tuple[Hypothesis, ...]) -> set[tuple[str, ...]]:
    """The first actions of the standing explanations, where they all show the same table (a domino lead, its
    open end not decided yet): the view that left them standing saw what happened, and only the camera cannot
    tell how. Empty where nothing stands or where they show different tables (a card the camera was unsure of)."""
    if not all(h.actions for h in pending):
        return set()
    firsts = {h.actions[:1] for h in pending}
    tables = {tuple(sorted((e.cls, e.role) for e in game.prediction(first).cards)) for first in firsts}
    return firsts if len(tables) == 1 else set()


def _one_per_state(ranked: list[Ranked]) -> list[Ranked]:
    """Explanations that reach the same state (the same cards moved, in another order or by other seats in
    turn) are one: the best of them stands for all."""
    out, states = [], set()
    for r in ranked:
        if r.state is not None:
            if r.state in states:
                continue
            states.add(r.state)
        out.append(r)
    return out


def infer(game: LiveGame, table: ObservedTable, config: InferenceConfig | None = None,
          pending: tuple[Hypothesis, ...] = NOTHING_PENDING, memory: Memory | None = None) -> Inference:
    """Explain ``table``. Explanations within ``margin`` of the best stand side by side (at most
    ``max_hypotheses``); what they all begin with is committed, the rest waits for the next view."""
    config = config or InferenceConfig()
    every = rank(game, table, config, pending, memory)
    ranked = _one_per_state(every)
    best = ranked[0]
    score = best.score
    close = tuple(r for r in ranked if r.total - best.total < config.margin)[: config.max_hypotheses]

    def verdict(kind: str, message: str, commit: tuple[str, ...] = (), keep: tuple[Ranked, ...] = ()
                ) -> Inference:
        n = len(commit)
        rest = tuple(Hypothesis(r.actions[n:], r.players[n:], 0) for r in keep) if keep else pending
        return Inference(kind, commit, best.players[:n], rest, best, close, message)

    problems = "; ".join(m.describe() for m in score.mismatches)
    if score.count("extra") or score.count("misread") > config.max_misreads:
        return verdict("conflict", _conflict_message(game, score))
    if score.count("missing") > (config.max_missing if best.actions else 0):
        kind = "conflict" if best.actions else "hidden"
        return verdict(kind, _conflict_message(game, score) if best.actions else f"cards out of sight: {problems}")
    if len(close) == 1 or all(r.over for r in close):
        kind = "moves" if best.actions else "unchanged"
        return verdict(kind, problems or "no change", best.actions, (best,))
    # Only what every close explanation begins with is sure, those reaching the same state by other actions too.
    states = {r.state for r in close if r.state is not None}
    variants = [r.actions for r in every if r.state in states and r.total - best.total < config.margin]
    prefix = common_prefix([r.actions for r in close] + variants)
    options = " | ".join(", ".join(r.actions[len(prefix):]) or "no move" for r in close)
    if prefix:
        return verdict("moves", f"then undecided between: {options}", prefix, close)
    return verdict("ambiguous", f"cannot tell: {options}", (), close)


def common_prefix(sequences: list[tuple[str, ...]]) -> tuple[str, ...]:
    if not sequences:
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
