"""Koi-Koi house rules as one frozen value, read from a TOML profile."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.errors import ProfileError
from engine.profile import load_profile_data, take

YAKU_NAMES = (
    "goko", "shiko", "ameshiko", "sanko", "tsukimi", "hanami", "inoshikacho", "akatan", "aotan",
    "akatan-aotan", "tane", "tanzaku", "kasu", "teshi", "double-teshi", "kuttsuki",
)
VIEWING = ("always", "off", "with-other-yaku", "rain-cancels")
OWN_KOIKOI = ("none", "double", "japan")


@dataclass(frozen=True, slots=True)
class KoiKoiProfile:
    """Every Koi-Koi rule that tables disagree on; ``KoiKoiProfile.load("koikoi-japan")``."""

    name: str = "default"
    rounds: int = 12
    first_dealer: str = "lot"
    next_dealer: str = "winner"
    hand_size: int = 8
    field_size: int = 8
    four_on_field: str = "redeal"
    four_in_hand: str = "teshi"
    points: dict[str, int] = field(default_factory=dict)
    viewing: str = "always"
    viewing_koikoi_points: int = 0
    sake_is_plain: bool = True
    extra_card_bonus: bool = False
    double_at_seven: bool = True
    opponent_koikoi_double: bool = True
    own_koikoi: str = "none"
    exhausted_dealer_points: int = 0

    @classmethod
    def load(cls, name_or_path: str | Path = "default") -> KoiKoiProfile:
        data = load_profile_data(name_or_path)
        if data.get("game") != "koikoi":
            raise ProfileError(f"profile {str(name_or_path)!r} is for {data.get('game')!r}, not koikoi")
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> KoiKoiProfile:
        match, deal, rules, yaku = (data.get(t, {}) for t in ("match", "deal", "rules", "yaku"))
        points = {}
        for name in YAKU_NAMES:
            points[name] = take(yaku, name, int, "yaku")
            if points[name] < 0:
                raise ProfileError(f"yaku.{name} must not be negative")
        profile = cls(
            name=str(data.get("name", "custom")),
            rounds=take(match, "rounds", int, "match"),
            first_dealer=take(match, "first-dealer", str, "match", ("lot", "player-0")),
            next_dealer=take(match, "next-dealer", str, "match", ("winner", "alternate")),
            hand_size=take(deal, "hand-size", int, "deal"),
            field_size=take(deal, "field-size", int, "deal"),
            four_on_field=take(deal, "four-on-field", str, "deal", ("redeal", "play")),
            four_in_hand=take(deal, "four-in-hand", str, "deal", ("teshi", "redeal", "play")),
            points=points,
            viewing=take(rules, "viewing", str, "rules", VIEWING),
            viewing_koikoi_points=take(rules, "viewing-koikoi-points", int, "rules"),
            sake_is_plain=take(rules, "sake-is-plain", bool, "rules"),
            extra_card_bonus=take(rules, "extra-card-bonus", bool, "rules"),
            double_at_seven=take(rules, "double-at-seven", bool, "rules"),
            opponent_koikoi_double=take(rules, "opponent-koikoi-double", bool, "rules"),
            own_koikoi=take(rules, "own-koikoi", str, "rules", OWN_KOIKOI),
            exhausted_dealer_points=take(rules, "exhausted-dealer-points", int, "rules"),
        )
        if profile.rounds < 1:
            raise ProfileError("match.rounds must be at least 1")
        if not 1 <= profile.hand_size <= 12 or not 0 <= profile.field_size <= 12:
            raise ProfileError("deal.hand-size must be 1..12 and deal.field-size 0..12")
        return profile

    def with_points(self, **points: int) -> KoiKoiProfile:
        """A copy with some yaku values changed (``sanko=6``); keyword names use ``_`` for ``-``."""
        merged = dict(self.points)
        for key, value in points.items():
            name = key.replace("_", "-")
            if name not in merged:
                raise ProfileError(f"unknown yaku {name!r}")
            merged[name] = value
        return replace(self, points=merged)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.points.items())), self.viewing, self.own_koikoi))
