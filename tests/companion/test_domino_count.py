"""The count by elimination (``companion.live.domino_count``): the tiles the camera could not read at the count are
the ones nobody has accounted for, where only one way of sharing them out passes the rules."""

import pytest

from companion.live.domino_count import by_elimination
from companion.live.dominoes import DominoLive
from companion.tables.dominoes import check_shown
from datasets.scripted.dominoes import script_deal
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tileset import TileSet
from engine.errors import KibitzError


def _at_the_count(seed: int) -> tuple[DominoRound, dict[int, TileSet]]:
    """A scripted deal's state before its count, as the camera followed it (your hand typed, the others' unseen),
    and each player's true show."""
    script = script_deal(seed)
    live = DominoLive(DominoProfile.load("jielong"), me=script.me, players=script.players)
    hands = [list(script.hand) if p == script.me else [] for p in range(script.players)]
    hidden = [0 if p == script.me else len(script.hand) for p in range(script.players)]
    live.start({"field": [], "hands": hands, "hidden": hidden, "deck": live.session.match.deck}, script.leader)
    shows = {}
    for action, _, _ in script.actions:
        if action.startswith("show"):
            _, player, *tiles = action.split()
            shows[int(player) - 1] = TileSet.parse(tiles)
        else:
            live.push(action, "camera")
    state = live.round
    while not state.is_over:  # a blocked line: the passes the rules imply before the count (the camera's view)
        downs = [m for m in state.generate_legal_moves() if m.kind is MoveKind.DOWN]
        live.push(str(DominoMove.down() if state.hidden[state.turn] else max(downs, key=lambda m: m.tile or 0)),
                  "camera")
    return state, shows


def test_one_players_unread_tile_is_the_one_left():
    state, shows = _at_the_count(11)
    first, *others = sorted(shows)
    short = shows[first] - TileSet.parse([shows[first].codes()[0]])
    found = by_elimination(state, {first: short}, [shows[p] for p in others])
    assert found == {first: shows[first]}


def test_two_players_unread_tiles_are_shared_out_where_only_one_way_fits_the_rules():
    state, shows = _at_the_count(11)  # player 2 shows 1:1 2:3 and player 4 4:4 4:5; 1:1 and 4:5 unread
    reads = {1: TileSet.parse(["2:3"]), 3: TileSet.parse(["4:4"])}
    assert by_elimination(state, reads, [shows[2]]) == {1: shows[1], 3: shows[3]}
    # the other way (4:5 to player 2, 1:1 to player 4) has as many tiles each; the rules refuse it: player 2 laid a
    # tile face down while a number of the 4:5 was open, and so held none
    with pytest.raises(KibitzError, match="laid face down"):
        check_shown(state, 1, TileSet.parse(["2:3", "4:5"]), [shows[2]])


def test_nothing_is_made_up_where_a_tile_read_is_not_left_or_a_player_is_not_short():
    state, shows = _at_the_count(11)
    assert by_elimination(state, {1: TileSet.parse(["2:3", "6:6"]), 3: TileSet.parse(["4:4"])}, [shows[2]]) == {}
    assert by_elimination(state, {1: shows[1], 3: TileSet.parse(["4:4"])}, [shows[2]]) == {}
    assert by_elimination(state, {1: TileSet.parse(["2:3"])}, [shows[2]]) == {}  # 4:4 and 4:5 unaccounted too
