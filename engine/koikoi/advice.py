"""Teaching: why a move is good, the classic strategy advice that fits the table, and what each yaku is.

Everything here reads the player's view only and returns ``Reason`` values: a message key and its
parameters, rendered in any of the five languages by ``reason.text(lang)`` from ``texts.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from engine.capture import Phase
from engine.cards import Card, Kind
from engine.cardset import MONTH_MASK_BY_CARD, cards_of, mask_of
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.progress import (
    BRIGHT_YAKU,
    COUNT_YAKU,
    VIEWING_YAKU,
    YakuGroup,
    YakuProgress,
    finishers,
    player_view,
    yaku_groups,
)
from engine.koikoi.round import KoiKoiRound
from engine.koikoi.texts import CLAUSE_SEP, LIST_SEP, MESSAGES, PLACES, POINT_WORDS, YAKU_ABOUT, YAKU_TITLES
from engine.koikoi.yaku import BRIGHTS, PLAINS, POEM, RAINMAN, SAKE, YAKU_CARDS, YAKU_NEEDS
from engine.moves import Move, MoveKind
from engine.names import card_name, check_lang

if TYPE_CHECKING:
    from engine.koikoi.hints import MatchContext

EXPENSIVE: Final = 5  # points from which a yaku is worth denying
_MOON_CURTAIN: Final = mask_of((Card.PAMPAS_MOON, Card.CHERRY_CURTAIN))


@dataclass(frozen=True)
class Reason:
    """A message key and its parameters; ``text(lang)`` renders it with ``texts.MESSAGES``.

    ``parts`` are sub-reasons: substituted for ``{parts}`` when the template has it, else appended
    as further clauses ("takes X; completes akatan; keeps Y from the opponent's sanko").
    """

    key: str
    cards: tuple[Card, ...] = ()
    yaku: tuple[str, ...] = ()
    numbers: tuple[float, ...] = ()
    words: tuple[str, ...] = ()
    parts: tuple[Reason, ...] = ()

    def text(self, lang: str = "en") -> str:
        template = MESSAGES[check_lang(lang)][self.key]
        out = template.format(**self.fields(lang))
        if self.parts and "{parts}" not in template:
            out = CLAUSE_SEP[lang].join([out, *(p.text(lang) for p in self.parts)])
        return out

    def fields(self, lang: str) -> dict[str, Any]:
        """The template fields in ``lang``; absent cards, yaku and numbers render empty or 0."""
        sep = LIST_SEP[lang]
        fields: dict[str, Any] = {
            "cards": sep.join(card_name(c, lang) for c in self.cards),
            "yaku": sep.join(yaku_name(y, lang) for y in self.yaku),
            "parts": sep.join(p.text(lang) for p in self.parts),
        }
        for i in range(4):
            fields[f"c{i}"] = card_name(self.cards[i], lang) if i < len(self.cards) else ""
            fields[f"n{i}"] = float(self.numbers[i]) if i < len(self.numbers) else 0.0
            fields[f"p{i}"] = points_text(fields[f"n{i}"], lang)
        for i in range(2):
            fields[f"y{i}"] = yaku_name(self.yaku[i], lang) if i < len(self.yaku) else ""
            fields[f"w{i}"] = PLACES[lang].get(self.words[i], self.words[i]) if i < len(self.words) else ""
        return fields

    def __str__(self) -> str:
        return self.text("en")


def points_text(points: float, lang: str = "en") -> str:
    """ "1 point", "5 points", "2 очка", "5 очков", "5点": the number with the plural the language wants."""
    n = round(points)
    forms = POINT_WORDS[check_lang(lang)]
    if lang in ("ru", "uk"):
        few = n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14)
        form = forms[0] if n % 10 == 1 and n % 100 != 11 else forms[1] if few else forms[2]
    else:
        form = forms[0] if n == 1 else forms[1]
    return form.format(n=n)


def yaku_name(name: str, lang: str = "en") -> str:
    """A yaku's name as players of ``lang`` say it (五光, 홍단, «Красные ленты»...)."""
    return YAKU_TITLES[check_lang(lang)].get(name, name)


