"""Dominoes followed live: tables made from real engine deals (tiles per zone), the moves the inference
commits, the count at the end, misreads corrected or reported as conflicts, and the zones of a recognised
frame."""

from dataclasses import replace
from pathlib import Path

import pytest

from companion.live.dominoes import DominoLive, DominoZones, table_from_observation
from companion.live.game import Expect, Prediction
from companion.live.infer import Hypothesis, InferenceConfig, infer, score_table
from companion.live.session import LiveSession
from companion.live.strays import STRAY_VIEWS
from companion.live.table import FIELD, ObservedTable, SeenCard, captures, hand
from engine.dominoes.bots import GreedyBot
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.tiles import Tile
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


def follow(truth: DominoRound, show_hand: bool = True, typed_hand: bool = False, record: Path | None = None
           ) -> tuple[LiveSession, list]:
    live = DominoLive(truth.profile, me=ME)
    session = (LiveSession(live, dealer=truth.leader) if record is None else
               LiveSession.create(record, live, players=("me", "b", "c", "d"), dealer=truth.leader))
    if typed_hand:
        session.set_hand(truth.hand(ME).codes())
    events = session.observe(table_of(truth, show_hand=show_hand))
    events += session.observe(table_of(truth, show_hand=show_hand))
    return session, events


def camera_text(move: DominoMove, player: int) -> str:
    """How the camera records a move: another player's face-down tile is unseen."""
    return "down ?" if move.kind is MoveKind.DOWN and player != ME else str(move)


def play_on(truth: DominoRound, bot: GreedyBot, expected: list[str]) -> DominoMove:
    """The bot's next move played, and added to ``expected`` as the camera records it."""
    player = truth.turn
    move = bot.choose(truth)
    truth.push(move)
    expected.append(camera_text(move, player))
    return move


@pytest.mark.parametrize("seed,game", [(11, "jielong"), (3, "cedeng"), (5, "kkori")])
def test_a_real_deal_is_followed_move_by_move_and_counted(seed, game):
    truth = truth_game(seed, game)
    session, events = follow(truth)
    assert session.phase == "playing"
    expected, bot = [], GreedyBot()
    while not truth.is_over:
        play_on(truth, bot, expected)
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


def _to_next_play(truth: DominoRound, session: LiveSession) -> tuple[DominoMove, list[str]]:
    """Six moves seen clearly, then the next tile laid in the line (not shown yet): the move, and the tiles that
    could have been laid there."""
    bot = GreedyBot()
    for _ in range(6):
        truth.push(bot.choose(truth))
        session.observe(table_of(truth))
    while True:
        move = bot.choose(truth)
        legal = [m.tile.code for m in truth.generate_legal_moves() if m.tile is not None]
        truth.push(move)
        if move.kind is MoveKind.PLAY:
            return move, legal
        session.observe(table_of(truth))


def test_a_misread_new_tile_that_fits_nothing_is_a_conflict_and_changes_nothing():
    truth = truth_game(11)
    session, _ = follow(truth)
    move, legal = _to_next_play(truth, session)
    actions = session.actions()
    misread_as = next(t.code for t in reversed(Tile) if t.code not in legal)
    events = session.observe(table_of(truth, misread={move.tile.code: misread_as}))
    assert [e.kind for e in events] == ["conflict"]
    assert misread_as in events[0].message
    assert session.actions() == actions
    session.observe(table_of(truth))  # a better look
    assert session.actions()[-1] == str(move)


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
    # the camera saw a back appear before you, but not which tile: it was allowed for (the app asked you to type
    # it when your turn came), and nothing is committed on a guess
    assert not [e for e in events if e.kind == "conflict"] and str(move) not in session.actions()
    assert "face down" in (session.game.awaiting() or "")
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
        tile(None, 500, 50, True), tile(None, 40, 500, True), tile("1:3", 500, 950), tile(None, 580, 500, True)),
        "chinese")
    table = table_from_observation(observation, DominoZones(players=4, me=0))
    roles = [(c.label, c.role) for c in table.cards]
    assert roles == [("3:5", FIELD), ("5:6", FIELD), ("back", "captures-0"), ("back", "captures-1"),
                     ("back", "captures-2"), ("back", "captures-3"), ("1:3", "hand-0"),
                     ("unknown", FIELD)]  # nothing lies face down in the line: a tile not read
    assert all(isinstance(c, SeenCard) and c.size == pytest.approx(40.0) for c in table.cards)


