"""The play-out fit: collected decisions are reproducible, and the fit beats a random move on what it saw."""

import itertools
import tomllib

import numpy as np

from datasets.hints.distil import Decisions, collect, fit, main, write_weights
from engine.koikoi.playout_features import FEATURES
from engine.koikoi.profile import KoiKoiProfile


def test_collected_decisions_are_reproducible_and_value_every_move():
    first = list(itertools.islice(collect(300, 3, worlds=8), 12))
    again = list(itertools.islice(collect(300, 3, worlds=8), 12))
    assert first == again and len(first) == 12
    for player, hand, field, _, _, _, _, _, _, seed, moves in first:
        assert player in (0, 1) and 300 <= seed < 303 and len(moves) > 1
        for card, got, value, _ in moves:
            assert hand >> card & 1 and got & ~field == 0 and 0.0 <= value <= 1.0


def test_the_fit_ranks_the_searchs_picks_above_random(tmp_path):
    records = list(collect(400, 6, worlds=12))
    data = Decisions(records, KoiKoiProfile.load("default"))
    everything = np.ones(len(data.seeds), dtype=bool)
    weights = fit(data, everything)
    assert weights.shape == (len(FEATURES),) and np.isfinite(weights).all()
    assert data.regret(data.x @ weights, everything) < 0.6 * data.random_regret(everything)
    out = tmp_path / "playouts.toml"
    write_weights(out, weights, "test")
    table = tomllib.loads(out.read_text())["weights"]
    assert list(table) == list(FEATURES)


def test_the_command_line_collects_then_fits(tmp_path, capsys):
    decisions = tmp_path / "decisions.jsonl"
    main(["collect", "--first", "500", "--rounds", "2", "--out", str(decisions)])
    assert decisions.read_text().count("\n") > 5
    main(["fit", str(decisions), "--out", str(tmp_path / "w.toml")])
    assert "held-out regret" in capsys.readouterr().out and (tmp_path / "w.toml").exists()