def yaku_explanation(name: str, lang: str = "en", profile: KoiKoiProfile | None = None) -> str:
    """What a yaku is, its cards and its points under ``profile``, for the yaku reference screen."""
    about = YAKU_ABOUT[check_lang(lang)]
    profile = profile or KoiKoiProfile.load("default")
    points = profile.points.get(name, 0)
    if name in VIEWING_YAKU and profile.viewing == "off":
        points = 0
    if not points:
        return f"{yaku_name(name, lang)} — {about['off']}"
    fields = Reason("", _explained_cards(name), numbers=(points, YAKU_NEEDS.get(name, 0))).fields(lang)
    notes = [about[f"note.{note}"].format(p0=points_text(value, lang)) for note, value in _rule_notes(name, profile)]
    return " ".join([f"{yaku_name(name, lang)} — {about[name].format(**fields)}", *notes])


def _explained_cards(name: str) -> tuple[Card, ...]:
    """The cards a yaku's explanation lists (the rain man first for ame-shiko; none for the count yaku)."""
    if name in ("sanko", "shiko"):
        return tuple(cards_of(BRIGHTS & ~RAINMAN))
    if name == "ameshiko":
        return (Card.WILLOW_RAINMAN, *cards_of(BRIGHTS & ~RAINMAN))
    if name in COUNT_YAKU:
        return ()
    return tuple(cards_of(YAKU_CARDS.get(name, 0)))


def _rule_notes(name: str, profile: KoiKoiProfile) -> list[tuple[str, int]]:
    """The house rules that change a yaku, as (note key, number) pairs."""
    notes: list[tuple[str, int]] = []
    if name in VIEWING_YAKU:
        if profile.viewing in ("with-other-yaku", "rain-cancels"):
            notes.append((profile.viewing, 0))
        if profile.viewing_koikoi_points:
            notes.append(("viewing-koikoi", profile.viewing_koikoi_points))
    if name == "kasu" and profile.sake_is_plain:
        notes.append(("sake-plain", 0))
    if name in ("inoshikacho", "akatan", "aotan") and profile.extra_card_bonus:
        notes.append(("extra-card", 0))
    return notes


# ----------------------------------------------------------------------------------- progress lines
def progress_reason(line: YakuProgress) -> Reason:
    """A yaku-panel line as a Reason: made, dead, the cards it needs and where they are, or a count."""
    numbers = (len(line.have), line.need)
    if line.made:
        return Reason("progress.made", yaku=(line.name,), numbers=(*numbers, line.points))
    if line.dead:
        key = "progress.dead" if line.lost else "progress.cancelled"
        return Reason(key, cards=line.lost, yaku=(line.name,), numbers=numbers)
    if line.name in COUNT_YAKU or len(line.missing) > line.short:
        return Reason("progress.count", yaku=(line.name,), numbers=(*numbers, line.short, len(line.missing)))
    parts = tuple(Reason("progress.card_at", (c,), words=(w,)) for c, w in zip(line.missing, line.places, strict=True))
    return Reason("progress.needs", yaku=(line.name,), numbers=numbers, parts=parts)


# ----------------------------------------------------------------------------------- move reasons
def move_reason(state: KoiKoiRound, player: int, move: Move) -> Reason:
    """One line on a move: what it takes, which yaku it completes or advances, what it denies or exposes."""
    view = player_view(state, player)
    if move.kind == MoveKind.KOIKOI or move.kind == MoveKind.STOP:
        key = "move.koikoi" if move.kind == MoveKind.KOIKOI else "move.stop"
        return Reason(key, numbers=(view.score_if_stopped(player),))
    profile = view.profile
    mine_before, theirs = view.captured[player], view.captured[1 - player]
    scored_before = {y.name: y.points for y in view.yaku(player)}
    view.push(move, check=False)
    gained = view.captured[player] & ~mine_before
    parts: list[Reason] = []
    scored = {y.name: y.points for y in view.yaku(player)}
    completed = tuple(name for name, pts in scored.items() if pts > scored_before.get(name, 0))
    if completed:
        delta = sum(scored[n] - scored_before.get(n, 0) for n in completed)
        parts.append(Reason("move.completes", yaku=completed, numbers=(delta,)))
    advanced = None if completed else _best_advance(profile, mine_before, gained, theirs)
    if advanced is not None:
        have = (view.captured[player] & advanced.cards).bit_count()
        parts.append(Reason("move.advances", yaku=(advanced.name,), numbers=(have, advanced.need)))
    denied = _threat(profile, theirs, mine_before, gained)
    if denied is not None:
        parts.append(Reason("move.denies", cards=(denied[0],), yaku=(denied[1],)))
    if move.card is not None and not gained:
        exposed = _threat(profile, theirs, mine_before, 1 << move.card)
        if exposed is not None:
            parts.append(Reason("move.exposes", cards=(exposed[0],), yaku=(exposed[1],)))
        elif move.card.kind is not Kind.PLAIN:
            parts.append(Reason("move.gives", cards=(move.card,)))
    if gained:
        taken = gained & ~(1 << move.card) if move.card is not None else gained
        return Reason("move.takes", cards=tuple(cards_of(taken or gained)), parts=tuple(parts))
    return Reason("move.lays", cards=(move.card,) if move.card is not None else (), parts=tuple(parts))


