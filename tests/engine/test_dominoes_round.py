"""One deal of the joining games: deal sizes, the lead, forced play, face-down passes, doubles on doubles,
blocked endings, the two-arm variant, errors with reasons, undo, views and the count."""

import random

import pytest

from engine.dominoes.deal import DominoDeal
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import Tile
from engine.dominoes.tileset import CHINESE_SET, KOREAN_SET, TileSet
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidStateError, ProfileError
from engine.profile import load_profile_data

JIELONG = DominoProfile.load("jielong")
CEDENG = DominoProfile.load("cedeng")
KKORI = DominoProfile.load("kkori")
T = Tile


def tiny_profile(game: str = "jielong", size: int = 3, players: int = 2, variants=(), **settle) -> DominoProfile:
    """The game's shipped rules dealt ``size`` Chinese tiles to each of ``players``: positions small enough
    to write out in full."""
    data = load_profile_data(game)
    deal = {k: v for k, v in data["deal"].items() if not k.startswith("players-")}
    data["deal"] = {**deal, f"players-{players}": [size, "chinese"]}
    data["settle"] = {**data["settle"], **{k.replace("_", "-"): v for k, v in settle.items()}}
    return DominoProfile.from_data(data, tuple(variants))


def tiny(*hands: str, leader: int = 0, **kwargs) -> DominoRound:
    profile = tiny_profile(size=len(TileSet.parse(hands[0])), players=len(hands), **kwargs)
    return DominoRound(DominoDeal.parse(hands), profile, leader)


def play(r: DominoRound, *moves: str) -> None:
    for text in moves:
        r.push(DominoMove.parse(text))


@pytest.mark.parametrize(("profile", "players", "size", "tiles", "unused"), [
    (JIELONG, 4, 8, CHINESE_SET, 0),
    (JIELONG, 3, 10, CHINESE_SET, 2),
    (JIELONG, 2, 16, CHINESE_SET, 0),
    (CEDENG, 4, 8, CHINESE_SET, 0),
    (KKORI, 4, 8, CHINESE_SET, 0),
    (KKORI, 3, 8, KOREAN_SET, 0),
    (KKORI, 2, 12, KOREAN_SET, 0),
])
def test_deal_sizes(profile, players, size, tiles, unused):
    r = DominoRound.shuffled(11, players, profile)
    assert [r.hand_size(p) for p in range(players)] == [size] * players
    dealt = sum((r.hand(p) for p in range(players)), TileSet())
    assert dealt <= tiles and len(tiles) - len(dealt) == unused == r.deal.unused
    assert r.unseen() == tiles - dealt


def test_player_counts_and_hand_sizes_outside_a_game_are_refused():
    with pytest.raises(ProfileError, match="cedeng is played by 4 players, not 3"):
        DominoRound.shuffled(1, 3, CEDENG)
    with pytest.raises(ProfileError, match="jielong is played by 2, 3, 4 players, not 5"):
        DominoRound.shuffled(1, 5, JIELONG)
    with pytest.raises(InvalidStateError, match="deals 8 chinese tiles to each of 4 players, not 7 chinese"):
        DominoRound(DominoDeal.shuffled(1, 4, 7), CEDENG)
    with pytest.raises(InvalidStateError, match="deals 8 korean tiles to each of 3 players, not 8 chinese"):
        DominoRound(DominoDeal.shuffled(1, 3, 8), KKORI)


def test_explicit_deals_are_checked():
    with pytest.raises(InvalidStateError, match="same number of tiles"):
        DominoDeal.parse(["1:3 6:6", "2:2"])
    with pytest.raises(InvalidStateError, match="4:5 dealt too often .again to player 2.; the chinese set has 1"):
        DominoDeal.parse(["4:5 6:6", "4:5 2:2"])
    with pytest.raises(InvalidStateError, match="0:3 dealt too often"):
        DominoDeal.parse(["0:3 6:6", "1:1 2:2"])
    with pytest.raises(InvalidStateError, match="unknown tile set"):
        DominoDeal.parse(["1:1", "2:2"], deck="french")


