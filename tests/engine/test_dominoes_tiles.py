"""Domino tiles and tile multisets: codes, the Chinese, Korean and European sets, colours, names."""

import pytest

from engine.dominoes.names import LANGUAGES, tile_name
from engine.dominoes.tiles import CIVIL, MILITARY, Tile, TileKind, parse_tile
from engine.dominoes.tileset import CHINESE_SET, EUROPEAN_SET, KOREAN_SET, TileSet
from engine.errors import InvalidCardError, InvalidStateError, KibitzError


def test_28_tiles_in_code_order_with_low_end_first():
    assert len(Tile) == 28
    codes = [t.code for t in Tile]
    assert codes[0] == "0:0" and codes[-1] == "6:6" and codes.index("1:3") < codes.index("2:2")
    for tile in Tile:
        assert tile.low <= tile.high and tile.pips == tile.low + tile.high
        assert Tile.parse(tile.code) is tile and eval(repr(tile)) is tile
    assert Tile.T3_5.other(3) == 5 and Tile.T3_3.other(3) == 3


@pytest.mark.parametrize("text", ["1:3", "3:1", "1-3", "13", " 1 : 3 ", "harmony", "Goose", "和牌", "화패", "гармонія"])
def test_parse_forgives_order_separators_and_names(text):
    assert parse_tile(text) is Tile.T1_3


@pytest.mark.parametrize(("text", "message"), [
    ("7:1", "no tile has 7 pips"),
    ("1:17", "no tile has 17 pips"),
    ("nine", "3:6 or 4:5"),
    ("supreme", "2:4 or 1:2"),
    ("dragon", "codes look like 1:3"),
])
def test_parse_errors_say_why(text, message):
    with pytest.raises(InvalidCardError, match=message):
        parse_tile(text)


def test_chinese_set_counts_pips_and_classes():
    assert len(CHINESE_SET) == 32 and len(CHINESE_SET.distinct()) == 21
    assert CHINESE_SET.pips == 227
    assert all(CHINESE_SET.count(t) == 2 for t in CIVIL) and len(CIVIL) == 11
    assert all(CHINESE_SET.count(t) == 1 for t in MILITARY) and len(MILITARY) == 10
    assert sum(CHINESE_SET.count(t) for t in CIVIL) == 22
    assert {t.kind for t in CIVIL} == {TileKind.CIVIL} and {t.kind for t in MILITARY} == {TileKind.MILITARY}
    assert set(CIVIL) | set(MILITARY) == set(CHINESE_SET.distinct())
    assert Tile.T0_3 not in CHINESE_SET and Tile.T0_3.kind is TileKind.BLANK
    # the military pairs add up as their names say: nines, eights, sevens, fives, then the Supreme pair
    assert [t.pips for t in MILITARY] == [9, 9, 8, 8, 7, 7, 5, 5, 6, 3]
    assert CHINESE_SET.doubles == 12


def test_red_pips_are_the_ones_and_fours_and_half_the_heaven():
    assert Tile.T1_1.red_pips == 2 and Tile.T4_4.red_pips == 8 and Tile.T1_4.red_pips == 5
    assert Tile.T6_6.red_pips == 6 and Tile.T2_3.red_pips == 0 and Tile.T4_6.red_pips == 4
    assert Tile.T0_1.red_pips == 0  # European tiles are not coloured
    expected = sum(
        CHINESE_SET.count(t) * (6 if t is Tile.T6_6 else sum(n for n in (t.low, t.high) if n in (1, 4)))
        for t in CHINESE_SET.distinct()
    )
    assert CHINESE_SET.red_pips == expected


def test_korean_set_drops_the_four_high_doubles():
    assert len(KOREAN_SET) == 24
    dropped = CHINESE_SET - KOREAN_SET
    assert dropped == TileSet.parse("3:3 3:3 4:4 4:4 5:5 5:5 6:6 6:6")
    assert KOREAN_SET.pips == 227 - dropped.pips == 155


def test_european_double_six_for_pip_counting():
    assert len(EUROPEAN_SET) == 28 and all(EUROPEAN_SET.count(t) == 1 for t in Tile)
    assert EUROPEAN_SET.pips == 8 * 21  # each of 0..6 shows on eight half-tiles
    assert TileSet.parse("0:0 0:6 6:6").pips == 18


def test_tileset_parse_format_and_algebra():
    hand = TileSet.parse("6:6, 1:3 6:6")
    assert str(hand) == "1:3 6:6 6:6" and len(hand) == 3 and hand.count(Tile.T6_6) == 2
    assert eval(repr(hand)) == hand and eval(repr(TileSet())) == TileSet()
    assert Tile.T1_3 in hand and Tile.T2_2 not in hand and list(hand) == [Tile.T1_3, Tile.T6_6, Tile.T6_6]
    assert hand - TileSet.parse("6:6") == TileSet.parse("1:3 6:6")
    assert hand + TileSet.parse("1:3") == TileSet.parse("1:3 1:3 6:6 6:6")
    assert TileSet.parse("6:6") <= hand and not hand <= TileSet.parse("6:6")
    assert hand.with_number(3) == TileSet.parse("1:3") and TileSet.parse("-") == TileSet()
    assert hand.pips == 28


def test_tileset_errors_say_what_is_wrong():
    with pytest.raises(InvalidStateError, match="2:2 is not there"):
        TileSet.parse("1:3") - TileSet.parse("2:2")
    with pytest.raises(InvalidStateError, match="more than three"):
        TileSet.parse("1:1 1:1 1:1 1:1")
    with pytest.raises(InvalidCardError, match="codes look like"):
        TileSet.parse("1:3 x")


def test_names_in_four_languages():
    assert [tile_name(Tile.T6_6, lang) for lang in LANGUAGES] == ["天牌", "Heaven", "천패", "Небо"]
    assert Tile.T1_2.name_in("zh") == "丁三" and Tile.T2_4.name_in("en") == "Supreme six"
    assert Tile.T3_6.name_in("en") == Tile.T4_5.name_in("en") == "Mixed nine"
    assert all(t.name_in(lang) for t in CHINESE_SET.distinct() for lang in LANGUAGES)
    assert Tile.T0_5.name_in("uk") == "0:5"
    with pytest.raises(KibitzError, match="languages: zh, en, ko, uk"):
        Tile.T6_6.name_in("fr")
