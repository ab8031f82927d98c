"""Go-Stop scoring: every element, the sake cup's choice, go counting, every multiplier and the settlement."""

import pytest

from engine.cardset import CardSet
from engine.errors import ProfileError
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_scoring import Table, best_total, elements, go_score, settle_fixed, settle_stop, total
from engine.profile import load_profile_data

GOSTOP = GoStopProfile.load("gostop")
MATGO = GoStopProfile.load("matgo")
SINGLES = [
    "pine-plain-1", "pine-plain-2", "plum-plain-1", "plum-plain-2", "cherry-plain-1", "cherry-plain-2",
    "wisteria-plain-1", "wisteria-plain-2", "iris-plain-1", "iris-plain-2", "peony-plain-1", "peony-plain-2",
    "clover-plain-1", "clover-plain-2",
]
ANIMALS = ["iris-bridge", "peony-butterflies", "clover-boar", "maple-deer", "willow-swallow"]


def pile(*codes: str) -> int:
    return CardSet.parse(" ".join(codes)).mask


def scored(mask: int, profile: GoStopProfile = GOSTOP, sake_as_pi: bool = False) -> list[tuple[str, int]]:
    return [(y.name, y.points) for y in elements(mask, profile, sake_as_pi)]


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        ("pine-crane cherry-curtain", []),
        ("pine-crane cherry-curtain pampas-moon", [("gwang", 3)]),
        ("pine-crane cherry-curtain willow-rainman", [("gwang", 2)]),
        ("pine-crane cherry-curtain pampas-moon paulownia-phoenix", [("gwang", 4)]),
        ("pine-crane cherry-curtain pampas-moon willow-rainman", [("gwang", 4)]),
        ("pine-crane cherry-curtain pampas-moon willow-rainman paulownia-phoenix", [("gwang", 15)]),
        (" ".join(ANIMALS[:4]), []),
        (" ".join(ANIMALS), [("yeol", 1)]),
        (" ".join(ANIMALS) + " plum-warbler", [("yeol", 2)]),
        ("plum-warbler wisteria-cuckoo pampas-geese", [("godori", 5)]),
        ("plum-warbler wisteria-cuckoo pampas-geese iris-bridge maple-deer", [("yeol", 1), ("godori", 5)]),
        ("pine-ribbon plum-ribbon peony-ribbon iris-ribbon", []),
        ("pine-ribbon plum-ribbon peony-ribbon iris-ribbon willow-ribbon", [("tti", 1)]),
        ("pine-ribbon plum-ribbon cherry-ribbon", [("hongdan", 3)]),
        ("peony-ribbon chrysanthemum-ribbon maple-ribbon", [("cheongdan", 3)]),
        ("wisteria-ribbon iris-ribbon clover-ribbon", [("chodan", 3)]),
        ("wisteria-ribbon iris-ribbon willow-ribbon", []),  # the willow ribbon is in no dan
        ("pine-ribbon plum-ribbon cherry-ribbon wisteria-ribbon iris-ribbon clover-ribbon",
         [("tti", 2), ("hongdan", 3), ("chodan", 3)]),
        (" ".join(SINGLES[:9]), []),
        (" ".join(SINGLES[:10]), [("pi", 1)]),
        (" ".join(SINGLES[:11]), [("pi", 2)]),
        (" ".join(SINGLES[:8]) + " willow-lightning", [("pi", 1)]),  # ssangpi counts two
        (" ".join(SINGLES[:6]) + " willow-lightning paulownia-plain-3", [("pi", 1)]),
    ],
)
def test_elements(codes, expected):
    assert scored(pile(codes)) == expected
    assert total(pile(codes), GOSTOP) == sum(points for _, points in expected)


