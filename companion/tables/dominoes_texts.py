"""The domino table's words in the app's five languages, and the hint reasons rendered from their keys.

Tile names come from the engine (``engine.dominoes.names``: Chinese, English, Korean, Ukrainian); the
Japanese screen shows the Chinese names, the Russian one the codes alone.
"""

from __future__ import annotations

from typing import Final

from companion.i18n import register, t
from engine.dominoes.hints import DominoReason
from engine.dominoes.names import tile_name
from engine.dominoes.tiles import Tile

_NAME_LANG: Final = {"en": "en", "uk": "uk", "ko": "ko", "ja": "zh"}

TEXTS: Final[dict[str, dict[str, str]]] = {
    "dom_game_jielong": {"en": "Jie Long", "ru": "Цзе Лун", "uk": "Цзє Лун", "ja": "接龍", "ko": "지에룽"},
    "dom_game_cedeng": {"en": "Ce Deng", "ru": "Цэ Дэн", "uk": "Це Ден", "ja": "拆釘", "ko": "처덩"},
    "dom_game_kkori": {"en": "Kkoribuchigi", "ru": "Ккорибутиги", "uk": "Ккорібутіґі", "ja": "コリプチギ",
                       "ko": "꼬리붙이기"},
    "dom_line": {"en": "The line", "ru": "Линия", "uk": "Лінія", "ja": "列", "ko": "줄"},
    "dom_players": {"en": "Players", "ru": "Игроки", "uk": "Гравці", "ja": "プレイヤー", "ko": "플레이어"},
    "dom_hand": {"en": "Your tiles", "ru": "Ваши кости", "uk": "Ваші кості", "ja": "手牌", "ko": "내 패"},
    "dom_settle": {"en": "Settlement", "ru": "Расчёт", "uk": "Розрахунок", "ja": "精算", "ko": "정산"},
    "dom_match": {"en": "Match", "ru": "Матч", "uk": "Матч", "ja": "対戦", "ko": "경기"},
    "dom_you": {"en": "You", "ru": "Вы", "uk": "Ви", "ja": "あなた", "ko": "나"},
    "dom_player": {"en": "Player {n}", "ru": "Игрок {n}", "uk": "Гравець {n}", "ja": "プレイヤー{n}",
                   "ko": "플레이어 {n}"},
    "dom_status": {"en": "{game} · deal {n}/{total} · {what}", "ru": "{game} · сдача {n}/{total} · {what}",
                   "uk": "{game} · роздача {n}/{total} · {what}", "ja": "{game} · 第{n}局/{total} · {what}",
                   "ko": "{game} · {n}/{total} 판 · {what}"},
    "dom_to_lead": {"en": "{who} to lead", "ru": "{who}: первый ход", "uk": "{who}: перший хід",
                    "ja": "{who}の先手", "ko": "{who} 선"},
    "dom_to_play": {"en": "{who} to play on {ends}", "ru": "{who}: ход на {ends}", "uk": "{who}: хід на {ends}",
                    "ja": "{who}: {ends} に付ける", "ko": "{who}: {ends}에 붙인다"},
    "dom_to_down": {"en": "{who} cannot follow {ends}: one tile face down",
                    "ru": "{who} не может пойти на {ends}: кость рубашкой вверх",
                    "uk": "{who} не може піти на {ends}: кість сорочкою догори",
                    "ja": "{who}は {ends} に付けられない: 1枚伏せる", "ko": "{who}는 {ends}에 못 붙임: 한 장 엎는다"},
    "dom_counting": {"en": "turn up the face-down tiles: show P TILES (players {players})",
                     "ru": "откройте закрытые кости: show P КОСТИ (игроки {players})",
                     "uk": "відкрийте закриті кості: show P КОСТІ (гравці {players})",
                     "ja": "伏せ牌を開ける: show P 牌 (プレイヤー {players})",
                     "ko": "엎은 패를 공개: show P 패 (플레이어 {players})"},
    "dom_over": {"en": "deal over, {who} wins · n: next deal", "ru": "сдача окончена, выиграл(а) {who} · n: дальше",
                 "uk": "роздачу закінчено, виграє {who} · n: далі", "ja": "終局、{who}の勝ち · n: 次へ",
                 "ko": "판 끝, {who} 승 · n: 다음 판"},
    "dom_redeal": {"en": "seven doubles: the deal is void, deal again · n", "ru": "семь дублей: пересдача · n",
                   "uk": "сім дублів: перероздача · n", "ja": "ゾロ目7枚: 配り直し · n",
                   "ko": "쌍 일곱 장: 다시 돌림 · n"},
    "dom_match_over": {"en": "match over · q: quit", "ru": "матч окончен · q: выход", "uk": "матч закінчено · q: вихід",
                       "ja": "対戦終了 · q: 終了", "ko": "경기 끝 · q: 나가기"},
    "dom_open": {"en": "open", "ru": "открыто", "uk": "відкрито", "ja": "開", "ko": "열림"},
    "dom_closed": {"en": "closed", "ru": "закрыто", "uk": "закрито", "ja": "閉", "ko": "닫힘"},
    "dom_no_line": {"en": "no tile laid yet", "ru": "костей ещё нет", "uk": "костей ще немає", "ja": "まだ牌はない",
                    "ko": "아직 놓인 패 없음"},
    "dom_live": {"en": "tiles with a {n} not laid yet: {k} (yours: {mine})",
                 "ru": "ещё не выложено костей с {n}: {k} (ваших: {mine})",
                 "uk": "ще не викладено костей з {n}: {k} (ваших: {mine})",
                 "ja": "{n} の牌の残り: {k} (自分: {mine})", "ko": "아직 안 놓인 {n} 패: {k} (내 것: {mine})"},
    "dom_row": {"en": "{hand} in hand · {down} face down", "ru": "{hand} в руке · {down} закрыто",
                "uk": "{hand} у руці · {down} закрито", "ja": "手 {hand} · 伏せ {down}",
                "ko": "손 {hand} · 엎음 {down}"},
    "dom_pips": {"en": "{n} pips", "ru": "{n} очк.", "uk": "{n} очок", "ja": "{n}点", "ko": "{n}점"},
    "dom_lacks": {"en": "no {nums}", "ru": "нет {nums}", "uk": "немає {nums}", "ja": "{nums}なし", "ko": "{nums} 없음"},
    "dom_head": {"en": "head", "ru": "первый", "uk": "перший", "ja": "頭", "ko": "선"},
    "dom_in_hand": {"en": "pips in hand: {n}", "ru": "очков в руке: {n}", "uk": "очок у руці: {n}",
                    "ja": "手牌の点: {n}", "ko": "손의 점수: {n}"},
    "dom_if_now": {"en": "if nobody lays another tile face down:", "ru": "если больше никто не закроет кость:",
                   "uk": "якщо ніхто більше не закриє кість:", "ja": "これ以上誰も伏せなければ:",
                   "ko": "더 이상 아무도 엎지 않으면:"},
    "dom_estimate": {"en": "~ unseen tiles at their average pips", "ru": "~ скрытые кости по среднему",
                     "uk": "~ приховані кості за середнім", "ja": "~ 見えない牌は平均点",
                     "ko": "~ 안 보인 패는 평균 점수"},
    "dom_pays": {"en": "{a} → {b}: {amount}", "ru": "{a} → {b}: {amount}", "uk": "{a} → {b}: {amount}",
                 "ja": "{a} → {b}: {amount}", "ko": "{a} → {b}: {amount}"},
    "dom_pips_row": {"en": "pips", "ru": "очки", "uk": "очки", "ja": "点", "ko": "점수"},
    "dom_net": {"en": "net", "ru": "итог", "uk": "підсумок", "ja": "収支", "ko": "결과"},
    "dom_waiting_count": {"en": "waiting for the count", "ru": "ждём подсчёта", "uk": "чекаємо підрахунку",
                          "ja": "集計待ち", "ko": "계산 대기"},
    "dom_scores": {"en": "scores", "ru": "счёт", "uk": "рахунок", "ja": "得点", "ko": "점수"},
    "dom_deal_of": {"en": "deal {n} of {total}", "ru": "сдача {n} из {total}", "uk": "роздача {n} з {total}",
                    "ja": "第{n}局 / {total}", "ko": "{n}/{total} 판"},
    "dom_deal_prompt": {"en": "your {n} tiles, then lead P (1 = you, 2 = next): 1:3 6:6 … lead 2",
                        "ru": "ваши {n} костей и lead P (1 = вы, 2 = следующий): 1:3 6:6 … lead 2",
                        "uk": "ваші {n} костей і lead P (1 = ви, 2 = наступний): 1:3 6:6 … lead 2",
                        "ja": "手牌{n}枚と lead P (1 = あなた, 2 = 次): 1:3 6:6 … lead 2",
                        "ko": "내 패 {n}장과 lead P (1 = 나, 2 = 다음): 1:3 6:6 … lead 2"},
    "dom_move_lead": {"en": "lead {tile}, {end} open", "ru": "первой {tile}, открыто {end}",
                      "uk": "першою {tile}, відкрито {end}", "ja": "{tile} で先手、{end} 開",
                      "ko": "{tile} 선, {end} 열림"},
    "dom_move_play": {"en": "{tile} → {end} open", "ru": "{tile} → открыто {end}", "uk": "{tile} → відкрито {end}",
                      "ja": "{tile} → {end} 開", "ko": "{tile} → {end} 열림"},
    "dom_move_down": {"en": "face down {tile} ({pips})", "ru": "закрыть {tile} ({pips})",
                      "uk": "закрити {tile} ({pips})",
                      "ja": "{tile} を伏せる ({pips})", "ko": "{tile} 엎기 ({pips})"},
    "dom_move_down_unseen": {"en": "face down (unseen tile)", "ru": "закрыть (скрытую кость)",
                             "uk": "закрити (приховану кість)", "ja": "伏せる (見えない牌)", "ko": "엎기 (안 보인 패)"},
    "dom_two_arm_lead": {"en": "lead {tile}, both ends open", "ru": "первой {tile}, оба конца открыты",
                         "uk": "першою {tile}, обидва кінці відкриті", "ja": "{tile} で先手、両端開",
                         "ko": "{tile} 선, 양쪽 열림"},
    # teaching notes
    "dom_advice_open": {"en": "Leave open a number you hold: the line comes back to you.",
                        "ru": "Оставляйте открытым число, которое есть у вас: линия вернётся к вам.",
                        "uk": "Залишайте відкритим число, яке є у вас: лінія повернеться до вас.",
                        "ja": "自分が持つ数字を開けておくと、また付けられる。",
                        "ko": "내가 가진 숫자를 열어 두면 다시 붙일 수 있다."},
    "dom_advice_void": {"en": "Players who laid a tile face down on a number hold none: open it against them.",
                        "ru": "Кто закрыл кость на число, не имеет его: открывайте его против них.",
                        "uk": "Хто закрив кість на число, не має його: відкривайте його проти них.",
                        "ja": "ある数字で伏せた人はその数字を持たない: それを開けて攻める。",
                        "ko": "어떤 숫자에 패를 엎은 사람은 그 숫자가 없다: 그 숫자를 열어 압박한다."},
    "dom_advice_dead": {"en": "A tile that can never be played costs nothing extra face down: lay it first.",
                        "ru": "Кость, которую уже не сыграть, закрывать бесплатно: закрывайте её первой.",
                        "uk": "Кість, яку вже не зіграти, закривати безкоштовно: закривайте її першою.",
                        "ja": "もう出せない牌は伏せても損はない: 先に伏せる。",
                        "ko": "더는 낼 수 없는 패는 엎어도 손해가 없다: 먼저 엎는다."},
    "dom_advice_clean": {"en": "No tile face down yet: laying all your tiles receives ×{f}.",
                         "ru": "Ещё ничего не закрыто: выложив все кости, получите ×{f}.",
                         "uk": "Ще нічого не закрито: виклавши всі кості, отримаєте ×{f}.",
                         "ja": "まだ伏せ牌なし: 全部出せば受け取り ×{f}。",
                         "ko": "아직 엎은 패 없음: 다 내면 ×{f}로 받는다."},
    "dom_advice_over": {"en": "Stay at {limit} pips or less face down: above it you pay the winner.",
                        "ru": "Держитесь не выше {limit} очков: выше вы платите победителю.",
                        "uk": "Тримайтеся не вище {limit} очок: вище ви платите переможцю.",
                        "ja": "伏せ牌は {limit} 点以下に: 超えると勝者に払う。",
                        "ko": "엎은 점수를 {limit} 이하로: 넘으면 승자에게 낸다."},
}

