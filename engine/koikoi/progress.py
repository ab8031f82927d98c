"""How far a player is from each yaku, from what that player can see.

Every yaku is a *group* of cards and a count: akatan is 3 of the 3 poem ribbons, sanko 3 of the 4
brights without the rain man, tane 5 of the animals. Progress, the hints' rollouts and the teaching
advice all read yaku this way, so the groups are defined once, here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from engine.cards import Card
from engine.cardset import cards_of
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.koikoi.yaku import LIGHTNING, PLAINS, RAINMAN, YAKU_CARDS, YAKU_NEEDS

COUNT_YAKU: Final = ("tane", "tanzaku", "kasu")  # any `need` cards of a kind; more cards score more
VIEWING_YAKU: Final = ("tsukimi", "hanami")
BRIGHT_YAKU: Final = ("goko", "shiko", "ameshiko", "sanko")


def player_view(state: KoiKoiRound, player: int) -> KoiKoiRound:
    """``state.view(player)``, typed as the Koi-Koi round it is."""
    view = state.view(player)
    assert isinstance(view, KoiKoiRound)
    return view


@dataclass(frozen=True)
class YakuGroup:
    """A yaku as ``need`` cards out of ``cards``, which must include all of ``required``."""

    name: str
    cards: int
    need: int
    required: int
    value: int  # the profile's points for it

    def made(self, captured: int) -> bool:
        return (captured & self.cards).bit_count() >= self.need and captured & self.required == self.required

    def dead(self, captured: int, lost: int) -> bool:
        """True when the cards not yet ``lost`` (taken by the opponent) cannot complete the yaku."""
        if self.required & lost:
            return True
        return (self.cards & ~lost).bit_count() < self.need and not self.made(captured)


@functools.cache
def yaku_groups(profile: KoiKoiProfile) -> tuple[YakuGroup, ...]:
    """The yaku a profile scores during play (not the dealt-hand ones), in table order."""
    groups = []
    for name, cards in YAKU_CARDS.items():
        value = profile.points[name]
        if not value or (name in VIEWING_YAKU and profile.viewing == "off"):
            continue
        if name == "kasu" and not profile.sake_is_plain:
            cards = PLAINS
        required = 0 if name in COUNT_YAKU or name in ("goko", "shiko", "sanko") else cards
        if name == "ameshiko":
            required = RAINMAN
        groups.append(YakuGroup(name, cards, YAKU_NEEDS[name], required, value))
    return tuple(groups)


def _viewing_cancelled(group: YakuGroup, captured: int, profile: KoiKoiProfile) -> bool:
    """Under "rain-cancels", a player holding the rain man or the lightning has no viewing yaku."""
    return (
        group.name in VIEWING_YAKU and profile.viewing == "rain-cancels" and bool(captured & (RAINMAN | LIGHTNING))
    )


FinisherTable = tuple[tuple[int, int, int, bool], ...]


@functools.cache
def finisher_table(profile: KoiKoiProfile) -> FinisherTable:
    """The yaku groups as plain tuples (cards, need, required, is a count yaku), for ``finishers_in``."""
    return tuple((g.cards, g.need, g.required, g.name in COUNT_YAKU) for g in yaku_groups(profile))


def finishers(profile: KoiKoiProfile, captured: int, lost: int) -> int:
    """Cards (a mask) that would raise a player's yaku total if captured next: the one card a yaku lacks.

    ``lost`` is what the opponent holds.
    """
    return finishers_in(finisher_table(profile), captured, lost)


def finishers_in(table: FinisherTable, captured: int, lost: int) -> int:
    """``finishers`` over a prepared table: the rollouts call it after every capture."""
    out = 0
    for cards, need, required, count in table:
        have = (captured & cards).bit_count()
        if have + 1 < need or required & lost:
            continue
        lacking = required & ~captured
        if lacking:
            if not lacking & (lacking - 1):  # exactly one required card missing
                out |= lacking
        elif count or have < need:
            out |= cards & ~captured & ~lost
    return out


@dataclass(frozen=True)
class YakuProgress:
    """One line of the yaku panel: "akatan 2/3 — needs cherry-ribbon, still unseen".

    ``points`` is what the yaku scores now (0 until it is made); ``value`` what it is worth when made.
    ``missing`` are the cards still to get (not held, not taken by the opponent), each with its place in
    ``places`` ("hand", "field" or "unseen"); ``lost`` are those the opponent took.
    """

    name: str
    have: tuple[Card, ...]
    need: int
    missing: tuple[Card, ...]
    dead: bool
    points: int
    value: int = 0
    places: tuple[str, ...] = ()
    lost: tuple[Card, ...] = ()

    @property
    def made(self) -> bool:
        return self.points > 0

    @property
    def short(self) -> int:
        """How many more cards the yaku needs (0 once made)."""
        return max(0, self.need - len(self.have))

    def text(self, lang: str = "en") -> str:
        """The line in ``lang``, e.g. "Akatan 2/3 — needs Cherry ribbon (still unseen)"."""
        from engine.koikoi.advice import progress_reason

        return progress_reason(self).text(lang)


def yaku_progress(state: KoiKoiRound, player: int) -> list[YakuProgress]:
    """Each yaku the player has made or could still make, plus dead ones they had started.

    Made yaku come first, then the closest; of the bright yaku only the next step is shown (sanko
    before shiko before goko). Only the player's view is read: a card is "unseen" whether it lies in
    the opponent's hand or the stock.
    """
    profile = state.profile
    captured = state.captured[player]
    lost = state.captured[1 - player]
    hand, field = state.hands[player], state.field
    scored = {y.name: y.points for y in state.yaku(player)}
    lines = []
    for group in yaku_groups(profile):
        have = captured & group.cards
        made = group.made(captured)
        dead = not made and (group.dead(captured, lost) or _viewing_cancelled(group, captured, profile))
        if (dead and not have) or _bright_step_hidden(group, captured, lost, profile, scored):
            continue
        missing = cards_of(group.cards & ~captured & ~lost) if not made or group.name in COUNT_YAKU else []
        places = tuple("hand" if hand >> c & 1 else "field" if field >> c & 1 else "unseen" for c in missing)
        lines.append(
            YakuProgress(
                name=group.name,
                have=tuple(cards_of(have)),
                need=group.need,
                missing=tuple(missing),
                dead=dead,
                points=scored.get(group.name, 0),
                value=group.value,
                places=places,
                lost=tuple(cards_of(group.cards & lost)),
            )
        )
    lines.sort(key=lambda line: (not line.made, line.dead, line.short, -line.value))
    return lines


def _bright_step_hidden(
    group: YakuGroup, captured: int, lost: int, profile: KoiKoiProfile, scored: dict[str, int]
) -> bool:
    """Hide a bright yaku that another one supersedes (scored instead) or precedes (smaller, still open)."""
    if group.name not in BRIGHT_YAKU:
        return False
    if group.made(captured):
        return group.name not in scored
    return any(
        other.name in BRIGHT_YAKU and other.need < group.need and not other.made(captured)
        and not other.dead(captured, lost)
        for other in yaku_groups(profile)
    )
