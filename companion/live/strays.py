"""Strays: a face-down thing or an unreadable one that nothing legal explains, lying still view after view.

A false detection that stays put (a back's edge boxed twice, a shadow beside a face-down tile) made every later
view a conflict, and the session followed nothing more for the rest of the round. A referee would see that it
lies still while the play goes on around it and leave it out. So a back or an unknown that every one of
``STRAY_VIEWS`` conflicting views running leaves unexplained, at the same place, is taken for clutter (said,
never silently), but only when the view without it is explained: at once, or by the usual repair of the last
moves. A face that nothing explains is never left out this way: it is more likely a real card the game got wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.live.infer import Inference, infer
from companion.live.table import ObservedTable, SeenCard
from vision.observation import BACK, UNKNOWN

if TYPE_CHECKING:
    from companion.live.game import LiveGame
    from companion.live.infer import Hypothesis, InferenceConfig
    from companion.record import RecordWriter

STRAY_VIEWS = 3  # conflicting views running that a stray must stay put through
STRAY_LABELS = frozenset({BACK, UNKNOWN})
NEAR = 0.4  # the same place: centres closer than this share of the longer side


def near(a: SeenCard, b: SeenCard) -> bool:
    return abs(a.center[0] - b.center[0]) + abs(a.center[1] - b.center[1]) < NEAR * max(a.size, b.size)


def without(table: ObservedTable, left_out: Sequence[SeenCard]) -> ObservedTable:
    """The table less whatever lies where ``left_out`` lies."""
    if not left_out:
        return table
    return replace(table, cards=tuple(c for c in table.cards if not any(near(c, k) for k in left_out)))


def tracked(strays: Sequence[tuple[SeenCard, int]], extras: Sequence[SeenCard]) -> tuple[tuple[SeenCard, int], ...]:
    """Each unexplained back or unknown of this view with the number of views running it has lain there."""
    out = []
    for card in extras:
        if card.label in STRAY_LABELS:
            before = max((n for s, n in strays if s.label == card.label and near(s, card)), default=0)
            out.append((card, before + 1))
    return tuple(out)


class Strays:
    """The ``LiveSession`` method that leaves strays out (mixed in beside ``Recovery``)."""

    if TYPE_CHECKING:  # what it uses of the session
        game: LiveGame
        config: InferenceConfig
        pending: tuple[Hypothesis, ...]
        memory: dict[str, list[tuple[float, float]]]
        clutter: tuple[SeenCard, ...]
        strays: tuple[tuple[SeenCard, int], ...]
        writer: RecordWriter | None

        def _emit(self, kind: str, message: str) -> object: ...
        def _repair(self, table: ObservedTable, conflict: Inference) -> bool: ...
        def _explain(self, table: ObservedTable) -> None: ...

    def _leave_out_strays(self, table: ObservedTable, inference: Inference) -> bool:
        """Each view, after the repair: a conflict's strays are counted (any other view forgets them); those that
        have lain there ``STRAY_VIEWS`` views running become clutter when the view is explained without them.
        True when the view was explained that way."""
        extras = [m.seen for m in inference.best.score.mismatches if m.kind == "extra" and m.seen is not None]
        self.strays = tracked(self.strays, extras) if inference.verdict == "conflict" else ()
        still = [card for card, n in self.strays if n >= STRAY_VIEWS]
        if not still:
            return False
        rest = without(table, still)
        found = infer(self.game, rest, self.config, self.pending, self.memory)
        repaired = found.verdict == "conflict" and self._repair(rest, found)
        if found.verdict == "conflict" and not repaired:
            return False
        self.clutter = (*self.clutter, *still)
        self.strays = ()
        where = ", ".join(f"{c.label} at ({c.center[0]:.0f}, {c.center[1]:.0f})" for c in still)
        said = f"{where} left out as clutter: nothing legal explains it, {STRAY_VIEWS} views running"
        if self.writer is not None:
            self.writer.note(said)
        self._emit("clutter", said)
        if not repaired:
            self._explain(rest)
        return True