def test_a_tile_read_a_pip_off_is_a_likelier_misread():
    live = DominoLive(DominoProfile.load("jielong"))
    likeness = live.misread_likeness
    assert likeness("1:4", "1:3") < likeness("2:4", "1:3") < likeness("6:6", "1:3") == likeness("back", "1:3") == 1.0
    assert likeness("pine-crane", "1:3") == 1.0  # not a tile code: no opinion
    # two tiles expected in the line and not seen, one tile seen that is neither: it is taken for the one it is a
    # pip off from, and that costs less than a misread of just any tile
    prediction = Prediction((Expect("5:6", FIELD), Expect("1:3", FIELD)))
    table = ObservedTable.of([("1:4", FIELD)])
    alike = score_table(prediction, table, live.visual_class, likeness=likeness)
    plain = score_table(prediction, table, live.visual_class)
    assert [(m.kind, m.cls) for m in alike.mismatches if m.kind == "misread"] == [("misread", "1:3")]
    assert [(m.kind, m.cls) for m in plain.mismatches if m.kind == "misread"] == [("misread", "5:6")]  # the first
    assert alike.cost < plain.cost


def test_a_deal_starts_beside_clutter_read_as_tiles_and_the_clutter_is_never_a_move():
    truth = truth_game(11)
    live = DominoLive(truth.profile, me=ME)
    session = LiveSession(live, dealer=truth.leader)
    clutter = SeenCard("1:2", FIELD, 0.6, (900.0, 900.0), 40.0)  # a marker card read as a tile (a real one too)

    def seen(extra: tuple[SeenCard, ...] = (clutter,)) -> ObservedTable:
        table = table_of(truth)
        return ObservedTable((*table.cards, *extra))

    session.observe(seen())
    session.observe(seen())
    assert session.phase == "playing" and session.clutter == (clutter,)
    bot = GreedyBot()
    expected = []
    for i in range(8):
        play_on(truth, bot, expected)
        # the clutter is read as something else now and then, or not found
        read_as = (clutter,) if i % 3 == 0 else () if i % 3 == 1 else (replace(clutter, label="1:1"),)
        events = session.observe(seen(read_as))
        assert not [e for e in events if e.kind == "conflict"], events
    assert session.actions() == expected


def test_a_table_with_more_than_a_little_clutter_is_a_deal_in_progress():
    live = DominoLive(DominoProfile.load("jielong"), me=ME)
    things = [SeenCard(code, FIELD, 0.9, (100.0 * i, 300.0), 40.0) for i, code in enumerate(("1:2", "2:5", "5:6"))]
    assert live.setup(ObservedTable(tuple(things[:2]))).deal is not None
    result = live.setup(ObservedTable(tuple(things)))
    assert result.deal is None and "3 tiles still in the line" in result.message


def test_settled_tiles_unseen_or_misread_in_every_later_view_are_no_conflict():
    truth = truth_game(11)
    session, _ = follow(truth)
    bot = GreedyBot()
    while len(truth.line) < 3:
        truth.push(bot.choose(truth))
        session.observe(table_of(truth))
    first, second = truth.line[0][1].code, truth.line[1][1].code
    coming = []
    for _ in range(8):  # the moves to come (taken back at once): the misread must not be a tile laid later
        coming.append(bot.choose(truth))
        truth.push(coming[-1])
    for _ in coming:
        truth.pop()
    laid = {first, second} | {m.tile.code for m in coming if m.tile is not None}
    joined = truth.line[0][2]  # the lead's open end: a lead read with no such number fits nothing after it
    other = next(t.code for t in Tile if t.low > 0 and t.code not in laid and joined not in (t.low, t.high))
    expected = list(session.actions())
    for i in range(8):
        play_on(truth, bot, expected)
        table = table_of(truth, misread={first: other})  # the oldest tile always read wrong...
        cards = [c for c in table.cards if c.label != second or i % 2]  # ...the next one missed half the time
        events = session.observe(ObservedTable(tuple(cards)))
        assert not [e for e in events if e.kind == "conflict"], events
    assert session.actions() == expected


