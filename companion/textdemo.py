"""A Koi-Koi match between two bots, narrated line by line in plain text (``kibitz demo --text``)."""

from __future__ import annotations

import time
from typing import TextIO

from engine.bots import Bot
from engine.capture import Phase
from engine.koikoi.match import KoiKoiMatch
from engine.koikoi.play import play_match
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move, MoveKind


def narrate_match(match: KoiKoiMatch, bots: list[Bot], out: TextIO, delay: float = 0.0) -> KoiKoiMatch:
    """Play ``match`` with ``bots`` and write every move, yaku and score to ``out``."""
    names = [f"Player {p + 1} ({bot.name})" for p, bot in enumerate(bots)]

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()
        if delay:
            time.sleep(delay)

    def on_move(state: KoiKoiRound, move: Move, player: int) -> None:
        say("  " + describe_move(state, move, player, names))

    def on_round(m: KoiKoiMatch, state: KoiKoiRound) -> None:
        result = state.result
        assert result is not None
        if result.winner is None:
            say(f"  Round over: {result.reason}, nobody scores.")
        else:
            yaku = ", ".join(f"{y.name} {y.points}" for y in result.yaku) or "dealer's privilege"
            scored = result.points[result.winner]
            say(f"  Round over ({result.reason}): {names[result.winner]} scores {scored} ({yaku}).")
        say(f"  Score after round {len(m.results)}: {m.scores[0]} - {m.scores[1]}")

    say(f"Koi-Koi, profile {match.profile.name}, {match.rounds} rounds: {names[0]} against {names[1]}")

    def on_deal(m: KoiKoiMatch, state: KoiKoiRound) -> None:
        say("")
        say(f"Round {m.round_number}: {names[state.dealer]} deals and leads.")
        say(f"  Field: {state.field_cards()}")
        for p in (0, 1):
            say(f"  {names[p]} holds: {state.hand(p)}")

    play_match(match, bots, on_move, on_round, on_deal)
    winner = match.leader
    say("")
    verdict = "a draw." if winner is None else f"{names[winner]} wins."
    say(f"Final score {match.scores[0]} - {match.scores[1]}: {verdict}")
    return match


def describe_move(state: KoiKoiRound, move: Move, player: int, names: list[str]) -> str:
    """One line for ``move``, just pushed onto ``state`` by ``player``."""
    who = names[player]
    if move.kind == MoveKind.KOIKOI:
        return f"{who} calls koi-koi!"
    if move.kind == MoveKind.STOP:
        return f"{who} stops."
    verb = "plays" if move.kind == MoveKind.PLAY else "flips"
    assert move.card is not None
    if not state.captured[player] >> move.card & 1:
        line = f"{who} {verb} {move.card.code}; it stays on the field."
    elif move.take is None:
        line = f"{who} {verb} {move.card.code} and takes all three of its month."
    else:
        line = f"{who} {verb} {move.card.code} and takes {move.take.code}."
    if state.phase is Phase.DECIDE:
        yaku = ", ".join(f"{y.name} {y.points}" for y in state.yaku(player))
        line += f" Yaku: {yaku}."
    return line