def test_the_leader_names_the_open_end_and_may_lead_anything():
    r = tiny("3:5 6:6 4:6", "3:4 2:2 4:4")
    assert set(r.legal_moves) == {
        DominoMove.play(T.T3_5, 3), DominoMove.play(T.T3_5, 5), DominoMove.play(T.T6_6, 6),
        DominoMove.play(T.T4_6, 4), DominoMove.play(T.T4_6, 6),
    }
    with pytest.raises(AmbiguousMoveError, match="say which end of 3:5 stays open .3 or 5."):
        r.push(DominoMove.parse("play 3:5"))
    with pytest.raises(IllegalMoveError, match="3:5 has no end 6"):
        r.push(DominoMove.play(T.T3_5, 6))
    with pytest.raises(IllegalMoveError, match="the leader lays any tile in the line, never face down"):
        r.push(DominoMove.down(T.T6_6))
    r.push(DominoMove.parse("play 6:6"))  # a double leaves its own number open
    assert r.ends == (6,) and r.peek() == DominoMove.play(T.T6_6, 6)


def test_forced_play_then_a_face_down_pass_then_a_blocked_line():
    r = tiny("3:5 6:6 4:6", "3:4 2:2 4:4")
    play(r, "play 3:5 open 3")
    assert r.turn == 1 and list(r.legal_moves) == [DominoMove.play(T.T3_4, 4)]
    with pytest.raises(IllegalMoveError, match=r"player 2 holds a matching tile and must play it \(3:4 fits the open end 3\)"):
        r.push(DominoMove.down(T.T2_2))
    with pytest.raises(IllegalMoveError, match="player 2 holds a matching tile and must play it"):
        r.push(DominoMove.down(T.T3_4))
    with pytest.raises(IllegalMoveError, match="2:2 does not match the open end 3"):
        r.push(DominoMove.play(T.T2_2))
    with pytest.raises(IllegalMoveError, match="player 2 cannot play 6:6: 6:6 is in player 1's hand"):
        r.push(DominoMove.play(T.T6_6))
    play(r, "play 3:4", "play 4:6")  # the end left open follows from the open end
    assert r.ends == (6,) and r.line[-1] == (0, T.T4_6, 6)
    # player 2 holds no 6: every tile of theirs may go face down, and only that
    assert set(r.legal_moves) == {DominoMove.down(T.T2_2), DominoMove.down(T.T4_4)}
    play(r, "down 4:4")
    assert r.face_down(1) == TileSet.parse("4:4") and r.void[1] == 1 << 6
    play(r, "play 6:6")
    # nobody holds a 6 any more: the line is blocked and the tile left in hand counts too
    assert r.is_over and r.ending == "blocked" and not r.legal_moves
    assert r.result is not None
    assert r.result.pips == (0, 8 + 4) and r.result.unplayed == (0, 2) and r.result.net == (12, -12)
    assert r.result.winner == 0
    with pytest.raises(IllegalMoveError, match="the round is over"):
        r.push(DominoMove.down(T.T2_2))


def test_blocked_right_after_the_lead():
    r = tiny("5:6 1:1", "2:2 1:2")
    play(r, "play 5:6 open 5")
    assert r.is_over and r.ending == "blocked" and r.result.pips == (2, 7) and r.result.net == (5, -5)


def test_a_played_out_deal_charges_only_the_face_down_tiles():
    r = tiny("1:3 3:4", "1:1 4:6")
    play(r, "play 1:3 open 3")
    # player 2 holds no 3 but player 1 does: not blocked, player 2 lays a tile face down
    assert not r.is_over and set(r.legal_moves) == {DominoMove.down(T.T1_1), DominoMove.down(T.T4_6)}
    play(r, "down 1:1", "play 3:4", "play 4:6")
    assert r.ending == "played-out" and r.result.pips == (0, 2) and r.result.net == (2, -2)


def test_doubles_may_follow_doubles():
    r = tiny("3:3 1:2", "3:3 3:5")
    play(r, "play 3:3")
    assert set(r.legal_moves) == {DominoMove.play(T.T3_3, 3), DominoMove.play(T.T3_5, 5)}
    play(r, "play 3:3")  # the second copy on the first: 3 stays open
    assert r.ends == (3,) and r.laid_tiles() == TileSet.parse("3:3 3:3")


def test_two_arm_variant_keeps_both_ends_open():
    r = tiny("1:3 5:6", "1:3 3:4", variants=("two-arm",))
    assert DominoMove.play(T.T1_3) in r.legal_moves
    with pytest.raises(InvalidMoveError, match="both ends of the lead stay open"):
        r.push(DominoMove.play(T.T1_3, 3))
    play(r, "play 1:3")
    assert r.ends == (1, 3)
    with pytest.raises(AmbiguousMoveError, match="1:3 fits both open ends: say which number stays open .1 or 3."):
        r.push(DominoMove.play(T.T1_3))
    assert set(r.legal_moves) == {
        DominoMove.play(T.T1_3, 1), DominoMove.play(T.T1_3, 3), DominoMove.play(T.T3_4, 4),
    }
    play(r, "play 3:4 on 3")
    assert r.ends == (1, 4) and r.line[-1] == (1, T.T3_4, 4)
    # player 1 holds nothing for 1 or 4: face down, then the line is blocked
    assert set(r.legal_moves) == {DominoMove.down(T.T5_6)}
    play(r, "down 5:6")
    assert not r.is_over and list(r.legal_moves) == [DominoMove.play(T.T1_3, 3)]
    play(r, "play 1:3")
    assert r.ending == "played-out" and r.result.pips == (11, 0) and r.result.net == (-11, 11)


