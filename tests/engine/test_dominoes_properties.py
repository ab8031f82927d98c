"""Property tests: seeded deals of every game, size and variant conserve every tile, stay legal, settle to
zero, undo exactly, and every player's view follows the real game to the same count."""

import random
from itertools import permutations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import NUMBERS, Tile
from engine.dominoes.tileset import DECKS, TileSet, add_masks
from engine.dominoes.unseen import assign
from engine.errors import InvalidStateError

PROFILES = [
    DominoProfile.load("jielong"), DominoProfile.load("jielong", ["two-arm"]), DominoProfile.load("cedeng"),
    DominoProfile.load("cedeng", ["head6-tail7"]), DominoProfile.load("kkori"),
    DominoProfile.load("kkori", ["holder-leads", "chips"]),
]


def check_tiles(r: DominoRound) -> None:
    """Hands, face-down tiles, the line and the unseen rest are the whole set, each tile once per copy."""
    total = add_masks(r.laid, r.unseen_mask())
    for p in range(r.players):
        total = add_masks(total, add_masks(r.hands[p], r.down[p]))
    assert TileSet(total) == DECKS[r.deal.deck]
    assert len(r.laid_tiles()) == len(r.line)
    if not r.is_over:
        moves = r.generate_legal_moves()
        assert moves, "a live deal always has a move"
        assert all(r.illegal_reason(m) is None for m in moves)
        assert len(set(moves)) == len(moves)


def state_of(r: DominoRound) -> tuple:
    return (r._snapshot(), r.turn, tuple(r.move_stack))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), profile=st.sampled_from(PROFILES), data=st.data())
def test_seeded_deals_conserve_tiles_settle_to_zero_and_undo(seed, profile, data):
    players = data.draw(st.sampled_from(profile.players))
    rng = random.Random(seed)
    r = DominoRound.shuffled(rng, players, profile, leader=None if profile.lead_holder else seed % players)
    history = []
    while not r.is_over:
        check_tiles(r)
        history.append(state_of(r))
        move = r.random_move(rng)
        assert move in r.legal_moves
        r.push(move)
    check_tiles(r)
    result = r.result
    assert result is not None and sum(result.net) == 0 and result.first == r.leader
    if r.ending in ("played-out", "blocked"):
        assert result.pips == tuple(r.face_down(p).pips + r.hand(p).pips for p in range(players))
        assert all(r.hand_size(p) == 0 for p in range(players)) or r.ending == "blocked"
        laid_by = [sum(1 for q, _, _ in r.line if q == p) for p in range(players)]
        assert result.unplayed == tuple(r.size - n for n in laid_by)
    while r.move_stack:
        r.pop()
        assert state_of(r) == history.pop()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), profile=st.sampled_from(PROFILES), data=st.data())
def test_every_players_view_accepts_the_observed_moves(seed, profile, data):
    players = data.draw(st.sampled_from(profile.players))
    rng = random.Random(seed)
    r = DominoRound.shuffled(rng, players, profile)
    views = [r.view(p) for p in range(players)]
    while not r.is_over:
        mover = r.turn
        move = r.random_move(rng)
        r.push(move)
        for p, view in enumerate(views):
            if view.is_over:
                assert r.is_over  # a view proves the line blocked no sooner than the table
                continue
            seen = DominoMove.down() if move.kind is MoveKind.DOWN and p != mover else move
            view.push(seen)  # raises if the view thinks the move impossible
            assert (view.laid, view.ends) == (r.laid, r.ends)
            assert view.turn == r.turn or r.is_over
    for view in views:
        while not view.is_over:  # the rest goes face down, unseen, as at a table that plays on
            view.push(DominoMove.down() if view.hidden[view.turn] else view.random_move(rng))
        # at the count each player turns up what the observer did not see
        revealed = [TileSet(r.down[q] + r.hands[q]) - view.face_down(q) - view.hand(q) for q in range(players)]
        assert view.count(revealed).net == r.result.net


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 24), profile=st.sampled_from(PROFILES))
def test_sampled_worlds_play_to_the_end(seed, cut, profile):
    rng = random.Random(seed)
    r = DominoRound.shuffled(rng, max(profile.players), profile)
    for _ in range(cut):
        if r.is_over:
            break
        r.push(r.random_move(rng))
    if r.is_over:
        return
    world = r.view(r.turn).sample_world(rng)
    check_tiles(world)
    assert world.line == r.line and world.hand(r.turn) == r.hand(r.turn)
    while not world.is_over:
        world.push(world.random_move(rng))
    assert world.result is not None and sum(world.result.net) == 0


@settings(max_examples=150, deadline=None)
@given(
    tiles=st.lists(st.sampled_from(sorted(DECKS["chinese"].distinct())), min_size=5, max_size=5),
    forbidden=st.lists(st.integers(0, 0b1111110), min_size=4, max_size=4),
    seed=st.integers(0, 2**16),
)
@example(tiles=[Tile.T2_2, Tile.T2_2, Tile.T1_5, Tile.T2_2, Tile.T2_2], forbidden=[2, 2, 32, 32], seed=512)  # 4 copies
def test_unseen_tiles_are_placed_whenever_some_placing_fits(tiles, forbidden, seed):
    fits = any(all(not NUMBERS[t] & f for t, f in zip(perm, forbidden, strict=True)) for perm in permutations(tiles, 4))
    if not fits:
        with pytest.raises(InvalidStateError, match="no way to place the unseen tiles"):
            assign(forbidden, tiles, random.Random(seed))
        return
    placed = assign(forbidden, tiles, random.Random(seed))
    assert len(placed) == 4 and all(not NUMBERS[t] & f for t, f in zip(placed, forbidden, strict=True))
    assert all(placed.count(t) <= tiles.count(t) for t in placed)