# Hint reasons: the keys of ``engine.dominoes.hints.DominoReason``; {t0} {t1} tiles, {n0} {n1} {n2} numbers.
REASONS: Final[dict[str, dict[str, str]]] = {
    "down_unseen": {"en": "lays an unseen tile face down", "ru": "закрывает неизвестную кость",
                    "uk": "закриває невідому кість", "ja": "見えない牌を伏せる", "ko": "안 보인 패를 엎는다"},
    "run": {"en": "leaves {n0} open: only you hold a {n0} ({n1} more)",
            "ru": "оставляет {n0}: {n0} есть только у вас (ещё {n1})",
            "uk": "залишає {n0}: {n0} є лише у вас (ще {n1})",
            "ja": "{n0} を開ける: {n0} を持つのはあなただけ (あと{n1}枚)",
            "ko": "{n0}을 연다: {n0}은 나만 가짐 ({n1}장 더)"},
    "block_all": {"en": "leaves {n0} open: nobody else can hold a {n0}",
                  "ru": "оставляет {n0}: больше ни у кого нет {n0}",
                  "uk": "залишає {n0}: більше ні в кого немає {n0}",
                  "ja": "{n0} を開ける: 他に {n0} を持てる人はいない",
                  "ko": "{n0}을 연다: 다른 누구도 {n0}이 없다"},
    "block_next": {"en": "leaves {n0} open: player {n1} laid face down on a {n0}, they hold none",
                   "ru": "оставляет {n0}: игрок {n1} уже закрывал на {n0}, у него их нет",
                   "uk": "залишає {n0}: гравець {n1} уже закривав на {n0}, у нього їх немає",
                   "ja": "{n0} を開ける: プレイヤー{n1}は {n0} で伏せた、持っていない",
                   "ko": "{n0}을 연다: 플레이어 {n1}은 {n0}에 엎었으니 없다"},
    "keep_open": {"en": "leaves {n0} open: you hold {n1} more with a {n0}",
                  "ru": "оставляет {n0}: у вас ещё {n1} с {n0}", "uk": "залишає {n0}: у вас ще {n1} з {n0}",
                  "ja": "{n0} を開ける: {n0} の牌をあと{n1}枚持っている",
                  "ko": "{n0}을 연다: {n0} 패가 {n1}장 더 있다"},
    "shed_heavy": {"en": "plays {t0} ({n1} pips) while it fits, leaving {n0} open",
                   "ru": "играет {t0} ({n1} очк.), пока подходит; открыто {n0}",
                   "uk": "грає {t0} ({n1} очок), поки підходить; відкрито {n0}",
                   "ja": "{t0} ({n1}点) を出せるうちに出す、{n0} 開",
                   "ko": "{t0}({n1}점)를 붙일 수 있을 때 낸다, {n0} 열림"},
    "play": {"en": "plays {t0}, leaving {n0} open", "ru": "играет {t0}, открыто {n0}", "uk": "грає {t0}, відкрито {n0}",
             "ja": "{t0} を出す、{n0} 開", "ko": "{t0}를 낸다, {n0} 열림"},
    "down_dead": {"en": "lays {t0} face down: it could never be played, no other tile shares its numbers",
                  "ru": "закрывает {t0}: её уже не сыграть, её чисел больше нет",
                  "uk": "закриває {t0}: її вже не зіграти, її чисел більше немає",
                  "ja": "{t0} を伏せる: 同じ数字の牌が残っておらず、もう出せない",
                  "ko": "{t0}를 엎는다: 같은 숫자가 남지 않아 더는 낼 수 없다"},
    "down_heaviest": {"en": "lays {t0} face down: the highest pips ({n0}) you cannot play",
                      "ru": "закрывает {t0}: самые большие очки ({n0}), которые не сыграть",
                      "uk": "закриває {t0}: найбільші очки ({n0}), які не зіграти",
                      "ja": "{t0} を伏せる: 出せない中で最大の点 ({n0})",
                      "ko": "{t0}를 엎는다: 못 내는 패 중 최고 점수 ({n0})"},
    "down_light": {"en": "lays {t0} face down: only {n0} pips, and keeps {t1} to play later",
                   "ru": "закрывает {t0}: всего {n0} очк., а {t1} остаётся для игры",
                   "uk": "закриває {t0}: лише {n0} очок, а {t1} лишається для гри",
                   "ja": "{t0} を伏せる: わずか{n0}点、{t1} は後で出す",
                   "ko": "{t0}를 엎는다: {n0}점뿐, {t1}는 나중에 낸다"},
    "down": {"en": "lays {t0} face down: {n0} pips against you", "ru": "закрывает {t0}: {n0} очк. против вас",
             "uk": "закриває {t0}: {n0} очок проти вас", "ja": "{t0} を伏せる: {n0}点の失点",
             "ko": "{t0}를 엎는다: {n0}점 손해"},
    "no_clean": {"en": "gives up the clean finish (×{n0})", "ru": "теряет чистый выход (×{n0})",
                 "uk": "втрачає чистий вихід (×{n0})", "ja": "全出し (×{n0}) はなくなる",
                 "ko": "전부 내기(×{n0})를 포기"},
    "heavy_near": {"en": "{n0} face down: at {n1} you pay ×{n2}", "ru": "закрыто {n0}: при {n1} платите ×{n2}",
                   "uk": "закрито {n0}: при {n1} платите ×{n2}", "ja": "伏せ{n0}枚: {n1}枚で支払い ×{n2}",
                   "ko": "엎은 패 {n0}장: {n1}장이면 ×{n2} 지불"},
    "over": {"en": "{n0} pips face down: over {n1} you pay the winner",
             "ru": "закрыто {n0} очк.: больше {n1} — платите победителю",
             "uk": "закрито {n0} очок: понад {n1} — платите переможцю",
             "ja": "伏せ{n0}点: {n1}超えで勝者に払う", "ko": "엎은 {n0}점: {n1} 넘으면 승자에게 낸다"},
}

_CLAUSE_SEP: Final = {"en": "; ", "ru": "; ", "uk": "; ", "ja": "。", "ko": "; "}

register(TEXTS)
register({f"dom_reason_{key}": table for key, table in REASONS.items()})


def tile_label(tile: Tile, lang: str, named: bool = False) -> str:
    """A tile's code, with its traditional name in the language where the engine has one."""
    if not named or lang not in _NAME_LANG:
        return tile.code
    name = tile_name(tile, _NAME_LANG[lang])
    return tile.code if name == tile.code else f"{tile.code} {name}"


def reason_text(reason: DominoReason, lang: str) -> str:
    fields: dict[str, object] = {f"t{i}": reason.tiles[i].code if i < len(reason.tiles) else "" for i in range(2)}
    fields.update({f"n{i}": reason.numbers[i] if i < len(reason.numbers) else 0 for i in range(3)})
    out = t(f"dom_reason_{reason.key}", lang, **fields)
    return _CLAUSE_SEP.get(lang, "; ").join([out, *(reason_text(p, lang) for p in reason.parts)])


def game_title(game: str, lang: str) -> str:
    return t(f"dom_game_{game}", lang)
