import random

import pytest

from engine.bots import RandomBot
from engine.errors import IllegalMoveError
from engine.koikoi.bots import GreedyBot, immediate_value
from engine.koikoi.match import KoiKoiMatch, draw_for_dealer
from engine.koikoi.play import play_match, play_round
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound


def test_match_totals_are_the_sum_of_round_points():
    match = play_match(KoiKoiMatch(seed=3), [GreedyBot(), RandomBot(3)])
    assert match.is_over and len(match.results) == 12
    for p in (0, 1):
        assert match.scores[p] == sum(r.points[p] for r in match.results)
    with pytest.raises(IllegalMoveError, match="match is over"):
        match.new_round()


def test_rounds_option_and_koikoi_japan_length():
    assert len(play_match(KoiKoiMatch(seed=1, rounds=3), [RandomBot(1), RandomBot(2)]).results) == 3
    japan = KoiKoiProfile.load("koikoi-japan")
    assert len(play_match(KoiKoiMatch(japan, seed=1), [RandomBot(1), RandomBot(2)]).results) == 8


def test_winner_deals_next_or_dealers_alternate():
    match = KoiKoiMatch(seed=5, rounds=6, dealer=0)
    bots = [GreedyBot(), RandomBot(5)]
    while not match.is_over:
        state = match.new_round()
        assert state.dealer == match.dealer and state.turn == match.dealer  # the dealer leads
        play_round(state, bots)
        before = match.dealer
        match.record(state)
        result = state.result
        assert result is not None
        expected = result.winner if result.winner is not None and result.reason != "exhausted" else before
        assert match.dealer == expected
    from engine.profile import load_profile_data

    data = load_profile_data("default")
    data["match"] = {**data["match"], "next-dealer": "alternate"}
    alternate = KoiKoiMatch(KoiKoiProfile.from_data(data), seed=5, rounds=4, dealer=1)
    dealers = []
    while not alternate.is_over:
        state = alternate.new_round()
        dealers.append(state.dealer)
        play_round(state, bots)
        alternate.record(state)
    assert dealers == [1, 0, 1, 0]


def test_first_dealer_by_lot_is_either_player_and_seeded():
    picks = {draw_for_dealer(random.Random(s)) for s in range(40)}
    assert picks == {0, 1}
    assert KoiKoiMatch(seed=8).dealer == KoiKoiMatch(seed=8).dealer


def test_unfinished_round_cannot_be_recorded():
    match = KoiKoiMatch(seed=2)
    with pytest.raises(IllegalMoveError, match="not over"):
        match.record(match.new_round())


def test_greedy_prefers_the_bright_and_stops():
    r = KoiKoiRound.shuffled(12)
    bot = GreedyBot()
    move = bot.choose(r)
    assert move in r.legal_moves
    assert immediate_value(r, move) == max(immediate_value(r, m) for m in r.legal_moves)
    assert not r.move_stack  # evaluating moves leaves no trace


def test_greedy_beats_random_over_many_matches():
    wins = 0
    for seed in range(20):
        bots = [GreedyBot(), RandomBot(seed)] if seed % 2 else [RandomBot(seed), GreedyBot()]
        match = play_match(KoiKoiMatch(seed=seed, rounds=3), bots)
        greedy_seat = 0 if seed % 2 else 1
        wins += match.scores[greedy_seat] > match.scores[1 - greedy_seat]
    assert wins >= 12

