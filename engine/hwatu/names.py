"""English and Korean names of the hwatu scoring elements, bonuses, events and multipliers.

Card names live in ``engine.names`` (``card.name_in("ko")``); these are the words around them.
"""

from __future__ import annotations

from typing import Final

from engine.cards import Month
from engine.errors import KibitzError
from engine.hwatu.cards import GWANG, MONTH_ROMAN, RAIN_GWANG
from engine.names import PLANTS

HWATU_LANGS: Final = ("en", "ko")

TERMS: Final[dict[str, dict[str, str]]] = {
    # Go-Stop scoring elements
    "gwang": {"en": "brights", "ko": "광"},
    "yeol": {"en": "animals", "ko": "열끗"},
    "godori": {"en": "godori (the three birds)", "ko": "고도리"},
    "tti": {"en": "ribbons", "ko": "띠"},
    "hongdan": {"en": "red poem ribbons", "ko": "홍단"},
    "cheongdan": {"en": "blue ribbons", "ko": "청단"},
    "chodan": {"en": "grass ribbons", "ko": "초단"},
    "pi": {"en": "plains", "ko": "피"},
    # Hato bonuses (four of a month are "<month>-yak", see ``term``)
    "ogwang": {"en": "all five brights", "ko": "오광"},
    "card-points": {"en": "card points", "ko": "끗수"},
    # events
    "ppeok": {"en": "ppeok (three of a month stuck on the table)", "ko": "뻑"},
    "ppeok-capture": {"en": "took a ppeok", "ko": "뻑 먹기"},
    "ja-ppeok": {"en": "took one's own ppeok", "ko": "자뻑"},
    "jjok": {"en": "jjok (the flip takes the card just laid)", "ko": "쪽"},
    "ttadak": {"en": "ttadak (all four of a month in one turn)", "ko": "따닥"},
    "sweep": {"en": "swept the table", "ko": "싹쓸이"},
    "bomb": {"en": "bomb", "ko": "폭탄"},
    "shake": {"en": "shaking", "ko": "흔들기"},
    # endings and multipliers
    "go": {"en": "go", "ko": "고"},
    "stop": {"en": "stop", "ko": "스톱"},
    "gwang-bak": {"en": "gwang-bak (no bright)", "ko": "광박"},
    "pi-bak": {"en": "pi-bak (too few plains)", "ko": "피박"},
    "meong-bak": {"en": "meong-bak (seven animals)", "ko": "멍박"},
    "go-bak": {"en": "go-bak (called go and lost)", "ko": "고박"},
    "nagari": {"en": "nagari (no winner)", "ko": "나가리"},
    "chongtong": {"en": "chongtong (four of a month dealt)", "ko": "총통"},
    "three-ppeok": {"en": "three ppeoks", "ko": "삼뻑"},
    "patu": {"en": "void deal", "ko": "파투"},
    "exhausted": {"en": "hands played out", "ko": "판 끝"},
}

_GWANG_KO: Final = {3: "삼광", 4: "사광", 5: "오광"}


def check_hwatu_lang(lang: str) -> str:
    if lang not in HWATU_LANGS:
        raise KibitzError(f"hwatu names exist in {' and '.join(HWATU_LANGS)}, not {lang!r}")
    return lang


def yak_name(month: Month) -> str:
    """The bonus name for all four cards of a month: ``bi-yak`` for willow, ``danpung-yak`` for maple."""
    return f"{MONTH_ROMAN[month]}-yak"


def term(name: str, lang: str = "en", cards: int = 0) -> str:
    """The name of an element, bonus, event or multiplier; ``cards`` (a mask) refines ``gwang``."""
    check_hwatu_lang(lang)
    if name.endswith("-yak"):
        month = next(m for m in Month if yak_name(m) == name)
        return f"{PLANTS['ko'][month]}약" if lang == "ko" else f"all four of {month.plant}"
    if name == "gwang" and cards:
        count = (cards & GWANG).bit_count()
        if lang == "ko":
            return ("비" if count == 3 and cards & RAIN_GWANG else "") + _GWANG_KO.get(count, "광")
        return f"{count} brights" + (" with the rain man" if count == 3 and cards & RAIN_GWANG else "")
    if name not in TERMS:
        raise KibitzError(f"no hwatu term {name!r}")
    return TERMS[name][lang]
