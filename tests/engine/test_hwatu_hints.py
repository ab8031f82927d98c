"""Hwatu hints on constructed positions: the clearly best move comes first, the go/stop decision weighs the
settlement now against the play-outs, and every reason names the cards and elements that make it."""

import pickle
import random

import pytest

from engine.capture import Phase
from engine.cards import Card
from engine.cardset import MONTH_MASK_BY_CARD, CardSet
from engine.hwatu.bots import GreedyBot
from engine.hwatu.deal import explicit_deal
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.hint_reasons import move_reason
from engine.hwatu.hint_worlds import lay_exclusions
from engine.hwatu.hints import HintBot, HwatuHints, candidate_moves, move_class, sample_world
from engine.hwatu.play import play_round
from engine.moves import Move


def mask(codes: str) -> int:
    return CardSet.parse(codes).mask


def push(r, *moves: str):
    for text in moves:
        r.push(Move.parse(text))
    return r


def hato_two(hands: list[str], field: str, stock: str = "") -> HatoRound:
    return HatoRound(explicit_deal(hands, field, stock), HatoProfile.load("hato"))


def test_the_hint_takes_the_bright_rather_than_laying_a_plain():
    r = hato_two(["pine-plain-1 maple-plain-1 iris-plain-1", "cherry-plain-1 plum-plain-1 peony-plain-1"],
                 "pine-crane clover-plain-1 pampas-plain-1 chrysanthemum-plain-2")
    hints = HwatuHints(r, 0, seed=3)
    hints.add_samples(40)
    best = hints.ranked()[0]
    assert best.move == Move.play(Card.PINE_PLAIN_1, Card.PINE_CRANE)
    assert Card.PINE_CRANE in best.reason.cards and best.reason.key == "takes" and best.reason.numbers == (20.0,)
    assert best.value > hints.ranked()[1].value
    assert r.move_stack == [] and r.turn == 0  # the search works on copies


def test_interchangeable_plains_are_one_candidate_but_the_double_pi_is_its_own():
    r = GoStopRound(explicit_deal(["paulownia-plain-1 paulownia-plain-2 paulownia-plain-3", "plum-plain-1",
                                   "cherry-plain-1"], "pine-plain-1"))
    moves = candidate_moves(r.view(0))
    assert {m.card for m in moves} == {Card.PAULOWNIA_PLAIN_1, Card.PAULOWNIA_PLAIN_3}


def gostop_at_decision() -> GoStopRound:
    """Player 1 reaches three brights with cards still to play: go or stop (see the engine's go test)."""
    deal = explicit_deal(
        ["pine-crane maple-deer cherry-curtain clover-plain-2", "iris-plain-2 clover-plain-1 plum-plain-1",
         "peony-plain-2 wisteria-plain-1 chrysanthemum-plain-1"],
        "pine-plain-1 cherry-plain-1 iris-plain-1 peony-plain-1",
        "pampas-moon paulownia-phoenix paulownia-plain-1 maple-plain-1 wisteria-ribbon clover-ribbon plum-ribbon"
        " chrysanthemum-ribbon plum-plain-2",
    )
    r = GoStopRound(deal)
    r.stock_left -= 2  # set up: player 1 has already captured two brights
    r.captured = (mask("pampas-moon paulownia-phoenix"), 0, 0)
    push(r, "play pine-crane take pine-plain-1", "flip paulownia-plain-1")
    assert r.phase is Phase.DECIDE
    return r


def test_go_or_stop_weighs_the_settlement_now_against_play_outs():
    r = gostop_at_decision()
    hints = HwatuHints(r, 0, seed=1)
    hints.add_samples(60)
    ranked = {h.move: h for h in hints.ranked()}
    stop, go = ranked[Move.stop()], ranked[Move.go()]
    now = r.settlement_if_stopped(0).net[0]
    assert stop.value == now and stop.stderr == 0.0 and stop.reason.numbers == (float(now),)
    assert go.reason.key == "go" and go.reason.numbers[:2] == (float(now), go.value)
    assert 0.0 <= go.others_first <= 1.0 and go.reason.numbers[2] == go.others_first
    assert hints.playout.played[Move.go()] == go.samples > 0  # (fewer than 60 if go was clearly worse)
    assert hints.search.moves[hints.search.favourite] == Move.stop()  # the greedy choice is the yardstick


def test_the_last_card_leaves_only_stop():
    r = GoStopRound(explicit_deal(["pine-crane", "plum-plain-2", "cherry-plain-2"], "pine-plain-1 iris-plain-1",
                                  "pampas-moon paulownia-phoenix iris-plain-2"))
    r.stock_left -= 2
    r.captured = (mask("pampas-moon paulownia-phoenix"), 0, 0)
    push(r, "play pine-crane take pine-plain-1", "flip iris-plain-2 take iris-plain-1")
    hints = HwatuHints(r, 0)
    assert hints.moves == [Move.stop()] and hints.reasons[Move.stop()].key == "stop-last"


