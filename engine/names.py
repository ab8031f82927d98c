"""Card and yaku names in English, Japanese, Korean, Russian and Ukrainian.

Names are composed from a plant word and a subject word per language, the way players say them
("Pine with crane", "松に鶴", "송학 광"); the few cards with a name of their own are listed whole.
"""

from __future__ import annotations

from typing import Final

from engine.cards import Card, Kind, Month

LANGUAGES: Final = ("en", "ja", "ko", "ru", "uk")

PLANTS: Final[dict[str, dict[Month, str]]] = {
    "en": {
        Month.PINE: "Pine", Month.PLUM: "Plum", Month.CHERRY: "Cherry", Month.WISTERIA: "Wisteria",
        Month.IRIS: "Iris", Month.PEONY: "Peony", Month.CLOVER: "Bush clover", Month.PAMPAS: "Pampas",
        Month.CHRYSANTHEMUM: "Chrysanthemum", Month.MAPLE: "Maple", Month.WILLOW: "Willow",
        Month.PAULOWNIA: "Paulownia",
    },
    "ja": {
        Month.PINE: "松", Month.PLUM: "梅", Month.CHERRY: "桜", Month.WISTERIA: "藤", Month.IRIS: "菖蒲",
        Month.PEONY: "牡丹", Month.CLOVER: "萩", Month.PAMPAS: "芒", Month.CHRYSANTHEMUM: "菊",
        Month.MAPLE: "紅葉", Month.WILLOW: "柳", Month.PAULOWNIA: "桐",
    },
    "ko": {
        Month.PINE: "송학", Month.PLUM: "매조", Month.CHERRY: "벚꽃", Month.WISTERIA: "흑싸리",
        Month.IRIS: "난초", Month.PEONY: "모란", Month.CLOVER: "홍싸리", Month.PAMPAS: "공산",
        Month.CHRYSANTHEMUM: "국진", Month.MAPLE: "단풍", Month.WILLOW: "비", Month.PAULOWNIA: "오동",
    },
    "ru": {
        Month.PINE: "Сосна", Month.PLUM: "Слива", Month.CHERRY: "Сакура", Month.WISTERIA: "Глициния",
        Month.IRIS: "Ирис", Month.PEONY: "Пион", Month.CLOVER: "Леспедеца", Month.PAMPAS: "Мискантус",
        Month.CHRYSANTHEMUM: "Хризантема", Month.MAPLE: "Клён", Month.WILLOW: "Ива",
        Month.PAULOWNIA: "Павловния",
    },
    "uk": {
        Month.PINE: "Сосна", Month.PLUM: "Слива", Month.CHERRY: "Сакура", Month.WISTERIA: "Гліцинія",
        Month.IRIS: "Ірис", Month.PEONY: "Півонія", Month.CLOVER: "Леспедеця", Month.PAMPAS: "Міскантус",
        Month.CHRYSANTHEMUM: "Хризантема", Month.MAPLE: "Клен", Month.WILLOW: "Верба",
        Month.PAULOWNIA: "Павловнія",
    },
}

# The subject of each non-plain card, per language.
SUBJECTS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "crane": "crane", "warbler": "bush warbler", "curtain": "curtain", "cuckoo": "cuckoo",
        "bridge": "bridge", "butterflies": "butterflies", "boar": "boar", "moon": "moon",
        "geese": "geese", "sake": "sake cup", "deer": "deer", "rainman": "rain man",
        "swallow": "swallow", "phoenix": "phoenix", "ribbon": "ribbon", "lightning": "lightning",
        "plain": "plain",
    },
    "ja": {
        "crane": "鶴", "warbler": "鶯", "curtain": "幕", "cuckoo": "不如帰", "bridge": "八橋",
        "butterflies": "蝶", "boar": "猪", "moon": "月", "geese": "雁", "sake": "盃", "deer": "鹿",
        "rainman": "小野道風", "swallow": "燕", "phoenix": "鳳凰", "ribbon": "短冊", "lightning": "雷",
        "plain": "カス",
    },
    "ko": {
        "crane": "광", "warbler": "열끗", "curtain": "광", "cuckoo": "열끗", "bridge": "열끗",
        "butterflies": "열끗", "boar": "열끗", "moon": "광", "geese": "열끗", "sake": "열끗",
        "deer": "열끗", "rainman": "광", "swallow": "열끗", "phoenix": "광", "ribbon": "띠",
        "lightning": "쌍피", "plain": "피",
    },
    "ru": {
        "crane": "журавль", "warbler": "соловей", "curtain": "занавес", "cuckoo": "кукушка",
        "bridge": "мост", "butterflies": "бабочки", "boar": "кабан", "moon": "луна", "geese": "гуси",
        "sake": "чаша сакэ", "deer": "олень", "rainman": "человек под дождём", "swallow": "ласточка",
        "phoenix": "феникс", "ribbon": "лента", "lightning": "молния", "plain": "пустая",
    },
    "uk": {
        "crane": "журавель", "warbler": "соловейко", "curtain": "завіса", "cuckoo": "зозуля",
        "bridge": "міст", "butterflies": "метелики", "boar": "кабан", "moon": "місяць", "geese": "гуси",
        "sake": "чаша саке", "deer": "олень", "rainman": "людина під дощем", "swallow": "ластівка",
        "phoenix": "фенікс", "ribbon": "стрічка", "lightning": "блискавка", "plain": "порожня",
    },
}

_PATTERN: Final = {"en": "{plant} {subject}", "ja": "{plant}に{subject}", "ko": "{plant} {subject}",
                   "ru": "{plant}: {subject}", "uk": "{plant}: {subject}"}
_PLAIN_PATTERN: Final = {"en": "{plant} plain {n}", "ja": "{plant}のカス{n}", "ko": "{plant} 피{n}",
                         "ru": "{plant}: пустая {n}", "uk": "{plant}: порожня {n}"}


def check_lang(lang: str) -> str:
    if lang not in LANGUAGES:
        from engine.errors import KibitzError

        raise KibitzError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def card_name(card: Card, lang: str = "en") -> str:
    check_lang(lang)
    plant = PLANTS[lang][card.month]
    subject = card.subject
    if subject.startswith("plain-"):
        n = subject.rsplit("-", 1)[1]
        if card is Card.PAULOWNIA_PLAIN_3 and lang in ("ko",):
            return f"{plant} 쌍피"
        return _PLAIN_PATTERN[lang].format(plant=plant, n=n)
    return _PATTERN[lang].format(plant=plant, subject=SUBJECTS[lang][subject])


KIND_NAMES: Final[dict[str, dict[Kind, str]]] = {
    "en": {Kind.BRIGHT: "brights", Kind.ANIMAL: "animals", Kind.RIBBON: "ribbons", Kind.PLAIN: "plains"},
    "ja": {Kind.BRIGHT: "光札", Kind.ANIMAL: "タネ", Kind.RIBBON: "短冊", Kind.PLAIN: "カス"},
    "ko": {Kind.BRIGHT: "광", Kind.ANIMAL: "열끗", Kind.RIBBON: "띠", Kind.PLAIN: "피"},
    "ru": {Kind.BRIGHT: "светлые", Kind.ANIMAL: "животные", Kind.RIBBON: "ленты", Kind.PLAIN: "пустые"},
    "uk": {Kind.BRIGHT: "світлі", Kind.ANIMAL: "тварини", Kind.RIBBON: "стрічки", Kind.PLAIN: "порожні"},
}