def _lead_and_double(seed: int) -> str | None:
    """The double of the greedy lead's open end in this deal, when the lead is no double and the double is not
    the user's."""
    truth = truth_game(seed)
    truth.push(GreedyBot().choose(truth))
    lead, open_end = truth.line[0][1], truth.line[0][2]
    double = next(t for t in Tile if t.low == t.high == open_end)
    return None if lead.is_double or double in tiles_of(truth.hands[ME]) else double.code


def test_a_lead_misread_in_the_view_that_decided_it_is_revised_once_later_views_read_it_right(tmp_path: Path):
    seed, double = next((s, d) for s in range(11, 60) if (d := _lead_and_double(s)) is not None)
    truth = truth_game(seed)
    session, _ = follow(truth, record=tmp_path / "deal.jsonl")
    bot = GreedyBot()
    truth.push(bot.choose(truth))
    lead = truth.line[0][1].code
    session.observe(table_of(truth, misread={lead: double}))  # first seen as the double of its open end: decided
    assert session.actions() == [f"play {double} open {double[0]}"]
    expected = [str(m) for m in truth.move_stack]
    kinds = []
    for _ in range(4):
        play_on(truth, bot, expected)
        kinds += [e.kind for e in session.observe(table_of(truth))]
    assert "revised" in kinds and "conflict" not in kinds, kinds
    assert session.actions() == expected
    assert session.writer is not None and session.writer.record.current is not None
    assert session.writer.record.current.retracted  # taken back in the record, not rewritten silently
    assert "the camera reads it so" in (session.writer.record.current.actions[0].note or "")


def _with_stray(label: str, views: int, record: Path) -> tuple[LiveSession, list[str], list[list[str]]]:
    """A deal followed (and recorded) while ``label`` lies unexplained by the line (far from every tile) in each of
    ``views`` views, one move apart: the session, the moves the camera should have given, each view's events."""
    truth = truth_game(11)
    session, _ = follow(truth, record=record)
    bot = GreedyBot()
    while len(truth.line) < 3:
        truth.push(bot.choose(truth))
        session.observe(table_of(truth))
    stray = SeenCard(label, FIELD, 0.9, (900.0, 900.0), 40.0)
    expected, kinds = list(session.actions()), []
    for _ in range(views):
        play_on(truth, bot, expected)
        events = session.observe(ObservedTable((*table_of(truth).cards, stray)))
        kinds.append([e.kind for e in events])
    return session, expected, kinds


def test_a_stray_back_nothing_explains_is_left_out_once_it_has_lain_still_a_few_views(tmp_path: Path):
    session, expected, kinds = _with_stray("back", 8, tmp_path / "deal.jsonl")
    assert all("conflict" in k for k in kinds[:STRAY_VIEWS - 1]), kinds
    assert "clutter" in kinds[STRAY_VIEWS - 1] and sum("clutter" in k for k in kinds) == 1, kinds
    assert not [k for k in kinds[STRAY_VIEWS:] if "conflict" in k], kinds
    assert session.actions() == expected  # the moves made while it was in doubt were caught up
    assert session.writer is not None
    assert [text for _, text in session.writer.record.notes if "left out as clutter" in text]


def test_a_stray_face_is_never_left_out(tmp_path: Path):
    session, expected, kinds = _with_stray("6:6", 6, tmp_path / "deal.jsonl")
    assert all("conflict" in k for k in kinds) and not [k for k in kinds if "clutter" in k], kinds
    assert session.actions() == expected[:len(expected) - 6]  # nothing was committed past the first conflict


def test_a_view_that_fits_another_lead_better_does_not_overturn_the_lead_seen_alone():
    """The lead was seen alone (which end stays open still standing); the next view shows three tiles more and a
    false double, which another order of the same tiles explains in full. The lead seen alone costs that order
    ``abandon_cost``: the view is a conflict, and the lead stands."""
    live = DominoLive(DominoProfile.load("jielong"), me=ME)
    mine = ["3:4", "1:1", "1:2", "2:2", "5:5", "1:5", "2:6", "6:6"]
    live.start({"field": [], "hands": [mine, [], [], []], "hidden": [0, 8, 8, 8], "deck": live.session.match.deck}, 3)
    lead_alone = (Hypothesis(("play 4:6 open 4",), (3,)), Hypothesis(("play 4:6 open 6",), (3,)))
    line = [(code, FIELD) for code in ("3:4", "3:6", "4:4", "4:6")]
    table = ObservedTable.of([*line, *((code, hand(ME)) for code in mine if code != "3:4")])
    found = infer(live, table, InferenceConfig(), lead_alone)
    assert found.verdict == "conflict" and not found.actions
    assert found.best.actions == ("play 4:6 open 4", "play 3:4 open 3", "play 3:6 open 6")
    careless = infer(live, table, replace(InferenceConfig(), abandon_cost=0.0), lead_alone)
    assert careless.best.actions[0] != "play 4:6 open 4"  # what the abandon cost is for
    unsure = (Hypothesis(("play 4:6 open 4",), (3,)), Hypothesis(("play 4:5 open 4",), (3,)))  # which tile, unsure
    assert infer(live, table, InferenceConfig(), unsure).best.total == careless.best.total  # costs nothing more


