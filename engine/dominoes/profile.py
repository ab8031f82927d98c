"""Rules of the joining games as one frozen value, read from a TOML profile (``game = "jielong"``, ``"cedeng"``
or ``"kkori"``), with named variants: tables in ``[variants.NAME]`` merged over the rest on request."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from engine.dominoes.tiles import Tile, parse_tile
from engine.dominoes.tileset import DECKS
from engine.errors import InvalidCardError, ProfileError
from engine.profile import _merge, _unknown_keys, load_profile_data, take

GAMES: Final = ("jielong", "cedeng", "kkori")


@dataclass(frozen=True, slots=True)
class DominoProfile:
    """Every rule the joining games and their tables disagree on; ``DominoProfile.load("cedeng")``."""

    name: str
    game: str
    variants: tuple[str, ...]  # the variants applied
    rounds: int
    first_leader: str  # "lot" or "player-0"
    next_leader: str  # "winner" or "same"
    lead_holder: Tile | None  # its holder leads every deal
    lead_with_holder_tile: bool
    deals: dict[int, tuple[int, str]]  # players -> (hand size, tile set)
    seven_doubles: str  # "play" or "redeal"
    eight_doubles: str  # "play" or "win"
    arms: int  # 1 or 2
    mode: str  # "pairwise" or "kkori"
    clean_finish: int
    heavy_payer: int
    head_heavy: int  # 0 = never
    tail_heavy: int
    eight_doubles_factor: int
    over: int  # 0 = off
    over_inclusive: bool
    over_from_players: int
    payment: str  # "points" or "chips"

    @classmethod
    def load(cls, name_or_path: str | Path, variants: tuple[str, ...] | list[str] = ()) -> DominoProfile:
        data = load_profile_data(name_or_path)
        if data.get("game") not in GAMES:
            raise ProfileError(f"profile {str(name_or_path)!r} is for {data.get('game')!r}, not a domino game")
        return cls.from_data(data, tuple(variants))

    @classmethod
    def from_data(cls, data: dict[str, Any], variants: tuple[str, ...] = ()) -> DominoProfile:
        data = apply_variants(data, variants)
        match, deal, play, settle = (_table(data, t) for t in ("match", "deal", "play", "settle"))
        profile = cls(
            name=str(data.get("name", "custom")),
            game=str(data.get("game")),
            variants=variants,
            rounds=_positive(match, "rounds", "match"),
            first_leader=take(match, "first-leader", str, "match", ("lot", "player-0")),
            next_leader=take(match, "next-leader", str, "match", ("winner", "same")),
            lead_holder=_tile_or_none(take(match, "lead-holder", str, "match"), "match.lead-holder"),
            lead_with_holder_tile=take(match, "lead-with-holder-tile", bool, "match"),
            deals=_deals(deal),
            seven_doubles=take(deal, "seven-doubles", str, "deal", ("play", "redeal")),
            eight_doubles=take(deal, "eight-doubles", str, "deal", ("play", "win")),
            arms=_choice_int(play, "arms", "play", (1, 2)),
            mode=take(settle, "mode", str, "settle", ("pairwise", "kkori")),
            clean_finish=_positive(settle, "clean-finish", "settle"),
            heavy_payer=_positive(settle, "heavy-payer", "settle"),
            head_heavy=_non_negative(settle, "head-heavy", "settle"),
            tail_heavy=_non_negative(settle, "tail-heavy", "settle"),
            eight_doubles_factor=_positive(settle, "eight-doubles-factor", "settle"),
            over=_non_negative(settle, "over", "settle"),
            over_inclusive=take(settle, "over-inclusive", bool, "settle"),
            over_from_players=_non_negative(settle, "over-from-players", "settle"),
            payment=take(settle, "payment", str, "settle", ("points", "chips")),
        )
        if profile.lead_with_holder_tile and profile.lead_holder is None:
            raise ProfileError("match.lead-with-holder-tile needs a match.lead-holder tile")
        return profile

    @property
    def players(self) -> tuple[int, ...]:
        """The player counts this game is dealt for."""
        return tuple(sorted(self.deals))

    def deal_for(self, players: int) -> tuple[int, str]:
        """(hand size, tile set) for this many players."""
        if players not in self.deals:
            counts = ", ".join(map(str, self.players))
            raise ProfileError(f"{self.game} is played by {counts} players, not {players}")
        return self.deals[players]

    def __hash__(self) -> int:
        return hash((self.name, self.game, self.variants))


def variants_of(name_or_path: str | Path) -> list[str]:
    """The variants a profile offers."""
    return sorted(_table(load_profile_data(name_or_path), "variants"))


def apply_variants(data: dict[str, Any], variants: tuple[str, ...]) -> dict[str, Any]:
    """The profile's tables with each named variant merged over them, in order; ``[variants]`` itself removed."""
    offered = _table(data, "variants")
    merged = {key: value for key, value in data.items() if key != "variants"}
    for name in variants:
        if name not in offered:
            choices = ", ".join(sorted(offered)) or "none"
            raise ProfileError(f"{data.get('game')} has no variant {name!r}; variants: {choices}")
        unknown = _unknown_keys(merged, offered[name])
        if unknown:
            raise ProfileError(f"variant {name!r}: unknown setting(s) {', '.join(unknown)}")
        merged = _merge(merged, offered[name])
    return merged


def _table(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ProfileError(f"[{name}] must be a table")
    return value


def _non_negative(table: dict[str, Any], key: str, where: str) -> int:
    value: int = take(table, key, int, where)
    if value < 0:
        raise ProfileError(f"{where}.{key} must not be negative")
    return value


def _positive(table: dict[str, Any], key: str, where: str) -> int:
    value = _non_negative(table, key, where)
    if value < 1:
        raise ProfileError(f"{where}.{key} must be at least 1")
    return value


def _choice_int(table: dict[str, Any], key: str, where: str, choices: tuple[int, ...]) -> int:
    value: int = take(table, key, int, where)
    if value not in choices:
        raise ProfileError(f"{where}.{key} must be one of {', '.join(map(str, choices))}, not {value}")
    return value


def _tile_or_none(code: str, where: str) -> Tile | None:
    if not code:
        return None
    try:
        return parse_tile(code)
    except InvalidCardError as exc:
        raise ProfileError(f"{where}: {exc}") from exc


def _deals(deal: dict[str, Any]) -> dict[int, tuple[int, str]]:
    deals = {}
    for key, value in deal.items():
        if not key.startswith("players-"):
            continue
        players = key.removeprefix("players-")
        ok = isinstance(value, list) and len(value) == 2 and type(value[0]) is int and value[1] in DECKS
        if not players.isdigit() or int(players) < 2 or not ok:
            raise ProfileError(f"deal.{key} must be [hand size, one of {', '.join(DECKS)}], not {value!r}")
        size, deck = value
        if size < 1 or size * int(players) > len(DECKS[deck]):
            raise ProfileError(f"deal.{key}: {players} hands of {size} need more than the {len(DECKS[deck])} tiles")
        deals[int(players)] = (size, deck)
    if not deals:
        raise ProfileError("[deal] needs at least one players-N = [hand size, set]")
    return deals
