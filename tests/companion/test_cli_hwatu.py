"""``kibitz score`` and ``kibitz simulate`` for Hato, Min-hwatu, Go-Stop and Matgo (in-process and as a real
subprocess)."""

import json
import subprocess
import sys

import pytest

from companion.cli import main


def kibitz(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=120)


def score(capsys, *args: str) -> dict:
    assert main(["score", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_score_hato_and_minhwatu_print_card_points(capsys):
    pile = ["wisteria-ribbon", "iris-ribbon", "clover-ribbon", "willow-ribbon", "pine-crane", "willow-lightning"]
    # card points: four ribbons 4 x 5, a bright 20, the lightning 1
    assert score(capsys, "hato", *pile) == {
        "yaku": [{"name": "chodan", "points": 40}], "base": 81, "total": 81, "card_points": 41,
    }
    assert score(capsys, "minhwatu", *pile) == {
        "yaku": [{"name": "chodan", "points": 30}], "base": 71, "total": 71, "card_points": 41,
    }
    willow = ["willow-rainman", "willow-swallow", "willow-ribbon", "willow-lightning"]
    assert score(capsys, "minhwatu", "--lang", "ko", *willow)["yaku"] == [
        {"name": "bi-yak", "points": 20, "label": "비약"},
    ]


def test_score_gostop_elements_go_and_shakes(capsys):
    pile = ["pine-crane", "cherry-curtain", "willow-rainman", "plum-warbler", "wisteria-cuckoo", "pampas-geese",
            "pine-ribbon", "plum-ribbon", "cherry-ribbon"]
    assert score(capsys, "gostop", *pile) == {
        "yaku": [{"name": "gwang", "points": 2}, {"name": "godori", "points": 5}, {"name": "hongdan", "points": 3}],
        "base": 10, "total": 10,
    }
    assert score(capsys, "gostop", "--go", "3", "--shakes", "1", *pile)["total"] == (10 + 2) * 2 * 2
    labelled = score(capsys, "gostop", "--lang", "ko", *pile)["yaku"]
    assert [y["label"] for y in labelled] == ["비삼광", "고도리", "홍단"]
    assert score(capsys, "matgo", "pine-crane", "cherry-curtain", "pampas-moon")["total"] == 0  # below 7 in Matgo
    assert score(capsys, "gostop", "--lang", "en", "pine-crane", "cherry-curtain", "pampas-moon")["yaku"] == [
        {"name": "gwang", "points": 3, "label": "3 brights"},
    ]


def test_score_gostop_shows_how_the_sake_cup_counts(capsys):
    plains = ["pine-plain-1", "pine-plain-2", "plum-plain-1", "plum-plain-2", "cherry-plain-1", "cherry-plain-2",
              "iris-plain-1", "iris-plain-2"]
    out = score(capsys, "gostop", "chrysanthemum-sake", *plains)
    assert out["yaku"] == [{"name": "pi", "points": 1}] and out["sake_cup"] == "pi"
    animals = ["iris-bridge", "peony-butterflies", "clover-boar", "maple-deer"]
    out = score(capsys, "gostop", "chrysanthemum-sake", *animals)
    assert out["yaku"] == [{"name": "yeol", "points": 1}] and out["sake_cup"] == "animal"
    assert "sake_cup" not in score(capsys, "gostop", "pine-crane")


def test_score_koikoi_is_unchanged(capsys):
    out = score(capsys, "koikoi", "pine-ribbon", "plum-ribbon", "cherry-ribbon", "pampas-moon", "chrysanthemum-sake")
    assert out == {"yaku": [{"name": "tsukimi", "points": 5}, {"name": "akatan", "points": 5}], "base": 10, "total": 20}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gostop", "pine-crane", "pine-crame"], "unknown card code 'pine-crame'"),
        (["hato", "maple-deer", "maple-deer"], "listed twice"),
        (["matgo", "--profile", "hato", "pine-crane"], "is for 'hato', not gostop"),
        (["minhwatu", "--go", "1", "pine-crane"], "Hato has no go calls"),
        (["gostop", "--go", "-1", "pine-crane"], "must not be negative"),
        (["gostop", "--koikoi", "1", "pine-crane"], "are for koikoi"),
        (["koikoi", "--lang", "ko", "pine-crane"], "are for the hwatu games"),
    ],
)
def test_score_bad_input_exits_2_naming_the_problem(args, message, capsys):
    assert main(["score", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and not captured.out


def test_score_as_a_real_command_prints_korean():
    out = kibitz("score", "gostop", "--lang", "ko", "plum-warbler", "wisteria-cuckoo", "pampas-geese")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["yaku"] == [{"name": "godori", "points": 5, "label": "고도리"}]
    bad = kibitz("score", "hato", "willow-rainmam")
    assert bad.returncode == 2 and "willow-rainmam" in bad.stderr and not bad.stdout


def test_simulate_hato_with_four_players(capsys):
    assert main(["simulate", "hato", "--players", "4", "--games", "2", "--rounds", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["players"] == 4 and summary["matches"] == 2 and summary["hands"] == 6
    assert summary["bots"] == ["greedy", "random", "random", "random"]
    assert sum(summary["wins"]) + summary["draws"] == 2
    assert round(sum(summary["points_per_match"]), 6) == 0  # hato settles to zero
    assert main(["simulate", "minhwatu", "--players", "5", "--games", "1", "--rounds", "1"]) == 0
    assert "minhwatu matches (1 hands, 5 players)" in capsys.readouterr().out


def test_simulate_gostop_and_matgo(capsys):
    assert main(["simulate", "gostop", "--games", "2", "--rounds", "3", "--seed", "4", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["players"] == 3 and summary["hands"] == 6 and len(summary["wins"]) == 3
    assert sum(summary["hand_endings"].values()) == 6
    assert main(["simulate", "matgo", "--games", "1", "--rounds", "2", "--bots", "random,greedy"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("1 matgo matches (2 hands, 2 players)") and "1.   random" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gostop", "--players", "4"], "is for 3 players"),
        (["hato", "--players", "6"], "no deal for 6 players"),
        (["hato", "--players", "3", "--bots", "greedy,random"], "needs 3 names"),
        (["matgo", "--bots", "greedy,clever"], "unknown bot 'clever'"),
        (["koikoi", "--players", "3"], "Koi-Koi is for 2 players"),
    ],
)
def test_simulate_bad_input_exits_2(args, message, capsys):
    assert main(["simulate", *args, "--games", "1"]) == 2
    assert message in capsys.readouterr().err
