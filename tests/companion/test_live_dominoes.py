"""Dominoes followed live: tables made from real engine deals (tiles per zone), the moves the inference
commits, the count at the end, misreads corrected or reported as conflicts, and the zones of a recognised
frame."""

import pytest

from companion.live.dominoes import DominoLive, DominoZones, table_from_observation
from companion.live.session import LiveSession
from companion.live.table import FIELD, ObservedTable, SeenCard, captures, hand
from engine.dominoes.bots import GreedyBot
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tileset import count_tiles, tiles_of
from vision.dominoes.observation import DominoTableObservation, TileObservation

ME = 0


def table_of(state: DominoRound, shown: tuple[int, ...] = (), show_hand: bool = True,
             misread: dict[str, str] | None = None) -> ObservedTable:
    """What an overhead camera sees of ``state``: the line, each player's backs, the user's hand laid out;
    ``shown`` players have turned their tiles up for the count; ``misread`` relabels the first such tile."""
    cards = [(tile.code, FIELD) for _, tile, _ in state.line]
    for p in range(state.players):
        if p in shown:
            cards += [(t.code, captures(p)) for t in tiles_of(state.down[p] + state.hands[p])]
        else:
            cards += [("back", captures(p))] * count_tiles(state.down[p])
    if show_hand:
        cards += [(t.code, hand(ME)) for t in tiles_of(state.hands[ME])]
    for wrong, read in (misread or {}).items():
        i = next(i for i, (label, _) in enumerate(cards) if label == wrong)
        cards[i] = (read, cards[i][1])
    return ObservedTable.of(cards)


def truth_game(seed: int, game: str = "jielong", leader: int = 2) -> DominoRound:
    return DominoRound.shuffled(seed, 4, DominoProfile.load(game), leader=leader)


def follow(truth: DominoRound, show_hand: bool = True, typed_hand: bool = False) -> tuple[LiveSession, list]:
    live = DominoLive(truth.profile, me=ME)
    session = LiveSession(live, dealer=truth.leader)
    if typed_hand:
        session.set_hand(truth.hand(ME).codes())
    events = session.observe(table_of(truth, show_hand=show_hand))
    events += session.observe(table_of(truth, show_hand=show_hand))
    return session, events


def camera_text(move: DominoMove, player: int) -> str:
    """How the camera records a move: another player's face-down tile is unseen."""
    return "down ?" if move.kind is MoveKind.DOWN and player != ME else str(move)


@pytest.mark.parametrize("seed,game", [(11, "jielong"), (3, "cedeng"), (5, "kkori")])
def test_a_real_deal_is_followed_move_by_move_and_counted(seed, game):
    truth = truth_game(seed, game)
    session, events = follow(truth)
    assert session.phase == "playing"
    expected, bot = [], GreedyBot()
    while not truth.is_over:
        player = truth.turn
        move = bot.choose(truth)
        truth.push(move)
        expected.append(camera_text(move, player))
        events += session.observe(table_of(truth))
    others = tuple(p for p in range(4) if p != ME)
    events += session.observe(table_of(truth, shown=others))
    assert session.actions()[: len(expected)] == expected
    # a deal the rules saw blocked before the camera could: the passes it comes to are implied, then the count
    assert all(a == "down ?" or a.startswith("show") for a in session.actions()[len(expected):])
    assert session.phase == "over"
    assert session.game.result()["net"] == list(truth.result.net)
    assert not [e for e in events if e.kind == "conflict"]


def test_the_leaders_open_end_waits_for_the_next_tile():
    truth = truth_game(11)
    session, _ = follow(truth)
    bot = GreedyBot()
    lead = bot.choose(truth)
    truth.push(lead)
    events = session.observe(table_of(truth))
    if not lead.tile.is_double:
        assert [e.kind for e in events] == ["ambiguous"] and session.actions() == []
    while len(session.actions()) == 0:
        truth.push(bot.choose(truth))
        session.observe(table_of(truth))
    assert session.actions()[0] == str(lead)