def test_a_flip_is_weighed_with_the_flipped_card_on_top_of_every_sampled_stock():
    r = hato_two(["maple-plain-1 iris-plain-1", "cherry-plain-1 plum-plain-1"],
                 "pine-crane pine-plain-1 clover-plain-1 pampas-plain-1", "chrysanthemum-plain-2 pine-ribbon")
    push(r, "play maple-plain-1")
    assert r.phase is Phase.FLIP and r.stock_top() is Card.CHRYSANTHEMUM_PLAIN_2
    r.pop()
    push(r, "play iris-plain-1")
    view = r.view(0)
    assert view.stock is None
    worlds = [sample_world(view, Card.CHRYSANTHEMUM_PLAIN_2, None, random.Random(seed)) for seed in range(20)]
    assert all(w.stock_top() is Card.CHRYSANTHEMUM_PLAIN_2 for w in worlds)
    for w in worlds:  # every card once
        seen = w.field | w.captured[0] | w.captured[1] | w.hands[0] | w.hands[1] | mask(" ".join(
            c.code for c in w.stock))
        assert seen.bit_count() == 48
    hints = HwatuHints(r, 0, seed=2)  # the state knows its stock: the flip is the top card
    assert {m.card for m in hints.moves} == {Card.CHRYSANTHEMUM_PLAIN_2}


def test_a_flip_matching_two_cards_offers_both_takes():
    r = hato_two(["maple-plain-1 iris-plain-1", "cherry-plain-1 plum-plain-1"],
                 "pine-crane pine-plain-1 clover-plain-1 pampas-plain-1", "pine-ribbon chrysanthemum-plain-2")
    push(r, "play maple-plain-1")
    hints = HwatuHints(r, 0, seed=2)
    assert set(hints.moves) == {Move.flip(Card.PINE_RIBBON, Card.PINE_CRANE),
                                Move.flip(Card.PINE_RIBBON, Card.PINE_PLAIN_1)}
    hints.add_samples(20)
    assert hints.ranked()[0].move == Move.flip(Card.PINE_RIBBON, Card.PINE_CRANE)
    assert HwatuHints(r.view(0), 0).moves == []  # without the face-up card there is nothing to weigh


def test_reasons_name_the_element_a_capture_completes_or_nears():
    r = hato_two(["cherry-plain-1 maple-plain-1", "iris-plain-1 plum-plain-1"], "cherry-ribbon peony-plain-1")
    r.captured = (mask("pine-ribbon plum-ribbon"), 0)
    reason = move_reason(r, 0, Move.play(Card.CHERRY_PLAIN_1, Card.CHERRY_RIBBON))
    assert (reason.key, reason.element, reason.numbers) == ("completes", "hongdan", (30.0,))
    assert Card.CHERRY_RIBBON in reason.cards
    g = GoStopRound(explicit_deal(["wisteria-plain-1 maple-plain-1", "iris-plain-1", "plum-plain-1"],
                                  "wisteria-cuckoo peony-plain-1"))
    g.captured = (mask("pampas-moon"), mask("plum-warbler pampas-geese"), 0)
    denied = move_reason(g, 0, Move.play(Card.WISTERIA_PLAIN_1, Card.WISTERIA_CUCKOO))
    assert (denied.key, denied.element, denied.cards, denied.numbers) == (
        "denies", "godori", (Card.WISTERIA_CUCKOO,), (1.0,))
    g.captured = (mask("pine-crane cherry-curtain"), 0, 0)
    g.field = mask("pampas-moon peony-plain-1")
    g.hands = (mask("pampas-plain-1 maple-plain-1"), g.hands[1], g.hands[2])
    scores = move_reason(g, 0, Move.play(Card.PAMPAS_PLAIN_1, Card.PAMPAS_MOON))
    assert (scores.key, scores.numbers) == ("threshold", (3.0,)) and Card.PAMPAS_MOON in scores.cards


def test_reasons_for_laying_a_card_count_what_others_may_hold():
    r = hato_two(["maple-plain-1 iris-plain-1", "cherry-plain-1 plum-plain-1"], "pine-crane peony-plain-1")
    lay = move_reason(r.view(0), 0, Move.play(Card.MAPLE_PLAIN_1))  # what player 1 sees
    assert (lay.key, lay.cards, lay.numbers) == ("lays", (Card.MAPLE_PLAIN_1,), (3.0,))
    r.captured = (0, mask("iris-ribbon iris-bridge iris-plain-2"))
    safe = move_reason(r.view(0), 0, Move.play(Card.IRIS_PLAIN_1))
    assert safe.numbers == (0.0,)


