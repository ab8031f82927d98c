"""Kan's words on the table screen and in its hints, in the five languages (registered with ``companion.i18n``).

Reason templates (``REASONS``) format the fields of ``engine.kan.hints.Reason``: ``{c0}``, ``{c1}`` its cards,
``{cards}`` all of them, ``{s}`` its suit, ``{n0}``, ``{n1}`` its numbers and ``{p0}``, ``{p1}`` the same as
percentages. A test checks every language has every key with the same fields as English.
"""

from __future__ import annotations

from typing import Final

from companion.i18n import register
from engine.kan.cards import Card
from engine.kan.hints import Reason

TEXTS: Final[dict[str, dict[str, str]]] = {
    "kan_player": {"en": "Player {n}", "ru": "Игрок {n}", "uk": "Гравець {n}", "ja": "{n}番", "ko": "{n}번"},
    "kan_kankei": {"en": "kankei", "ru": "канкэй", "uk": "канкей", "ja": "関係", "ko": "칸케이"},
    "kan_mukankei": {"en": "mukankei", "ru": "муканкэй", "uk": "муканкей", "ja": "無関係", "ko": "무칸케이"},
    "kan_unknown_side": {"en": "side unknown", "ru": "сторона неизвестна", "uk": "сторона невідома",
                         "ja": "陣営不明", "ko": "편 모름"},
    "kan_status": {"en": "Round {r}/{total} · deal {d} · trump {trump} · {who} to {what}",
                   "ru": "Раунд {r}/{total} · сдача {d} · козырь {trump} · {who}: {what}",
                   "uk": "Раунд {r}/{total} · роздача {d} · козир {trump} · {who}: {what}",
                   "ja": "第{r}回/{total} · {d}局目 · 切札 {trump} · {who}: {what}",
                   "ko": "{r}/{total} 라운드 · {d}번째 판 · 트럼프 {trump} · {who}: {what}"},
    "kan_status_over": {"en": "Round {r}/{total} · deal {d} over: {result} · {next}",
                        "ru": "Раунд {r}/{total} · сдача {d} окончена: {result} · {next}",
                        "uk": "Раунд {r}/{total} · роздача {d} закінчена: {result} · {next}",
                        "ja": "第{r}回/{total} · {d}局目終了: {result} · {next}",
                        "ko": "{r}/{total} 라운드 · {d}번째 판 끝: {result} · {next}"},
    "kan_match_over": {"en": "match over: press n to leave", "ru": "матч окончен: n — выход",
                       "uk": "матч закінчено: n — вихід", "ja": "対戦終了: n で終わる", "ko": "경기 끝: n 으로 나가기"},
    "kan_won_by": {"en": "{side} won {a}-{b}", "ru": "выиграли {side} {a}-{b}", "uk": "виграли {side} {a}-{b}",
                   "ja": "{side}の勝ち {a}-{b}", "ko": "{side} 승 {a}-{b}"},
    "kan_someone": {"en": "the holder", "ru": "владелец", "uk": "власник", "ja": "持ち主", "ko": "가진 사람"},
    "kan_phase_announce": {"en": "say kan, showing the {card}", "ru": "сказать «кан», показав {card}",
                           "uk": "сказати «кан», показавши {card}", "ja": "{card}を見せてカンと言う",
                           "ko": "{card}를 보이며 칸을 외친다"},
    "kan_phase_give": {"en": "give back a card for the pin", "ru": "отдать карту за пин",
                       "uk": "віддати карту за пін", "ja": "ピンの代わりに札を返す", "ko": "핀 대신 카드를 돌려준다"},
    "kan_phase_call": {"en": "say iku or koi", "ru": "сказать iku или koi", "uk": "сказати iku або koi",
                       "ja": "いく か こい と言う", "ko": "이쿠 또는 코이"},
    "kan_phase_show": {"en": "show cards to the partner", "ru": "показать карты партнёру",
                       "uk": "показати карти партнерові", "ja": "相方に札を見せる", "ko": "짝에게 카드를 보여 준다"},
    "kan_phase_trump": {"en": "name the trump", "ru": "назвать козырь", "uk": "назвати козир", "ja": "切札を決める",
                        "ko": "트럼프를 정한다"},
    "kan_phase_declare": {"en": "declare or pass", "ru": "объявить или пас", "uk": "оголосити або пас",
                          "ja": "宣言するかパス", "ko": "선언 또는 패스"},
    "kan_phase_play": {"en": "play a card", "ru": "сыграть карту", "uk": "зіграти карту", "ja": "札を出す",
                       "ko": "카드를 낸다"},
    "kan_phase_decide": {"en": "stop the round or continue", "ru": "закончить раунд или играть дальше",
                         "uk": "закінчити раунд або грати далі", "ja": "回を終えるか続けるか",
                         "ko": "라운드를 멈출지 계속할지"},
    "kan_table": {"en": "Trick {n} of 10 · trump {trump}", "ru": "Взятка {n} из 10 · козырь {trump}",
                  "uk": "Взятка {n} з 10 · козир {trump}", "ja": "第{n}トリック/10 · 切札 {trump}",
                  "ko": "트릭 {n}/10 · 트럼프 {trump}"},
    "kan_talk": {"en": "Before play · deal {d}", "ru": "До розыгрыша · сдача {d}", "uk": "До розіграшу · роздача {d}",
                 "ja": "プレイ前 · {d}局目", "ko": "플레이 전 · {d}번째 판"},
    "kan_led": {"en": "led", "ru": "ход", "uk": "хід", "ja": "リード", "ko": "리드"},
    "kan_winning": {"en": "winning", "ru": "берёт", "uk": "бере", "ja": "勝ち中", "ko": "이기는 중"},
    "kan_suit_to_follow": {"en": "suit to follow: {s}", "ru": "масть хода: {s}", "uk": "масть ходу: {s}",
                           "ja": "台の札: {s}", "ko": "따라 낼 무늬: {s}"},
    "kan_last_trick": {"en": "last trick: {cards} → {who} ({n} pts)", "ru": "прошлая взятка: {cards} → {who} ({n} оч.)",
                       "uk": "минула взятка: {cards} → {who} ({n} оч.)", "ja": "前のトリック: {cards} → {who} ({n}点)",
                       "ko": "지난 트릭: {cards} → {who} ({n}점)"},
    "kan_said": {"en": "said", "ru": "сказано", "uk": "сказано", "ja": "発言", "ko": "발언"},
    "kan_nothing_said": {"en": "nothing said yet", "ru": "пока ничего не сказано", "uk": "поки нічого не сказано",
                         "ja": "まだ発言なし", "ko": "아직 발언 없음"},
    "kan_hand": {"en": "Your hand ({n})", "ru": "Ваша рука ({n})", "uk": "Ваша рука ({n})", "ja": "手札 ({n})",
                 "ko": "내 패 ({n})"},
    "kan_trumps": {"en": "trump", "ru": "козырь", "uk": "козир", "ja": "切札", "ko": "트럼프"},
    "kan_players": {"en": "Players", "ru": "Игроки", "uk": "Гравці", "ja": "プレイヤー", "ko": "플레이어"},
    "kan_player_row": {"en": "{cards} cards · {tricks} tricks · {points} pts",
                       "ru": "{cards} карт · {tricks} взяток · {points} оч.",
                       "uk": "{cards} карт · {tricks} взяток · {points} оч.",
                       "ja": "{cards}枚 · {tricks}トリック · {points}点",
                       "ko": "{cards}장 · {tricks}트릭 · {points}점"},
    "kan_void": {"en": "no {suits}", "ru": "нет {suits}", "uk": "нема {suits}", "ja": "{suits}なし",
                 "ko": "{suits} 없음"},
    "kan_seat_change": {"en": "seat change: player {a} moved past player {b}",
                        "ru": "пересадка: игрок {a} сел за игрока {b}",
                        "uk": "пересадка: гравець {a} сів за гравця {b}",
                        "ja": "席替え: {a}番が{b}番の先へ", "ko": "자리 바꿈: {a}번이 {b}번 너머로"},
    "kan_points": {"en": "Points", "ru": "Очки", "uk": "Очки", "ja": "得点", "ko": "점수"},
    "kan_side_points": {"en": "{side}: {points} pts · {tricks} tricks", "ru": "{side}: {points} оч. · {tricks} взяток",
                        "uk": "{side}: {points} оч. · {tricks} взяток", "ja": "{side}: {points}点 · {tricks}トリック",
                        "ko": "{side}: {points}점 · {tricks}트릭"},
    "kan_need": {"en": "kankei win with {need} of 16; {left} still out",
                 "ru": "канкэй нужно {need} из 16; в игре ещё {left}",
                 "uk": "канкей треба {need} з 16; у грі ще {left}", "ja": "関係は16点中{need}点で勝ち; 残り{left}点",
                 "ko": "칸케이는 16점 중 {need}점이면 승; 남은 점수 {left}"},
    "kan_partners_unknown": {"en": "partners not shown yet", "ru": "партнёры ещё не показаны",
                             "uk": "партнерів ще не показано", "ja": "相方はまだ不明", "ko": "짝이 아직 공개되지 않음"},
    "kan_declared": {"en": "declared: {what}", "ru": "объявлено: {what}", "uk": "оголошено: {what}",
                     "ja": "宣言: {what}", "ko": "선언: {what}"},
    "kan_ledger": {"en": "Ledger · round {r}", "ru": "Запись · раунд {r}", "uk": "Запис · раунд {r}",
                   "ja": "帳簿 · 第{r}回", "ko": "장부 · {r} 라운드"},
    "kan_deal_line": {"en": "deal {d} ({trump}): kankei {a}-{b}, {side} won",
                      "ru": "сдача {d} ({trump}): канкэй {a}-{b}, выиграли {side}",
                      "uk": "роздача {d} ({trump}): канкей {a}-{b}, виграли {side}",
                      "ja": "{d}局目 ({trump}): 関係 {a}-{b}, {side}の勝ち",
                      "ko": "{d}번째 판 ({trump}): 칸케이 {a}-{b}, {side} 승"},
    "kan_no_deals": {"en": "no deal finished this round", "ru": "в этом раунде сдач ещё нет",
                     "uk": "у цьому раунді роздач ще нема", "ja": "この回の終わった局なし",
                     "ko": "이번 라운드에 끝난 판 없음"},
    "kan_match_scores": {"en": "match", "ru": "матч", "uk": "матч", "ja": "対戦", "ko": "경기"},
    "kan_deal_prompt": {"en": "your 10 cards for deal {d} of round {r} (trump {trump}), e.g. AS KS 10H JOKER …",
                        "ru": "ваши 10 карт для сдачи {d} раунда {r} (козырь {trump}), напр. AS KS 10H JOKER …",
                        "uk": "ваші 10 карт для роздачі {d} раунду {r} (козир {trump}), напр. AS KS 10H JOKER …",
                        "ja": "第{r}回 {d}局目 (切札 {trump}) の手札10枚: 例 AS KS 10H JOKER …",
                        "ko": "{r} 라운드 {d}번째 판 (트럼프 {trump}) 내 카드 10장: 예 AS KS 10H JOKER …"},
    "kan_chosen_later": {"en": "chosen", "ru": "выбирается", "uk": "обирається", "ja": "後で決定", "ko": "정해질 예정"},
    "kan_play": {"en": "play {card}", "ru": "сыграть {card}", "uk": "зіграти {card}", "ja": "{card}を出す",
                 "ko": "{card} 낸다"},
    "kan_lead_joker": {"en": "lead JOKER naming {s}", "ru": "ход джокером, масть {s}", "uk": "хід джокером, масть {s}",
                       "ja": "ジョーカーで{s}を指定", "ko": "조커로 {s} 지정"},
    "kan_show_label": {"en": "show {way} {cards}", "ru": "показать {way} {cards}", "uk": "показати {way} {cards}",
                       "ja": "見せる {way} {cards}", "ko": "보여 주기 {way} {cards}"},
    "kan_give_label": {"en": "give back {card}", "ru": "отдать {card}", "uk": "віддати {card}", "ja": "{card}を返す",
                       "ko": "{card} 돌려주기"},
    "kan_trump_label": {"en": "trump {s}", "ru": "козырь {s}", "uk": "козир {s}", "ja": "切札 {s}",
                        "ko": "트럼프 {s}"},
    "kan_kan_label": {"en": "kan: {who} shows {card}", "ru": "кан: {who} показывает {card}",
                      "uk": "кан: {who} показує {card}", "ja": "カン: {who}が{card}を見せる",
                      "ko": "칸: {who}가 {card} 공개"},
    "kan_not_your_turn": {"en": "it is {who}'s turn (a bot plays it)", "ru": "ходит {who} (играет бот)",
                          "uk": "ходить {who} (грає бот)", "ja": "{who}の番です (ボット)",
                          "ko": "{who} 차례입니다 (봇)"},
    "kan_advice_joker": {"en": "The joker may not be played to the last trick: use it by trick 9.",
                         "ru": "Джокер нельзя играть в последнюю взятку: сыграйте его до 9-й.",
                         "uk": "Джокер не можна грати в останню взятку: зіграйте його до 9-ї.",
                         "ja": "ジョーカーは最後のトリックに出せない: 9トリック目までに使う。",
                         "ko": "조커는 마지막 트릭에 낼 수 없다: 9번째 트릭까지 쓴다."},
    "kan_advice_partner": {"en": "Your partner holds the trick: give it your point cards, keep your winners.",
                           "ru": "Взятку берёт партнёр: отдайте ему очковые карты, сберегите старшие.",
                           "uk": "Взятку бере партнер: віддайте йому карти з очками, збережіть старші.",
                           "ja": "相方がトリックを取る: 点札を渡し、勝てる札は残す。",
                           "ko": "짝이 트릭을 가져간다: 점수 카드를 주고 이길 카드는 남긴다."},
    "kan_advice_count": {"en": "Count the points: {left} are still out and your side needs {need} more.",
                         "ru": "Считайте очки: в игре ещё {left}, вашей стороне нужно ещё {need}.",
                         "uk": "Рахуйте очки: у грі ще {left}, вашій стороні треба ще {need}.",
                         "ja": "点を数える: 残り{left}点、あなたの側はあと{need}点必要。",
                         "ko": "점수를 센다: 남은 점수 {left}, 우리 편은 {need}점 더 필요."},
}

