"""Tuning the play-out weights by play: the optimiser finds a known optimum, and a tuning run is reproducible."""

import numpy as np
import pytest

from datasets.hints.distil import read_weights, write_weights
from datasets.hints.tune import CMAES, main, score, tune
from engine.koikoi.playout_features import FEATURES, load_weights


def test_cmaes_climbs_to_the_top_of_a_stretched_hill():
    """A concave quadratic in 8 dimensions, its axes scaled 1 to 30 apart, the top away from the start."""
    top = np.linspace(-1.0, 1.0, 8)
    stretch = np.geomspace(1.0, 30.0, 8)
    search = CMAES(np.zeros(8), sigma=0.5, population=10, seed=3)
    for _ in range(150):
        search.tell([-float(np.sum((stretch * (x - top)) ** 2)) for x in search.ask()])
    assert np.abs(search.mean - top).max() < 0.01 and search.sigma < 0.05


def test_score_counts_wins_and_half_draws_of_the_rounds_played():
    total, played = score(load_weights(), 100_000, 30)
    assert 25 <= played <= 30 and 0 < total < played
    assert total * 2 == int(total * 2)


def test_a_tuning_run_is_reproducible_and_writes_a_weights_file(tmp_path):
    start = tmp_path / "start.toml"
    write_weights(start, load_weights(), "the shipped weights")
    runs = [list(tune(read_weights(start), generations=2, rounds=20, population=4, workers=1)) for _ in range(2)]
    assert [g for g, _, _ in runs[0]] == [0, 1]
    assert np.array_equal(runs[0][-1][1], runs[1][-1][1])
    assert not np.array_equal(runs[0][-1][1], np.asarray(load_weights()))
    out = tmp_path / "tuned.toml"
    main(["--start", str(start), "--out", str(out), "--generations", "1", "--rounds", "10", "--population", "4",
          "--workers", "1"])
    assert len(read_weights(out)) == len(FEATURES) and "CMA-ES from start.toml" in out.read_text()


def test_a_weights_file_missing_a_feature_is_refused(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[weights]\nc_vm = 1.0\n")
    with pytest.raises(ValueError, match="lacks weights"):
        read_weights(bad)
