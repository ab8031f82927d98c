"""Kan actions: every kind parses from its text, formats back to it, and has a repr that evaluates back."""

import pytest

from engine.errors import InvalidMoveError
from engine.kan.actions import Action, ActionKind, ShowWay
from engine.kan.cards import Card, Suit

ACTIONS = [
    ("play 10H", Action.play(Card.TEN_OF_HEARTS)),
    ("play JOKER S", Action.play(Card.JOKER, Suit.SPADES)),
    ("kan JOKER by 3", Action.kan(Card.JOKER, 2)),
    ("kan AC by 1", Action.kan(Card.ACE_OF_CLUBS, 0)),
    ("give 7H", Action.give(Card.SEVEN_OF_HEARTS)),
    ("give", Action.give()),
    ("iku", Action.iku()),
    ("koi", Action.koi()),
    ("show two 5H KH", Action.show(ShowWay.TWO, Card.FIVE_OF_HEARTS, Card.KING_OF_HEARTS)),
    ("show another KH 5H", Action.show(ShowWay.ANOTHER, Card.KING_OF_HEARTS, Card.FIVE_OF_HEARTS)),
    ("show same QS", Action.show(ShowWay.SAME, Card.QUEEN_OF_SPADES)),
    ("show single JOKER", Action.show(ShowWay.SINGLE, Card.JOKER)),
    ("show none", Action.show(ShowWay.NONE)),
    ("show two", Action.show(ShowWay.TWO)),
    ("trump D", Action.trump(Suit.DIAMONDS)),
    ("juuroku", Action.juuroku()),
    ("gyaku-juuroku", Action.gyaku_juuroku()),
    ("pass", Action.pass_()),
    ("stop", Action.stop()),
    ("continue", Action.continue_()),
]


@pytest.mark.parametrize("text, action", ACTIONS, ids=[t for t, _ in ACTIONS])
def test_parse_format_and_repr_round_trip(text, action):
    assert Action.parse(text) == action
    assert str(action) == text
    assert eval(repr(action)) == action


def test_every_kind_and_way_is_covered():
    assert {a.kind for _, a in ACTIONS} == set(ActionKind)
    assert {a.way for _, a in ACTIONS if a.way is not None} == set(ShowWay)


def test_forgiving_spellings():
    assert Action.parse("Play joker hearts") == Action.play(Card.JOKER, Suit.HEARTS)
    assert Action.parse("gyaku juuroku") == Action.gyaku_juuroku()
    assert Action.parse("show two KH 5h") == Action.parse("show two 5H KH")  # two at once: a set
    assert Action.parse("show another KH 5H") != Action.parse("show another 5H KH")  # one, then another: an order
    assert Action.parse("trump ♠").suit is Suit.SPADES


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty action"),
        ("dance", "cannot read action"),
        ("play", "cannot read action"),
        ("play 2C", "not in the Kan deck"),
        ("kan JOKER", "cannot read action"),
        ("kan JOKER by 6", "numbered 1 to 5"),
        ("show two 5H", "names 2 card"),
        ("show another 5H 5H", "two different cards"),
        ("show twice 5H", "cannot read action"),
        ("trump X", "unknown suit"),
        ("iku now", "cannot read action"),
    ],
)
def test_bad_text_says_why(text, message):
    with pytest.raises(InvalidMoveError, match=message):
        Action.parse(text)


def test_show_ways_count_their_cards():
    assert [w.cards for w in ShowWay] == [2, 2, 1, 1, 0]
    assert Action.parse("show same QS").shown == (Card.QUEEN_OF_SPADES,)