def test_the_sake_cup_counts_as_an_animal_or_a_double_pi():
    cup = "chrysanthemum-sake"
    assert scored(pile(cup, *SINGLES[:8])) == []
    assert scored(pile(cup, *SINGLES[:8]), sake_as_pi=True) == [("pi", 1)]
    assert best_total(pile(cup, *SINGLES[:8]), GOSTOP) == 1  # as pi
    assert best_total(pile(cup, *ANIMALS[:4], *SINGLES[:5]), GOSTOP) == 1  # as the fifth animal
    assert best_total(pile(cup, *ANIMALS[:4], *SINGLES[:9]), GOSTOP) == 2  # as pi: 11 pi beat 5 animals
    data = load_profile_data("gostop")
    data["pi"]["sake-cup"] = "animal"
    assert best_total(pile(cup, *SINGLES[:8]), GoStopProfile.from_data(data)) == 0


def test_go_adds_one_for_the_first_two_calls_then_doubles():
    assert [go_score(5, gos, GOSTOP) for gos in range(6)] == [5, 6, 7, 14, 28, 56]


THREE_GWANG = pile("pine-crane cherry-curtain pampas-moon")
NO_BAK = pile("willow-rainman", *SINGLES[10:14], "willow-lightning")  # a bright and 6 pi
NOTHING = 0
PLAIN_TABLE = Table((), (0, 0, 0), (0, 0, 0), 0)


def settle(piles, table=PLAIN_TABLE, profile=GOSTOP, winner=0):
    result = settle_stop(piles, winner, table, profile)
    assert sum(result.net) == 0
    return result


def test_a_plain_stop_and_gwang_bak():
    result = settle((THREE_GWANG, NO_BAK, NOTHING))
    assert (result.reason, result.winner, result.base, result.score) == ("stop", 0, 3, 3)
    assert [(p.player, p.amount, p.reasons) for p in result.payments] == [(1, 3, ()), (2, 6, ("gwang-bak",))]
    assert result.net == (9, -3, -6)


def test_the_winners_shakes_and_bombs_double_and_stack():
    result = settle((THREE_GWANG, NO_BAK, NO_BAK), Table((), (1, 0, 0), (1, 0, 0), 0))
    assert result.score == 12 and result.multipliers == ("shake", "bomb") and result.net == (24, -12, -12)
    assert settle((THREE_GWANG, NO_BAK, NO_BAK), Table((), (0, 2, 1), (0, 1, 0), 0)).score == 3  # losers' shakes


def test_pi_bak_below_the_threshold():
    winner = pile("pine-crane cherry-curtain pampas-moon", *SINGLES[:10])  # gwang 3 + pi 1
    five = pile("willow-rainman", *SINGLES[10:14], "willow-swallow", "paulownia-plain-1")
    six = pile("paulownia-phoenix", *SINGLES[10:14], "willow-lightning")  # 4 singles and a ssangpi
    result = settle((winner, five, six))
    assert result.base == 4
    assert [(p.amount, p.reasons) for p in result.payments] == [(8, ("pi-bak",)), (4, ())]
    cup = pile("willow-rainman", *SINGLES[10:14], "chrysanthemum-sake")  # a loser counts the cup as pi
    assert settle((winner, cup, six)).payments[0].reasons == ()
    assert settle((winner, cup, six)).sake_as == (None, "pi", None)
    nothing = settle((winner, NOTHING, six))
    assert nothing.payments[0] == (1, 16, ("gwang-bak", "pi-bak"))  # both baks stack


def test_meong_bak_and_the_cup_counted_the_way_that_pays_more():
    seven = pile("plum-warbler wisteria-cuckoo pampas-geese iris-bridge peony-butterflies clover-boar maple-deer")
    result = settle((seven, NO_BAK, NO_BAK))
    assert result.base == 3 + 5 and "meong-bak" in result.multipliers and result.score == 16
    with_cup = pile(
        "plum-warbler wisteria-cuckoo pampas-geese iris-bridge peony-butterflies clover-boar chrysanthemum-sake",
        *SINGLES[:9],
    )
    assert best_total(with_cup, GOSTOP) == 9  # for go or stop the cup is better as pi (yeol 2 + godori + pi 2)
    result = settle((with_cup, NO_BAK, NO_BAK))
    assert result.sake_as[0] == "animal" and result.score == 16  # but as the seventh animal it pays 8 x 2