def test_a_misread_new_tile_that_fits_nothing_is_a_conflict_and_changes_nothing():
    truth = truth_game(11)
    session, _ = follow(truth)
    bot = GreedyBot()
    for _ in range(6):
        truth.push(bot.choose(truth))
        session.observe(table_of(truth))
    before = session.actions()
    while True:  # the next tile laid in the line
        move = bot.choose(truth)
        truth.push(move)
        if move.kind is MoveKind.PLAY:
            break
        session.observe(table_of(truth))
        before = session.actions()
    # read as a tile that did not fit the open end
    misread_as = _unplayable(truth, move)
    events = session.observe(table_of(truth, misread={move.tile.code: misread_as}))
    assert [e.kind for e in events] == ["conflict"]
    assert misread_as in events[0].message
    assert session.actions() == before
    events = session.observe(table_of(truth))  # a better look
    assert session.actions()[-1] == str(move)


def _unplayable(truth: DominoRound, move: DominoMove) -> str:
    """A Chinese tile code that could not have been laid where ``move`` was."""
    before_ends = set(truth.line[-2][2:3]) if len(truth.line) > 1 else set()
    for code in ("6:6", "5:6", "4:6", "3:6", "2:6", "1:6", "5:5", "4:5", "1:1", "1:2"):
        tile = type(move.tile).parse(code)
        if not any(tile.has(e) for e in before_ends) and code != move.tile.code:
            return code
    raise AssertionError("no unplayable tile")


def test_an_old_tile_read_differently_once_is_corrected_not_believed():
    truth = truth_game(11)
    session, _ = follow(truth)
    bot = GreedyBot()
    while len([m for m in truth.move_stack if m.kind is MoveKind.PLAY]) < 4:
        truth.push(bot.choose(truth))
        session.observe(table_of(truth))
    actions = session.actions()
    first = truth.line[1][1]
    other = "6:6" if first.code != "6:6" else "1:1"
    events = session.observe(table_of(truth, misread={first.code: other}))
    assert session.actions() == actions
    assert [e.kind for e in events] in (["corrected"], [])


def test_your_face_down_tile_comes_from_your_hand_or_is_typed():
    truth = truth_game(11)
    session, _ = follow(truth, show_hand=False, typed_hand=True)
    assert session.game.round.hand(ME) == truth.hand(ME)
    bot = GreedyBot()
    while True:
        player = truth.turn
        move = bot.choose(truth)
        truth.push(move)
        events = session.observe(table_of(truth, show_hand=False))
        if player == ME and move.kind is MoveKind.DOWN:
            break
        assert not [e for e in events if e.kind == "conflict"]
    # the camera saw a back appear before you, but not which tile: nothing is committed on a guess
    assert events[-1].kind == "conflict" and str(move) not in session.actions()
    session.type_action(str(move))
    assert session.actions()[-1] == str(move)


def test_zones_of_a_recognised_frame():
    def tile(code, x, y, down=False):
        quad = ((x - 10, y - 20), (x + 10, y - 20), (x + 10, y + 20), (x - 10, y + 20))
        if down:
            return TileObservation(None, None, quad, 0.9, face_down=True)
        a, b = map(int, code.split(":"))
        return TileObservation(code, (a, b), quad, 0.95)

    observation = DominoTableObservation((1000, 1000), (
        tile("3:5", 500, 500), tile("5:6", 540, 500), tile(None, 500, 800, down=True), tile(None, 950, 500, True),
        tile(None, 500, 50, True), tile(None, 40, 500, True), tile("1:3", 500, 950)), "chinese")
    table = table_from_observation(observation, DominoZones(players=4, me=0))
    roles = [(c.label, c.role) for c in table.cards]
    assert roles == [("3:5", FIELD), ("5:6", FIELD), ("back", "captures-0"), ("back", "captures-1"),
                     ("back", "captures-2"), ("back", "captures-3"), ("1:3", "hand-0")]
    assert all(isinstance(c, SeenCard) and c.size == pytest.approx(40.0) for c in table.cards)
