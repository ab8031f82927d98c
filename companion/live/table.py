"""The table as the live layer reasons about it: each card seen, with the role of the zone it lies in.

Zones come from the mat (``zone`` names of the recogniser's observation) or, without a mat, from regions of
the image. Roles are seat-relative, game-neutral strings: ``field``, ``stock``, ``captures-0``, ``hand-1``...
(``captures-0`` is the pile of the engine's player 0, whoever sits where).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from vision.observation import BACK, UNKNOWN
from vision.stability import StableView

FIELD = "field"
STOCK = "stock"


def captures(player: int) -> str:
    return f"captures-{player}"


def hand(player: int) -> str:
    return f"hand-{player}"


@dataclass(frozen=True)
class SeenCard:
    """One card on the table: its voted label, the role of its zone, how sure, and where (image px)."""

    label: str
    role: str | None
    confidence: float
    center: tuple[float, float]
    size: float  # long side, same units as center: "near" is judged against it
    partial: bool = False

    @property
    def is_face(self) -> bool:
        return self.label not in (BACK, UNKNOWN)


@dataclass(frozen=True)
class ObservedTable:
    cards: tuple[SeenCard, ...]
    time: float = 0.0
    frame: int = -1

    def in_role(self, role: str) -> list[SeenCard]:
        return [c for c in self.cards if c.role == role]

    def faces(self, role: str | None = None) -> list[SeenCard]:
        return [c for c in self.cards if c.is_face and (role is None or c.role == role)]

    @classmethod
    def of(cls, cards: Iterable[tuple[str, str | None]] | Iterable[SeenCard], time: float = 0.0) -> ObservedTable:
        """A table from (label, role) pairs laid out on a grid (for typed states and tests)."""
        out = []
        for i, item in enumerate(cards):
            if isinstance(item, SeenCard):
                out.append(item)
            else:
                label, role = item
                out.append(SeenCard(label, role, 1.0, (float(i % 12) * 100.0, float(i // 12) * 150.0), 140.0))
        return cls(tuple(out), time)


# Seat-neutral mat zone names and the roles they mean when the user sits at seat ``me`` (the near side).
DEFAULT_ZONE_NAMES: Mapping[str, str] = {
    "field": FIELD,
    "stock": STOCK,
    "captures-near": "captures-me",
    "captures-far": "captures-other",
    "hand-near": "hand-me",
    "hand-far": "hand-other",
    "player-captures": "captures-me",  # the names of vision.mat's koi-koi mat
    "opponent-captures": "captures-other",
    "player-hand": "hand-me",
    "opponent-hand": "hand-other",
}

# Without a mat: bands of the image (x0, y0, x1, y1 as fractions), the user's side at the bottom.
DEFAULT_REGIONS: tuple[tuple[str, tuple[float, float, float, float]], ...] = (
    ("captures-other", (0.12, 0.0, 1.0, 0.22)),
    ("stock", (0.0, 0.22, 0.12, 0.6)),
    ("field", (0.12, 0.22, 1.0, 0.6)),
    ("captures-me", (0.12, 0.6, 1.0, 0.8)),
    ("hand-me", (0.0, 0.8, 1.0, 1.0)),
)


@dataclass(frozen=True)
class ZoneMap:
    """Turns a recognised card's zone (or, without one, its place in the image) into a seat role."""

    me: int = 0
    players: int = 2
    names: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_ZONE_NAMES))
    regions: tuple[tuple[str, tuple[float, float, float, float]], ...] = DEFAULT_REGIONS

    def _seat(self, role: str) -> str:
        other = (self.me + 1) % self.players
        return role.replace("-me", f"-{self.me}").replace("-other", f"-{other}")

    def role_of(self, zone: str | None, center: tuple[float, float], image_size: tuple[int, int]) -> str | None:
        if zone is not None:
            named = self.names.get(zone)
            if named is not None:
                return self._seat(named)
            return zone if _is_role(zone) else None
        x, y = center[0] / image_size[0], center[1] / image_size[1]
        for role, (x0, y0, x1, y1) in self.regions:
            if x0 <= x < x1 and y0 <= y < y1:
                return self._seat(role)
        return None

    def table(self, view: StableView) -> ObservedTable:
        cards = tuple(
            SeenCard(c.label, self.role_of(c.zone, c.center, view.image_size), c.confidence, c.center, c.size,
                     c.partial)
            for c in view.cards
        )
        return ObservedTable(cards, view.time, view.frame_index)


def _is_role(name: str) -> bool:
    if name in (FIELD, STOCK):
        return True
    kind, _, seat = name.rpartition("-")
    return kind in ("captures", "hand") and seat.isdigit()
