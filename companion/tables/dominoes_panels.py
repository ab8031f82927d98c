"""What the domino table screen shows, as text: the line with its open end(s), every player's face-down
count (and pips where known) and the numbers they showed they lack, your tiles, the settlement as it
stands, the match and the latest moves. Pure functions of a ``DominoSession``: no widgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from companion.i18n import t
from companion.tables.base import PanelText
from companion.tables.dominoes_texts import game_title, tile_label
from engine.dominoes.hints import is_dead
from engine.dominoes.moves import DominoMove, MoveKind
from engine.dominoes.round import DominoRound
from engine.dominoes.settle import Settlement, settle
from engine.dominoes.tiles import HIGH, LOW, PIPS, Tile
from engine.dominoes.tileset import NUMBER_BITS, count_tiles, kinds_of, pips_of, tiles_of

if TYPE_CHECKING:
    from companion.tables.dominoes import DominoSession

YOURS = "bold green"
LAST = "bold yellow"
HISTORY = 3  # moves shown under the match (the panel is short)


def name(session: DominoSession, player: int, lang: str) -> str:
    return t("dom_you", lang) if player == session.you else t("dom_player", lang, n=player + 1)


def _ends_words(state: DominoRound) -> str:
    return " / ".join(str(e) for e in dict.fromkeys(state.ends))


# ----------------------------------------------------------------- status and move labels
def status_line(session: DominoSession, lang: str) -> str:
    match = session.match
    total = match.rounds
    n = min(match.round_number, total)
    game = game_title(session.game, lang)
    if session.state is None:
        what = session.deal_prompt(lang)
    else:
        state = session.round
        who = name(session, state.turn, lang)
        if session.counting:
            what = t("dom_counting", lang, players=", ".join(str(p + 1) for p in session.to_show()))
        elif state.ending == "redeal":
            what = t("dom_redeal", lang)
        elif state.is_over:
            result = session.result
            winner = result.winner if result is not None else None
            what = t("dom_over", lang, who=name(session, winner, lang) if winner is not None else "-")
            if session.match_over:
                what += " · " + t("dom_match_over", lang)
        elif not state.ends:
            what = t("dom_to_lead", lang, who=who)
        elif _must_lay_down(session.seen):
            what = t("dom_to_down", lang, who=who, ends=_ends_words(state))
        else:
            what = t("dom_to_play", lang, who=who, ends=_ends_words(state))
    return t("dom_status", lang, game=game, n=n, total=total, what=what)


def _must_lay_down(view: DominoRound) -> bool:
    moves = view.generate_legal_moves()
    return bool(moves) and all(m.kind is MoveKind.DOWN for m in moves)


def move_label(view: DominoRound, move: DominoMove, lang: str) -> str:
    tile = move.tile
    if move.kind is MoveKind.DOWN:
        if tile is None:
            return t("dom_move_down_unseen", lang)
        return t("dom_move_down", lang, tile=tile.code, pips=PIPS[tile])
    assert tile is not None
    if not view.ends:
        if move.end is None:
            return t("dom_two_arm_lead", lang, tile=tile.code)
        return t("dom_move_lead", lang, tile=f"{tile.other(move.end)}|{move.end}", end=move.end)
    end = move.end if move.end is not None else tile.low
    return t("dom_move_play", lang, tile=f"{tile.other(end)}|{end}", end=end)


# ----------------------------------------------------------------- the table
def main_panels(session: DominoSession, lang: str) -> Sequence[PanelText]:
    return (
        PanelText("line", t("dom_line", lang), line_text(session, lang)),
        PanelText("players", t("dom_players", lang), players_text(session, lang)),
        PanelText("tiles", t("dom_hand", lang), hand_text(session, lang)),
    )


def laid_in_order(state: DominoRound) -> list[tuple[int, int, int]]:
    """The line as it lies, left to right: (left number, right number, index of the move in ``state.line``).
    One arm: the closed end on the left. Two arms: tiles go left or right of the lead."""
    out: list[tuple[int, int, int]] = []
    left = right = -1
    for i, (_, tile, end) in enumerate(state.line):
        if i == 0:
            if end is None:
                left, right = LOW[tile], HIGH[tile]
            else:
                left, right = tile.other(end), end
            out.append((left, right, 0))
            continue
        assert end is not None
        matched = tile.other(end)
        if matched == right:
            out.append((matched, end, i))
            right = end
        else:
            out.insert(0, (end, matched, i))
            left = end
    return out


def line_text(session: DominoSession, lang: str) -> Text:
    out = Text()
    if session.state is None:
        return out
    state = session.seen
    if not state.line:
        out.append(t("dom_no_line", lang), style="dim")
        return out
    last = len(state.line) - 1
    one_arm = state.arms == 1
    out.append("■ " if one_arm else f"{state.ends[0]} ◂ ", style="bold red" if one_arm else "bold")
    for left, right, i in laid_in_order(state):
        player = state.line[i][0]
        style = LAST if i == last else (YOURS if player == session.you else "")
        out.append(f"{left}|{right}", style=style)
        out.append(" ")
    out.append(f"▸ {state.ends[-1]}", style="bold")
    out.append(f"\n{t('dom_open', lang)}: {_ends_words(state)}", style="bold cyan")
    if one_arm:
        out.append(f" · {t('dom_closed', lang)}: {laid_in_order(state)[0][0]}", style="dim")
    if not state.is_over:
        for end in dict.fromkeys(state.ends):
            live = count_tiles((state.unseen_mask() + sum(state.hands)) & NUMBER_BITS[end] * 3)
            mine = count_tiles(state.hands[session.you] & NUMBER_BITS[end] * 3)
            out.append("\n" + t("dom_live", lang, n=end, k=live, mine=mine), style="dim")
    return out


def players_text(session: DominoSession, lang: str) -> Text:
    out = Text()
    if session.state is None:
        return out
    state = session.seen
    for p in range(state.players):
        if p:
            out.append("\n")
        marker = "▶ " if not state.is_over and state.turn == p else "  "
        out.append(marker, style="bold")
        who = name(session, p, lang)
        out.append(f"{who:<11}", style=YOURS if p == session.you else "bold")
        down = count_tiles(state.down[p]) + len(state.down_unseen[p])
        out.append(t("dom_row", lang, hand=state.hand_size(p), down=down))
        if down:
            known = pips_of(state.down[p])
            pips = str(known) if not state.down_unseen[p] else f"{known}+?" if known else "?"
            out.append(f" · {t('dom_pips', lang, n=pips)}", style="bold" if p == session.you else "")
        lacks = [str(n) for n in range(7) if state.void[p] >> n & 1]
        if lacks and not state.is_over:
            out.append(f" · {t('dom_lacks', lang, nums=', '.join(lacks))}", style="magenta")
        if p == state.leader:
            out.append(f" · {t('dom_head', lang)}", style="dim")
    return out


def hand_text(session: DominoSession, lang: str) -> Text:
    out = Text()
    if session.state is None:
        return out
    state = session.seen
    hand = state.hands[session.you]
    wanted = 0
    for end in state.ends:
        wanted |= NUMBER_BITS[end]
    for i, tile in enumerate(tiles_of(hand)):
        if i:
            out.append(" · ", style="dim")
        playable = bool(wanted >> 2 * tile & 1) or not state.ends
        style = YOURS if playable and not state.is_over else ("dim" if is_dead(state, session.you, tile) else "")
        out.append(tile_label(tile, lang, named=True), style=style)
    if not hand:
        out.append("-", style="dim")
    out.append("\n" + t("dom_in_hand", lang, n=pips_of(hand)), style="dim")
    return out


# ----------------------------------------------------------------- the side: settlement and match
def side_panels(session: DominoSession, lang: str) -> Sequence[PanelText]:
    return (
        PanelText("settlement", t("dom_settle", lang), settle_text(session, lang)),
        PanelText("match", t("dom_match", lang), match_text(session, lang)),
    )


def settle_text(session: DominoSession, lang: str) -> Text:
    out = Text()
    if session.state is None:
        return out
    state = session.seen
    if session.counting:
        out.append(t("dom_waiting_count", lang) + ": " + ", ".join(str(p + 1) for p in session.to_show()),
                   style="bold yellow")
        return out
    result = session.result
    if result is not None:
        _settled(out, session, result, lang)
        return out
    pips, estimated = preview_pips(state)
    unplayed = [count_tiles(state.down[p]) + len(state.down_unseen[p]) for p in range(state.players)]
    preview = settle(pips, state.profile, unplayed, state.leader)
    out.append(t("dom_if_now", lang) + "\n", style="dim")
    _table(out, session, [("~" if e else "") + str(n) for n, e in zip(pips, estimated, strict=True)],
           [f"{v:+d}" for v in preview.net], lang)
    if any(estimated):
        out.append("\n" + t("dom_estimate", lang), style="dim italic")
    return out


def preview_pips(state: DominoRound) -> tuple[list[int], list[bool]]:
    """Each player's face-down pips, unseen ones at the average of the unseen tiles (and whether so)."""
    pool = state.unseen_mask()
    average = pips_of(pool) / max(1, count_tiles(pool))
    pips = [pips_of(state.down[p]) + round(len(state.down_unseen[p]) * average) for p in range(state.players)]
    return pips, [bool(state.down_unseen[p]) for p in range(state.players)]


