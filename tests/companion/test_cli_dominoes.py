"""``kibitz settle`` and ``kibitz simulate`` for the Chinese domino games (in-process and as a subprocess)."""

import json
import subprocess
import sys

import pytest

from companion.cli import main


def settle(capsys, *args: str) -> dict:
    assert main(["settle", *args]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_settle_the_worked_example_as_a_real_command():
    out = subprocess.run(
        [sys.executable, "-m", "companion.cli", "settle", "jielong", "2", "12", "34", "18"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["net"] == [58, 18, -70, -6] and report["pips"] == [2, 12, 34, 18] and report["winner"] == 1
    assert {(p["payer"], p["payee"]): p["amount"] for p in report["payments"]} == {
        (2, 1): 10, (3, 1): 32, (4, 1): 16, (3, 2): 22, (4, 2): 6, (3, 4): 16,
    }
    assert report["multipliers"] == [{"receives": 1, "pays": 1, "why": []}] * 4


def test_settle_from_the_face_down_tiles(capsys):
    report = settle(capsys, "jielong", "--hands", "1:1", "6:6", "5:6 6:6 4:6", "2:4 1:2 3:3")
    assert report["pips"] == [2, 12, 33, 15] and report["tiles_not_laid"] == [1, 1, 3, 3]
    assert report["net"] == [sum(report["pips"]) - 4 * p for p in report["pips"]] and report["set"] == "chinese"
    report = settle(capsys, "jielong", "--hands", "-", "2:2", "1:1")
    assert report["pips"] == [0, 4, 2] and report["net"] == [6, -6, 0]


def test_settle_ce_deng_multipliers(capsys):
    report = settle(capsys, "cedeng", "--counts", "0,3,8,5", "0", "12", "34", "18")
    assert report["multipliers"][0] == {"receives": 2, "pays": 1, "why": ["clean finish"]}
    assert report["multipliers"][2] == {"receives": 1, "pays": 2, "why": ["heavy tail"]}
    clean_from_heavy = next(p for p in report["payments"] if (p["payer"], p["payee"]) == (3, 1))
    assert clean_from_heavy == {"payer": 3, "payee": 1, "amount": 4 * 34, "multiplier": 4,
                                "reasons": ["clean finish", "heavy tail"]}
    assert sum(report["net"]) == 0
    # the stricter table: a tail with 7 face down pays double too
    strict = settle(capsys, "cedeng", "--variant", "head6-tail7", "--counts", "0,3,7,5", "0", "12", "34", "18")
    assert strict["variants"] == ["head6-tail7"] and strict["multipliers"][2]["pays"] == 2
    assert settle(capsys, "cedeng", "--counts", "0,3,7,5", "0", "12", "34", "18")["multipliers"][2]["pays"] == 1


def test_settle_eight_doubles(capsys):
    report = settle(capsys, "cedeng", "--eight-doubles", "2", "20", "56", "30", "10")
    assert report["reason"] == "eight-doubles" and report["winner"] == 2
    assert report["net"] == [-40, 120, -60, -20]
    hands = ["1:2 1:3 1:4 1:5 1:5 1:6 1:6 2:3", "6:6 6:6 1:1 1:1 4:4 4:4 3:3 3:3",
             "2:4 2:5 2:6 3:4 3:5 3:6 4:5 4:6", "4:6 5:5 5:5 5:6 5:6 2:2 2:2 1:3"]
    report = settle(capsys, "cedeng", "--eight-doubles", "2", "--hands", *hands)
    assert report["pips"][0] == 3 + 4 + 5 + 6 + 6 + 7 + 7 + 5 and report["net"][1] == 2 * (
        report["pips"][0] + report["pips"][2] + report["pips"][3])


def test_settle_kkoribuchigi_points_and_chips(capsys):
    assert settle(capsys, "kkori", "3", "12", "40", "31")["net"] == [65, 0, -37, -28]
    assert settle(capsys, "kkori", "--variant", "chips", "3", "12", "40", "31")["net"] == [2, 0, -1, -1]
    assert settle(capsys, "kkori", "--variant", "at-least-30", "3", "12", "40", "30")["net"] == [64, 0, -37, -27]
    # three players use the 24-tile set: no 6:6 in it
    assert main(["settle", "kkori", "--hands", "6:6", "1:1", "2:2"]) == 2
    assert "6:6 (player 1) is not in the korean set" in capsys.readouterr().err


def test_settle_european_tiles_for_pip_counting(capsys):
    report = settle(capsys, "jielong", "--set", "european", "--hands", "0:0 0:6", "6:6", "0:1 2:3")
    assert report["pips"] == [6, 12, 6] and report["set"] == "european"


@pytest.mark.parametrize(("args", "message"), [
    (["jielong", "2", "x", "3"], "pips must be whole numbers of at least 0, not 'x'"),
    (["jielong", "2", "-3"], "not '-3'"),
    (["jielong", "5"], "jielong is played by 2, 3, 4 players, not 1"),
    (["cedeng", "1", "2", "3"], "cedeng is played by 4 players, not 3"),
    (["cedeng", "0", "12", "34", "18"], "give --counts N,N,... or --hands"),
    (["cedeng", "--counts", "0,3", "0", "12", "34", "18"], "2 tile counts for 4 players"),
    (["jielong", "--hands", "7:7", "1:1"], "--hands, player 1: no tile has 7 pips"),
    (["jielong", "--hands", "6:6 6:6", "6:6", "1:1"], "6:6 is given 3 times; the chinese set has 2"),
    (["jielong", "--hands", "0:3", "1:1"], "0:3 (player 1) is not in the chinese set"),
    (["jielong", "--variant", "fast", "1", "2"], "jielong has no variant 'fast'; variants: two-arm"),
    (["jielong", "--eight-doubles", "1", "1", "2"], "jielong has no eight-doubles rule"),
    (["cedeng", "--eight-doubles", "1", "--hands", "1:1", "2:2", "3:3", "4:4"], "hold 1 doubles, not eight"),
    (["jielong", "--hands", "1:1", "-", "--counts", "1,0"], "--counts goes with pips"),
])
def test_settle_bad_input_exits_2_and_names_it(args, message, capsys):
    assert main(["settle", *args]) == 2
    assert message in capsys.readouterr().err


def test_settle_needs_values(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["settle", "jielong"])
    assert exit_.value.code == 2 and "PIPS" in capsys.readouterr().err


def test_settle_with_a_rules_file(tmp_path, capsys):
    rules = tmp_path / "house.toml"
    rules.write_text('extends = "kkori"\n[settle]\nover = 20\n')
    assert settle(capsys, "kkori", "--rules", str(rules), "3", "12", "40", "21")["net"] == [55, 0, -37, -18]
    assert main(["settle", "jielong", "--rules", str(rules), "1", "2"]) == 2
    assert "is for kkori, not jielong" in capsys.readouterr().err


@pytest.mark.parametrize(("game", "players", "bots"), [
    ("jielong", 4, ["greedy", "random", "greedy", "random"]),
    ("cedeng", 4, ["greedy", "random", "greedy", "random"]),
    ("kkori", 3, ["greedy", "random", "greedy"]),
])
def test_simulate_domino_games(game, players, bots, capsys):
    args = ["simulate", game, "--games", "2", "--rounds", "2", "--players", str(players), "--json"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == game and summary["players"] == players and summary["bots"] == bots
    assert summary["deals"] == 4 and sum(summary["wins"]) + summary["draws"] == 2
    assert round(sum(summary["points_per_match"]), 6) == 0
    assert main(["simulate", game, "--games", "1", "--rounds", "1", "--players", str(players)]) == 0
    assert capsys.readouterr().out.startswith(f"1 {game} matches (1 deals, {players} players)")


def test_simulate_variants_and_bad_input(capsys):
    assert main(["simulate", "jielong", "--games", "1", "--rounds", "1", "--variant", "two-arm", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["variants"] == ["two-arm"]
    for args, message in (
        (["cedeng", "--players", "3"], "cedeng is played by 4 players, not 3"),
        (["kkori", "--bots", "greedy,clever,random,random"], "unknown bot 'clever'"),
        (["jielong", "--profile", "cedeng"], "profile 'cedeng' is for cedeng, not jielong"),
        (["koikoi", "--variant", "two-arm"], "--variant is for the domino games"),
    ):
        assert main(["simulate", *args, "--games", "1"]) == 2
        assert message in capsys.readouterr().err
    assert main(["simulate", "koikoi", "--games", "1", "--rounds", "1"]) == 0  # the card games still run
    assert "Koi-Koi matches" in capsys.readouterr().out
