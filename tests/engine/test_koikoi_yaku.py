"""Every yaku and house-rule switch of the two shipped Koi-Koi profiles."""

import pytest

from engine.cardset import CardSet
from engine.errors import ProfileError
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.yaku import dealt_hand_yaku, round_total, score_yaku

DEFAULT = KoiKoiProfile.load("default")
JAPAN = KoiKoiProfile.load("koikoi-japan")

BRIGHTS5 = "pine-crane cherry-curtain pampas-moon willow-rainman paulownia-phoenix"
PLAINS10 = (
    "pine-plain-1 pine-plain-2 plum-plain-1 plum-plain-2 cherry-plain-1 "
    "cherry-plain-2 wisteria-plain-1 wisteria-plain-2 iris-plain-1 iris-plain-2"
)


def yaku(cards: str, profile: KoiKoiProfile = DEFAULT, koikoi: bool = False) -> dict[str, int]:
    return {y.name: y.points for y in score_yaku(CardSet.parse(cards).mask, profile, koikoi)}


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (BRIGHTS5, {"goko": 10}),
        ("pine-crane cherry-curtain pampas-moon paulownia-phoenix", {"shiko": 8}),
        ("pine-crane cherry-curtain pampas-moon willow-rainman", {"ameshiko": 7}),
        ("pine-crane cherry-curtain pampas-moon", {"sanko": 5}),
        ("pine-crane cherry-curtain willow-rainman", {}),  # three with the rain man is nothing
        ("pampas-moon chrysanthemum-sake", {"tsukimi": 5}),
        ("cherry-curtain chrysanthemum-sake", {"hanami": 5}),
        ("clover-boar maple-deer peony-butterflies", {"inoshikacho": 5}),
        ("pine-ribbon plum-ribbon cherry-ribbon", {"akatan": 5}),
        ("peony-ribbon chrysanthemum-ribbon maple-ribbon", {"aotan": 5}),
        ("plum-warbler wisteria-cuckoo iris-bridge pampas-geese willow-swallow", {"tane": 1}),
        ("plum-warbler wisteria-cuckoo iris-bridge pampas-geese willow-swallow clover-boar", {"tane": 2}),
        ("pine-ribbon plum-ribbon wisteria-ribbon iris-ribbon willow-ribbon", {"tanzaku": 1}),
        (PLAINS10, {"kasu": 1}),
        (PLAINS10 + " willow-lightning", {"kasu": 2}),
        # the sake cup is an animal and a plain at once
        ("pine-plain-1 pine-plain-2 plum-plain-1 plum-plain-2 cherry-plain-1 cherry-plain-2 "
         "wisteria-plain-1 wisteria-plain-2 iris-plain-1 chrysanthemum-sake", {"kasu": 1}),
    ],
)
def test_default_yaku(cards, expected):
    assert yaku(cards) == expected


def test_only_the_best_bright_yaku_counts_and_count_yaku_combine():
    assert yaku(BRIGHTS5) == {"goko": 10}
    six_ribbons = "pine-ribbon plum-ribbon cherry-ribbon peony-ribbon chrysanthemum-ribbon maple-ribbon"
    assert yaku(six_ribbons) == {"akatan": 5, "aotan": 5, "tanzaku": 2}
    animals = "clover-boar maple-deer peony-butterflies plum-warbler wisteria-cuckoo"
    assert yaku(animals) == {"inoshikacho": 5, "tane": 1}
    assert yaku("pampas-moon cherry-curtain chrysanthemum-sake pine-crane") == {
        "sanko": 5, "tsukimi": 5, "hanami": 5
    }


def test_sake_not_a_plain_switch():
    nine_and_sake = PLAINS10.rsplit(" ", 1)[0] + " chrysanthemum-sake"
    profile = KoiKoiProfile.from_data(_data(rules={"sake-is-plain": False}))
    assert yaku(nine_and_sake) == {"kasu": 1}
    assert yaku(nine_and_sake, profile) == {}


@pytest.mark.parametrize(
    ("viewing", "alone", "with_other", "with_rain"),
    [
        ("always", {"tsukimi": 5}, {"tsukimi": 5, "akatan": 5}, {"tsukimi": 5}),
        ("off", {}, {"akatan": 5}, {}),
        ("with-other-yaku", {}, {"tsukimi": 5, "akatan": 5}, {}),
        ("rain-cancels", {"tsukimi": 5}, {"tsukimi": 5, "akatan": 5}, {}),
    ],
)
def test_viewing_switches(viewing, alone, with_other, with_rain):
    profile = KoiKoiProfile.from_data(_data(rules={"viewing": viewing}))
    view = "pampas-moon chrysanthemum-sake"
    assert yaku(view, profile) == alone
    assert yaku(view + " pine-ribbon plum-ribbon cherry-ribbon", profile) == with_other
    assert yaku(view + " willow-lightning", profile) == with_rain


def test_extra_card_bonus_switch():
    profile = KoiKoiProfile.from_data(_data(rules={"extra-card-bonus": True}))
    four_ribbons = "pine-ribbon plum-ribbon cherry-ribbon wisteria-ribbon"
    assert yaku(four_ribbons) == {"akatan": 5}
    assert yaku(four_ribbons, profile) == {"akatan": 6}
    animals = "clover-boar maple-deer peony-butterflies plum-warbler"
    assert yaku(animals, profile) == {"inoshikacho": 6}