def test_moves_parse_and_print():
    for move in (DominoMove.play(T.T3_5, 5), DominoMove.play(T.T6_6), DominoMove.down(T.T1_1), DominoMove.down()):
        assert DominoMove.parse(str(move)) == move and eval(repr(move)) == move
    assert DominoMove.parse("3:5 on 3") == DominoMove.play(T.T3_5, 5)
    assert DominoMove.parse("down ?") == DominoMove.down() and DominoMove.parse("DOWN heaven").tile is T.T6_6
    assert DominoMove.parse("play 1:3").kind is MoveKind.PLAY
    for bad, message in (("", "empty"), ("play 3:5 open 6", "3:5 has no end '6'"), ("down 1:1 2:2", "down TILE"),
                         ("play 9:9", "no tile has 9 pips"), ("play 3:5 at 3", "play TILE")):
        with pytest.raises(InvalidMoveError, match=message):
            DominoMove.parse(bad)


def test_push_pop_restores_exactly():
    r = DominoRound.shuffled(5, 4, CEDENG)
    rng = random.Random(5)
    states = []
    while not r.is_over:
        states.append((r._snapshot(), r.turn))
        r.push(r.random_move(rng))
    end = r.result
    while r.move_stack:
        r.pop()
        assert (r._snapshot(), r.turn) == states.pop()
    assert not r.move_stack and r.ends == () and r.hands == tuple(h.mask for h in r.deal.hands)
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        r.pop()
    assert end is not None


def test_seven_doubles_void_a_ce_deng_deal_and_eight_win_it():
    seven = "6:6 6:6 1:1 1:1 4:4 4:4 3:3 1:3"
    rest = sorted(CHINESE_SET - TileSet.parse(seven))
    hands = [seven, *(" ".join(t.code for t in rest[i * 8 : (i + 1) * 8]) for i in range(3))]
    r = DominoRound(DominoDeal.parse(hands), CEDENG)
    assert r.is_over and r.ending == "redeal" and r.result.net == (0, 0, 0, 0) and r.result.winner is None
    assert r.claimant == 0 and not r.legal_moves
    # Jie Long plays such a hand
    assert not DominoRound(DominoDeal.parse(hands), JIELONG).is_over

    eight = "6:6 6:6 1:1 1:1 4:4 4:4 3:3 3:3"
    rest = sorted(CHINESE_SET - TileSet.parse(eight))
    hands = [" ".join(t.code for t in rest[:8]), eight, *(" ".join(t.code for t in rest[i * 8 : (i + 1) * 8]) for i in (1, 2))]
    r = DominoRound(DominoDeal.parse(hands), CEDENG, leader=0)
    assert r.ending == "eight-doubles" and r.result.winner == 1
    others = [TileSet.parse(hands[p]).pips for p in (0, 2, 3)]
    assert [p.amount for p in r.result.payments] == [2 * pips for pips in others]
    assert r.result.net[1] == 2 * sum(others) and sum(r.result.net) == 0


def test_clean_finish_and_heavy_tail_from_play():
    profile_kwargs = {"game": "cedeng", "tail_heavy": 2, "head_heavy": 2}
    r = DominoRound(DominoDeal.parse(["1:3 3:6", "5:5 2:2"]), tiny_profile(size=2, **profile_kwargs))
    play(r, "play 1:3 open 3", "down 5:5", "play 3:6 open 6")
    assert r.ending == "blocked"
    res = r.result
    assert res.unplayed == (0, 2) and res.flags == (("clean finish",), ("heavy tail",))
    assert res.payments[0].multiplier == 4 and res.net == (4 * 14, -4 * 14)