def _started(group: YakuGroup, captured: int, lost: int) -> bool:
    return bool(captured & group.cards) and not group.made(captured) and not group.dead(captured, lost)


def _bright_step(group: YakuGroup, captured: int, lost: int, profile: KoiKoiProfile) -> bool:
    """For the bright yaku, only the next one to make counts (sanko before shiko before goko)."""
    if group.name not in BRIGHT_YAKU:
        return True
    steps = [g for g in yaku_groups(profile) if g.name in BRIGHT_YAKU and _started(g, captured, lost)]
    return bool(steps) and group.need == min(g.need for g in steps)


def _best_advance(profile: KoiKoiProfile, before: int, gained: int, lost: int) -> YakuGroup | None:
    """The most valuable yaku the gained cards bring closer."""
    after = before | gained
    best, best_score = None, 0.0
    for group in yaku_groups(profile):
        if not gained & group.cards or not _started(group, after, lost):
            continue
        if not _bright_step(group, after, lost, profile):
            continue
        have = (after & group.cards).bit_count()
        if group.name in COUNT_YAKU and have * 2 < group.need:
            continue  # "tane 1/5" says nothing
        score = group.value * have / group.need
        if score > best_score:
            best, best_score = group, score
    return best


def _threat(profile: KoiKoiProfile, holder: int, other: int, cards: int) -> tuple[Card, str] | None:
    """A card of ``cards`` that ``holder`` needs for a yaku they have started (or are one card from)."""
    near = finishers(profile, holder, other)
    for group in yaku_groups(profile):
        if group.name in COUNT_YAKU and not near & cards & group.cards:
            continue
        hit = cards & group.cards & ~other
        if hit and _started(group, holder, other) and _bright_step(group, holder, other, profile):
            return Card(hit.bit_length() - 1), group.name
    return None


# ----------------------------------------------------------------------------------- strategy advice
def strategy_advice(state: KoiKoiRound, player: int, context: MatchContext) -> list[Reason]:
    """The classic advice that applies to the table now, most urgent first."""
    view = player_view(state, player)
    advice: list[Reason] = []
    if view.phase is Phase.DECIDE and view.turn == player and view.hand_size(player):
        advice += _decision_advice(view, player, context)
    advice += _keep_last(view, player)
    advice += _deny_double(view, player)
    advice += _sake_cup(view, player)
    advice += _brights_first(view, player)
    advice += _balance(view, player)
    advice += _kasu_alone(view, player)
    return advice


def _decision_advice(view: KoiKoiRound, player: int, context: MatchContext) -> list[Reason]:
    stop = view.score_if_stopped(player)
    opponent = 1 - player
    lead = context.scores[player] + stop - context.scores[opponent]
    left = context.rounds_left
    if left <= 2 and context.win_probability(lead, left) >= 0.9:
        return [Reason("advice.no_koikoi_late", numbers=(lead, left))]
    threat = finishers(view.profile, view.captured[opponent], view.captured[player])
    early = context.round_number * 2 <= context.rounds
    if early and stop < 7 and not threat and view.hand_size(player) >= 3 and not view.koikoi[opponent]:
        return [Reason("advice.dont_stop_cheap", numbers=(stop,))]
    return []


