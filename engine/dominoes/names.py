"""Names of the Chinese tiles in Chinese, English, Korean and Ukrainian, and reading a tile from its name.

Korean names are the Sino-Korean readings of the Chinese ones (golpae tables also use local nicknames).
Tiles with a blank exist only in the European set and have no traditional name: their code is their name.
"""

from __future__ import annotations

from typing import Final

from engine.dominoes.tiles import Tile
from engine.errors import KibitzError

LANGUAGES: Final = ("zh", "en", "ko", "uk")

T = Tile
# tile: (Chinese, English, Korean, Ukrainian)
_NAMES: Final[dict[Tile, tuple[str, str, str, str]]] = {
    T.T6_6: ("天牌", "Heaven", "천패", "Небо"),
    T.T1_1: ("地牌", "Earth", "지패", "Земля"),
    T.T4_4: ("人牌", "Man", "인패", "Людина"),
    T.T1_3: ("和牌", "Harmony", "화패", "Гармонія"),
    T.T5_5: ("梅花", "Plum", "매화", "Слива"),
    T.T3_3: ("长三", "Long three", "장삼", "Довга трійка"),
    T.T2_2: ("板凳", "Bench", "판등", "Лава"),
    T.T5_6: ("斧头", "Axe", "부두", "Сокира"),
    T.T4_6: ("红头十", "Red-head ten", "홍두십", "Червоноголова десятка"),
    T.T1_6: ("高脚七", "Long-leg seven", "고각칠", "Довгонога сімка"),
    T.T1_5: ("红锤六", "Red mallet six", "홍추육", "Червоний молоток"),
    T.T3_6: ("杂九", "Mixed nine", "잡구", "Мішана дев'ятка"),
    T.T4_5: ("杂九", "Mixed nine", "잡구", "Мішана дев'ятка"),
    T.T2_6: ("杂八", "Mixed eight", "잡팔", "Мішана вісімка"),
    T.T3_5: ("杂八", "Mixed eight", "잡팔", "Мішана вісімка"),
    T.T2_5: ("杂七", "Mixed seven", "잡칠", "Мішана сімка"),
    T.T3_4: ("杂七", "Mixed seven", "잡칠", "Мішана сімка"),
    T.T1_4: ("杂五", "Mixed five", "잡오", "Мішана п'ятірка"),
    T.T2_3: ("杂五", "Mixed five", "잡오", "Мішана п'ятірка"),
    T.T2_4: ("二四", "Supreme six", "이사", "Верховна шістка"),
    T.T1_2: ("丁三", "Supreme three", "정삼", "Верховна трійка"),
}

# Other words players use; a word naming two tiles is ambiguous on purpose ("nine", "supreme").
_ALIASES: Final[dict[str, tuple[Tile, ...]]] = {
    "goose": (T.T1_3,), "鹅牌": (T.T1_3,), "гуска": (T.T1_3,),
    "nine": (T.T3_6, T.T4_5), "eight": (T.T2_6, T.T3_5), "seven": (T.T2_5, T.T3_4), "five": (T.T1_4, T.T2_3),
    "supreme": (T.T2_4, T.T1_2), "至尊": (T.T2_4, T.T1_2), "지존": (T.T2_4, T.T1_2),
}


def tile_name(tile: Tile, lang: str = "en") -> str:
    if lang not in LANGUAGES:
        raise KibitzError(f"no tile names in {lang!r}; languages: {', '.join(LANGUAGES)}")
    names = _NAMES.get(tile)
    return tile.code if names is None else names[LANGUAGES.index(lang)]


def _key(text: str) -> str:
    return " ".join(text.replace("-", " ").replace("_", " ").casefold().split())


_BY_NAME: Final[dict[str, tuple[Tile, ...]]] = {}
for _tile, _names in _NAMES.items():
    for _name in _names:
        _BY_NAME[_key(_name)] = (*_BY_NAME.get(_key(_name), ()), _tile)
for _word, _tiles in _ALIASES.items():
    _BY_NAME[_key(_word)] = _tiles


def tiles_named(text: str) -> tuple[Tile, ...]:
    """Every tile a name (any language, any case) could mean: one, several (``nine``) or none."""
    return _BY_NAME.get(_key(text), ())
