"""Hato, Min-hwatu, Go-Stop and Matgo followed through the camera, in the app.

The worker is the Koi-Koi camera worker (``companion.live.app_bridge``) running ``LiveSession(HwatuLive)``;
the screen's ``HwatuSession`` (mode "camera") is its mirror, replayed from the worker's match on every sync.
Two players use the Koi-Koi mat (or its image bands without one). With three to five players the far edge
of the image is split into one capture zone a player: the players after you, counter-clockwise, from the
right to the left as the camera sees the table (you sit at the bottom edge).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.app.messages import SyncedRound
from companion.live.app_bridge import (
    CameraBridge,
    camera_source,
    common_prefix,
    default_recognizer,
    default_record_path,
    same_deal,
)
from companion.live.hwatu import HwatuLive
from companion.live.koikoi import deal_from_json
from companion.live.session import LiveSession
from companion.live.table import DEFAULT_REGIONS, ZoneMap, captures
from companion.tables.hwatu import HwatuSession
from vision.stability import Recognize

FAR_EDGE = (0.12, 0.0, 1.0, 0.22)  # where the other players' captures lie (x0, y0, x1, y1, image fractions)


def seat_zones(players: int, me: int = 0) -> ZoneMap:
    """Zones for ``players`` round the table: the two-player bands, or the far edge split between the others."""
    if players == 2:
        return ZoneMap(me=me, players=2)
    x0, y0, x1, y1 = FAR_EDGE
    width = (x1 - x0) / (players - 1)
    others = [(me + k) % players for k in range(1, players)]  # counter-clockwise: first on the right
    far = tuple((captures(p), (x1 - (i + 1) * width, y0, x1 - i * width, y1)) for i, p in enumerate(others))
    near = tuple((role, box) for role, box in DEFAULT_REGIONS if role != "captures-other")
    return ZoneMap(me=me, players=players, regions=far + near)


def hwatu_recognizer(players: int) -> Callable[[], Recognize]:
    """Two players: the Koi-Koi recogniser with its mat. More: no mat, whose zones are for two."""
    if players == 2:
        return default_recognizer

    def load() -> Recognize:
        from vision.recognizer import Recognizer

        return Recognizer()

    return load


class HwatuCameraBridge(CameraBridge):
    """The camera worker with a ``HwatuSession`` mirror. A change in the current hand takes back only the moves
    after the first difference; any other change (a new hand, an earlier one rewritten) replays the match."""

    def sync(self, rounds: tuple[SyncedRound, ...]) -> bool:
        if rounds == self.shown:
            return False
        mirror: HwatuSession = self.mirror  # type: ignore[assignment]
        old = self.shown
        if old and len(old) == len(rounds) and old[:-1] == rounds[:-1] and same_deal(old[-1], rounds[-1]):
            kept = common_prefix(old[-1].actions, rounds[-1].actions)
            for _ in range(len(old[-1].actions) - kept):
                mirror.undo()
            _play(mirror, rounds[-1].actions[kept:])
        else:
            mirror.reset_match()
            for r in rounds:
                if mirror.state is not None:
                    mirror.next_hand()  # scores the hand before in the match
                mirror.match.dealer = r.dealer
                mirror.start_deal(deal_from_json(dict(r.deal)))
                _play(mirror, r.actions)
        self.shown = rounds
        return True


def _play(mirror: HwatuSession, actions: tuple[tuple[str, str], ...]) -> None:
    for action, source in actions:
        mirror.apply(action, source)


def open_hwatu_camera(options: Mapping[str, Any], game: str, players: int,
                      **kwargs: Any) -> HwatuCameraBridge | None:
    """The camera game of ``kibitz play hato|minhwatu|gostop|matgo`` options, or None without a source;
    ``kwargs`` go to the bridge (recogniser, stability, realtime). ``--resume RECORD`` replays the record first
    (a damaged one is refused naming its line)."""
    source = camera_source(options)
    if source is None:
        return None
    live_game = HwatuLive(game, players=players, me=0, rules=options.get("rules") or options.get("profile"))
    mirror = HwatuSession(game, live_game.hwatu.profile, players, "camera")
    kwargs.setdefault("recognizer", hwatu_recognizer(players))
    zones = seat_zones(players)
    if options.get("resume"):
        live = LiveSession.resume(options["resume"], live_game, zones=zones)
    else:
        seats = ("you", *(f"player {p + 1}" for p in range(1, players)))
        live = LiveSession.create(default_record_path(game=game), live_game, players=seats, zones=zones)
    return HwatuCameraBridge(live, source, mirror, **kwargs)  # type: ignore[arg-type]
