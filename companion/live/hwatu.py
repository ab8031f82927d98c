"""Hato, Min-hwatu, Go-Stop and Matgo followed live: the Koi-Koi adapter's inference on the hwatu engines.

The capture mechanic is the one Koi-Koi shares with them, so the candidate search, the predicted table and
the visual classes are Koi-Koi's (``companion.live.koikoi``); this adapter supplies the hwatu round (kept in
a ``HwatuSession`` in "camera" mode, for the table screen), its deal sizes for 2 to 5 players, its state
key (go calls, shakes, bombs) and its announcements. A go or stop is typed, as koi-koi is; so is a shake,
which the camera cannot tell from a plain play (the three shown cards go back into the hand). Bombs, pi
stolen from other piles, ppeok stacks and blank turns are seen on the table.
"""

from __future__ import annotations

from typing import Any

from companion.live.koikoi import KoiKoiLive, _canonical, deal_from_json, deal_to_json
from companion.tables.hwatu import AnyRound, HwatuSession
from engine.capture import CaptureRound, Phase
from engine.errors import InvalidStateError
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.report import load_profile, players_for
from engine.moves import Move, MoveKind


class HwatuLive(KoiKoiLive):
    """A hwatu game at the live table (see ``companion.live.game.LiveGame``)."""

    def __init__(self, game: str = "gostop", players: int | None = None, me: int | None = 0,
                 session: HwatuSession | None = None, recent: int = 4, rules: str | None = None,
                 max_wild: int = 1) -> None:
        profile = load_profile(game, rules)
        self.name = game
        self.players = players_for(profile, players)
        self.me = me
        self.hwatu = session or HwatuSession(game, profile, self.players, "camera", you=me or 0)
        self.recent = recent
        self.max_wild = max_wild
        self._gathered: list[tuple[int, int]] = []

    # ----------------------------------------------------------------- state
    @property
    def profile_name(self) -> str:
        return self.hwatu.profile.name

    @property
    def round(self) -> AnyRound:  # type: ignore[override]
        return self.hwatu._playing()

    @property
    def history(self) -> list[str]:
        return [str(m) for m in self.hwatu.state.move_stack] if self.hwatu.state is not None else []

    def to_move(self) -> int | None:
        r = self.hwatu.state
        return None if r is None or r.is_over else r.turn

    def awaiting(self) -> str | None:
        r = self.hwatu.state
        if r is None or r.phase is not Phase.DECIDE or not isinstance(r, GoStopRound):
            return None
        options = " or ".join("go" if m.kind is MoveKind.KOIKOI else str(m) for m in r.generate_legal_moves())
        return f"player {r.turn + 1} has {r.score(r.turn)} points: {options}?"

    def is_over(self) -> bool:
        return self.hwatu.state is not None and self.hwatu.state.is_over

    def result(self) -> dict[str, Any] | None:
        r = self.hwatu.state
        if r is None or r.result is None:
            return None
        return {"reason": r.result.reason, "winner": r.result.winner, "net": list(r.result.net)}

    def dealer(self) -> int:
        return self.hwatu.state.dealer if self.hwatu.state is not None else self.hwatu.match.dealer

    # ----------------------------------------------------------------- the deal
    def deal_sizes(self) -> tuple[int, int]:
        want_hand, want_field = self.hwatu._sizes()
        return want_field, want_hand

    def start(self, deal: dict[str, Any], dealer: int | None = None) -> None:
        if dealer is not None:
            self.hwatu.match.dealer = dealer
        self.hwatu.start_deal(deal_from_json(deal))
        self._gathered = []

    def deal(self) -> dict[str, Any]:
        return deal_to_json(self.round.deal)

    # ----------------------------------------------------------------- actions
    def push(self, action: str, source: str) -> int:
        r = self.round
        move = self.hwatu.resolve(action)
        player = r.turn
        before = r.captured[player]
        r.push(move)
        self._gathered.append((player, r.captured[player] & ~before))
        return player

    def pop(self) -> str:
        r = self.round
        if not r.move_stack:
            raise InvalidStateError("nothing to take back")
        self._gathered.pop()
        return str(r.pop())

    def fork(self, actions: tuple[str, ...], deal: dict[str, Any] | None = None,
             dealer: int | None = None) -> HwatuLive:
        copy = HwatuLive.__new__(HwatuLive)
        copy.name, copy.players, copy.me, copy.recent = self.name, self.players, self.me, self.recent
        copy.max_wild = self.max_wild
        profile = self.hwatu.profile
        copy.hwatu = HwatuSession(self.name, profile, self.players, "camera", you=self.me or 0)
        copy._gathered = []
        copy.start(self.deal() if deal is None else deal, self.dealer() if dealer is None else dealer)
        for action in actions:
            copy.push(action, "camera")
        return copy

    def normalise(self, text: str) -> str:
        return str(self.hwatu.resolve(text))

    # ----------------------------------------------------------------- the candidate search
    def _next_steps(self, r: CaptureRound, novel: frozenset[str], labels: set[str], wild: int = 0
                    ) -> list[tuple[tuple[Move, ...], int]]:
        """Koi-Koi's visible moves, less shakes: a shake looks like a play on the table, so it is typed."""
        steps = super()._next_steps(r, novel, labels, wild)  # type: ignore[arg-type]
        return [(step, guessed) for step, guessed in steps if step[-1].kind is not MoveKind.SHAKE]

    def _key(self, r: CaptureRound) -> tuple[Any, ...]:  # type: ignore[override]
        return _state_key(r)


def _state_key(r: CaptureRound) -> tuple[Any, ...]:
    """The state up to interchangeable plains, with what Go-Stop adds (go calls, shakes, bombs, blank turns)."""
    extra: tuple[Any, ...] = ()
    if isinstance(r, GoStopRound):
        extra = (r.go_order, r.shakes, r.bombs, r.dummies, r.pending is not None)
    return (tuple(map(_canonical, r.hands)), r.hidden, _canonical(r.field), tuple(map(_canonical, r.captured)),
            r.stock_left, r.turn, r.phase, *extra)

