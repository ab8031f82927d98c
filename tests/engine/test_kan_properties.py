"""Property tests: seeded Kan deals and matches conserve the 50 cards, stay legal, undo exactly, and every
player's view follows the real game."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.kan.cards import Suit
from engine.kan.cardset import FULL, POINT_MASK
from engine.kan.deal import KanDeal
from engine.kan.match import KanMatch
from engine.kan.play import play_match
from engine.kan.table import DealSetup, Phase

SETUPS = [
    DealSetup(1, Suit.CLUBS),
    DealSetup(1, Suit.SPADES, order=(3, 1, 4, 0, 2)),
    DealSetup(2, None, joker_partner=0, ace_partner=3),
    DealSetup(3, None, joker_partner=4, ace_partner=1),
]


def check_cards(deal: KanDeal) -> None:
    union = count = 0
    for mask in (*deal.hands, *deal.won, *(1 << c for c in deal.trick)):
        assert union & mask == 0, "a card in two places"
        union |= mask
        count += mask.bit_count()
    assert union == FULL and count == 50
    played = 5 * len(deal.tricks) + len(deal.trick)
    assert sum(deal.hand_size(p) for p in range(5)) == 50 - played
    assert sum((w & POINT_MASK).bit_count() for w in deal.won) == sum(t.points for t in deal.tricks)
    if not deal.is_over:
        assert deal.generate_legal_moves(), "a live deal always has an action"


def fields(deal: KanDeal) -> tuple:
    return (*deal._snapshot(), tuple(deal.move_stack))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(SETUPS))
def test_random_deals_conserve_cards_stay_legal_and_pop_restores_exactly(seed, setup):
    rng = random.Random(seed)
    deal = KanDeal.shuffled(seed, setup)
    history = []
    while not deal.is_over:
        check_cards(deal)
        history.append(fields(deal))
        moves = deal.generate_legal_moves()
        move = moves[int(rng.random() * len(moves))]
        assert move in deal.legal_moves
        deal.push(move)
    check_cards(deal)
    result = deal.result
    assert result is not None and len(result.tricks) == 10
    assert result.kankei_points == sum(deal.points(p) for p in result.kankei)
    while deal.move_stack:
        deal.pop()
        assert fields(deal) == history.pop()
    assert not history


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 4))
def test_random_seeded_matches_conserve_cards_and_score_zero_sum(seed, rounds):
    seen: list[int] = []

    def check(state: KanDeal, action, player: int) -> None:
        check_cards(state)
        seen.append(player)

    match = play_match(KanMatch(seed=seed, rounds=rounds), [RandomBot(random.Random(seed))] * 5, on_action=check)
    assert match.is_over and len(match.finished) == rounds and seen
    assert sum(match.scores) == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(SETUPS))
def test_every_players_view_follows_the_real_deal(seed, setup):
    rng = random.Random(seed)
    deal = KanDeal.shuffled(seed, setup)
    views = [deal.view(p) for p in range(5)]
    while not deal.is_over:
        action = deal.random_move(rng)
        for p, view in enumerate(views):
            seen = deal.observed(action, p)
            assert seen in view.legal_moves, (p, seen, view.illegal_reason(seen))
            view.push(seen)
        deal.push(action)
        for p, view in enumerate(views):
            assert view.hands[p] == deal.hands[p] and view.phase is deal.phase
            assert all(view.hands[q] & ~deal.hands[q] == 0 for q in range(5))  # knows nothing false
            assert [view.hand_size(q) for q in range(5)] == [deal.hand_size(q) for q in range(5)]
            if deal.phase is not Phase.ANNOUNCE:
                assert view.turn == deal.turn
    for view in views:
        assert view.result is not None and deal.result is not None
        assert view.result.kankei_points == deal.result.kankei_points


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(SETUPS), stop=st.integers(0, 55), player=st.integers(0, 4))
def test_sampled_worlds_agree_with_the_view_and_play_to_the_end(seed, setup, stop, player):
    rng = random.Random(seed)
    deal = KanDeal.shuffled(seed, setup)
    while not deal.is_over and len(deal.move_stack) < stop:
        deal.push(deal.random_move(rng))
    if deal.is_over:
        return
    view = deal.view(player)
    world = view.sample_world(rng)
    assert world.hands[player] == deal.hands[player] and not any(world.hidden)
    assert world.phase is deal.phase
    if view.turn >= 0:  # before kan is said, who holds the joker or the pin may be a guess
        assert world.turn == deal.turn
    assert world.side(world.turn) is not None
    for q in range(5):
        assert view.hands[q] & ~world.hands[q] == 0 and world.hand_size(q) == deal.hand_size(q)
        assert world.hands[q] & view.void_cards(q) == 0  # no card of a suit the player showed they lack
    check_cards(world)
    while not world.is_over:
        world.push(world.random_move(rng))
