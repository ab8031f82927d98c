"""Domino hints: sampled expected settlement over the legal moves, and the reason given for each move."""

import pickle
import random

from engine.dominoes.bots import GreedyBot
from engine.dominoes.hints import HintBot, hint_search, is_dead, move_reason
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import PIPS, Tile
from engine.dominoes.tileset import kinds_of
from tests.engine.test_dominoes_round import play, tiny

T = Tile


def ranked(state: DominoRound, player: int, worlds: int, seed: int = 1):
    search = hint_search(state, player, seed)
    search.add_samples(worlds)
    return search.ranked()


def forced_down() -> DominoRound:
    """Player 2 leads 3:3; player 1 holds no 3. Keeping 5:6 and 4:6 lets both be played after 3:5 and 4:4."""
    r = tiny("5:6 1:2 4:6", "3:3 3:5 4:4", leader=1)
    play(r, "play 3:3")
    return r


def test_full_information_values_are_the_settlement_of_each_line():
    # Every tile known: each world is the deal itself, so each value is exact. Down 1:2: 3:5, 5:6, 4:4 face
    # down, 4:6 -> 3 pips against 8: +5. Down 4:6: 3:5, 5:6, 4:4 down, 1:2 down -> 13 against 8: -5.
    values = {str(v.move): v.mean for v in ranked(forced_down(), 0, 3)}
    assert values == {"down 1:2": 5.0, "down 4:6": -5.0, "down 5:6": -16.0}


def test_from_what_the_player_sees_the_hint_still_lays_the_light_tile():
    view = forced_down().view(0)
    assert view.hidden[1] == 2  # the other hand is unseen
    best, *rest = ranked(view, 0, 300)
    assert best.move == DominoMove.down(T.T1_2)
    assert all(best.mean > other.mean for other in rest)
    reason = move_reason(view, 0, best.move)
    assert reason.key == "down_light" and reason.tiles[0] is T.T1_2 and reason.numbers == (3,)


def test_leading_a_number_you_hold_the_most_of():
    # Player 1 holds three 1s: leaving 1 open lets them follow their own tile again.
    r = tiny("1:1 1:3 1:5", "2:6 4:6 5:5")
    view = r.view(0)
    best = ranked(view, 0, 200)[0]
    assert best.move.end == 1
    reason = move_reason(view, 0, best.move)
    assert reason.numbers[0] == 1 and best.move.tile in reason.tiles


def test_ce_deng_payoff_doubles_a_clean_finish():
    # The same position in Jie Long and in Ce Deng (two hands of three): player 1 lays all three, so the
    # clean finish receives double. The payoff is the settlement, not the pips.
    hands = ("1:1 1:3 3:5", "2:6 4:6 5:5")
    jielong = {str(v.move): v.mean for v in ranked(tiny(*hands), 0, 2)}
    cedeng = {str(v.move): v.mean for v in ranked(tiny(*hands, game="cedeng"), 0, 2)}
    best = max(jielong, key=jielong.__getitem__)
    assert jielong[best] > 0
    assert cedeng[best] == 2 * jielong[best]


def test_the_search_pickles_for_the_hint_process():
    r = DominoRound.shuffled(4, 4, DominoProfile.load("kkori"))
    search = hint_search(r.view(r.turn), r.turn, seed=3)
    copy = pickle.loads(pickle.dumps(search))
    copy.add_samples(4)
    assert copy.samples == 4 and len(copy.ranked()) == len(r.generate_legal_moves())


def test_reasons_name_the_move_tile_and_facts_that_hold():
    """Over seeded greedy deals: every reason names the tile moved; a dead tile has no live partner, the
    heaviest is the heaviest in hand, a number left open is the one the move leaves open."""
    seen = set()
    for seed in range(12):
        r = DominoRound.shuffled(seed, 4, DominoProfile.load("cedeng"))
        bot = GreedyBot()
        while not r.is_over:
            p = r.turn
            view = r.view(p)
            for move in view.generate_legal_moves():
                reason = move_reason(view, p, move)
                seen.add(reason.key)
                assert reason.tiles[0] is move.tile
                if move.kind is MoveKind.DOWN:
                    hand = kinds_of(view.hands[p])
                    if reason.key == "down_dead":
                        assert is_dead(view, p, move.tile)
                    if reason.key == "down_heaviest":
                        assert PIPS[move.tile] == max(PIPS[t] for t in hand)
                    if reason.key == "down_light":
                        assert PIPS[move.tile] == min(PIPS[t] for t in hand) and reason.tiles[1] in hand
                elif view.ends:
                    assert reason.numbers[0] == move.end
            r.push(bot.choose(r))
    assert {"keep_open", "down_heaviest"} <= seen


def test_block_next_when_the_next_player_showed_no_such_number():
    r = tiny("1:3 1:6 2:2", "2:4 2:5 4:4", "1:6 5:5 3:3")
    play(r, "play 1:3 open 1", "down 2:4", "play 1:6 open 6")  # player 2 laid down on a 1: they hold none
    view = r.view(0)
    reason = move_reason(view, 0, DominoMove.play(T.T1_6, 1))
    assert (reason.key, reason.tiles, reason.numbers) == ("block_next", (T.T1_6,), (1, 2))


def test_hint_bot_plays_legal_moves_to_the_end():
    r = DominoRound.shuffled(random.Random(9), 4, DominoProfile.load("jielong"))
    bots = [HintBot(worlds=6, seed=1), GreedyBot(), GreedyBot(), GreedyBot()]
    while not r.is_over:
        r.push(bots[r.turn].choose(r))
    assert r.result is not None and sum(r.result.net) == 0
