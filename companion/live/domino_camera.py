"""The joining games followed through the camera: domino frames in, the app's table screen fed by messages.

``DominoReader`` turns the domino recogniser's frame (``vision.dominoes``) into the tracker's
``TableObservation``, each tile with the role of its zone (``DominoZones``: the user at the bottom); the
stability tracker votes over still periods (a Chinese set has two of each civil tile, so labels are not unique)
and ``LiveSession(DominoLive)`` infers the moves. ``DominoCameraBridge`` is the Koi-Koi camera worker
(``companion.live.app_bridge``) with a ``DominoSession`` as the screen's mirror, shown by the camera table
screen (``companion.live.camera_screen``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.app.messages import SyncedRound
from companion.live.app_bridge import CameraBridge, camera_source, common_prefix, default_record_path, same_deal
from companion.live.dominoes import DominoLive, DominoZones, deal_from_json
from companion.live.session import LiveSession
from companion.tables.dominoes import DominoSession
from engine.dominoes.profile import DominoProfile
from vision.capture import Frame
from vision.dominoes.observation import DominoTableObservation
from vision.observation import CardObservation, TableObservation
from vision.stability import Recognize, StabilityConfig

DOMINO_STABILITY = StabilityConfig(unique_labels=False)  # two of each civil tile: a label may show twice


@dataclass
class DominoReader:
    """``Recognize`` for the stability tracker: the domino recogniser's tiles, each with its zone's role."""

    recognizer: Callable[[Frame], DominoTableObservation]
    zones: DominoZones

    def __call__(self, frame: Frame) -> TableObservation:
        seen = self.recognizer(frame)
        roles = [self.zones.role_of(tile.center, seen.image_size) for tile in seen.tiles]
        cards = tuple(CardObservation(self.zones.label_in(role, label), tile.confidence, tile.quad, zone=role)
                      for tile, label, role in zip(seen.tiles, seen.labels(), roles, strict=True))
        return TableObservation(seen.image_size, cards, seen.timings_ms)


def domino_reader(tile_set: str, zones: DominoZones) -> Callable[[], Recognize]:
    """The shipped recogniser for ``tile_set``, loaded when called (in the camera worker: it takes a while)."""
    def load() -> Recognize:
        from vision.dominoes.recognizer import DominoRecognizer

        return DominoReader(DominoRecognizer(tile_set), zones)

    return load


class DominoCameraBridge(CameraBridge):
    """The camera worker with a ``DominoSession`` mirror: ``sync`` replays the worker's current deal into it."""

    def sync(self, rounds: tuple[SyncedRound, ...]) -> bool:
        if rounds == self.shown or not rounds:
            return False
        mirror: DominoSession = self.mirror  # type: ignore[assignment]
        current = rounds[-1]
        old = self.shown[-1] if self.shown else None
        kept = 0
        if old is not None and same_deal(old, current):
            kept = common_prefix(old.actions, current.actions)
            for _ in range(len(old.actions) - kept):
                mirror.pop_action()
        else:
            mirror.start_round(deal_from_json(dict(current.deal)), current.dealer)
        for action, source in current.actions[kept:]:
            mirror.apply(action, source)
        self.shown = rounds
        return True


def open_domino_camera(options: Mapping[str, Any], profile: DominoProfile, players: int | None = None,
                       **kwargs: Any) -> DominoCameraBridge | None:
    """The camera game of ``kibitz play jielong|cedeng|kkori`` options, or None without a source; ``kwargs`` go
    to the bridge (recogniser, stability, realtime). ``--resume RECORD`` replays the record first."""
    source = camera_source(options)
    if source is None:
        return None
    mirror = DominoSession(profile, "camera", players)
    game = DominoLive(profile, me=0, players=mirror.players)
    zones = DominoZones(players=mirror.players, me=0)
    kwargs.setdefault("recognizer", domino_reader(mirror.match.deck, zones))
    kwargs.setdefault("stability", DOMINO_STABILITY)
    seats = tuple(["you", *(f"player {p + 1}" for p in range(1, mirror.players))])
    if options.get("resume"):
        live = LiveSession.resume(options["resume"], game)
    else:
        live = LiveSession.create(default_record_path(game=profile.game), game, players=seats)
    return DominoCameraBridge(live, source, mirror, **kwargs)  # type: ignore[arg-type]
