"""Behaviour tests of the Textual app through real pilots: demo, manual entry, camera messages."""


from textual.widgets import Input, OptionList, Static

from companion.app.dialogs import CorrectionDialog, DealDialog, ReferenceScreen
from companion.app.messages import CameraConflict, CameraMove, CameraStatus
from engine.bots import RandomBot
from engine.koikoi.bots import GreedyBot
from engine.koikoi.play import play_round
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move
from tests.companion.app_helpers import SIZE, demo_app, manual_app


async def wait_until(pilot, condition, tries: int = 200) -> None:
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("the app never reached the expected state")


async def test_demo_plays_full_rounds_by_clicking_the_first_legal_move():
    app, screen, session = demo_app(seed=5, rounds=2)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2):
            for _step in range(100):
                if session.state.is_over:
                    break
                await wait_until(pilot, lambda: session.state.is_over or (
                    session.state.turn == session.you and not session.bot_to_move and screen.query_one("#moves", OptionList).option_count))
                if session.state.is_over:
                    break
                moves = screen.query_one("#moves", OptionList)
                moves.focus()
                moves.highlighted = 0
                before = len(session.history)
                await pilot.press("enter")
                await wait_until(pilot, lambda before=before: len(session.history) > before)
            assert "wins the round" in str(screen.query_one("#status", Static).render()) or \
                "nobody scores" in str(screen.query_one("#status", Static).render())
            await pilot.press("n")
            await pilot.pause(0.05)
        assert session.match.is_over and len(session.match.results) == 2


async def test_hints_arrive_as_messages_and_rank_legal_moves():
    app, screen, session = demo_app(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "samples" in str(screen.query_one("#hints", Static).render()))
        text = str(screen.query_one("#hints", Static).render())
        assert text.startswith("1. play ")
        legal = [str(m) for m in session.legal_moves()]
        first = text.splitlines()[0][3:].split("   ")[0].replace(" → ", " take ")
        assert first in legal
        await pilot.press("h")
        assert "Hints are off" in str(screen.query_one("#hints", Static).render())


async def test_typed_moves_errors_undo_and_language_switch():
    app, screen, session = demo_app(seed=11, hints=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: session.state.turn == session.you)
        await pilot.press("slash")
        command = screen.query_one("#command", Input)
        assert command.has_focus
        command.value = "pine-crame"
        await pilot.press("enter")
        assert "pine-crane" in str(screen.query_one("#status", Static).render())  # the error suggests it
        move = session.legal_moves()[0]
        command.value = str(move)
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert session.history and session.history[0][1] == move
        await pilot.press("escape")
        await pilot.press("u")
        assert not session.history
        await pilot.press("l")
        assert screen.lang == "ru"
        assert "Поле" in str(screen.query_one("#field").border_title)


async def test_manual_table_round_typed_from_the_deal_to_the_end():
    """Both players' moves are typed as they happen; the opponent's hand and the stock stay unknown."""
    true_round = KoiKoiRound.shuffled(17)
    bots = [GreedyBot(), RandomBot(17)]
    moves: list[Move] = []
    play_round(true_round, bots, on_move=lambda s, m, p: moves.append(m))
    app, screen, session = manual_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, DealDialog))
        dialog = app.screen
        dialog.query_one("#deal-hand", Input).value = str(true_round.deal.hands[0])
        dialog.query_one("#deal-field", Input).value = str(true_round.deal.field)
        dialog.query_one("#deal-leader", Input).focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: session.view is not None)
        command = screen.query_one("#command", Input)
        for move in moves:
            command.focus()
            command.value = str(move)
            await pilot.press("enter")
            await pilot.pause(0.01)
        assert session.state.is_over
        assert session.state.result == true_round.result
        assert session.match.scores == list(true_round.result.points)


async def test_camera_moves_status_conflicts_and_the_correction_dialog():
    true_round = KoiKoiRound.shuffled(23)
    moves: list[Move] = []
    play_round(true_round, [GreedyBot(), GreedyBot()], on_move=lambda s, m, p: moves.append(m))
    app, screen, session = manual_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, DealDialog))
        app.screen.dismiss(None)  # no typed deal: start from what the camera would report
        session.start_round(session.table_deal(str(true_round.deal.hands[0]), str(true_round.deal.field), 0))
        screen.state_changed()
        screen.post_message(CameraStatus(True, fps=29.5, cards_seen=16, low_confidence=["maple-deer"]))
        for move in moves[:6]:
            screen.post_message(CameraMove(str(move)))
        await pilot.pause(0.2)
        assert [m for _, m, _ in session.history] == moves[:6]
        assert {s for _, _, s in session.history} == {"camera"}
        side = str(screen.query_one("#side", Static).render())
        assert "30 fps, 16 cards" in side and "maple-deer" in side
        screen.post_message(CameraConflict("a card vanished from the field", "pine-crane"))
        await pilot.pause(0.05)
        assert "camera conflict" in str(screen.query_one("#status", Static).render())
        screen.post_message(CameraStatus(False, note="camera lost, retrying"))
        await pilot.pause(0.05)
        assert "camera lost" in str(screen.query_one("#side", Static).render())
        assert len(session.history) == 6  # losing the camera loses nothing
        # Correct the last flip through the dialog.
        flips = [i for i, (_, m, _) in enumerate(session.history) if m.kind == 1]
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, CorrectionDialog))
        dialog = app.screen
        options = dialog.query_one(OptionList)
        options.highlighted = next(i for i in range(options.option_count) if options.get_option_at_index(i).id == str(flips[-1]))
        wrong = session.history[flips[-1]][1]
        dialog.query_one(Input).value = wrong.card.code  # the same card: a no-op correction
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert [m for _, m, _ in session.history] == moves[:6]
        assert session.history[flips[-1]][2] == "corrected"


async def test_reference_screen_lists_the_profiles_yaku():
    app, screen, _ = demo_app(seed=2, hints=False, lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        await pilot.press("r")
        assert isinstance(app.screen, ReferenceScreen)
        entries = [str(s.render()) for s in app.screen.query(".reference-entry")]
        assert len(entries) >= 12 and any("五光" in e for e in entries)
        await pilot.press("escape")
        assert app.screen is screen


async def test_autoplay_lets_the_hints_finish_a_round():
    app, screen, session = demo_app(seed=31, autoplay=True)
    screen.hint_samples = 8
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: session.state.is_over, tries=1500)
        assert session.match.results


