from collections import Counter

import pytest

from engine.cards import ALL_CARDS, Card, Kind, Month, Ribbon, month_cards, parse_card
from engine.errors import InvalidCardError
from engine.names import LANGUAGES, card_name


def test_deck_has_48_cards_four_per_month_in_japanese_order():
    assert len(ALL_CARDS) == 48
    assert [c.month for c in ALL_CARDS] == [m for m in Month for _ in range(4)]
    assert ALL_CARDS[0].code == "pine-crane" and ALL_CARDS[-1].code == "paulownia-plain-3"


def test_kinds_and_ribbon_colours():
    kinds = Counter(c.kind for c in ALL_CARDS)
    assert kinds == {Kind.BRIGHT: 5, Kind.ANIMAL: 9, Kind.RIBBON: 10, Kind.PLAIN: 24}
    assert {c for c in ALL_CARDS if c.kind is Kind.BRIGHT} == {
        Card.PINE_CRANE, Card.CHERRY_CURTAIN, Card.PAMPAS_MOON, Card.WILLOW_RAINMAN, Card.PAULOWNIA_PHOENIX
    }
    colours = Counter(c.ribbon for c in ALL_CARDS if c.kind is Kind.RIBBON)
    assert colours == {Ribbon.POEM: 3, Ribbon.BLUE: 3, Ribbon.RED: 4}
    assert Card.WILLOW_RIBBON.ribbon is Ribbon.RED and Card.MAPLE_RIBBON.ribbon is Ribbon.BLUE
    assert Card.PINE_CRANE.ribbon is None
    assert Card.WILLOW_LIGHTNING.kind is Kind.PLAIN and Card.CHRYSANTHEMUM_SAKE.kind is Kind.ANIMAL


def test_korean_month_order_swaps_willow_and_paulownia_only():
    assert Card.WILLOW_RAINMAN.month.korean == 12
    assert Card.PAULOWNIA_PHOENIX.month.korean == 11
    assert Card.WILLOW_RAINMAN.month == Month.WILLOW == 11
    assert [m.korean for m in Month if m not in (Month.WILLOW, Month.PAULOWNIA)] == list(range(1, 11))
    # identity does not change with the numbering
    assert parse_card("willow-rainman") is Card.WILLOW_RAINMAN


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("pine-crane", Card.PINE_CRANE),
        ("PINE_CRANE", Card.PINE_CRANE),
        ("  Pine-Crane ", Card.PINE_CRANE),
        ("1-crane", Card.PINE_CRANE),
        ("1-sun", Card.PINE_CRANE),
        ("kiri-hikari", Card.PAULOWNIA_PHOENIX),
        ("11-rainman", Card.WILLOW_RAINMAN),
        ("yanagi-lightning", Card.WILLOW_LIGHTNING),
        ("9-sake", Card.CHRYSANTHEMUM_SAKE),
        ("sakura-tanzaku", Card.CHERRY_RIBBON),
        ("12-plain-3", Card.PAULOWNIA_PLAIN_3),
    ],
)
def test_parse_is_forgiving_when_unambiguous(text, card):
    assert parse_card(text) is card
    assert Card.parse(text) is card


def test_parse_errors_name_the_nearest_codes():
    with pytest.raises(InvalidCardError, match="pine-crane"):
        parse_card("pine-crame")
    with pytest.raises(InvalidCardError, match="ambiguous.*pine-plain-1, pine-plain-2"):
        parse_card("pine-kasu")
    with pytest.raises(InvalidCardError, match="unknown card code 'xyz'"):
        parse_card("xyz")
    assert issubclass(InvalidCardError, ValueError)


def test_code_round_trip_and_repr_evaluates_back():
    for card in ALL_CARDS:
        assert parse_card(card.code) is card
        assert eval(repr(card)) is card
        assert str(card) == card.code


def test_names_exist_in_every_language_and_differ_within_one():
    for lang in LANGUAGES:
        names = [card_name(c, lang) for c in ALL_CARDS]
        assert all(names)
        assert len(set(names)) == 48, lang
    assert Card.PINE_CRANE.name_in("ja") == "松に鶴"
    assert Card.WILLOW_RAINMAN.name_in("ko").startswith("비")
    assert "Сосна" in Card.PINE_CRANE.name_in("ru")
    assert "журавель" in Card.PINE_CRANE.name_in("uk")
    with pytest.raises(ValueError, match="unknown language"):
        card_name(Card.PINE_CRANE, "xx")


def test_month_cards():
    assert month_cards(Month.WILLOW) == (
        Card.WILLOW_RAINMAN, Card.WILLOW_SWALLOW, Card.WILLOW_RIBBON, Card.WILLOW_LIGHTNING
    )