def test_bomb_shake_and_fourth_card_reasons():
    g = GoStopRound(explicit_deal(["maple-deer maple-ribbon maple-plain-1 iris-plain-2", "plum-plain-2",
                                   "cherry-plain-2"], "maple-plain-2 pine-plain-1"))
    bomb = move_reason(g, 0, Move.bomb(Card.MAPLE_DEER, Card.MAPLE_PLAIN_2))
    assert bomb.key == "bomb" and set(bomb.cards) == {Card.MAPLE_DEER, Card.MAPLE_RIBBON, Card.MAPLE_PLAIN_1,
                                                      Card.MAPLE_PLAIN_2}
    s = GoStopRound(explicit_deal(["maple-deer maple-ribbon maple-plain-1", "plum-plain-2", "cherry-plain-2"],
                                  "pine-plain-1"))
    shake = move_reason(s, 0, Move.shake(Card.MAPLE_DEER))
    assert shake.key == "shake" and len(shake.cards) == 3 and shake.numbers == (2.0,)
    h = GoStopRound(explicit_deal(["peony-butterflies maple-plain-1", "cherry-plain-1", "plum-plain-1"],
                                  "peony-ribbon peony-plain-1 peony-plain-2 iris-plain-1"))
    four = move_reason(h.view(0), 0, Move.play(Card.PEONY_BUTTERFLIES))
    assert four.key == "takes-all" and four.numbers == (1.0,)  # nobody else can take them: no hurry


def test_the_search_pickles_for_the_hint_process():
    hints = HwatuHints(gostop_at_decision(), 0, seed=5)
    copy = pickle.loads(pickle.dumps(hints.search))
    copy.add_samples(3)
    assert copy.samples == 3 and copy.play_out.played[Move.go()] == 3  # the play-out counts travel with it


@pytest.mark.parametrize("profile", ["gostop", "matgo"])
def test_the_hint_bot_plays_whole_hands(profile):
    p = GoStopProfile.load(profile)
    r = GoStopRound.shuffled(11, p)
    bot = HintBot(playouts=30, seed=1)
    result = play_round(r, [bot] * p.players)
    assert sum(result.net) == 0


def midgame(seed: int = 3) -> GoStopRound:
    """A seeded Go-Stop hand two turns in, at player 1's first choice."""
    r = GoStopRound.shuffled(seed)
    greedy = GreedyBot()
    while r.turn != 0 or r.phase is not Phase.PLAY or len(r.move_stack) < 6:
        r.push(greedy.choose(r))
    return r


def test_the_greedy_favourite_keeps_first_place_unless_clearly_beaten():
    r = midgame()
    hints = HwatuHints(r, 0, seed=4)
    hints.add_samples(24)
    search = hints.search
    favourite = search.moves[search.favourite]
    assert move_class(favourite) == move_class(GreedyBot().choose(r.view(0)))
    search.margin = 1e9  # no evidence is enough: the favourite leads
    assert search.ranked()[0].move == favourite
    search.margin = 0.0  # plain means: the ranking is by value
    values = [v.mean for v in search.ranked()]
    assert values == sorted(values, reverse=True)
    search.margin = 1.0  # a move leads only if it beats the favourite by a paired standard error or more
    beaten = any(gain > stderr for gain, stderr in (hints.playout.gain_over(m, favourite) for m in search.moves))
    assert (search.ranked()[0].move != favourite) == beaten


def test_clearly_worse_moves_stop_being_played_but_the_favourite_never_does():
    r = hato_two(["pine-plain-1 maple-plain-1 iris-plain-1 peony-plain-2", "cherry-plain-1 plum-plain-1 "
                  "peony-plain-1 wisteria-plain-1"], "pine-crane clover-plain-1 pampas-plain-1 chrysanthemum-plain-2")
    hints = HwatuHints(r, 0, seed=3)
    hints.add_samples(64)
    played = {v.move: v.samples for v in hints.ranked()}
    assert played[hints.ranked()[0].move] == 64 and played[hints.search.moves[hints.search.favourite]] == 64
    assert min(played.values()) < 64  # laying a plain instead of taking the crane was dropped early
    assert hints.ranked()[0].move == Move.play(Card.PINE_PLAIN_1, Card.PINE_CRANE)


def test_a_player_who_laid_a_card_is_dealt_no_month_that_was_on_the_field():
    r = hato_two(["maple-plain-1 iris-plain-1 peony-plain-2", "cherry-plain-1 plum-plain-1 paulownia-plain-1"],
                 "pine-crane clover-plain-1 pampas-plain-1 chrysanthemum-plain-2",
                 "wisteria-plain-1 willow-swallow maple-plain-2")
    push(r, "play maple-plain-1", "flip wisteria-plain-1", "play cherry-plain-1")  # player 2 lays: no capture
    push(r, "flip willow-swallow")
    ruled_out = lay_exclusions(r, 0)
    months = 0
    for card in (Card.PINE_CRANE, Card.CLOVER_PLAIN_1, Card.PAMPAS_PLAIN_1, Card.CHRYSANTHEMUM_PLAIN_2,
                 Card.MAPLE_PLAIN_1, Card.WISTERIA_PLAIN_1):  # the deal's four and the two player 1 laid
        months |= MONTH_MASK_BY_CARD[card]
    assert ruled_out == (0, months)  # every card of each month that was on the field
    view = r.view(0)
    for seed in range(30):
        world = sample_world(view, None, ruled_out, random.Random(seed))
        assert not world.hands[1] & ruled_out[1] and world.hands[1].bit_count() == 2
        assert world.hands[0] == r.hands[0] and len(world.stock) == world.stock_left == r.stock_left
