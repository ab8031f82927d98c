"""Rereads: a card laid long ago that the camera reads, view after view, as another card.

A domino line's lead is committed from the view that decided it. Read wrong in that one view (a 2:5 as 5:5), it
is read right in every later view, and the rules take each of those for a misread of the tile the game has there
(cheaply, and without complaint: a tile laid for good is not moved again). The repair looks back only
``repair_depth`` actions, so the game went on with the wrong tile until the other 5:5 turned up, and nothing
was followed after. A referee would believe the tile as it lies. So the views of a round are tallied by place, and
a card read as the same other card at the same place in ``REREAD_VIEWS`` views or more, and in more views than as
the game's card, is taken for that card: each legal action that moves it, put in the place of the action that laid
the game's card, every later action replayed, is tried; one that explains the view better and leaves nothing new
unexplained replaces that one action (said, and retracted in the record).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.live.infer import NOTHING_PENDING, Inference, Mismatch, infer
from companion.live.recovery import cleaner
from companion.live.strays import NEAR
from companion.live.table import ObservedTable, SeenCard
from engine.errors import KibitzError

if TYPE_CHECKING:
    from companion.live.game import LiveGame
    from companion.live.infer import InferenceConfig

REREAD_VIEWS = 3  # views that must read the other card there, more than read the game's
KINDS = ("misread", "reread")
Vote = tuple[str, tuple[float, float]]  # a class read in a view, and where


def votes(mismatches: Sequence[Mismatch], placed: Sequence[Vote]) -> list[Vote]:
    """What one view read where: the predicted cards found (a card read as another counts for what was read)."""
    out = list(placed)
    for m in mismatches:
        if m.kind in KINDS and m.seen is not None:
            placed_as = (m.cls, m.seen.center)  # ``score_table`` placed it as the card the game has there
            if placed_as in out:
                out.remove(placed_as)
            out.append((m.seen.label, m.seen.center))
    return out


def tally(ballots: Sequence[Vote], label: str, card: SeenCard) -> int:
    """Views that read ``label`` where ``card`` lies."""
    reach = NEAR * card.size
    return sum(cls == label and abs(x - card.center[0]) + abs(y - card.center[1]) < reach for cls, (x, y) in ballots)


class Rereads:
    """The ``LiveSession`` method that believes a card read the same way view after view (mixed in beside
    ``Recovery``)."""

    if TYPE_CHECKING:  # what it uses of the session
        game: LiveGame
        config: InferenceConfig
        memory: dict[str, list[tuple[float, float]]]
        ballots: list[Vote]
        reread_tried: dict[tuple[str, str, int], int]

        def _replace(self, index: int, action: str, note: str, said: str, found: Inference) -> None: ...

    def _reread(self, table: ObservedTable, current: Inference) -> bool:
        """Each view the rules explain (a conflict's view is passed over) casts its votes; a card read as another
        than the game's is believed where ``REREAD_VIEWS`` views or more have read it so there, more than have
        read the game's card, and that explains this view better. True when an action was replaced."""
        if current.verdict == "conflict":
            return False
        score = current.best.score
        self.ballots += votes(score.mismatches, score.placed)
        history = tuple(self.game.history)
        for mismatch in score.mismatches:
            card = mismatch.seen
            read = self.game.visual_class(card.label) if mismatch.kind in KINDS and card is not None else None
            if read is None or card is None:
                continue
            times = tally(self.ballots, read, card)
            key = (mismatch.cls, read, len(history))
            if times < max(REREAD_VIEWS, tally(self.ballots, mismatch.cls, card) + 1,
                           self.reread_tried.get(key, 0) + REREAD_VIEWS):
                continue
            self.reread_tried[key] = times  # tried again only after as many views more
            for index in self.game.suspects(mismatch.cls):
                try:
                    before = self.game.fork(history[:index])
                except KibitzError:
                    continue
                for candidate in before.candidates(table, frozenset({read}), 1):
                    if self._reread_as(table, current, index, candidate.actions[0]):
                        return True
        return False

    def _reread_as(self, table: ObservedTable, current: Inference, index: int, action: str) -> bool:
        history = tuple(self.game.history)
        try:
            fork = self.game.fork((*history[:index], action, *history[index + 1:]))
        except KibitzError:
            return False  # a later action no longer fits
        found = infer(fork, table, self.config, NOTHING_PENDING, self.memory)
        if (found.verdict not in ("moves", "unchanged") or found.best.total >= current.best.total
                or not cleaner(found.best.score.mismatches, current.best.score.mismatches)):
            return False
        self._replace(index, action, "revised: the camera reads it so, view after view",
                      f"{history[index]} was a misread: it was {action}", found)
        return True
