"""Hato, Min-hwatu, Go-Stop and Matgo at the table screen: one ``TableSession`` for the four hwatu games.

``demo``: the user at seat 0 (with hints), the greedy bot in the other seats, the stock flipped for the
user when the flip leaves no choice. ``manual``: the user types their own hand and the field, then every
play, flip and call of every player as it happens; the other hands and the stock stay unknown (the engine
plays partly hidden deals). ``camera``: the same state, driven by ``companion.live.hwatu``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from companion.i18n import t
from companion.tables.base import HintLine, MoveChoice, PanelText, TableHintSearch, TableSession
from companion.tables.hwatu_advice import advice
from companion.tables.hwatu_render import (
    by_month,
    captures_line,
    element_name,
    go_template,
    move_label,
    reason_text,
    score_line,
    short,
    who,
)
from engine.capture import Phase
from engine.cards import Card
from engine.cardset import CardSet
from engine.deal import Deal
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidStateError
from engine.hwatu.bots import GreedyBot
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.hints import HwatuHints, Playout
from engine.hwatu.match import GoStopMatch, HatoMatch
from engine.hwatu.report import load_profile, players_for
from engine.moves import Move, MoveKind

AnyRound = HatoRound | GoStopRound
HISTORY_LINES = 8
_VERBS = frozenset({"play", "flip", "shake", "bomb", "go", "stop", "koikoi", "koi-koi"})


@dataclass
class HwatuHintSearch(TableHintSearch):
    """A table hint search whose go line quotes the live numbers: the go template is filled in the hint
    process from the play-outs (stop now, go's expected settlement, how often another player wins first)."""

    playout: Playout | None = None
    go_template: str = ""
    stop_net: float = 0.0

    def lines(self) -> list[HintLine]:
        out = super().lines()
        if self.playout is None:
            return out
        filled = []
        for line in out:
            if line.token == "koikoi" and self.go_template:
                p = self.playout.others_first(Move.go())
                reason = self.go_template.format(go=line.value, stop=self.stop_net, p=p)
                line = HintLine(line.token, line.label, line.value, line.stderr, reason)
            filled.append(line)
        return filled


class HwatuSession(TableSession):
    """One hwatu match followed from seat ``you`` (see the module doc for the modes)."""

    def __init__(
        self, game: str, profile: HatoProfile | GoStopProfile, players: int, mode: str = "demo", you: int = 0,
        seed: int | None = None,
    ) -> None:
        self.game, self.mode, self.you, self.profile = game, mode, you, profile
        self.players, self.seed = players, seed
        self.match = self._new_match()
        self.bot = GreedyBot()
        self.state: AnyRound | None = self.match.new_round() if mode == "demo" else None
        self.recorded = False

    def _new_match(self) -> HatoMatch | GoStopMatch:
        dealer = -1 if self.mode == "demo" else self.you  # demo: drawn by lot
        if isinstance(self.profile, HatoProfile):
            return HatoMatch(self.profile, self.players, self.seed, dealer=dealer)
        return GoStopMatch(self.profile, self.seed, dealer=dealer)

    def reset_match(self) -> None:
        """Back to before the first hand: the camera's mirror replays the worker's match from here."""
        self.match = self._new_match()
        self.state = None
        self.recorded = False

    # ----------------------------------------------------------------- flow
    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def hand_over(self) -> bool:
        return self.state is not None and self.state.is_over

    @property
    def match_over(self) -> bool:
        state = self.state
        pending = state is not None and state.is_over and not self.recorded and not self._void(state)
        return len(self.match.results) + pending >= self.match.rounds

    @staticmethod
    def _void(state: AnyRound) -> bool:
        return state.result is not None and state.result.reason == "patu"

    def _forced_flip(self) -> bool:
        """Demo: the user's flip leaves no choice, so it is made for them."""
        state = self.state
        return (
            self.mode == "demo" and state is not None and state.phase is Phase.FLIP
            and len(state.generate_legal_moves()) == 1
        )

    @property
    def your_turn(self) -> bool:
        state = self.state
        return state is not None and not state.is_over and state.turn == self.you and not self._forced_flip()

    @property
    def bot_to_move(self) -> bool:
        state = self.state
        if self.mode != "demo" or state is None or state.is_over:
            return False
        return state.turn != self.you or self._forced_flip()

    def play_bot(self) -> None:
        assert self.state is not None
        self.state.push(self.bot.choose(self.state))

    def apply(self, text: str, source: str = "typed") -> None:
        state = self._playing()
        if self.mode == "demo" and state.turn != self.you:
            raise IllegalMoveError(t("hwatu_bot_turn", "en", who=f"player {state.turn + 1}"))
        state.push(self.resolve(text))

    def resolve(self, text: str) -> Move:
        """The legal move ``text`` names: a full move, or without its verb (``pine-crane [take ...]``), the
        take added where only one is possible; two possible takes are an ``AmbiguousMoveError`` naming them."""
        state = self._playing()
        words = text.strip().lower().split()
        if words and words[0] not in _VERBS:  # a card first: the verb of the phase
            words.insert(0, "play" if state.phase is Phase.PLAY else "flip")
        return self._complete(Move.parse(" ".join(words)))

    def _complete(self, move: Move) -> Move:
        state = self._playing()
        if state.illegal_reason(move) is None:
            return move
        if move.take is None and move.kind in (MoveKind.PLAY, MoveKind.FLIP):
            options = [m for m in state.generate_legal_moves() if m.kind is move.kind and m.card == move.card]
            if len(options) == 1:
                return options[0]
            if len(options) > 1:
                takes = " or ".join(sorted(m.take.code for m in options if m.take is not None))
                code = move.card.code if move.card is not None else ""
                raise AmbiguousMoveError(f"{code} matches two field cards: say take {takes}")
        reason = state.illegal_reason(move)
        assert reason is not None
        raise reason

    def undo(self) -> None:
        state = self._playing()
        if not state.move_stack:
            raise IllegalMoveError("nothing to undo in this hand")
        state.pop()
        if self.mode == "demo":  # back to the user's last choice
            while state.move_stack and not self.your_turn:
                state.pop()

    def next_hand(self) -> None:
        state = self.state
        if state is not None and state.is_over and not self.recorded:
            self.match.record(state)  # type: ignore[arg-type]
        self.recorded = False
        if self.match.is_over:
            return
        self.state = self.match.new_round() if self.mode == "demo" else None

    def _playing(self) -> AnyRound:
        if self.state is None:
            raise InvalidStateError("no hand dealt yet")
        return self.state

    # ----------------------------------------------------------------- manual deal
    def deal_prompt(self, lang: str) -> str:
        hand, field = self._sizes()
        return t("hwatu_deal_prompt", lang, hand=hand, field=field)

    def _sizes(self) -> tuple[int, int]:
        if isinstance(self.profile, HatoProfile):
            return self.profile.deal_sizes(self.players)
        return self.profile.hand_size, self.profile.field_size

    def start_from_text(self, text: str) -> None:
        """``HAND / FIELD [/ dealer N]``: card codes; the other hands and the stock stay unknown."""
        parts = [p.strip() for p in text.split("/")]
        if len(parts) not in (2, 3):
            raise InvalidMoveError("write your hand, a slash, the field cards (and optionally / dealer N)")
        hand, field = CardSet.parse(parts[0]), CardSet.parse(parts[1])
        want_hand, want_field = self._sizes()
        if len(hand) != want_hand or len(field) != want_field:
            raise InvalidStateError(
                f"{self.game} deals {want_hand} cards to each hand and {want_field} to the field; "
                f"you typed {len(hand)} and {len(field)}"
            )
        if len(parts) == 3:
            self.match.dealer = _dealer(parts[2], self.players)
        hands = tuple(hand if p == self.you else CardSet() for p in range(self.players))
        hidden = tuple(0 if p == self.you else want_hand for p in range(self.players))
        stock = 48 - want_field - want_hand * self.players
        self.start_deal(Deal(hands, field, None, hidden, stock))

    def start_deal(self, deal: Deal) -> None:
        self.state = self.match.new_round(deal)
        self.recorded = False

    # ----------------------------------------------------------------- what the screen shows
    def status(self, lang: str) -> str:
        head = f"{t(f'hwatu_game_{self.game}', lang)} · {self._hand_no(lang)}"
        state = self.state
        if state is None:
            return head
        head += f" · {t('dealer', lang)}: {who(state.dealer, self.you, lang)}"
        if state.is_over:
            return f"{head} · {self._outcome(state, lang)}"
        what = {Phase.PLAY: "phase_play", Phase.FLIP: "phase_flip", Phase.DECIDE: "hwatu_phase_decide"}[state.phase]
        return f"{head} · {t('hwatu_to_act', lang, who=who(state.turn, self.you, lang), what=t(what, lang))}"

    def _hand_no(self, lang: str) -> str:
        n = min(self.match.round_number, self.match.rounds)
        return t("hwatu_hand_no", lang, n=n, total=self.match.rounds)

    def _outcome(self, state: AnyRound, lang: str) -> str:
        result = state.result
        assert result is not None
        if result.reason == "patu":
            return t("hwatu_void", lang)
        how = element_name(result.reason, lang)
        if result.winner is None:
            text = t("hwatu_no_winner", lang, how=how)
        else:
            gain = f"{how}, {result.net[result.winner]:+d}"
            text = t("hwatu_wins", lang, who=who(result.winner, self.you, lang), how=gain)
        if self.match_over:
            scores = [s + (0 if self.recorded else result.net[p]) for p, s in enumerate(self.match.scores)]
            return f"{text} · " + t("hwatu_match_over", lang, scores=" / ".join(f"{s:+d}" for s in scores))
        return f"{text} · {t('next_round', lang)}"

    def panels(self, lang: str) -> Sequence[PanelText]:
        state = self.state
        field_title = t("field", lang)
        if state is None:
            empty = Text("—", style="dim")
            return [PanelText("hwatu-field", field_title, empty), PanelText("hwatu-hand", t("your_hand", lang), empty),
                    PanelText("hwatu-captures", t("hwatu_captures", lang), empty)]
        pending = 1 << state.pending[0] if isinstance(state, GoStopRound) and state.pending else 0
        field = by_month(state.field, lang, pending)
        if pending:
            field.append(f"  {t('hwatu_pending', lang)}: {short(Card(pending.bit_length() - 1), lang)}", style="dim")
        hand = by_month(state.hands[self.you], lang)
        others = [t("hwatu_holds", lang, who=who(p, self.you, lang), n=state.hand_size(p))
                  for p in range(state.players) if p != self.you]
        hand.append("\n" + " · ".join(others), style="dim")
        captures = Text()
        for p in range(state.players):
            if p:
                captures.append("\n")
            captures.append(f"{who(p, self.you, lang)}: ", style="bold" if p == self.you else "")
            captures.append_text(captures_line(state, p, lang))
        return [
            PanelText("hwatu-field", f"{field_title} · {t('hwatu_stock', lang, n=state.stock_left)}", field),
            PanelText("hwatu-hand", f"{t('your_hand', lang)} ({state.hand_size(self.you)})", hand),
            PanelText("hwatu-captures", t("hwatu_captures", lang), captures),
        ]

    def side_panels(self, lang: str) -> Sequence[PanelText]:
        return [PanelText("hwatu-score", t("hwatu_score", lang), self._score(lang)),
                PanelText("hwatu-history", t("hwatu_history", lang), self._history(lang))]

    def _score(self, lang: str) -> Text:
        out = Text()
        state = self.state
        if state is not None:
            for p in range(state.players):
                out.append_text(score_line(state, p, self.you, lang))
                out.append("\n")
            if isinstance(state, GoStopRound):
                out.append(t("hwatu_threshold", lang, n=state.profile.threshold) + "\n", style="dim")
        scores = " · ".join(f"{who(p, self.you, lang)} {s:+d}" for p, s in enumerate(self.match.scores))
        out.append(f"{t('hwatu_match_line', lang, hand=self._hand_no(lang))}: {scores}", style="dim")
        return out

    def _history(self, lang: str) -> Text:
        state = self.state
        if state is None or not state.move_stack:
            return Text(t("hwatu_nothing_yet", lang), style="dim")
        lines = _replay_labels(state, lang, self.you)
        out = Text("\n".join(lines[-HISTORY_LINES:]))
        if isinstance(state, GoStopRound) and state.events:
            events = ", ".join(f"{element_name(e.name, lang)} ({who(e.player, self.you, lang)})"
                               for e in state.events[-3:])
            out.append(f"\n{events}", style="magenta")
        return out

    def choices(self, lang: str) -> Sequence[MoveChoice]:
        state = self.state
        if state is None or state.is_over or (self.mode == "demo" and not self.your_turn):
            return []
        labels: dict[str, str] = {}  # one choice per label: two plains of a month play alike
        for move in state.generate_legal_moves():
            labels.setdefault(move_label(state, move, lang), str(move))
        return [MoveChoice(token, label) for label, token in labels.items()]

    def advice(self, lang: str) -> Sequence[str]:
        """Teaching mode: the teacher's notes that apply to your position (``hwatu_advice``)."""
        if self.state is None or not self.your_turn:
            return ()
        return advice(self.state, self.you, lang)

    # ----------------------------------------------------------------- hints
    def hint_search(self, lang: str, seed: int) -> TableHintSearch | None:
        state = self.state
        if state is None or not self.your_turn:
            return None
        hints = HwatuHints(state, self.you, seed=seed)
        if hints.search is None:
            return None
        labels = {i: (str(m), move_label(state, m, lang), reason_text(hints.reasons[m], lang, self.you))
                  for i, m in enumerate(hints.moves)}
        return HwatuHintSearch(hints.search, labels, "pts", hints.playout, go_template(lang), hints.stop_net())


def _replay_labels(state: AnyRound, lang: str, you: int) -> list[str]:
    """The hand's moves in words, each as the position before it saw it (replayed on a copy's stack)."""
    moves = list(state.move_stack)
    for _ in moves:
        state.pop()
    lines = []
    try:
        for move in moves:
            lines.append(f"{who(state.turn, you, lang)}: {move_label(state, move, lang)}")
            state.push(move, check=False)
    finally:
        while len(state.move_stack) < len(moves):
            state.push(moves[len(state.move_stack)], check=False)
    return lines


def _dealer(text: str, players: int) -> int:
    words = text.lower().split()
    if len(words) != 2 or words[0] != "dealer" or not words[1].isdigit() or not 1 <= int(words[1]) <= players:
        raise InvalidMoveError(f"write 'dealer N' with N from 1 to {players}, not {text!r}")
    return int(words[1]) - 1


def build_screen(game: str, args: Any, **camera: Any) -> Any:
    """The table screen for ``kibitz play|demo hato|minhwatu|gostop|matgo``; with ``--camera/--video/--images``
    the camera follows the match (``companion.live.hwatu_camera``; ``camera`` are the worker's options:
    recogniser, stability, realtime)."""
    from companion.app.table_screen import TableScreen
    from companion.live.app_bridge import follows_camera

    options = vars(args) if not isinstance(args, dict) else args
    profile = load_profile(game, options.get("rules") or options.get("profile"))
    players = players_for(profile, options.get("players"))
    screen_options = {"lang": options.get("lang") or "en", "hints": not options.get("no_hints"),
                      "teach": bool(options.get("teach"))}
    if follows_camera(options):
        from companion.live.camera_screen import CameraTableScreen
        from companion.live.hwatu_camera import open_hwatu_camera

        if options.get("video"):
            camera.setdefault("realtime", True)  # a recording plays at its own pace, as the camera saw it
        bridge = open_hwatu_camera(options, game, players, **camera)
        assert bridge is not None  # a source was given, or --resume without one was refused
        return CameraTableScreen(bridge, **screen_options)
    mode = "demo" if options.get("demo") else "manual"
    session = HwatuSession(game, profile, players, mode, seed=options.get("seed"))
    return TableScreen(session, **screen_options)