def test_points_variants_sanko_6_goko_15():
    variant = DEFAULT.with_points(sanko=6, goko=15)
    assert yaku("pine-crane cherry-curtain pampas-moon", variant) == {"sanko": 6}
    assert yaku(BRIGHTS5, variant) == {"goko": 15}
    with pytest.raises(ProfileError):
        DEFAULT.with_points(nonsense=1)


def test_koikoi_japan_yaku_values():
    assert yaku("pampas-moon chrysanthemum-sake", JAPAN) == {"tsukimi": 1}
    assert yaku("pampas-moon chrysanthemum-sake", JAPAN, koikoi=True) == {"tsukimi": 3}
    assert yaku("pampas-moon cherry-curtain chrysanthemum-sake", JAPAN, koikoi=True) == {"tsukimi": 3, "hanami": 3}
    six = "pine-ribbon plum-ribbon cherry-ribbon peony-ribbon chrysanthemum-ribbon maple-ribbon"
    assert yaku(six, JAPAN) == {"akatan": 5, "aotan": 5, "akatan-aotan": 10, "tanzaku": 2}
    assert yaku(BRIGHTS5, JAPAN) == {"goko": 10}
    assert yaku("pine-crane cherry-curtain pampas-moon willow-rainman", JAPAN) == {"ameshiko": 7}


def test_round_total_multipliers_default():
    assert round_total(5, DEFAULT, 0, False) == 5
    assert round_total(7, DEFAULT, 0, False) == 14  # 7 or more doubles
    assert round_total(5, DEFAULT, 1, True) == 10  # the opponent had called koi-koi
    assert round_total(8, DEFAULT, 0, True) == 32
    no_seven = KoiKoiProfile.from_data(_data(rules={"double-at-seven": False, "opponent-koikoi-double": False}))
    assert round_total(8, no_seven, 0, True) == 8
    own = KoiKoiProfile.from_data(_data(rules={"own-koikoi": "double"}))
    assert round_total(5, own, 2, False) == 20


def test_round_total_koikoi_japan_own_calls():
    assert [round_total(5, JAPAN, calls, True) for calls in range(7)] == [5, 6, 7, 8, 10, 15, 20]
    assert round_total(8, JAPAN, 0, False) == 8  # no 7+ doubling


def test_dealt_hand_yaku():
    teshi = CardSet.parse("pine-crane pine-ribbon pine-plain-1 pine-plain-2 plum-warbler cherry-curtain iris-bridge maple-deer")
    pairs = CardSet.parse("pine-crane pine-ribbon plum-warbler plum-ribbon cherry-curtain cherry-ribbon maple-deer maple-ribbon")
    two_fours = CardSet.parse(
        "pine-crane pine-ribbon pine-plain-1 pine-plain-2 plum-warbler plum-ribbon plum-plain-1 plum-plain-2"
    )
    three_one = CardSet.parse("pine-crane pine-ribbon pine-plain-1 plum-warbler cherry-curtain cherry-ribbon maple-deer maple-ribbon")
    assert [y.name for y in dealt_hand_yaku(teshi.mask, DEFAULT)] == ["teshi"]
    assert dealt_hand_yaku(pairs.mask, DEFAULT)[0].points == 6
    assert [y.name for y in dealt_hand_yaku(pairs.mask, DEFAULT)] == ["kuttsuki"]
    assert dealt_hand_yaku(three_one.mask, DEFAULT) == []
    assert [y.name for y in dealt_hand_yaku(two_fours.mask, DEFAULT)] == ["teshi"]
    double = DEFAULT.with_points(double_teshi=14)
    assert [(y.name, y.points) for y in dealt_hand_yaku(two_fours.mask, double)] == [("double-teshi", 14)]
    assert dealt_hand_yaku(teshi.mask, JAPAN) == []


def test_user_profile_extends_and_rejects_typos(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "default"\nname = "ours"\n[yaku]\nsanko = 6\n[rules]\nviewing = "off"\n')
    profile = KoiKoiProfile.load(mine)
    assert profile.name == "ours" and profile.points["sanko"] == 6 and profile.viewing == "off"
    assert profile.points["goko"] == 10  # inherited
    typo = tmp_path / "typo.toml"
    typo.write_text('extends = "default"\n[yaku]\nsankoo = 6\n')
    with pytest.raises(ProfileError, match="yaku.sankoo"):
        KoiKoiProfile.load(typo)
    bad_type = tmp_path / "bad.toml"
    bad_type.write_text('extends = "koikoi-japan"\n[rules]\nviewing = 3\n')
    with pytest.raises(ProfileError, match="rules.viewing"):
        KoiKoiProfile.load(bad_type)
    bad_choice = tmp_path / "choice.toml"
    bad_choice.write_text('extends = "default"\n[rules]\nviewing = "never"\n')
    with pytest.raises(ProfileError, match="must be one of"):
        KoiKoiProfile.load(bad_choice)
    broken = tmp_path / "broken.toml"
    broken.write_text("[yaku\n")
    with pytest.raises(ProfileError, match="not valid TOML"):
        KoiKoiProfile.load(broken)
    with pytest.raises(ProfileError, match="unknown profile"):
        KoiKoiProfile.load("no-such-profile")


def _data(**tables: dict) -> dict:
    """The default profile's data with some tables changed."""
    from engine.profile import load_profile_data

    data = load_profile_data("default")
    for table, values in tables.items():
        data[table] = {**data[table], **values}
    return data
