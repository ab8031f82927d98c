"""Settlements: the worked example, ties, the lowest-hand tie-break, Ce Deng's multipliers, eight doubles,
Kkoribuchigi's payers in points and chips, profiles and variants, and zero sums."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dominoes.profile import DominoProfile, variants_of
from engine.dominoes.settle import lowest_hand, settle, settle_eight_doubles, void_deal
from engine.errors import KibitzError, ProfileError
from engine.profile import load_profile_data

JIELONG = DominoProfile.load("jielong")
CEDENG = DominoProfile.load("cedeng")
CEDENG_SHORT = DominoProfile.load("cedeng", ["head6-tail7"])
KKORI = DominoProfile.load("kkori")


def payments(result) -> dict[tuple[int, int], tuple[int, int]]:
    return {(p.payer, p.payee): (p.amount, p.multiplier) for p in result.payments}


def test_the_worked_example():
    result = settle([2, 12, 34, 18], JIELONG)
    assert result.net == (58, 18, -70, -6) and result.winner == 0
    assert payments(result) == {
        (1, 0): (10, 1), (2, 0): (32, 1), (3, 0): (16, 1), (2, 1): (22, 1), (3, 1): (6, 1), (2, 3): (16, 1),
    }


def test_ties_pay_nothing_and_the_first_player_wins_a_tie():
    result = settle([5, 5, 9], JIELONG)
    assert (0, 1) not in payments(result) and (1, 0) not in payments(result)
    assert result.net == (4, 4, -8) and result.winner == 0
    assert lowest_hand([7, 3, 3, 9]) == 1
    assert lowest_hand([7, 3, 3, 9], first=2) == 2  # the first player of the deal is the lowest hand
    assert lowest_hand([4, 4], first=1) == 1
    assert settle([6, 6, 6, 6], JIELONG).net == (0, 0, 0, 0)


def test_ce_deng_needs_the_tile_counts():
    with pytest.raises(KibitzError, match="cedeng needs how many tiles each player did not lay"):
        settle([0, 12, 34, 18], CEDENG)
    with pytest.raises(KibitzError, match="player 2 cannot have 9 tiles not laid"):
        settle([0, 12, 34, 18], CEDENG, [0, 9, 8, 5])
    with pytest.raises(KibitzError, match="cedeng is played by 4 players; 3 were given"):
        settle([0, 12, 34], CEDENG, [0, 3, 8])


def test_clean_finish_receives_double():
    result = settle([0, 12, 34, 18], CEDENG, [0, 3, 5, 4])
    assert result.receives == (2, 1, 1, 1) and result.flags[0] == ("clean finish",)
    assert payments(result)[(2, 0)] == (68, 2) and payments(result)[(2, 1)] == (22, 1)
    assert result.net == (2 * (12 + 34 + 18), -24 + 22 + 6, -68 - 22 - 16, -36 - 6 + 16)


def test_heavy_head_and_tail_pay_double_and_clean_against_them_is_four_times():
    # the head (first player) with 7 face down, a tail with all 8
    result = settle([20, 0, 10, 40], CEDENG, [7, 0, 3, 8])
    assert result.pays == (2, 1, 1, 2) and result.flags == (("heavy head",), ("clean finish",), (), ("heavy tail",))
    got = payments(result)
    assert got[(0, 1)] == (4 * 20, 4) and got[(3, 1)] == (4 * 40, 4)  # clean against heavy: x4
    assert got[(0, 2)] == (2 * 10, 2) and got[(3, 2)] == (2 * 30, 2) and got[(3, 0)] == (2 * 20, 2)
    assert got[(2, 1)] == (20, 2)
    # a tail with 7 face down is not heavy, nor a head with 6
    assert settle([20, 0, 10, 40], CEDENG, [6, 0, 3, 7]).pays == (1, 1, 1, 1)
    # the heavy player is heavy only when paying: a heavy head with the fewest pips receives as usual
    assert settle([10, 12, 30, 40], CEDENG, [7, 3, 5, 6]).net == settle([10, 12, 30, 40], JIELONG).net


def test_the_head6_tail7_variant():
    result = settle([20, 5, 10, 40], CEDENG_SHORT, [6, 2, 3, 7])
    assert result.pays == (2, 1, 1, 2)
    assert settle([20, 5, 10, 40], CEDENG_SHORT, [7, 2, 3, 8]).pays == (2, 1, 1, 2)  # "6 or more"
    assert settle([20, 5, 10, 40], CEDENG_SHORT, [5, 2, 3, 6]).pays == (1, 1, 1, 1)


def test_eight_doubles_win_at_once():
    result = settle_eight_doubles([56, 20, 30, 10], 0, CEDENG)
    assert result.reason == "eight-doubles" and result.winner == 0
    assert payments(result) == {(1, 0): (40, 2), (2, 0): (60, 2), (3, 0): (20, 2)}
    assert result.net == (120, -40, -60, -20)
    with pytest.raises(KibitzError, match="must be 1 to 4, not 5"):
        settle_eight_doubles([56, 20, 30, 10], 4, CEDENG)


def test_a_void_deal_pays_nothing():
    result = void_deal(4, CEDENG)
    assert result.reason == "redeal" and result.winner is None and result.net == (0, 0, 0, 0)


def test_kkoribuchigi_the_most_points_and_anyone_over_30_pay_the_winner():
    result = settle([3, 12, 40, 31], KKORI)
    assert payments(result) == {(2, 0): (37, 1), (3, 0): (28, 1)} and result.net == (65, 0, -37, -28)
    assert result.flags[2] == ("most points", "over 30") and result.flags[3] == ("over 30",)
    # exactly 30 does not pay unless the table says "30 or more"
    assert payments(settle([3, 12, 40, 30], KKORI)) == {(2, 0): (37, 1)}
    inclusive = DominoProfile.load("kkori", ["at-least-30"])
    assert payments(settle([3, 12, 40, 30], inclusive)) == {(2, 0): (37, 1), (3, 0): (27, 1)}
    # with three players only the most points pays
    assert payments(settle([3, 40, 35], KKORI)) == {(1, 0): (37, 1)}
    # everyone tied for the most pays; a tie with the winner pays nothing
    assert payments(settle([3, 20, 20], KKORI)) == {(1, 0): (17, 1), (2, 0): (17, 1)}
    assert settle([5, 5, 5, 5], KKORI).payments == () and settle([5, 5, 5, 5], KKORI).winner == 0
    assert settle([5, 3, 3], KKORI, first=2).winner == 2


def test_kkoribuchigi_in_chips():
    chips = DominoProfile.load("kkori", ["chips"])
    assert settle([3, 12, 40, 31], chips).net == (2, 0, -1, -1)
    assert settle([9, 2, 9], chips).net == (-1, 2, -1)


def test_profiles_and_variants():
    assert variants_of("jielong") == ["two-arm"] and variants_of("kkori") == ["at-least-30", "chips", "holder-leads"]
    assert DominoProfile.load("jielong", ["two-arm"]).arms == 2 and JIELONG.arms == 1
    assert DominoProfile.load("kkori", ["holder-leads"]).lead_holder.code == "2:5"
    assert KKORI.deal_for(3) == (8, "korean") and KKORI.deal_for(4) == (8, "chinese") and CEDENG.players == (4,)
    with pytest.raises(ProfileError, match="jielong has no variant 'fast'; variants: two-arm"):
        DominoProfile.load("jielong", ["fast"])
    with pytest.raises(ProfileError, match="not a domino game"):
        DominoProfile.load("default")
    data = load_profile_data("jielong")
    data["settle"] = {**data["settle"], "payment": "beer"}
    with pytest.raises(ProfileError, match="settle.payment must be one of points, chips"):
        DominoProfile.from_data(data)
    data = load_profile_data("jielong")
    data["deal"] = {**data["deal"], "players-5": [8, "chinese"]}
    with pytest.raises(ProfileError, match="5 hands of 8 need more than the 32 tiles"):
        DominoProfile.from_data(data)


def test_a_rules_file_extends_a_shipped_profile(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('extends = "cedeng"\nname = "house"\n[settle]\nclean-finish = 3\n')
    house = DominoProfile.load(path)
    assert house.name == "house" and house.game == "cedeng" and house.clean_finish == 3
    assert settle([0, 10, 10, 10], house, [0, 2, 2, 2]).net == (90, -30, -30, -30)
    path.write_text('extends = "cedeng"\n[settle]\nclean-finsh = 3\n')
    with pytest.raises(ProfileError, match="unknown setting.s. settle.clean-finsh"):
        DominoProfile.load(path)


PROFILES = [JIELONG, CEDENG, CEDENG_SHORT, KKORI, DominoProfile.load("kkori", ["chips", "at-least-30"])]


@settings(max_examples=150, deadline=None)
@given(data=st.data(), profile=st.sampled_from(PROFILES))
def test_settlements_always_sum_to_zero(data, profile):
    players = data.draw(st.sampled_from(profile.players))
    size = profile.deal_for(players)[0]
    pips = data.draw(st.lists(st.integers(0, 120), min_size=players, max_size=players))
    counts = data.draw(st.lists(st.integers(0, size), min_size=players, max_size=players))
    first = data.draw(st.integers(0, players - 1))
    result = settle(pips, profile, counts, first)
    assert sum(result.net) == 0
    assert result.winner == lowest_hand(pips, first) and result.net[result.winner] >= 0  # the lowest hand never pays
    assert all(p.amount > 0 and pips[p.payer] > pips[p.payee] for p in result.payments)
    if profile is JIELONG:  # every pair settles its difference: p gets the sum of (others' pips - own pips)
        assert result.net == tuple(sum(pips) - players * mine for mine in pips)