def _counted(hidden: int) -> tuple[LiveSession, DominoRound, list]:
    """Deal 11 followed to its end, then the count seen with one turned-up tile of each of the first ``hidden``
    players unreadable (missed by the camera)."""
    truth = truth_game(11)
    session, _ = follow(truth)
    bot = GreedyBot()
    while not truth.is_over:
        truth.push(bot.choose(truth))
        session.observe(table_of(truth))
    others = [p for p in range(4) if p != ME and count_tiles(truth.down[p] + truth.hands[p])]
    cards = list(table_of(truth, shown=tuple(others)).cards)
    for p in others[:hidden]:
        cards.remove(next(c for c in cards if c.role == captures(p)))
    events = session.observe(ObservedTable(tuple(cards)))
    return session, truth, events


def test_the_last_tile_nobody_can_read_at_the_count_is_known_by_elimination():
    session, truth, _ = _counted(hidden=1)
    assert session.phase == "over"
    assert session.game.result()["net"] == list(truth.result.net)  # the unread tile counted at its pips


def test_two_players_unread_tiles_are_not_guessed_where_the_rules_cannot_tell_whose():
    session, _, _ = _counted(hidden=2)
    assert session.phase != "over"
    assert not [a for a in session.actions() if a.startswith("show")]  # 1:3 and 1:4 fit either player: none made up


def test_a_tile_seen_on_a_laid_one_is_no_move():
    """A tile is never laid on another: one read at the place of a laid tile, that tile seen there too (a quad over
    the lead and the token beside it), is a second look at the laid tile, not a play. Once it lies at the line's
    end it is the move."""
    truth = truth_game(11)
    session, _ = follow(truth)
    move, _ = _to_next_play(truth, session)
    actions = session.actions()
    cards = list(table_of(truth).cards)
    new = next(c for c in cards if c.role == FIELD and c.label == move.tile.code)
    laid = next(c for c in cards if c.role == FIELD and c.label != move.tile.code)
    cards[cards.index(new)] = replace(new, center=(laid.center[0] + 10.0, laid.center[1]))
    for _ in range(3):
        session.observe(ObservedTable(tuple(cards)))
    assert session.actions() == actions
    session.observe(table_of(truth))
    assert session.actions()[-1] == str(move)


def test_a_new_tile_at_a_settled_tile_s_place_is_that_tile_misread():
    """A settled line tile unseen, and a tile it is not read right where it was last seen: explaining the read as a
    new tile laid there (the settled one under it) costs as much as a misread would, not as little as a capture laid
    on an older one. Koi-Koi's captures, which do lie on older ones, keep the cheap cover."""
    live = DominoLive(DominoProfile.load("jielong"))
    read = SeenCard("4:4", FIELD, 0.9, (300.0, 150.0), 140.0)
    memory = {"4:6": [(302.0, 151.0)]}
    laid_on = Prediction((Expect("4:6", FIELD, fixed=True), Expect("4:4", FIELD)))  # the 4:4 taken for a new play
    reread = Prediction((Expect("4:6", FIELD, fixed=True),))  # the 4:4 read on the 4:6's place
    table = ObservedTable((read,))
    new = score_table(laid_on, table, live.visual_class, memory)
    again = score_table(reread, table, live.visual_class, memory)
    assert new.cost >= 0.8 and again.cost < 0.5 and new.cost > again.cost
    captured = Prediction((Expect("4:6", FIELD, may_hide=True), Expect("4:4", FIELD)))
    assert score_table(captured, table, live.visual_class, memory).cost < 0.2