def _table(out: Text, session: DominoSession, pips: Sequence[str], net: Sequence[str], lang: str) -> None:
    names = [t("dom_you", lang) if p == session.you else f"P{p + 1}" for p in range(len(pips))]
    width = max(5, *(len(s) for s in [*names, *pips, *net])) + 1
    out.append(" " * 6 + "".join(f"{n:>{width}}" for n in names) + "\n", style="bold")
    out.append(f"{t('dom_pips_row', lang)[:5]:<6}" + "".join(f"{p:>{width}}" for p in pips) + "\n")
    out.append(f"{t('dom_net', lang)[:5]:<6}", style="bold")
    for p, v in enumerate(net):
        out.append(f"{v:>{width}}", style=YOURS if p == session.you else "")


def _settled(out: Text, session: DominoSession, result: Settlement, lang: str) -> None:
    if result.reason == "redeal":
        out.append(t("dom_redeal", lang), style="bold")
        return
    _table(out, session, [str(p) for p in result.pips], [f"{v:+d}" for v in result.net], lang)
    for pay in result.payments[:6]:
        why = f" ×{pay.multiplier}" if pay.multiplier > 1 else ""
        why += f" ({', '.join(pay.reasons)})" if pay.reasons else ""
        line = t("dom_pays", lang, a=name(session, pay.payer, lang), b=name(session, pay.payee, lang),
                 amount=pay.amount)
        out.append(f"\n{line}{why}", style="dim")