LIST_SEP: Final = {"en": ", ", "ru": ", ", "uk": ", ", "ja": "、", "ko": ", "}

# Templates over the fields of engine.kan.hints.Reason (see the module docstring).
REASONS: Final[dict[str, dict[str, str]]] = {
    "joker_lead": {
        "en": "leads the joker naming {s}: it takes the trick, and the others must play {s}",
        "ru": "ход джокером с мастью {s}: взятка ваша, остальные должны играть {s}",
        "uk": "хід джокером з мастю {s}: взятка ваша, решта мусить грати {s}",
        "ja": "ジョーカーで{s}を指定: トリックを取り、他は{s}を出すことになる",
        "ko": "조커로 {s} 지정: 트릭을 가져가고 다른 사람은 {s}를 내야 한다",
    },
    "joker_takes": {
        "en": "the joker takes the trick for sure ({n0:.0f} pts on it)",
        "ru": "джокер наверняка берёт взятку ({n0:.0f} оч. в ней)",
        "uk": "джокер напевно бере взятку ({n0:.0f} оч. у ній)",
        "ja": "ジョーカーで確実にトリックを取る ({n0:.0f}点)",
        "ko": "조커로 트릭을 확실히 가져간다 ({n0:.0f}점)",
    },
    "lead": {
        "en": "leads {c0}: holds in {p0} of samples; every opponent follows {s} in {p1}",
        "ru": "ход {c0}: держит взятку в {p0} выборок; все соперники идут в {s} в {p1}",
        "uk": "хід {c0}: тримає взятку в {p0} вибірок; усі суперники йдуть у {s} в {p1}",
        "ja": "{c0}をリード: {p0}の試行で勝ち残る; 相手全員が{s}を出せるのは{p1}",
        "ko": "{c0} 리드: 표본의 {p0}에서 트릭을 지킨다; 상대 모두 {s}를 따라 내는 경우 {p1}",
    },
    "lead_trump": {
        "en": "leads trump {c0}: draws the opponents' trumps; holds in {p0} of samples",
        "ru": "ход козырем {c0}: выбивает козыри соперников; держит в {p0} выборок",
        "uk": "хід козирем {c0}: вибиває козирі суперників; тримає в {p0} вибірок",
        "ja": "切札{c0}をリード: 相手の切札を吐き出させる; {p0}の試行で勝ち残る",
        "ko": "트럼프 {c0} 리드: 상대 트럼프를 뽑아낸다; 표본의 {p0}에서 트릭을 지킨다",
    },
    "beat_follow": {
        "en": "follows {s} and takes the lead with {c0} ({n1:.0f} pts on the trick): holds in {p0} of samples",
        "ru": "идёт в {s} и перебивает картой {c0} ({n1:.0f} оч. во взятке): держит в {p0} выборок",
        "uk": "іде в {s} і перебиває картою {c0} ({n1:.0f} оч. у взятці): тримає в {p0} вибірок",
        "ja": "{s}に付けて{c0}で上回る (トリックに{n1:.0f}点): {p0}の試行で勝ち残る",
        "ko": "{s}를 따라 {c0}로 앞선다 (트릭에 {n1:.0f}점): 표본의 {p0}에서 지킨다",
    },
    "trump_in": {
        "en": "cannot follow {s}: trumps in with {c0} ({n1:.0f} pts on the trick); holds in {p0} of samples",
        "ru": "нет {s}: бьёт козырем {c0} ({n1:.0f} оч. во взятке); держит в {p0} выборок",
        "uk": "нема {s}: б'є козирем {c0} ({n1:.0f} оч. у взятці); тримає в {p0} вибірок",
        "ja": "{s}がない: 切札{c0}で切る (トリックに{n1:.0f}点); {p0}の試行で勝ち残る",
        "ko": "{s}가 없다: 트럼프 {c0}로 자른다 (트릭에 {n1:.0f}점); 표본의 {p0}에서 지킨다",
    },
    "partner_points": {
        "en": "the trick is your partner's ({c1}): gives it {c0}, a point",
        "ru": "взятка за партнёром ({c1}): отдаёт ему {c0}, очко",
        "uk": "взятка за партнером ({c1}): віддає йому {c0}, очко",
        "ja": "トリックは相方のもの ({c1}): 点札{c0}を渡す",
        "ko": "트릭은 짝의 것 ({c1}): 점수 카드 {c0}를 준다",
    },
    "partner_low": {
        "en": "the trick is your partner's ({c1}): plays {c0} and keeps the high cards",
        "ru": "взятка за партнёром ({c1}): играет {c0}, старшие бережёт",
        "uk": "взятка за партнером ({c1}): грає {c0}, старші береже",
        "ja": "トリックは相方のもの ({c1}): {c0}を出して強い札は残す",
        "ko": "트릭은 짝의 것 ({c1}): {c0}를 내고 높은 카드는 남긴다",
    },
    "follow_low": {
        "en": "follows {s} low with {c0}: cannot top {c1}",
        "ru": "идёт в {s} младшей {c0}: {c1} не перебить",
        "uk": "іде в {s} молодшою {c0}: {c1} не перебити",
        "ja": "{s}に安い{c0}を付ける: {c1}には勝てない",
        "ko": "{s}를 낮은 {c0}로 따라 낸다: {c1}를 이길 수 없다",
    },
    "discard": {
        "en": "cannot follow {s} nor win: throws {c0}, worth nothing",
        "ru": "нет {s} и не взять: сбрасывает {c0} без очков",
        "uk": "нема {s} і не взяти: скидає {c0} без очок",
        "ja": "{s}がなく勝てない: 無得点の{c0}を捨てる",
        "ko": "{s}가 없고 이길 수 없다: 점수 없는 {c0}를 버린다",
    },
    "discard_point": {
        "en": "cannot follow {s} nor win: throws {c0}, giving away a point",
        "ru": "нет {s} и не взять: сбрасывает {c0}, отдавая очко",
        "uk": "нема {s} і не взяти: скидає {c0}, віддаючи очко",
        "ja": "{s}がなく勝てない: {c0}を捨て1点を渡す",
        "ko": "{s}가 없고 이길 수 없다: {c0}를 버려 1점을 내준다",
    },
    "kan": {
        "en": "shows {c0}: you are kankei", "ru": "показывает {c0}: вы канкэй", "uk": "показує {c0}: ви канкей",
        "ja": "{c0}を見せる: あなたは関係", "ko": "{c0} 공개: 당신은 칸케이",
    },
    "iku": {
        "en": "iku: asks to lead the first trick yourself", "ru": "iku: сами начинаете первую взятку",
        "uk": "iku: самі починаєте першу взятку", "ja": "いく: 自分が最初のトリックをリードする",
        "ko": "이쿠: 첫 트릭을 직접 리드한다",
    },
    "koi": {
        "en": "koi: asks your partner to lead", "ru": "koi: просите партнёра начать",
        "uk": "koi: просите партнера почати", "ja": "こい: 相方にリードを頼む", "ko": "코이: 짝에게 리드를 맡긴다",
    },
    "give": {
        "en": "gives back {c0} ({n0:.0f} more {s} left in your hand)",
        "ru": "отдаёт {c0} (ещё {n0:.0f} {s} в руке)", "uk": "віддає {c0} (ще {n0:.0f} {s} у руці)",
        "ja": "{c0}を返す (手札に{s}があと{n0:.0f}枚)", "ko": "{c0}를 돌려준다 (손에 {s} {n0:.0f}장 남음)",
    },
    "show": {
        "en": "shows {cards}: {n0:.0f} {s} in your hand", "ru": "показывает {cards}: {n0:.0f} {s} в руке",
        "uk": "показує {cards}: {n0:.0f} {s} у руці", "ja": "{cards}を見せる: 手札に{s}が{n0:.0f}枚",
        "ko": "{cards}를 보여 준다: 손에 {s} {n0:.0f}장",
    },
    "show_none": {
        "en": "shows nothing: your partner names trump from their own hand",
        "ru": "ничего не показывает: партнёр выберет козырь по своей руке",
        "uk": "нічого не показує: партнер обере козир за своєю рукою",
        "ja": "何も見せない: 相方が自分の手札で切札を決める",
        "ko": "아무것도 보여 주지 않는다: 짝이 자기 패로 트럼프를 정한다",
    },
    "trump": {
        "en": "names {s} trump: {n0:.0f} in your hand, {n1:.0f} shown by your partner",
        "ru": "козырь {s}: {n0:.0f} в руке, {n1:.0f} показал партнёр",
        "uk": "козир {s}: {n0:.0f} у руці, {n1:.0f} показав партнер",
        "ja": "切札を{s}に: 手札に{n0:.0f}枚、相方が見せた{n1:.0f}枚",
        "ko": "트럼프 {s}: 손에 {n0:.0f}장, 짝이 보여 준 {n1:.0f}장",
    },
    "juuroku": {
        "en": "undertakes all 16 points: {n0:+.0f} made, {n1:+.0f} failed",
        "ru": "берётся взять все 16 очков: {n0:+.0f} если выйдет, {n1:+.0f} если нет",
        "uk": "береться взяти всі 16 очок: {n0:+.0f} якщо вийде, {n1:+.0f} якщо ні",
        "ja": "16点全部を取ると宣言: 成功 {n0:+.0f}、失敗 {n1:+.0f}",
        "ko": "16점 전부를 선언: 성공 {n0:+.0f}, 실패 {n1:+.0f}",
    },
    "gyaku_juuroku": {
        "en": "the mukankei undertake all 16 points: {n0:+.0f} made, {n1:+.0f} failed",
        "ru": "муканкэй берутся взять все 16: {n0:+.0f} если выйдет, {n1:+.0f} если нет",
        "uk": "муканкей беруться взяти всі 16: {n0:+.0f} якщо вийде, {n1:+.0f} якщо ні",
        "ja": "無関係が16点全部を宣言: 成功 {n0:+.0f}、失敗 {n1:+.0f}",
        "ko": "무칸케이가 16점 전부를 선언: 성공 {n0:+.0f}, 실패 {n1:+.0f}",
    },
    "pass": {
        "en": "no declaration: the deal counts ±{n0:.0f}", "ru": "без объявления: сдача стоит ±{n0:.0f}",
        "uk": "без оголошення: роздача варта ±{n0:.0f}", "ja": "宣言なし: この局は ±{n0:.0f}",
        "ko": "선언 없음: 이 판은 ±{n0:.0f}",
    },
    "stop": {
        "en": "ends the round after deal {n0:.0f}, keeping what it has won",
        "ru": "заканчивает раунд после сдачи {n0:.0f}, сохраняя выигрыш",
        "uk": "закінчує раунд після роздачі {n0:.0f}, зберігаючи виграш",
        "ja": "{n0:.0f}局目で回を終え、勝ち分を守る", "ko": "{n0:.0f}번째 판에서 라운드를 끝내고 딴 것을 지킨다",
    },
    "continue": {
        "en": "plays deal {n0:.0f} for more, risking a loss",
        "ru": "играет сдачу {n0:.0f} ради большего, рискуя проиграть",
        "uk": "грає роздачу {n0:.0f} заради більшого, ризикуючи програти",
        "ja": "{n0:.0f}局目に進む: 負ける危険もある", "ko": "{n0:.0f}번째 판을 더 한다: 질 위험도 있다",
    },
}

register(TEXTS)


def card_text(card: Card) -> str:
    """A card as the screens show it: ``10♥``, ``JOKER`` (one cell wide everywhere, unlike the joker emoji)."""
    return "JOKER" if card is Card.JOKER else card.symbol


def reason_text(reason: Reason, lang: str) -> str:
    """A hint's reason in ``lang`` (English where a language lacks a template)."""
    table = REASONS[reason.key]
    fields: dict[str, object] = {
        "cards": LIST_SEP.get(lang, ", ").join(card_text(c) for c in reason.cards),
        "s": reason.suit.symbol if reason.suit is not None else "",
    }
    for i in range(2):
        fields[f"c{i}"] = card_text(reason.cards[i]) if i < len(reason.cards) else "?"
        number = float(reason.numbers[i]) if i < len(reason.numbers) else 0.0
        fields[f"n{i}"] = number
        fields[f"p{i}"] = f"{number:.0%}"
    return table.get(lang, table["en"]).format(**fields)
