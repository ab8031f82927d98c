"""Kan on the table screen: one deal at a time followed from the user's seat, the match and its ledger.

Modes: ``demo`` (greedy bots in the other four seats, the engine deals), ``manual`` (the user types their ten
cards, then every action at the table as it happens: the other hands stay unknown and the engine checks what
it can) and ``camera`` (the same state, driven by ``companion.live.kan`` from observed tables). Panels show
only what the user's seat knows (``KanDeal.view``): the trick, the trump, known partners, each side's points
and tricks, the round's ledger and the match scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.cells import cell_len
from rich.text import Text

from companion.i18n import t
from companion.tables.base import MoveChoice, PanelText, TableHintSearch, TableSession
from companion.tables.kan_texts import card_text, reason_text
from engine.errors import IllegalMoveError, InvalidStateError, KibitzError
from engine.kan.actions import Action, ActionKind
from engine.kan.bots import GreedyBot
from engine.kan.cards import Card, Suit
from engine.kan.cardset import JOKER_BIT, SUIT_MASKS, CardSet, cards_of
from engine.kan.deal import KanDeal
from engine.kan.hands import HAND_SIZE, PLAYERS, Hands
from engine.kan.hints import hints, show_shortlist
from engine.kan.ledger import RoundLedger, format_points
from engine.kan.match import KanMatch
from engine.kan.profile import KanProfile
from engine.kan.table import DealResult, DealSetup, Phase, Side
from engine.kan.tricks import TRICKS, winning_index

_VERBS: Final = frozenset({"play", "kan", "give", "iku", "koi", "show", "trump", "juuroku", "gyaku-juuroku",
                           "gyaku", "pass", "stop", "continue"})
_PHASE_KEYS: Final[dict[Phase, str]] = {
    phase: f"kan_phase_{phase.name.lower()}" for phase in Phase if phase is not Phase.OVER
}


def parse_action(text: str) -> Action:
    """An action as typed: the engine's words (``play 10H``, ``kan JOKER by 3``, ``trump S``), or a card alone
    for playing it (``10H``, ``JOKER H``)."""
    words = text.strip().split()
    if words and words[0].lower() not in _VERBS:
        text = "play " + text
    return Action.parse(text)


class KanTableSession(TableSession):
    """Kan followed from seat ``you`` (0-based; player ``you + 1`` at the table)."""

    game = "kan"

    def __init__(self, profile: KanProfile | None = None, mode: str = "demo", you: int = 0, seed: int | None = None,
                 rounds: int | None = None) -> None:
        if mode not in ("demo", "manual", "camera"):
            raise InvalidStateError(f"unknown mode {mode!r}: demo, manual or camera")
        self.profile = profile or KanProfile()
        self.mode, self.you = mode, you
        self.match = KanMatch(self.profile, seed, rounds)
        self.bot = GreedyBot()
        self.state: KanDeal | None = None
        self.actors: list[int] = []  # who took each action of the deal
        self.recorded = False  # the deal on the table is in the match already (the match's last)
        if mode == "demo":
            self.start_deal(None)

    # ----------------------------------------------------------------- flow
    def start_deal(self, hands: Hands | None, setup: DealSetup | None = None) -> KanDeal:
        """The match's next deal (or, with ``setup``, a deal outside the match), from ``hands`` as the user's
        seat sees them (``None``: shuffled by the match)."""
        if setup is None:
            self.state = self.match.new_deal(hands)
        else:
            self.state = KanDeal(hands or Hands.shuffled(0), setup, self.profile)
        self.actors, self.recorded = [], False
        return self.state

    def start_from_text(self, text: str) -> None:
        cards = CardSet.parse(text)
        if len(cards) != HAND_SIZE:
            raise InvalidStateError(f"type your {HAND_SIZE} cards, not {len(cards)}")
        hands = tuple(cards if p == self.you else CardSet() for p in range(PLAYERS))
        self.start_deal(Hands(hands, tuple(0 if p == self.you else HAND_SIZE for p in range(PLAYERS))))

    def deal_prompt(self, lang: str) -> str:
        setup = self._next_setup()
        trump = setup.trump.symbol if setup.trump is not None else t("kan_chosen_later", lang)
        return t("kan_deal_prompt", lang, d=setup.number, r=self.match.round_number, trump=trump)

    def _next_setup(self) -> DealSetup:
        current = self.match.current
        if current is not None:
            return current.setup()
        number = self.match.round_number
        return DealSetup(1, self.profile.first_trump(number, self.match.rounds))

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def hand_over(self) -> bool:
        return self.state is not None and self.state.is_over

    @property
    def match_over(self) -> bool:
        return self.match.is_over

    @property
    def your_turn(self) -> bool:
        return self.state is not None and not self.state.is_over and self.state.turn == self.you

    @property
    def bot_to_move(self) -> bool:
        return self.mode == "demo" and self.state is not None and not self.state.is_over and not self.your_turn

    def _deal(self) -> KanDeal:
        if self.state is None:
            raise IllegalMoveError("no deal on the table yet: type your cards first")
        return self.state

    def play_bot(self) -> None:
        state = self._deal()
        turn = state.turn
        state.push(self.bot.choose(state))
        self.actors.append(turn)

    def apply(self, text: str, source: str = "typed") -> None:
        state = self._deal()
        action = parse_action(text)
        if self.mode == "demo" and not self.your_turn and not state.is_over:
            raise IllegalMoveError(f"it is player {state.turn + 1}'s turn: a bot plays it")
        actor = state.turn if state.turn >= 0 else action.player if action.player is not None else -1
        state.push(action)
        self.actors.append(actor)

    def undo(self) -> None:
        """Manual and camera: the last action. Demo: back to before the user's last action (bots' too)."""
        state = self._deal()
        if self.recorded or not state.move_stack:
            raise IllegalMoveError("nothing to undo in this deal")
        if self.mode == "demo":
            if self.you not in self.actors:
                raise IllegalMoveError("you have not acted in this deal yet")
            while self.actors.pop() != self.you:
                state.pop()
        else:
            self.actors.pop()
        state.pop()

    def next_hand(self) -> None:
        state = self._deal()
        if not state.is_over:
            raise IllegalMoveError("the deal is not over yet")
        if self.recorded:
            return
        self.match.record(state)
        if self.match.is_over:
            self.recorded = True
            return
        self.state = None
        if self.mode == "demo":
            self.start_deal(None)

    # ----------------------------------------------------------------- what the seat sees
    def view(self) -> KanDeal:
        return self._deal().view(self.you)

    def name(self, player: int, lang: str) -> str:
        if player < 0:
            return t("kan_someone", lang)
        return t("you", lang) if player == self.you else t("kan_player", lang, n=player + 1)

    def status(self, lang: str) -> str:
        rounds, number = self.match.rounds, self.match.round_number
        if self.state is None:
            return self.deal_prompt(lang)
        view = self.view()
        r = min(number, rounds)
        if view.is_over:
            nxt = t("kan_match_over", lang) if self.recorded or self._ends_match() else t("next_round", lang)
            return t("kan_status_over", lang, r=r, total=rounds, d=view.number, result=self._result_text(lang),
                     next=nxt)
        what = t(_PHASE_KEYS[view.phase], lang, card=card_text(view.announcing()) if view.phase is Phase.ANNOUNCE
                 else "")
        return t("kan_status", lang, r=r, total=rounds, d=view.number, trump=_trump(view, lang),
                 who=self.name(view.turn, lang), what=what)

    def _ends_match(self) -> bool:
        """Whether recording the finished deal on the table ends the match."""
        results = self._round_results()
        return self.match.round_number == self.match.rounds and bool(results) and _round_over(results,
                                                                                                self.profile)

    def _result_text(self, lang: str) -> str:
        result = self._deal().result
        assert result is not None
        side = t("kan_kankei" if result.kankei_won else "kan_mukankei", lang)
        return t("kan_won_by", lang, side=side, a=result.kankei_points, b=result.mukankei_points)

    def panels(self, lang: str) -> Sequence[PanelText]:
        return (self._table_panel(lang), self._hand_panel(lang), self._players_panel(lang))

    def side_panels(self, lang: str) -> Sequence[PanelText]:
        return (self._score_panel(lang), self._ledger_panel(lang))

    def _table_panel(self, lang: str) -> PanelText:
        if self.state is None:
            return PanelText("kan-table", t("deal_title", lang), Text(self.deal_prompt(lang), style="dim"))
        view = self.view()
        if view.phase not in (Phase.PLAY, Phase.DECIDE, Phase.OVER) and not view.tricks:
            return PanelText("kan-table", t("kan_talk", lang, d=view.number), self._talk_text(view, lang))
        body = Text()
        if view.trick or view.phase is Phase.PLAY:
            self._trick_rows(view, body, lang)
        if view.tricks:
            last = view.tricks[-1]
            cards = " ".join(card_text(c) for c in last.cards)
            body.append(t("kan_last_trick", lang, cards=cards, who=self.name(last.winner, lang), n=last.points),
                        style="dim")
        title = t("kan_table", lang, n=min(view.trick_number, TRICKS), trump=_trump(view, lang))
        return PanelText("kan-table", title, body)

    def _trick_rows(self, view: KanDeal, body: Text, lang: str) -> None:
        leader = view.lead if view.trick else view.turn
        order = [leader]
        while len(order) < PLAYERS:
            order.append(view.right[order[-1]])
        best = -1
        if view.trick and view.led is not None and view.trump is not None:
            best = winning_index(view.trick, view.led, view.trump)
        for i, p in enumerate(order):
            marker = "▶ " if p == view.turn and view.phase is Phase.PLAY else "  "
            body.append(marker + _pad(f"{self.name(p, lang)}{_side_mark(view, p)}", 14),
                        style="bold" if p == self.you else "")
            if i < len(view.trick):
                card = view.trick[i]
                body.append(f" {card_text(card):>5}", style="bold red" if card.points or card.is_joker else "bold")
                notes = [t("kan_led", lang)] if i == 0 else []
                if i == best:
                    notes.append(t("kan_winning", lang))
                if notes:
                    body.append("  ← " + ", ".join(notes), style="cyan")
            else:
                body.append("     ·", style="dim")
            body.append("\n")
        if view.led is not None:
            body.append(t("kan_suit_to_follow", lang, s=view.led.symbol) + "\n", style="italic")

    def _talk_text(self, view: KanDeal, lang: str) -> Text:
        body = Text()
        state = self._deal()
        for actor, action in zip(self.actors, state.move_stack, strict=True):
            body.append(f"{self.name(actor, lang)}: ", style="bold")
            body.append(f"{_heard(action, actor, self.you, state)}\n")
        if not state.move_stack:
            body.append(t("kan_nothing_said", lang) + "\n", style="dim")
        showing = view.talk.showing
        if showing is not None and showing.cards:
            body.append(f"{t('kan_said', lang)}: {' '.join(card_text(c) for c in showing.cards)}\n", style="cyan")
        return body

    def _hand_panel(self, lang: str) -> PanelText:
        if self.state is None:
            return PanelText("kan-hand", t("kan_hand", lang, n=0), Text())
        view = self.view()
        hand, trump = view.hands[self.you], view.trump
        body = Text()
        suits = sorted(Suit, key=lambda s: (s is not trump, -s))
        for suit in suits:
            cards = sorted(cards_of(hand & SUIT_MASKS[suit]), reverse=True)
            if not cards:
                continue
            label = f"{suit.symbol} {t('kan_trumps', lang)}" if suit is trump else suit.symbol
            body.append(f"{label:<10}", style="bold yellow" if suit is trump else "bold")
            for card in cards:
                body.append(f" {card_text(card)}", style="bold red" if card.points else "")
            body.append("\n")
        if hand & JOKER_BIT:
            body.append("JOKER", style="bold magenta")
        return PanelText("kan-hand", t("kan_hand", lang, n=view.hand_size(self.you)), body)

    def _players_panel(self, lang: str) -> PanelText:
        body = Text()
        if self.state is not None:
            view = self.view()
            tricks = [sum(1 for tr in view.tricks if tr.winner == p) for p in range(PLAYERS)]
            for p in view.order:
                side = view.side(p)
                style = "bold green" if side is Side.KANKEI else "" if side is Side.MUKANKEI else "dim"
                body.append(_pad(f"{self.name(p, lang)}{_side_mark(view, p)}", 14), style="bold" if p == self.you
                            else "")
                body.append(" " + _pad(_side_word(side, lang), 10), style=style)
                body.append(" " + t("kan_player_row", lang, cards=view.hand_size(p), tricks=tricks[p],
                                    points=view.points(p)))
                voids = [s.symbol for s in Suit if view.voids[p] >> s & 1]
                if voids:
                    body.append(" · " + t("kan_void", lang, suits="".join(voids)), style="yellow")
                body.append("\n")
            change = view.talk.seat_change
            if change is not None:
                body.append(t("kan_seat_change", lang, a=change.player + 1, b=change.past + 1), style="dim")
        return PanelText("kan-players", t("kan_players", lang), body)

    def _score_panel(self, lang: str) -> PanelText:
        body = Text()
        if self.state is not None:
            view = self.view()
            kankei = view.kankei
            if kankei is None:
                body.append(t("kan_partners_unknown", lang) + "\n", style="dim")
            else:
                partners = " & ".join(f"{self.name(p, lang)} ({card_text(c)})" for p, c in zip(
                    kankei, (Card.JOKER, _pin(view)), strict=True))
                body.append(f"{t('kan_kankei', lang)}: {partners}\n", style="bold green")
                points = view.side_points()
                assert points is not None
                side_tricks = sum(1 for tr in view.tricks if tr.winner in kankei)
                for side, pts, n in ((Side.KANKEI, points[0], side_tricks),
                                     (Side.MUKANKEI, points[1], len(view.tricks) - side_tricks)):
                    body.append(t("kan_side_points", lang, side=_side_word(side, lang), points=pts, tricks=n) + "\n")
                body.append(t("kan_need", lang, need=self.profile.win_points, left=16 - sum(points)) + "\n",
                            style="dim")
            declared = view.talk.declaration
            if declared:
                body.append(t("kan_declared", lang, what=declared.word) + "\n", style="bold magenta")
        return PanelText("kan-score", t("kan_points", lang), body)

    def _round_results(self) -> list[DealResult]:
        """The deals of the round on the table, the one just finished included."""
        current = self.match.current
        results = list(current.results) if current is not None else []
        if self.state is not None and self.state.result is not None and not self.recorded:
            results.append(self.state.result)
        return results

    def _ledger_panel(self, lang: str) -> PanelText:
        results = self._round_results()
        number = self.match.round_number
        if not results and self.match.finished:  # a new round: show the last one's ledger
            results, number = self.match.finished[-1].results, number - 1
        body = Text()
        for r in results:
            side = t("kan_kankei" if r.kankei_won else "kan_mukankei", lang)
            body.append(t("kan_deal_line", lang, d=r.number, trump=r.trump.symbol, a=r.kankei_points,
                          b=r.mukankei_points, side=side) + "\n")
        if not results:
            body.append(t("kan_no_deals", lang) + "\n", style="dim")
        scores = list(self.match.scores)
        if results and _round_over(results, self.profile):
            ledger = RoundLedger.of([r.outcome for r in results], results[0].kankei, self.profile)
            for entry in ledger.entries:
                body.append(f"  {entry}\n", style="cyan")
            if not self.recorded and self.match.current is not None:
                scores = [s + a for s, a in zip(scores, ledger.amounts, strict=True)]
            body.append(" ".join(f"{p + 1}:{format_points(a)}" for p, a in enumerate(ledger.amounts)) + "\n",
                        style="bold")
        body.append(f"{t('kan_match_scores', lang)}: ", style="bold")
        body.append(" ".join(f"{p + 1}:{format_points(s)}" for p, s in enumerate(scores)))
        return PanelText("kan-ledger", t("kan_ledger", lang, r=max(1, min(number, self.match.rounds))), body)

    # ----------------------------------------------------------------- moves and hints
    def choices(self, lang: str) -> Sequence[MoveChoice]:
        if self.state is None or self.state.is_over or (self.mode == "demo" and not self.your_turn):
            return ()
        return [MoveChoice(str(a), self.label(a, lang)) for a in self.moves()]

    def moves(self) -> list[Action]:
        """The actions to list: all legal ones, but showing and giving from a hand the seat cannot see are
        listed without cards (the user types the cards when they were shown to them), and the user's own
        showing as the shortlist the hints weigh (any other way can be typed)."""
        state = self._deal()
        if state.phase is Phase.SHOW:
            if state.hidden[state.turn]:
                return [a for a in state.generate_legal_moves() if not a.shown]
            return show_shortlist(state.hands[state.turn])
        if state.phase is Phase.GIVE and state.hidden[state.turn]:
            return [Action.give()]
        return state.generate_legal_moves()

    def label(self, action: Action, lang: str) -> str:
        kind, card = action.kind, action.card
        if kind is ActionKind.PLAY and card is not None:
            if card is Card.JOKER and action.suit is not None:
                return t("kan_lead_joker", lang, s=action.suit.symbol)
            return t("kan_play", lang, card=card_text(card))
        if kind is ActionKind.KAN and card is not None:
            return t("kan_kan_label", lang, who=self.name(action.player if action.player is not None else -1, lang),
                     card=card_text(card))
        if kind is ActionKind.GIVE:
            return t("kan_give_label", lang, card=card_text(card) if card is not None else "?")
        if kind is ActionKind.SHOW and action.way is not None:
            return t("kan_show_label", lang, way=action.way.word, cards=" ".join(card_text(c) for c in action.shown))
        if kind is ActionKind.TRUMP and action.suit is not None:
            return t("kan_trump_label", lang, s=action.suit.symbol)
        return kind.word

    def hint_search(self, lang: str, seed: int) -> TableHintSearch | None:
        if not self.your_turn:
            return None
        found = hints(self._deal(), self.you, seed)
        moves = found.search.moves
        labels = {i: (str(m), self.label(m, lang), reason_text(found.reasons[m], lang)) for i, m in enumerate(moves)}
        return TableHintSearch(found.search, labels, unit=found.unit)

    def advice(self, lang: str) -> Sequence[str]:
        if self.state is None or self.state.phase is not Phase.PLAY:
            return ()
        view = self.view()
        out = []
        if view.hands[self.you] & JOKER_BIT and len(view.tricks) >= 6:
            out.append(t("kan_advice_joker", lang))
        if view.trick and view.led is not None and view.trump is not None:
            best = winning_index(view.trick, view.led, view.trump)
            winner = view.lead
            for _ in range(best):
                winner = view.right[winner]
            if winner != self.you and view.side(winner) is view.side(self.you):
                out.append(t("kan_advice_partner", lang))
        points = view.side_points()
        mine = view.side(self.you)
        if points is not None and mine is not None:
            have = points[0] if mine is Side.KANKEI else points[1]
            target = self.profile.win_points if mine is Side.KANKEI else 17 - self.profile.win_points
            out.append(t("kan_advice_count", lang, left=16 - sum(points), need=max(0, target - have)))
        return out


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal cells (CJK letters take two)."""
    return text + " " * max(0, width - cell_len(text))


