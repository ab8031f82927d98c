"""Shared by the domino camera tests and bench_live_dominoes: follow a rendered scripted deal and score it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

from companion.live.domino_camera import DOMINO_STABILITY
from companion.live.dominoes import DominoLive, DominoZones
from companion.live.session import LiveSession
from datasets.scripted.dominoes import DominoScript
from datasets.scripted.render import FrameTruth
from engine.dominoes.profile import DominoProfile
from tests.companion.live_helpers import Followed, follow
from vision.stability import Recognize, StabilityConfig

DOWN = "down "  # a pass: a tile laid face down (``down ?`` when the camera cannot know which)


def new_session(script: DominoScript) -> LiveSession:
    """The live session a user at seat ``me`` starts: their hand typed when it is not laid out on the table."""
    live = DominoLive(DominoProfile.load(script.game), me=script.me, players=script.players)
    session = LiveSession(live, dealer=script.leader)
    if not script.hand_on_table:
        session.set_hand(script.hand)
    return session


def follow_deal(script: DominoScript, frames: Iterable[tuple[np.ndarray, FrameTruth]], recognize: Recognize,
                config: StabilityConfig = DOMINO_STABILITY, stop_at: int | None = None) -> Followed:
    """Frames through the tracker into a domino session; the user types their own face-down tiles when their
    hand is not in view (``live_helpers.press_keys`` types the script's ``typed`` actions when asked)."""
    return follow(script, frames, recognize, new_session(script), config, stop_at)  # type: ignore[arg-type]


@dataclass(frozen=True)
class DealScore:
    truth: int  # moves the camera had to see (the user's typed tiles are not counted)
    correct: int  # of those, inferred, in order
    phantom: int  # inferred moves that did not happen
    implied: int  # face-down passes the rules assumed at a block the camera could not see (they count the same)

    @property
    def exact(self) -> bool:
        return self.correct == self.truth and self.phantom == 0


def score_deal(got: Iterable[str], script: DominoScript) -> DealScore:
    """The committed actions against the script's. The typed actions are taken out of both; passes the rules
    implied at a blocked end (between the last move seen and the count: the others' ``down ?``, and your own
    ``down TILE`` when the rules know your hand) are counted apart. The count's shows are matched in any order:
    the players turn their tiles up together, and the camera sees them so."""
    typed = [a for a, _, source in script.actions if source == "typed"]
    got = list(got)
    for action in typed:
        if action in got:
            got.remove(action)
    truth = script.camera_actions()
    core, shows = _split(got)
    truth_core, truth_shows = _split(truth)
    implied = 0
    extra = core[len(truth_core):]
    if truth_shows and extra and all(a.startswith(DOWN) for a in extra):
        implied, core = len(extra), core[:len(truth_core)]
    a, b = truth_core + sorted(truth_shows), core + sorted(shows)
    matched = sum(block.size for block in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return DealScore(len(a), matched, len(b) - matched, implied)


def _split(actions: list[str]) -> tuple[list[str], list[str]]:
    """(the moves, the count's ``show`` actions)."""
    return [a for a in actions if not a.startswith("show")], [a for a in actions if a.startswith("show")]


def zone_roles(truth: FrameTruth, zones: DominoZones, size: tuple[int, int]) -> list[tuple[str, str]]:
    """(the script's role, the role ``zones`` gives its image position) of every tile in a frame's truth."""
    out = []
    for card in truth.cards:
        x, y = (float(v) for v in np.mean(card.quad, axis=0))
        out.append((card.role, zones.role_of((x, y), size)))
    return out
