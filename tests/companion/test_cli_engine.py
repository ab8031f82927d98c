"""The engine's command-line faces: score, simulate, demo (run as real subprocesses and in-process)."""

import json
import subprocess
import sys

import pytest

from companion.cli import main


def kibitz(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=120)


def test_score_prints_yaku_base_and_total_json():
    out = kibitz("score", "koikoi", "pine-ribbon", "plum-ribbon", "cherry-ribbon", "pampas-moon", "chrysanthemum-sake")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "yaku": [{"name": "tsukimi", "points": 5}, {"name": "akatan", "points": 5}],
        "base": 10,
        "total": 20,
    }


def test_score_koikoi_context_and_profiles(capsys):
    assert main(["score", "koikoi", "--koikoi", "1", "--opponent-koikoi", "pine-ribbon", "plum-ribbon", "cherry-ribbon"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 10
    args = ["score", "koikoi", "--profile", "koikoi-japan", "--koikoi", "4", "pine-ribbon", "plum-ribbon", "cherry-ribbon"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == {"yaku": [{"name": "akatan", "points": 5}], "base": 5, "total": 10}
    assert main(["score", "koikoi", "pine-crane"]) == 0
    assert json.loads(capsys.readouterr().out) == {"yaku": [], "base": 0, "total": 0}


def test_score_with_own_rules_file(tmp_path, capsys):
    rules = tmp_path / "house.toml"
    rules.write_text('extends = "default"\n[yaku]\nsanko = 6\n')
    assert main(["score", "koikoi", "--rules", str(rules), "pine-crane", "cherry-curtain", "pampas-moon"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 6


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pine-crane", "pine-crame"], "pine-crame"),
        (["pine-crane", "pine-crane"], "listed twice"),
        (["--profile", "nope", "pine-crane"], "unknown profile"),
        (["--koikoi", "-1", "pine-crane"], "must not be negative"),
    ],
)
def test_score_bad_input_exits_2_naming_the_problem(args, message):
    out = kibitz("score", "koikoi", *args)
    assert out.returncode == 2
    assert message in out.stderr and not out.stdout


def test_simulate_prints_a_summary(capsys):
    assert main(["simulate", "koikoi", "--games", "4", "--seed", "1", "--rounds", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] == 4 and summary["rounds"] == 8
    assert sum(summary["wins"]) + summary["draws"] == 4
    assert main(["simulate", "koikoi", "--games", "2", "--rounds", "1"]) == 0
    assert "Koi-Koi matches" in capsys.readouterr().out
    assert main(["simulate", "koikoi", "--games", "1", "--bots", "greedy"]) == 2


def test_simulate_the_playout_bot_against_greedy(capsys):
    """The play-out policy alone is a bot of its own, scoring more than greedy over enough rounds."""
    assert main(["simulate", "koikoi", "--games", "40", "--rounds", "6", "--bots", "playout,greedy", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rounds"] == 240
    assert summary["points_per_match"][0] > summary["points_per_match"][1]
    assert main(["simulate", "koikoi", "--games", "1", "--bots", "playout,nobody"]) == 2
    assert "choose random, greedy or playout" in capsys.readouterr().err


def test_text_demo_narrates_a_whole_match():
    out = kibitz("demo", "--text", "--seed", "4", "--rounds", "3")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Koi-Koi, profile default, 3 rounds")
    assert sum(line.startswith("Round ") for line in lines) == 3
    assert any(" plays " in line for line in lines) and any(" flips " in line for line in lines)
    final = lines[-1]
    assert final.startswith("Final score")
    last_score = next(line for line in lines if line.strip().startswith("Score after round 3"))
    assert last_score.split(": ")[1] in final