def match_text(session: DominoSession, lang: str) -> Text:
    match = session.match
    out = Text(t("dom_deal_of", lang, n=min(match.round_number, match.rounds), total=match.rounds) + "\n",
               style="bold")
    scores = " · ".join(f"{'*' if p == session.you else ''}{s:+d}" for p, s in enumerate(match.scores))
    out.append(f"{t('dom_scores', lang)}: {scores}")
    if session.state is None:
        return out
    state = session.seen
    moves = state.move_stack
    start = max(0, len(moves) - HISTORY)
    for i in range(start, len(moves)):
        player = (state.leader + i) % state.players
        who = t("dom_you", lang) if player == session.you else f"P{player + 1}"
        out.append(f"\n{i + 1:>2}. {who}: {moves[i]}", style=YOURS if player == session.you else "dim")
    for p, tiles in session.shown:
        out.append(f"\nP{p + 1}: show {tiles}", style="dim")
    return out


# ----------------------------------------------------------------- teaching
def advice(session: DominoSession, lang: str) -> list[str]:
    """Strategy notes that apply now (teaching mode)."""
    if not session.your_turn:
        return []
    view = session.seen
    profile = view.profile
    you = session.you
    notes = []
    moves = view.generate_legal_moves()
    if any(m.kind is MoveKind.PLAY for m in moves):
        notes.append(t("dom_advice_open", lang))
        if any(view.void[q] for q in range(view.players) if q != you):
            notes.append(t("dom_advice_void", lang))
    elif any(is_dead(view, you, tile) for tile in _hand_tiles(view, you)):
        notes.append(t("dom_advice_dead", lang))
    down = count_tiles(view.down[you]) + len(view.down_unseen[you])
    if profile.clean_finish > 1 and not down:
        notes.append(t("dom_advice_clean", lang, f=profile.clean_finish))
    if profile.mode == "kkori" and profile.over and view.players >= profile.over_from_players:
        notes.append(t("dom_advice_over", lang, limit=profile.over))
    return notes


def _hand_tiles(view: DominoRound, player: int) -> list[Tile]:
    return kinds_of(view.hands[player])
