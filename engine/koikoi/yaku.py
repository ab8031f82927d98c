"""Koi-Koi yaku: which scoring combinations a captured pile holds, and what a round total is worth.

Works on raw 48-bit masks because the round engine asks after every turn; ``CardSet`` callers pass
``cards.mask``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.cards import Card, Kind, Month, Ribbon
from engine.cardset import KIND_MASKS, MONTH_MASKS, RIBBON_MASKS, full_months, mask_of, months_present
from engine.koikoi.profile import KoiKoiProfile

BRIGHTS: Final = KIND_MASKS[Kind.BRIGHT]
ANIMALS: Final = KIND_MASKS[Kind.ANIMAL]
RIBBONS: Final = KIND_MASKS[Kind.RIBBON]
PLAINS: Final = KIND_MASKS[Kind.PLAIN]
POEM: Final = RIBBON_MASKS[Ribbon.POEM]
BLUE: Final = RIBBON_MASKS[Ribbon.BLUE]
RAINMAN: Final = 1 << Card.WILLOW_RAINMAN
LIGHTNING: Final = 1 << Card.WILLOW_LIGHTNING
SAKE: Final = 1 << Card.CHRYSANTHEMUM_SAKE
TSUKIMI: Final = mask_of((Card.PAMPAS_MOON, Card.CHRYSANTHEMUM_SAKE))
HANAMI: Final = mask_of((Card.CHERRY_CURTAIN, Card.CHRYSANTHEMUM_SAKE))
INOSHIKACHO: Final = mask_of((Card.CLOVER_BOAR, Card.MAPLE_DEER, Card.PEONY_BUTTERFLIES))

# The cards each yaku is built from, for progress displays ("akatan 2/3") and teaching.
YAKU_CARDS: Final = {
    "goko": BRIGHTS, "shiko": BRIGHTS & ~RAINMAN, "ameshiko": BRIGHTS, "sanko": BRIGHTS & ~RAINMAN,
    "tsukimi": TSUKIMI, "hanami": HANAMI, "inoshikacho": INOSHIKACHO, "akatan": POEM, "aotan": BLUE,
    "akatan-aotan": POEM | BLUE, "tane": ANIMALS, "tanzaku": RIBBONS, "kasu": PLAINS | SAKE,
}
# How many of YAKU_CARDS each yaku needs.
YAKU_NEEDS: Final = {
    "goko": 5, "shiko": 4, "ameshiko": 4, "sanko": 3, "tsukimi": 2, "hanami": 2, "inoshikacho": 3,
    "akatan": 3, "aotan": 3, "akatan-aotan": 6, "tane": 5, "tanzaku": 5, "kasu": 10,
}


class Yaku(NamedTuple):
    """One scored yaku, e.g. ``Yaku("akatan", 5)``."""

    name: str
    points: int


def score_yaku(captured: int, profile: KoiKoiProfile, koikoi_called: bool = False) -> list[Yaku]:
    """The yaku in a captured pile (a card mask), best bright yaku only, in table order.

    ``koikoi_called`` says whether the pile's owner has called koi-koi this round: some profiles
    value the viewing yaku differently then.
    """
    points = profile.points
    found: list[Yaku] = []
    add = found.append

    brights = captured & BRIGHTS
    n_brights = brights.bit_count()
    rain = bool(brights & RAINMAN)
    if n_brights == 5:
        bright_yaku = "goko"
    elif n_brights == 4:
        bright_yaku = "ameshiko" if rain else "shiko"
    elif n_brights == 3 and not rain:
        bright_yaku = "sanko"
    else:
        bright_yaku = ""
    if bright_yaku and points[bright_yaku]:
        add(Yaku(bright_yaku, points[bright_yaku]))

    extra = profile.extra_card_bonus
    animals = (captured & ANIMALS).bit_count()
    ribbons = (captured & RIBBONS).bit_count()
    if captured & INOSHIKACHO == INOSHIKACHO and points["inoshikacho"]:
        add(Yaku("inoshikacho", points["inoshikacho"] + (animals - 3 if extra else 0)))
    akatan = captured & POEM == POEM and points["akatan"] > 0
    aotan = captured & BLUE == BLUE and points["aotan"] > 0
    if akatan:
        add(Yaku("akatan", points["akatan"] + (ribbons - 3 if extra else 0)))
    if aotan:
        add(Yaku("aotan", points["aotan"] + (ribbons - 3 if extra else 0)))
    if akatan and aotan and points["akatan-aotan"]:
        add(Yaku("akatan-aotan", points["akatan-aotan"]))
    if animals >= 5 and points["tane"]:
        add(Yaku("tane", points["tane"] + animals - 5))
    if ribbons >= 5 and points["tanzaku"]:
        add(Yaku("tanzaku", points["tanzaku"] + ribbons - 5))
    plains = (captured & PLAINS).bit_count() + (1 if profile.sake_is_plain and captured & SAKE else 0)
    if plains >= 10 and points["kasu"]:
        add(Yaku("kasu", points["kasu"] + plains - 10))

    _add_viewing(found, captured, profile, koikoi_called)
    return found


def _add_viewing(found: list[Yaku], captured: int, profile: KoiKoiProfile, koikoi_called: bool) -> None:
    """Tsukimi and hanami, which tables treat in more ways than any other yaku."""
    if profile.viewing == "off" or not captured & SAKE:
        return
    if profile.viewing == "rain-cancels" and captured & (RAINMAN | LIGHTNING):
        return
    viewing = [name for name, mask in (("tsukimi", TSUKIMI), ("hanami", HANAMI)) if captured & mask == mask]
    if not viewing or (profile.viewing == "with-other-yaku" and not found):
        return
    for name in viewing:
        value = profile.viewing_koikoi_points if koikoi_called and profile.viewing_koikoi_points else 0
        value = value or profile.points[name]
        if value:
            # Keep table order: viewing yaku sit after the brights.
            at = 1 if found and found[0].name in ("goko", "shiko", "ameshiko", "sanko") else 0
            at += sum(1 for y in found if y.name in ("tsukimi", "hanami"))
            found.insert(at, Yaku(name, value))


def yaku_total(captured: int, profile: KoiKoiProfile, koikoi_called: bool = False) -> int:
    """The yaku sum of a pile; piles holding no yaku (most of them, mid-round) return at once."""
    if not (
        (captured & BRIGHTS).bit_count() >= 3
        or captured & INOSHIKACHO == INOSHIKACHO
        or captured & POEM == POEM
        or captured & BLUE == BLUE
        or (captured & ANIMALS).bit_count() >= 5
        or (captured & RIBBONS).bit_count() >= 5
        or (captured & (PLAINS | SAKE)).bit_count() >= 10
        or (captured & SAKE and captured & (TSUKIMI | HANAMI) & ~SAKE)
    ):
        return 0
    return sum(y.points for y in score_yaku(captured, profile, koikoi_called))


def dealt_hand_yaku(hand: int, profile: KoiKoiProfile) -> list[Yaku]:
    """Teshi (four of a month) or kuttsuki (four pairs) in a freshly dealt hand, if the profile scores them."""
    if profile.four_in_hand != "teshi":
        return []
    fours = full_months(hand)
    points = profile.points
    if fours >= 2 and points["double-teshi"]:
        return [Yaku("double-teshi", points["double-teshi"])]
    if fours and points["teshi"]:
        return [Yaku("teshi", points["teshi"])]
    # Eight cards in four months with none holding four (checked above) and none three: four pairs.
    pairs = hand.bit_count() == 8 and months_present(hand) == 4 and not _has_three(hand)
    if pairs and points["kuttsuki"]:
        return [Yaku("kuttsuki", points["kuttsuki"])]
    return []


def _has_three(mask: int) -> bool:
    return any((mask & MONTH_MASKS[m]).bit_count() == 3 for m in Month)


def round_total(base: int, profile: KoiKoiProfile, own_calls: int, opponent_called: bool) -> int:
    """What a stopping player scores: the yaku sum with the profile's multipliers for the koi-koi context."""
    total = base
    if profile.own_koikoi == "double":
        total *= 2**own_calls
    elif profile.own_koikoi == "japan" and own_calls:
        total = total + own_calls if own_calls <= 3 else total * (own_calls - 2)
    if profile.double_at_seven and base >= 7:
        total *= 2
    if profile.opponent_koikoi_double and opponent_called:
        total *= 2
    return total