def _round_over(results: list[DealResult], profile: KanProfile) -> bool:
    last = results[-1]
    return not last.kankei_won or last.stopped or len(results) >= profile.max_deals


def _trump(view: KanDeal, lang: str) -> str:
    return view.trump.symbol if view.trump is not None else t("kan_chosen_later", lang)


def _pin(view: KanDeal) -> Card:
    return view.pin if view.setup.trump is not None else Card.JOKER


def _side_mark(view: KanDeal, player: int) -> str:
    return " ★" if view.side(player) is Side.KANKEI and view.kankei is not None else ""


def _side_word(side: Side | None, lang: str) -> str:
    if side is None:
        return t("kan_unknown_side", lang)
    return t("kan_kankei" if side is Side.KANKEI else "kan_mukankei", lang)


def _heard(action: Action, actor: int, you: int, state: KanDeal) -> Action:
    """A talk action as seat ``you`` perceived it: a card given back or cards shown to someone else unnamed."""
    if action.kind is ActionKind.GIVE and you not in (actor, state.talk.joker_partner):
        return Action.give()
    if action.kind is ActionKind.SHOW and action.way is not None and you not in (actor, state.setup.namer):
        return Action.show(action.way)
    return action


def build_screen(game: str, args: Any) -> Any:
    """``kibitz play kan`` (manual entry) and ``kibitz demo --game kan`` (greedy bots in the other seats)."""
    from companion.app.table_screen import TableScreen

    if any(getattr(args, name, None) is not None for name in ("camera", "video", "images", "stream")):
        raise KibitzError("Kan cannot follow a camera yet: there is no playing-card recogniser (issue 9 is manual "
                          "entry); play with --manual. companion/live/kan.py follows typed table observations.")
    if getattr(args, "resume", None):
        raise KibitzError("Kan games cannot be resumed from a record yet")
    rules = getattr(args, "rules", None) or getattr(args, "profile", None) or "kan"
    profile = KanProfile.load(rules)
    mode = "demo" if getattr(args, "demo", False) else "manual"
    session = KanTableSession(profile, mode, seed=getattr(args, "seed", None), rounds=getattr(args, "rounds", None))
    return TableScreen(session, lang=getattr(args, "lang", "en") or "en", hints=not getattr(args, "no_hints", False),
                       teach=getattr(args, "teach", False))
