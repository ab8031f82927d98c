"""``kibitz simulate kan``: bot matches with a ledger printout per round (in-process and as a real subprocess)."""

import json
import re
import subprocess
import sys
from fractions import Fraction

import pytest

from companion.cli import main


def test_simulate_kan_prints_a_ledger_per_round(capsys):
    assert main(["simulate", "kan", "--matches", "2", "--rounds", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    headers = re.findall(r"^match (\d), round (\d) \(dealer \d; kankei players (\d) and (\d)\):$", out, re.M)
    assert [(m, r) for m, r, _, _ in headers] == [("1", "1"), ("1", "2"), ("1", "3"), ("2", "1"), ("2", "2"), ("2", "3")]
    assert all(a != b for _, _, a, b in headers)
    assert len(re.findall(r"^    deal 1: deal-(won|lost) [+-]1$", out, re.M)) == 6  # every round's first deal scores
    assert "2 Kan matches (6 rounds" in out and "1.   greedy" in out and "5.   random" in out


def test_simulate_kan_json_balances_every_round(capsys):
    assert main(["simulate", "kan", "--games", "1", "--rounds", "4", "--seed", "1", "--bots",
                 "random,greedy,random,greedy,random", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "kan" and summary["rounds"] == 4 and summary["bots"][1] == "greedy"
    for report in summary["round_ledgers"]:
        amounts = [Fraction(a) for a in report["amounts"]]
        assert sum(amounts) == 0
        assert all(amounts[p - 1] == report["kankei_total"] for p in report["kankei"])
        assert 1 <= len(report["deals"]) <= 3
    assert sum(summary["points_per_match"]) == pytest.approx(0, abs=0.05)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "greedy,random"], "5 names"),
        (["--bots", "greedy,random,random,random,clever"], "unknown bot 'clever'"),
        (["--players", "4"], "Kan is for 5 players"),
        (["--rounds", "0"], "at least 1"),
        (["--profile", "default"], "is for 'koikoi', not kan"),
    ],
)
def test_simulate_kan_bad_input_exits_2(args, message, capsys):
    assert main(["simulate", "kan", "--matches", "1", *args]) == 2
    assert message in capsys.readouterr().err


def test_simulate_kan_as_a_real_command():
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "simulate", "kan", "--matches", "1", "--rounds", "1"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "match 1, round 1" in done.stdout and "deals/s" in done.stdout