def test_view_hides_other_hands_and_follows_the_real_moves():
    r = tiny("3:5 6:6 4:6 1:6", "3:4 2:2 4:4 1:1")
    view = r.view(0)
    assert view.hand(1) == TileSet() and view.hidden[1] == 4 and view.hand(0) == r.hand(0)
    for text in ("play 3:5 open 3", "play 3:4", "play 4:6"):
        play(r, text)
        play(view, text)
    assert view.ends == r.ends == (6,)
    # the observer sees a tile go face down, not which
    r.push(DominoMove.down(T.T4_4))
    view.push(DominoMove.down())
    assert len(view.down_unseen[1]) == 1 and view.void[1] == 1 << 6
    play(r, "play 6:6")
    play(view, "play 6:6")
    # player 2 has shown they hold no 6, so they cannot play one now
    with pytest.raises(IllegalMoveError, match="they laid a tile face down on an open 6, so they hold no 6"):
        view.push(DominoMove.play(T.T5_6))
    assert set(view.legal_moves) == {DominoMove.down()}
    r.push(DominoMove.down(T.T2_2))
    view.push(DominoMove.down())
    for text in ("play 1:6 open 1", "play 1:1"):
        play(r, text)
        play(view, text)
    assert r.ending == view.ending == "played-out" and view.result is None  # two tiles still face down, unseen
    assert view.count([TileSet(), TileSet.parse("2:2 4:4")]) == r.result
    assert r.result.pips == (0, 12)
    assert r.view(0).result == r.result  # at the count everything is turned up


def test_an_observer_can_prove_the_line_blocked():
    r = tiny("3:5 6:6 4:6", "3:4 2:2 4:4")
    view = r.view(0)
    for text in ("play 3:5 open 3", "play 3:4", "play 4:6", "down 4:4", "play 6:6"):
        play(r, text)
        view.push(DominoMove.down() if text.startswith("down") else DominoMove.parse(text))
    # player 1 is out of tiles and player 2 showed no 6: nobody can ever play again
    assert r.ending == view.ending == "blocked" and view.result is None
    assert view.count([TileSet(), TileSet.parse("2:2 4:4")]) == r.result


def test_count_checks_the_tiles_turned_up():
    r = tiny("1:3 3:4", "1:1 4:6")
    view = r.view(0)
    play(r, "play 1:3 open 3", "down 1:1", "play 3:4", "play 4:6")
    for text in ("play 1:3 open 3", "down", "play 3:4", "play 4:6"):
        play(view, text)
    assert view.is_over and view.result is None
    with pytest.raises(IllegalMoveError, match="not over"):
        tiny("1:3 3:4", "1:1 4:6").count([TileSet(), TileSet()])
    with pytest.raises(InvalidStateError, match="player 2 turned up 0 tiles; 1 were unseen"):
        view.count([TileSet(), TileSet()])
    with pytest.raises(InvalidStateError, match="3:4 cannot be among the unseen tiles: 3:4 is laid in the line"):
        view.count([TileSet(), TileSet.parse("3:4")])
    with pytest.raises(InvalidStateError, match="player 2 cannot have turned up 3:3"):
        view.count([TileSet(), TileSet.parse("3:3")])  # laid face down on an open 3: it has no 3
    assert view.count([TileSet(), TileSet.parse("1:1")]) == r.result


def test_sample_world_agrees_with_what_was_seen():
    rng = random.Random(3)
    for seed in range(30):
        r = DominoRound.shuffled(seed, 4, JIELONG)
        while not r.is_over and len(r.move_stack) < 14:
            r.push(r.random_move(rng))
        if r.is_over:
            continue
        view = r.view(r.turn)
        world = view.sample_world(rng)
        assert world.hand(r.turn) == r.hand(r.turn) and world.laid == r.laid and world.ends == r.ends
        for p in range(4):
            assert len(world.face_down(p)) == len(r.face_down(p))
            for n in range(7):
                if view.void[p] >> n & 1:
                    assert not world.hand(p).with_number(n), "a player who showed no n holds none"
        while not world.is_over:
            world.push(world.random_move(rng))
        assert world.result is not None and sum(world.result.net) == 0


def test_errors_for_malformed_moves():
    r = tiny("3:5 5:6", "3:4 2:2")
    assert r.illegal_reason((7, None, None)) is not None
    assert isinstance(r.illegal_reason(DominoMove(MoveKind.PLAY, None)), InvalidMoveError)
    play(r, "play 3:5 open 5")
    with pytest.raises(InvalidMoveError, match="tiles are all known: say which tile goes face down"):
        r.push(DominoMove.down())
    with pytest.raises(IllegalMoveError, match="player 2 cannot lay face down 1:1: 1:1 is unseen"):
        r.push(DominoMove.down(T.T1_1))
