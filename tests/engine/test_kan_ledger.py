"""The Kan ledger: every line of the table, the rule book's three worked examples, how the five players
balance, and a table's own numbers loaded from TOML."""

from fractions import Fraction

import pytest

from engine.errors import InvalidStateError, ProfileError
from engine.kan.ledger import DealOutcome, Declaration, RoundLedger, format_points, round_entries, settle
from engine.kan.profile import KanProfile, LedgerTable

J, GJ = Declaration.JUUROKU, Declaration.GYAKU_JUUROKU
KAN = KanProfile.load("kan")


def entries(*outcomes: DealOutcome, profile: KanProfile = KAN) -> list[tuple[int, str, int]]:
    return [(e.deal, e.line, e.amount) for e in round_entries(outcomes, profile)]


def total(*outcomes: DealOutcome, profile: KanProfile = KAN) -> int:
    return sum(amount for _, _, amount in entries(*outcomes, profile=profile))


def test_the_shipped_profile_is_the_rule_books_table():
    assert KAN.ledger == LedgerTable()  # the TOML and the code defaults agree
    assert KAN.rounds == 10 and KAN.win_points == 9 and KAN.balance == "share"


def test_example_1_three_wins_with_a_sukonku_in_the_second():
    deals = (DealOutcome(10), DealOutcome(16), DealOutcome(12))
    assert entries(*deals) == [
        (1, "deal-won", 1), (2, "deal-won", 1), (2, "sukonku", 1), (3, "deal-won", 1), (0, "all-three", 1),
    ]
    assert total(*deals) == 5


def test_example_2_juuroku_made_in_the_second_then_the_third_lost():
    deals = (DealOutcome(10), DealOutcome(16, J), DealOutcome(5))
    assert entries(*deals) == [(1, "deal-won", 1), (2, "deal-won", 1), (2, "juuroku-made", 8), (3, "deal-lost", -1)]
    assert total(*deals) == 9  # no sukonku counted with juuroku declared


def test_example_3_a_failed_gyaku_juuroku_doubles_the_round_so_far_and_adds_32():
    deals = (DealOutcome(16), DealOutcome(7, GJ), DealOutcome(12))
    assert entries(*deals) == [
        (1, "deal-won", 1), (1, "sukonku", 1),  # 1 + 1 = 2 (the first deal's sukonku counts without stopping)
        (2, "deal-won", 1),  # the second deal's 1 makes 3
        (2, "round total x2", 3),  # doubled to 6
        (2, "gyaku-juuroku-failed", 32),  # plus 32 = 38
        (3, "deal-won", 1), (0, "all-three", 1),  # the third deal and the three wins: 40
    ]
    assert total(*deals) == 40


@pytest.mark.parametrize(
    "deals, lines, amount",
    [
        ((DealOutcome(9), DealOutcome(3)), ["deal-won", "deal-lost"], 0),
        ((DealOutcome(8),), ["deal-lost"], -1),
        ((DealOutcome(16, stopped=True),), ["deal-won", "sukonku"], 2),
        ((DealOutcome(0),), ["deal-lost", "gyaku-sukonku"], -11),
        ((DealOutcome(9), DealOutcome(0)), ["deal-won", "deal-lost", "gyaku-sukonku"], 1 - 1 - 3 * 2),
        ((DealOutcome(9), DealOutcome(9), DealOutcome(0)), ["deal-won"] * 2 + ["deal-lost", "gyaku-sukonku"], 2 - 1 - 9),
        ((DealOutcome(9), DealOutcome(16, J, stopped=True)), ["deal-won", "deal-won", "juuroku-made"], 10),
        ((DealOutcome(9), DealOutcome(15, J)), ["deal-won", "deal-lost", "juuroku-failed"], 1 - 1 - 16),
        ((DealOutcome(9), DealOutcome(0, GJ)), ["deal-won", "deal-lost", "gyaku-juuroku-made"], 1 - 1 - 16 * 2),
        ((DealOutcome(9), DealOutcome(9), DealOutcome(0, GJ)), ["deal-won"] * 2 + ["deal-lost", "gyaku-juuroku-made"],
         2 - 1 - 16 * 3),
        ((DealOutcome(9), DealOutcome(1, GJ), DealOutcome(9)),
         ["deal-won", "deal-won", "round total x2", "gyaku-juuroku-failed", "deal-won", "all-three"], (2 * 2 + 32) + 2),
        ((DealOutcome(9), DealOutcome(9), DealOutcome(9)), ["deal-won"] * 3 + ["all-three"], 4),
    ],
    ids=[
        "deal won", "deal lost", "sukonku and stop", "gyaku sukonku in deal 1", "gyaku sukonku in deal 2",
        "gyaku sukonku in deal 3", "juuroku made", "juuroku failed", "gyaku juuroku made in deal 2",
        "gyaku juuroku made in deal 3", "gyaku juuroku failed", "all three",
    ],
)
def test_every_ledger_line(deals, lines, amount):
    assert [line for _, line, _ in entries(*deals)] == lines
    assert total(*deals) == amount