def _keep_last(view: KoiKoiRound, player: int) -> list[Reason]:
    """Three of a month on the field and the fourth in hand: that card is safe to keep."""
    out = []
    for card in cards_of(view.hands[player]):
        if (view.field & MONTH_MASK_BY_CARD[card]).bit_count() == 3:
            out.append(Reason("advice.keep_last", cards=(card,)))
    return out


def _deny_double(view: KoiKoiRound, player: int) -> list[Reason]:
    """A field card the player can take now whose capture would build two expensive yaku of the opponent.

    The opponent captures a field card together with a card of the same month from their hand, which is
    one of the cards the player cannot see: pine and cherry each hold a bright and a poem ribbon.
    """
    theirs, mine = view.captured[1 - player], view.captured[player]
    unseen = view.unknown().mask
    profile = view.profile
    out = []
    for card in cards_of(view.field):
        month = MONTH_MASK_BY_CARD[card]
        if not view.hands[player] & month:
            continue
        reach = (1 << card) | (unseen & month)
        built = [
            g.name for g in yaku_groups(profile)
            if g.value >= EXPENSIVE and reach & g.cards and _started(g, theirs, mine)
            and _bright_step(g, theirs, mine, profile)
        ]
        if len(built) >= 2:
            out.append(Reason("advice.deny_double", cards=(card,), yaku=tuple(built)))
    return out


def _sake_cup(view: KoiKoiRound, player: int) -> list[Reason]:
    """The sake cup makes both viewing yaku, so it comes first when they are played (and is nothing when not)."""
    profile = view.profile
    viewing = [g for g in yaku_groups(profile) if g.name in VIEWING_YAKU]
    if not viewing or (view.captured[0] | view.captured[1]) & SAKE:
        return []
    theirs = view.captured[1 - player] & _MOON_CURTAIN
    if theirs:
        return [Reason("advice.sake_deny", cards=tuple(cards_of(theirs)))]
    can_take = view.field & SAKE and view.hands[player] & MONTH_MASK_BY_CARD[Card.CHRYSANTHEMUM_SAKE]
    if can_take or view.hands[player] & SAKE:
        return [Reason("advice.sake", cards=(Card.CHRYSANTHEMUM_SAKE,), numbers=(max(g.value for g in viewing),))]
    return []


def _brights_first(view: KoiKoiRound, player: int) -> list[Reason]:
    """Brights and poem ribbons on the field that the player can take now, except a bright worth waiting for."""
    hand, field, unseen = view.hands[player], view.field, view.unknown().mask
    out, takeable = [], []
    for card in cards_of(field & (BRIGHTS | POEM)):
        month = MONTH_MASK_BY_CARD[card]
        if not hand & month:
            continue
        unseen_fourth = month & unseen
        if card.kind is Kind.BRIGHT and (hand & month).bit_count() == 2 and unseen_fourth:
            out.append(Reason("advice.wait_bright", cards=(card,)))
        else:
            takeable.append(card)
    if takeable:
        out.insert(0, Reason("advice.priority", cards=tuple(takeable)))
    return out


def _balance(view: KoiKoiRound, player: int) -> list[Reason]:
    """A main yaku and a fallback: neither one plan alone nor many at once."""
    mine, theirs = view.captured[player], view.captured[1 - player]
    if mine.bit_count() < 4:
        return []
    profile = view.profile
    plans = [
        g for g in yaku_groups(profile)
        if _started(g, mine, theirs) and _bright_step(g, mine, theirs, profile)
        and (g.name not in COUNT_YAKU or (mine & g.cards).bit_count() * 2 >= g.need)
    ]
    if len(plans) >= 4:
        return [Reason("advice.balance_many", yaku=tuple(g.name for g in plans))]
    if len(plans) == 1 and plans[0].name not in COUNT_YAKU:
        fallback = max(
            (g for g in yaku_groups(profile) if g.name in COUNT_YAKU and not g.dead(mine, theirs)),
            key=lambda g: (mine & g.cards).bit_count() / g.need,
            default=None,
        )
        if fallback is not None:
            return [Reason("advice.balance_one", yaku=(plans[0].name, fallback.name))]
    return []


def _kasu_alone(view: KoiKoiRound, player: int) -> list[Reason]:
    mine = view.captured[player]
    plains = (mine & PLAINS).bit_count()
    if plains >= 5 and (mine & ~PLAINS).bit_count() <= 1:
        return [Reason("advice.kasu")]
    return []
