"""Why a hwatu move is worth considering, in one line: what it takes, what that builds or denies, what a
laid card risks. The reason is data (a key, the cards, an element, numbers); the app words it.

Go-Stop reasons count toward the scoring elements (three brights, godori, the three dan, five animals or
ribbons, ten pi); Hato reasons toward card points and the profile's bonus sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from engine.capture import CaptureRound, Phase
from engine.cards import Card
from engine.cardset import MONTH_MASK_BY_CARD, MONTH_MASKS, cards_of
from engine.hwatu.bots import play_gain
from engine.hwatu.cards import CHEONGDAN, CHODAN, GODORI, GWANG, HONGDAN, PI, TTI, YEOL
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.gostop_scoring import best_total, elements
from engine.hwatu.hato import card_points
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.names import yak_name
from engine.moves import Move, MoveKind


@dataclass(frozen=True)
class HintReason:
    """``key`` names the sentence (see the app's hwatu texts); ``element`` a hwatu term (``hongdan``,
    ``gwang``, ``pi``, ``maejo-yak``...) or ''; ``numbers`` fill it in (counts, points, chances)."""

    key: str
    cards: tuple[Card, ...] = ()
    element: str = ""
    numbers: tuple[float, ...] = ()


class Goal(NamedTuple):
    """A set of cards worth collecting: ``need`` of ``cards`` (or of the pi count, for ``pi``) score."""

    name: str
    cards: int
    need: int


def gostop_goals(state: GoStopRound) -> tuple[Goal, ...]:
    """The Go-Stop elements, the rarest first (ties in a reason go to the earlier one)."""
    score = state.profile.score
    return (
        Goal("gwang", GWANG, 3), Goal("godori", GODORI, 3), Goal("hongdan", HONGDAN, 3),
        Goal("cheongdan", CHEONGDAN, 3), Goal("chodan", CHODAN, 3), Goal("yeol", YEOL, score["yeol-cards"]),
        Goal("tti", TTI, score["tti-cards"]), Goal("pi", PI, score["pi-cards"]),
    )


def hato_goals(state: HatoRound) -> tuple[Goal, ...]:
    """The Hato bonus sets of the profile, then the months whose four cards score."""
    profile = state.profile
    sets = [Goal(b.name, b.cards, b.cards.bit_count()) for b in profile.bonus_sets if b.points]
    if profile.four_of_a_month:
        sets += [Goal(yak_name(m), MONTH_MASKS[m], 4) for m in profile.four_months]
    return tuple(sets)


def goals(state: CaptureRound) -> tuple[Goal, ...]:
    if isinstance(state, GoStopRound):
        return gostop_goals(state)
    assert isinstance(state, HatoRound)
    return hato_goals(state)


def have(state: CaptureRound, goal: Goal, pile: int) -> int:
    """How far ``pile`` is toward ``goal`` (the pi count for Go-Stop's pi)."""
    if goal.name == "pi" and isinstance(state, GoStopRound):
        return state.profile.pi_value(pile, state.profile.sake_cup == "pi")
    return (pile & goal.cards).bit_count()


def gained(state: CaptureRound, move: Move) -> int:
    """The cards ``move`` adds to the mover's pile (a Go-Stop hand card as if the flip leaves it alone)."""
    if isinstance(state, GoStopRound) and state.phase is Phase.PLAY:
        return play_gain(state, move)
    p = state.turn
    before = state.captured[p]
    state.push(move, check=False)
    after = state.captured[p]
    state.pop()
    return after & ~before


_DENY_GOALS: Final = ("gwang", "godori", "hongdan", "cheongdan", "chodan", "ogwang")


def move_reason(view: CaptureRound, player: int, move: Move) -> HintReason:
    """The one-line reason for ``move`` by ``player`` in ``view`` (its turn, PLAY or FLIP phase)."""
    if move.kind is MoveKind.BOMB and isinstance(view, GoStopRound) and move.card is not None:
        month = cards_of(MONTH_MASK_BY_CARD[move.card])
        return HintReason("bomb", tuple(month), numbers=(float(view.profile.steal["bomb"]),))
    if move.kind is MoveKind.FLIP and view.phase is Phase.PLAY:
        return HintReason("blank")
    if move.card is None:
        return HintReason("")
    got = gained(view, move)
    if move.kind is MoveKind.SHAKE and isinstance(view, GoStopRound):
        shown = view.hand(player).mask & MONTH_MASK_BY_CARD[move.card]
        return HintReason("shake", tuple(cards_of(shown)), numbers=(float(view.profile.factors["shake"]),))
    if not got:
        return _lay_reason(view, player, move.card)
    return _capture_reason(view, player, move, got)


def _capture_reason(view: CaptureRound, player: int, move: Move, got: int) -> HintReason:
    pile = view.captured[player]
    taken = tuple(cards_of(got))
    if isinstance(view, GoStopRound):
        before, after = best_total(pile, view.profile), best_total(pile | got, view.profile)
        if after > before:
            if before < view.profile.threshold <= after:
                return HintReason("threshold", taken, numbers=(float(after),))
            risen = _risen_element(view, pile, pile | got)
            return HintReason("scores", taken, risen, (float(after - before), float(after)))
    else:
        bonus = _completed(view, pile, pile | got)
        if bonus:
            return HintReason("completes", taken, bonus.name, (float(_bonus_points(view, bonus.name)),))
    toward = _best_progress(view, pile, got, rare_only=True)
    if toward is not None:
        return toward
    denied = _denial(view, player, got)
    if denied is not None:
        return denied
    assert move.card is not None
    month = MONTH_MASK_BY_CARD[move.card]
    if (got & month).bit_count() == 4:
        others_could = bool(view.unknown().mask & month) or view.phase is Phase.FLIP
        return HintReason("takes-all", taken, numbers=(0.0 if others_could else 1.0,))
    if isinstance(view, HatoRound) and card_points(got, view.profile):
        return HintReason("takes", taken, numbers=(float(card_points(got, view.profile)),))
    return _best_progress(view, pile, got, rare_only=False) or HintReason("takes", taken)


def _risen_element(view: GoStopRound, before: int, after: int) -> str:
    old = {y.name: y.points for y in elements(before, view.profile, view.profile.sake_cup == "pi")}
    for y in elements(after, view.profile, view.profile.sake_cup == "pi"):
        if y.points > old.get(y.name, 0):
            return y.name
    return "pi"  # the sake cup counted as pi


def _completed(view: CaptureRound, before: int, after: int) -> Goal | None:
    return next((g for g in goals(view) if after & g.cards == g.cards and before & g.cards != g.cards), None)


def _bonus_points(view: CaptureRound, name: str) -> int:
    assert isinstance(view, HatoRound)
    profile = view.profile
    return next((b.points for b in profile.bonus_sets if b.name == name), profile.four_of_a_month)


def _alive(view: CaptureRound, player: int, goal: Goal) -> bool:
    """Whether ``player`` can still make ``goal``: nobody else holds a card it needs (counts aside)."""
    if goal.name in ("yeol", "tti", "pi"):
        return True
    others = 0
    for q in range(view.players):
        if q != player:
            others |= view.captured[q]
    return not goal.cards & others


def _best_progress(view: CaptureRound, player_pile: int, got: int, rare_only: bool) -> HintReason | None:
    """The goal the capture brings closest: ``toward`` with (have, need); ``rare_only`` keeps to goals
    one card short, and Go-Stop's brights (each one counts)."""
    player = view.turn
    best: tuple[int, int, Goal] | None = None
    for order, goal in enumerate(goals(view)):
        if not got & goal.cards or not _alive(view, player, goal):
            continue
        now = have(view, goal, player_pile | got)
        short = goal.need - now
        if short < 0 or (rare_only and short > 1 and goal.name != "gwang"):
            continue
        if best is None or (short, order) < (best[0], best[1]):
            best = (short, order, goal)
    if best is None:
        return None
    goal = best[2]
    now = have(view, goal, player_pile | got)
    return HintReason("toward", tuple(cards_of(got)), goal.name, (float(now), float(goal.need)))


def _denial(view: CaptureRound, player: int, got: int) -> HintReason | None:
    """A capture that takes a card another player needs to finish a set they are one card short of."""
    for q in range(view.players):
        if q == player:
            continue
        pile = view.captured[q]
        for goal in goals(view):
            if goal.name not in _DENY_GOALS and not goal.name.endswith("-yak"):
                continue
            if got & goal.cards and goal.need - (pile & goal.cards).bit_count() == 1 and _alive(view, q, goal):
                return HintReason("denies", tuple(cards_of(got & goal.cards)), goal.name, (float(q),))
    return None


def _lay_reason(view: CaptureRound, player: int, card: Card) -> HintReason:
    """A card laid on the field: how many of its month others may still hold (they could take it)."""
    unseen = (view.unknown().mask & MONTH_MASK_BY_CARD[card]).bit_count()
    return HintReason("lays", (card,), numbers=(float(unseen),))