def test_declarations_move_the_bar_of_the_deal():
    # juuroku: 15 points lose the deal and end the round; gyaku juuroku: one kankei point wins it
    with pytest.raises(InvalidStateError, match="ended the round"):
        round_entries([DealOutcome(9), DealOutcome(15, J), DealOutcome(9)], KAN)
    assert [line for _, line, _ in entries(DealOutcome(9), DealOutcome(1, GJ), DealOutcome(3))][1] == "deal-won"


@pytest.mark.parametrize(
    "deals, message",
    [
        ((), "1 to 3 deals"),
        ((DealOutcome(9),) * 4, "1 to 3 deals"),
        ((DealOutcome(3), DealOutcome(9)), "deal 1 ended the round"),
        ((DealOutcome(16, stopped=True), DealOutcome(9)), "deal 1 ended the round"),
        ((DealOutcome(12, stopped=True),), "only a sukonku"),
        ((DealOutcome(12),), "goes on after deal 1"),
        ((DealOutcome(16, J),), "from deal 2"),
    ],
)
def test_impossible_rounds_are_refused(deals, message):
    with pytest.raises(InvalidStateError, match=message):
        round_entries(deals, KAN)


@pytest.mark.parametrize("kankei_total", [5, 9, 40, -11, 0])
def test_each_kankei_player_scores_the_total_and_the_mukankei_side_pays_it(kankei_total):
    amounts = settle(kankei_total, (1, 3))
    assert amounts[1] == amounts[3] == kankei_total
    assert amounts[0] == amounts[2] == amounts[4] == Fraction(-2 * kankei_total, 3)
    assert sum(amounts) == 0
    mirror = settle(kankei_total, (1, 3), "mirror")
    assert mirror[0] == -kankei_total and sum(mirror) == -kankei_total  # the rule book's words: not zero-sum


def test_a_round_ledger_prints_its_lines_and_every_players_amount():
    ledger = RoundLedger.of([DealOutcome(16), DealOutcome(7, GJ), DealOutcome(12)], (0, 2), KAN)
    assert ledger.kankei_total == 40 and ledger.amounts[0] == 40 and ledger.amounts[1] == Fraction(-80, 3)
    text = "\n".join(ledger.lines())
    assert "deal 2: gyaku-juuroku-failed +32" in text and "round: all-three +1" in text
    assert "player 1* +40" in text and "player 2 -80/3" in text
    assert format_points(Fraction(5)) == "+5" and format_points(Fraction(-10, 3)) == "-10/3"


def test_another_tables_numbers_load_from_toml(tmp_path):
    rules = tmp_path / "our-table.toml"
    rules.write_text(
        'extends = "kan"\nname = "our-table"\n'
        "[ledger]\nall-three = 5\ngyaku-juuroku-failed-factor = 1\nper-deal = \"once\"\n"
        '[balance]\nmukankei = "mirror"\n'
    )
    ours = KanProfile.load(rules)
    assert ours.name == "our-table" and ours.balance == "mirror" and ours.ledger.all_three == 5
    assert total(DealOutcome(16), DealOutcome(7, GJ), DealOutcome(12), profile=ours) == 1 + 1 + 1 + 32 + 1 + 5
    assert total(DealOutcome(9), DealOutcome(0), profile=ours) == 1 - 1 - 3  # "per deal" counted once


@pytest.mark.parametrize(
    "text, message",
    [
        ('extends = "kan"\n[ledger]\nsukonkuu = 2\n', "unknown setting.*ledger.sukonkuu"),
        ('extends = "kan"\n[ledger]\nsukonku = "one"\n', "ledger.sukonku must be a whole number"),
        ('extends = "kan"\n[ledger]\nper-deal = "twice"\n', "ledger.per-deal must be one of"),
        ('extends = "kan"\n[match]\nfirst-trumps = ["stars"]\n', "first-trumps: unknown suit"),
        ('extends = "kan"\n[deal]\nwin-points = 17\n', "win-points must be 1..16"),
        ('extends = "default"\n', "is for 'koikoi', not kan"),
    ],
)
def test_bad_profiles_say_why(tmp_path, text, message):
    rules = tmp_path / "bad.toml"
    rules.write_text(text)
    with pytest.raises(ProfileError, match=message):
        KanProfile.load(rules)
