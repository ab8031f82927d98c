"""How a live session gets over what the camera could not settle at once (mixed into ``LiveSession``).

- Explanations the camera cannot tell apart stand side by side a few views, not for ever: then the best one's
  next action is assumed, and said (``assumed``).
- An assumed action is put right when a later view shows its card elsewhere (``revised``).
- A conflict, or a misread the rules would correct, may come from a recent move committed on a misread card:
  the last actions are explained again jointly, and a clearly better explanation replaces them (``revised``);
  a move made up on such a misread, whose cards the view shows where the standing actions cannot put them, is
  taken back so (said: it did not happen).

Nothing is rewritten silently: every revision is retracted in the record and said.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.live.infer import NOTHING_PENDING, Hypothesis, Inference, Mismatch, Score, common_prefix, infer, remember
from companion.live.table import ObservedTable
from engine.errors import KibitzError

if TYPE_CHECKING:
    from companion.live.game import LiveGame
    from companion.live.infer import InferenceConfig
    from companion.record import RecordWriter

Step = tuple[str, str, "str | None"]  # an action to commit: text, source, note


class Recovery:
    """The ``LiveSession`` methods that take back or assume actions."""

    if TYPE_CHECKING:  # what they use of the session
        game: LiveGame
        config: InferenceConfig
        writer: RecordWriter | None
        phase: str
        pending: tuple[Hypothesis, ...]
        memory: dict[str, list[tuple[float, float]]]
        open_views: int
        assumed: list[tuple[int, tuple[str, ...]]]
        last_inference: Inference | None
        max_revised: int
        reveal_seen: str | None

        def _commit(self, action: str, source: str, note: str | None = None) -> None: ...
        def _emit(self, kind: str, message: str) -> object: ...
        def _after_commit(self) -> None: ...
        def _sources(self) -> list[str]: ...

    def _bound_open(self) -> None:
        """Explanations the camera cannot tell apart may stand side by side a few views (the next look usually
        decides), not for ever: every later move would wait with them, and a long chain decided at once at the
        end is often a wrong order. After ``max_open_views`` views, or once one of them has grown to
        ``max_open_actions`` actions, the best one's next action is assumed and said (the user may correct it);
        the explanations that begin with it stand on, and the others are kept as what it may have been."""
        if self.phase != "playing" or len(self.pending) < 2:
            self.open_views = 0
            return
        self.open_views += 1
        longest = max(len(h.actions) for h in self.pending)
        if self.open_views < self.config.max_open_views and longest < self.config.max_open_actions:
            return
        best = self.pending[0]
        n = len(common_prefix([h.actions for h in self.pending])) + 1
        while n < len(best.actions) and self.game.unseen(best.actions[n - 1]):
            n += 1  # an implied call goes with the move after it
        head = best.actions[:n]
        others = sorted({" ".join(h.actions[n - 1:n]) or "no move" for h in self.pending if h.actions[:n] != head})
        if head:
            alternatives = {h.actions[n - 1] for h in self.pending
                            if len(h.actions) >= n and h.actions[:n - 1] == head[:-1]} - {head[-1]}
            self.assumed = [*self.assumed, (len(self.game.history) + n - 1, tuple(sorted(alternatives)))][-2:]
        self.pending = tuple(Hypothesis(h.actions[n:], h.players[n:]) for h in self.pending
                             if h.actions[:n] == head) or NOTHING_PENDING
        self.open_views = 0
        if not head:
            self._emit("assumed", f"assumed no move (the camera could not tell: {', '.join(others)})")
            return
        for action in head:
            self._commit(action, "camera", note="assumed: the camera could not tell it apart")
        self._emit("assumed", f"{head[-1]} assumed (the camera could not tell it from: {', '.join(others)}); "
                              "correct it if it was not")
        self._after_commit()

    def _reveal(self, table: ObservedTable) -> None:
        """An own-hand card unreadable at the deal (cut by the frame edge) is learnt once two looks in a row read
        it in the hand: the round is replayed from the deal with it known. Before, it stood for any unseen
        card, and a later turn could be explained as playing it. Not while explanations stand open."""
        amended = self.game.revealed(table) if self.phase == "playing" and self.pending == NOTHING_PENDING else None
        key = None if amended is None else repr(amended["hands"])
        if key is None or key != self.reveal_seen:
            self.reveal_seen = key
            return
        self.reveal_seen = None
        assert amended is not None
        history, dealer, deal = list(self.game.history), self.game.dealer(), self.game.deal()
        sources = self._sources() if self.writer is not None else ["camera"] * len(history)
        try:
            _replay(self.game, amended, dealer, history, sources)
        except KibitzError:
            _replay(self.game, deal, dealer, history, sources)
            return
        me = self.game.me or 0
        learnt = [c for c in amended["hands"][me] if c not in deal["hands"][me]]
        said = f"your hand card {', '.join(learnt)} is read now (it was unreadable at the deal)"
        if self.writer is not None:
            self.writer.note(said)
        self._emit("revealed", said)

    def _revisit(self, table: ObservedTable, current: Inference) -> bool:
        """A view the standing actions explain badly may show what an assumed action really was (its card turns
        up later, readable): each alternative of a recent assumption is put in its place, the actions after it
        replayed, and the view explained from there; one clearly better replaces them. Alternatives the later
        actions no longer fit are passed over."""
        history = tuple(self.game.history)
        for index, alternatives in reversed(self.assumed):
            if not index < len(history):
                continue
            for alt in alternatives:
                try:
                    fork = self.game.fork((*history[:index], alt, *history[index + 1:]))
                except KibitzError:
                    continue
                found = infer(fork, table, self.config, NOTHING_PENDING, self.memory)
                if found.verdict != "moves" or found.best.total > current.best.total - self.config.margin:
                    continue
                self._replace(index, alt, "revised: an assumed action", f"{history[index]} (assumed) was {alt}",
                              found)
                return True
        return False

    def _repair(self, table: ObservedTable, conflict: Inference) -> bool:
        """A conflict (or a misread the rules would correct) may come from actions committed on a weak look (a
        misread or unreadable moving card that could also have been another). As a referee would, the last
        actions are explained again jointly, from before the oldest one that moved a card the view is at odds
        about (within ``repair_depth``; else the last turn): a clean explanation, clearly better, that changes
        at most ``max_revised`` of them replaces them. Where none does from there, each later action in turn is
        the fork, for an explanation that takes back a move made up on a misread (``_at_odds``; the older ones
        kept as they stand). Nothing older is rewritten."""
        history = tuple(self.game.history)
        classes = {m.cls for m in conflict.best.score.mismatches if m.kind in ("extra", "missing", "misread")}
        oldest = len(history) - self.config.repair_depth
        suspects = [i for cls in classes for i in self.game.suspects(cls) if i >= oldest]
        deepest = len(history) - min(suspects) if suspects else min(2, len(history))
        for k in range(deepest, 0, -1):  # from the deepest; a shallower fork only to take back a made-up move
            revision = self._revision(table, conflict, history, k, must_drop=k < deepest)
            if revision is None:
                continue
            alt, changed = revision
            said = "; ".join(f"{old} was a misread: it was {new}" if new else f"{old} did not happen"
                             for old, new in changed)
            try:
                self._rewrite(len(history) - k, [(a, "camera", "revised after a misread") for a in alt.actions],
                              said, alt)
            except KibitzError:
                return False
            return True
        return False

    def _revision(self, table: ObservedTable, conflict: Inference, history: tuple[str, ...], k: int,
                  must_drop: bool = False) -> tuple[Inference, list[tuple[str, str | None]]] | None:
        """The view explained again from before the last ``k`` actions, and what that changes of them (an action
        the new explanation has no place for: None, a move made up on a misread, which the view must be at odds
        with); None unless it is clean, clearly better, and changes 1 to ``max_revised`` of them (``must_drop``:
        one of them taken back)."""
        if must_drop and not self._at_odds(history[-1], conflict.best.score):
            return None  # what is taken back ends with the last action: no inference can pass
        try:
            fork = self.game.fork(history[:-k])
        except KibitzError:
            return None
        alt = infer(fork, table, replace(self.config, max_actions=k + 2), NOTHING_PENDING, self.memory)
        revised = alt.actions[:k]
        changed: list[tuple[str, str | None]] = [(old, new) for old, new in zip(history[-k:], revised, strict=False)
                                                 if old != new]
        dropped = history[len(history) - k + len(revised):]
        changed += [(old, None) for old in dropped]
        if (alt.verdict != "moves" or not 0 < len(changed) <= self.max_revised or (must_drop and not dropped)
                or not all(self._at_odds(old, conflict.best.score) for old in dropped)
                or not cleaner(alt.best.score.mismatches, conflict.best.score.mismatches)
                or alt.best.total > conflict.best.total - self.config.margin):
            return None
        return alt, changed

    def _at_odds(self, action: str, conflict: Score) -> bool:
        """Whether the view shows every card ``action`` moved where the standing actions cannot put it (each read
        where another card should be, or left unexplained): only then may a committed move be called one that did
        not happen. A card out of sight, or lying where the move put it, says nothing against it."""
        classes = {c for word in action.split() if (c := self.game.visual_class(word)) is not None}
        odd = {self.game.visual_class(m.seen.label) for m in conflict.mismatches
               if m.kind in ("extra", "misread") and m.seen is not None}
        return bool(classes) and classes <= odd

    def _replace(self, index: int, action: str, note: str, said: str, found: Inference) -> None:
        """Put ``action`` in the place of the round's ``index``-th action, replay the later ones, and go on from
        ``found`` (the inference of the view after them)."""
        history = tuple(self.game.history)
        sources = self._sources()[index + 1:] if self.writer is not None else ["camera"] * len(history)
        steps: list[Step] = [(action, "camera", note)]
        steps += [(a, s, "replayed after a revision") for a, s in zip(history[index + 1:], sources, strict=False)]
        self._rewrite(index, [*steps, *((a, "camera", None) for a in found.actions)], said, found)

    def _rewrite(self, index: int, steps: Sequence[Step], said: str, found: Inference) -> None:
        """Take back the round's actions from ``index`` on (retracted in the record), commit ``steps`` instead,
        and go on from ``found`` (the inference they come from). What was assumed there no longer stands."""
        self.assumed = [a for a in self.assumed if a[0] < index]
        undone = [self.game.pop() for _ in range(len(self.game.history) - index)]
        if self.writer is not None:
            for _ in undone:
                self.writer.retract(f"revised: {said}")
        for action, source, note in steps:
            self._commit(action, source, note=note)
        self.pending = found.pending
        self.last_inference = found
        remember(self.memory, found.best.score)
        self._emit("revised", said)
        self._after_commit()


def _unexplained(mismatches: Sequence[Mismatch]) -> set[tuple[str, tuple[int, int]]]:
    """The seen cards an explanation leaves unexplained or calls misread, by label and place."""
    return {(m.seen.label, (round(m.seen.center[0]), round(m.seen.center[1])))
            for m in mismatches if m.kind in ("extra", "misread") and m.seen is not None}


def cleaner(alt: Sequence[Mismatch], current: Sequence[Mismatch]) -> bool:
    """A repair must explain more of what is seen and leave nothing new unexplained: a card misread all along
    elsewhere on the table (which no rewrite of the last actions touches) does not block it."""
    left, before = _unexplained(alt), _unexplained(current)
    return left < before or not left


def _replay(game: LiveGame, deal: dict[str, Any], dealer: int, actions: Sequence[str], sources: Sequence[str]) -> None:
    game.start(deal, dealer)
    for action, source in zip(actions, sources, strict=False):
        game.push(action, source)