def test_go_bak_the_loser_who_called_go_pays_for_everyone():
    result = settle((THREE_GWANG, NO_BAK, NOTHING), Table((1,), (0, 0, 0), (0, 0, 0), 0))
    assert [(p.player, p.amount, p.reasons) for p in result.payments] == [(1, 9, ("go-bak",)), (2, 0, ("gwang-bak",))]
    assert result.net == (9, -9, 0) and result.gos == (0, 1, 0)
    result = settle((THREE_GWANG, NO_BAK, NOTHING), Table((1, 2), (0, 0, 0), (0, 0, 0), 0))
    assert result.net == (9, 0, -9)  # the latest caller pays
    result = settle((THREE_GWANG, NO_BAK, NO_BAK), Table((0, 0, 0), (0, 0, 0), (0, 0, 0), 0))
    assert result.score == (3 + 2) * 2 and result.net == (20, -10, -10)  # the winner's own gos: no go-bak


def test_matgo_go_bak_doubles():
    winner = pile("pine-crane cherry-curtain pampas-moon paulownia-phoenix pine-ribbon plum-ribbon cherry-ribbon")
    result = settle((winner, pile("willow-rainman")), Table((1,), (0, 0), (0, 0), 0), MATGO)
    assert result.base == 7 and result.payments[0] == (1, 14, ("go-bak",)) and result.net == (14, -14)


def test_nagari_doubles_the_next_hand():
    assert settle((THREE_GWANG, NO_BAK, NO_BAK), Table((), (0, 0, 0), (0, 0, 0), 1)).net == (12, -6, -6)
    assert settle((THREE_GWANG, NO_BAK, NO_BAK), Table((), (0, 0, 0), (0, 0, 0), 2)).multipliers == ("nagari",) * 2
    chongtong = settle_fixed("chongtong", 2, 10, 3, 1, GOSTOP)
    assert chongtong.net == (-20, -20, 40) and chongtong.reason == "chongtong"


def test_multipliers_are_profile_settings():
    data = load_profile_data("gostop")
    data["multipliers"].update({"gwang-bak": 1, "shake": 3, "go-bak": "off"})
    house = GoStopProfile.from_data(data)
    result = settle((THREE_GWANG, NO_BAK, NOTHING), Table((1,), (1, 0, 0), (0, 0, 0), 0), house)
    assert result.net == (18, -9, -9)


@pytest.mark.parametrize(
    ("table", "key", "value", "message"),
    [
        ("match", "players", 4, "must be 2 \\(Matgo\\) or 3"),
        ("deal", "hand-size", 9, "stock too short"),
        ("multipliers", "shake", 0, "multipliers.shake must be at least 1"),
        ("multipliers", "go-bak", "maybe", "must be one of pays-all, double, off"),
        ("pi", "double", ["pine-crane"], "distinct plain cards"),
        ("pi", "double", ["pine-crame"], "pi.double: unknown card code"),
        ("steal", "jjok", -1, "steal.jjok must not be negative"),
    ],
)
def test_profile_errors_name_the_setting(table, key, value, message):
    data = load_profile_data("gostop")
    data[table][key] = value
    with pytest.raises(ProfileError, match=message):
        GoStopProfile.from_data(data)


def test_matgo_is_gostop_for_two():
    assert (MATGO.players, MATGO.hand_size, MATGO.field_size, MATGO.threshold) == (2, 10, 8, 7)
    assert (GOSTOP.players, GOSTOP.hand_size, GOSTOP.field_size, GOSTOP.threshold) == (3, 7, 6, 3)
    with pytest.raises(ProfileError, match="is for 'hato', not gostop"):
        GoStopProfile.load("minhwatu")
