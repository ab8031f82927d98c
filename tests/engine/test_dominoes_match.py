"""Domino matches (the lot, the winner leads, the 2:5 holder leads, void deals), the bots and the simulator."""

import random

import pytest

from engine.bots import RandomBot
from engine.dominoes.bots import GreedyBot, make_bots
from engine.dominoes.deal import DominoDeal, draw_for_leader, leader_by_lot
from engine.dominoes.match import DominoMatch
from engine.dominoes.moves import DominoMove
from engine.dominoes.play import format_summary, play_match, play_round, simulate
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import Tile
from engine.dominoes.tileset import CHINESE_SET, TileSet
from engine.errors import IllegalMoveError, InvalidStateError, KibitzError
from tests.engine.test_dominoes_round import tiny

JIELONG = DominoProfile.load("jielong")
CEDENG = DominoProfile.load("cedeng")
T = Tile


def test_the_first_leader_by_lot():
    assert leader_by_lot([T.T1_1, T.T6_6, T.T5_6]) == 1
    assert leader_by_lot([T.T6_6, T.T1_1, T.T6_6]) is None  # the most drawn twice: draw again
    leaders = {draw_for_leader(random.Random(seed), 4) for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert DominoMatch(JIELONG, 4, seed=3).leader == draw_for_leader(random.Random(3), 4)


def test_the_winner_leads_the_next_deal_and_scores_add_up():
    match = DominoMatch(JIELONG, 3, seed=8, rounds=5)
    bots = [GreedyBot(), RandomBot(1), RandomBot(2)]
    while not match.is_over:
        state = match.new_round()
        assert state.leader == match.leader and state.turn == state.leader
        result = play_round(state, bots)
        match.record(state)
        assert match.leader == result.winner
    assert len(match.results) == 5 and sum(match.scores) == 0
    assert match.scores == [sum(r.net[p] for r in match.results) for p in range(3)]
    with pytest.raises(IllegalMoveError, match="the match is over"):
        match.new_round()


def test_the_holder_of_2_5_leads_every_deal():
    profile = DominoProfile.load("kkori", ["holder-leads"])
    for players in (2, 3, 4):
        match = DominoMatch(profile, players, seed=players, rounds=4)
        while not match.is_over:
            state = match.new_round()
            assert T.T2_5 in state.hand(state.leader)
            play_round(state, [RandomBot(i) for i in range(players)])
            match.record(state)
    second = "2:5 1:1 1:2 1:3 1:4 1:5 1:6 2:2"
    deal = DominoDeal.parse([_rest([second], 1)[0], second, *_rest([second], 3)[1:]])
    with pytest.raises(InvalidStateError, match="player 2 holds 2:5 and leads, not player 1"):
        DominoRound(deal, profile, leader=0)
    assert DominoMatch(profile, 4, seed=0).new_round(deal).leader == 1


def _rest(hands: list[str], count: int) -> list[str]:
    rest = sorted(CHINESE_SET - sum((TileSet.parse(h) for h in hands), TileSet()))
    return [" ".join(t.code for t in rest[i * 8 : (i + 1) * 8]) for i in range(count)]


def test_a_void_deal_is_dealt_again():
    seven = "6:6 6:6 1:1 1:1 4:4 4:4 3:3 1:3"
    observed = DominoDeal.parse([seven, *_rest([seven], 3)])
    match = DominoMatch(CEDENG, seed=1)
    void = match.new_round(observed)
    assert void.ending == "redeal" and match.redeals == 1
    match.record(void)
    assert match.results == [] and match.round_number == 1
    # shuffled deals that come out void are dealt again without being played
    seed = next(seed for seed in range(3000) if _voids(seed))
    m = DominoMatch(CEDENG, seed=seed, rounds=1)
    play_match(m, [RandomBot(i) for i in range(4)])
    assert m.redeals >= 1 and [r.reason for r in m.results] != ["redeal"]


def _voids(seed: int) -> bool:
    match = DominoMatch(CEDENG, seed=seed)
    state = match.new_round()
    return match.redeals > 0 and state.ending != "redeal"


def test_an_unsettled_deal_cannot_be_recorded():
    match = DominoMatch(JIELONG, 2, seed=1)
    state = match.new_round()
    with pytest.raises(IllegalMoveError, match="not settled yet"):
        match.record(state)


def test_greedy_keeps_the_line_open_for_itself():
    # leading, greedy leaves open the number it holds most of after the lead: 3 (it holds 3:3 and 3:4)
    r = tiny("1:3 3:3 3:4 5:6", "1:1 2:2 2:4 4:4")
    assert GreedyBot().choose(r) in (DominoMove.play(T.T1_3, 3), DominoMove.play(T.T3_4, 3))
    move = GreedyBot().choose(r)
    assert move == max(r.legal_moves, key=lambda m: (
        sum(1 for t in r.hand(0) - TileSet([m.tile]) if t.has(m.end)), m.tile.pips))
    # with no tile to play it lays its heaviest face down
    r = tiny("1:3 3:3", "1:1 5:6")
    r.push(DominoMove.play(T.T1_3, 3))
    assert GreedyBot().choose(r) == DominoMove.down(T.T5_6)


def test_make_bots_names_the_bad_one():
    assert [b.name for b in make_bots(["greedy", "random"], 2, 0)] == ["greedy", "random"]
    with pytest.raises(KibitzError, match="unknown bot 'clever'"):
        make_bots(["greedy", "clever"], 2, 0)
    with pytest.raises(KibitzError, match="needs 3 names"):
        make_bots(["greedy"], 3, 0)


@pytest.mark.parametrize(("game", "players"), [("jielong", 3), ("cedeng", 4), ("kkori", 2)])
def test_simulate_summary(game, players):
    profile = DominoProfile.load(game)
    bots = make_bots((["greedy", "random"] * 2)[:players], players, 0)
    s = simulate(profile, bots, 4, seed=2, rounds=2)
    assert s["matches"] == 4 and s["deals"] == 8 and sum(s["wins"]) + s["draws"] == 4
    assert sum(s["deal_endings"].values()) == 8 and sum(s["deals_led"]) == 8
    assert abs(sum(s["points_per_match"])) < 1e-6 * players + 0.05
    text = format_summary(s)
    assert f"4 {game} matches (8 deals, {players} players)" in text and "greedy" in text
