"""The hwatu faces of ``kibitz score`` and ``kibitz simulate``: game names, profiles, bots and the JSON
a scored pile prints as (the Koi-Koi scorer's shape: ``{"yaku": [...], "base": N, "total": N}``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from engine.bots import Bot, RandomBot
from engine.cardset import CardSet
from engine.errors import KibitzError
from engine.hwatu.bots import GreedyBot
from engine.hwatu.cards import SAKE_CUP
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_scoring import elements, go_score, sake_options
from engine.hwatu.hato import bonuses, card_points
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.names import term
from engine.hwatu.yaku import Yaku

# Command-line game names: each is an engine game with a shipped profile of the same name.
GAMES: Final = {"hato": "hato", "minhwatu": "hato", "gostop": "gostop", "matgo": "gostop"}


def load_profile(game: str, rules: str | Path | None = None) -> HatoProfile | GoStopProfile:
    """The game's own profile, or ``rules`` (a shipped name or a file) checked to be for that game."""
    if game not in GAMES:
        raise KibitzError(f"unknown hwatu game {game!r}; choose one of {', '.join(GAMES)}")
    source = rules or game
    return HatoProfile.load(source) if GAMES[game] == "hato" else GoStopProfile.load(source)


def score_report(
    profile: HatoProfile | GoStopProfile, cards: CardSet, go: int = 0, shakes: int = 0, bombs: int = 0,
    lang: str | None = None,
) -> dict[str, Any]:
    """A pile's score: Hato card points and bonuses, or Go-Stop elements with the sake cup counted the better
    way and ``total`` after go calls, shakes and bombs (0 below the go/stop threshold)."""
    if min(go, shakes, bombs) < 0:
        raise KibitzError("--go, --shakes and --bombs must not be negative")
    pile = cards.mask
    if isinstance(profile, HatoProfile):
        if go or shakes or bombs:
            raise KibitzError("Hato has no go calls, shakes or bombs")
        points = card_points(pile, profile)
        found = bonuses(pile, profile)
        base = points + sum(b.points for b in found)
        return {"yaku": _listing(found, lang), "base": base, "total": base, "card_points": points}
    options = [(elements(pile, profile, as_pi), as_pi) for as_pi in sake_options(pile, profile)]
    found, as_pi = max(options, key=lambda option: sum(y.points for y in option[0]))
    base = sum(y.points for y in found)
    total = 0
    if base >= profile.threshold:
        total = go_score(base, go, profile) * profile.factors["shake"] ** shakes * profile.factors["bomb"] ** bombs
    report: dict[str, Any] = {"yaku": _listing(found, lang), "base": base, "total": total}
    if pile & SAKE_CUP:
        report["sake_cup"] = "pi" if as_pi else "animal"
    return report


def _listing(found: list[Yaku], lang: str | None) -> list[dict[str, Any]]:
    listing: list[dict[str, Any]] = []
    for y in found:
        entry: dict[str, Any] = {"name": y.name, "points": y.points}
        if lang is not None:
            entry["label"] = term(y.name, lang, y.cards)
        listing.append(entry)
    return listing


def make_bots(names: list[str], players: int, seed: int) -> list[Bot]:
    """``random`` and ``greedy`` bots, one per player."""
    if len(names) != players:
        raise KibitzError(f"--bots needs {players} names separated by commas (one per player), not {len(names)}")
    bots: list[Bot] = []
    for i, name in enumerate(names):
        if name == "random":
            bots.append(RandomBot(seed * 7 + i))
        elif name == "greedy":
            bots.append(GreedyBot())
        else:
            raise KibitzError(f"unknown bot {name!r}; choose random or greedy")
    return bots


def players_for(profile: HatoProfile | GoStopProfile, players: int | None) -> int:
    """How many play: Hato 2 to 5 (3 by default), Go-Stop and Matgo as their profile says."""
    if isinstance(profile, HatoProfile):
        count = players or 3
        profile.deal_sizes(count)  # raises for a count the profile cannot deal
        return count
    if players not in (None, profile.players):
        raise KibitzError(f"profile {profile.name} is for {profile.players} players (Go-Stop 3, Matgo 2)")
    return profile.players
