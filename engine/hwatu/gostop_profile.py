"""Go-Stop / Matgo house rules as one frozen value, read from a TOML profile (``game = "gostop"``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from engine.errors import ProfileError
from engine.hwatu.cards import PI, SAKE_CUP
from engine.hwatu.settings import card_mask, first_dealer, load_game_data, non_negative, table
from engine.profile import take

SCORE_KEYS: Final = (
    "gwang-3", "gwang-3-rain", "gwang-4", "gwang-5", "yeol", "yeol-cards", "godori", "tti", "tti-cards",
    "hongdan", "cheongdan", "chodan", "pi", "pi-cards",
)
STEAL_KEYS: Final = ("ppeok", "ja-ppeok", "jjok", "ttadak", "sweep", "bomb")
FACTOR_KEYS: Final = ("shake", "bomb", "gwang-bak", "pi-bak", "meong-bak", "nagari")
SAKE_CUP_RULES: Final = ("choice", "animal", "pi")
GO_BAK: Final = ("pays-all", "double", "off")


@dataclass(frozen=True, slots=True)
class GoStopProfile:
    """Every Go-Stop rule that tables disagree on; ``GoStopProfile.load("matgo")``."""

    name: str
    rounds: int
    players: int
    first_dealer: str
    hand_size: int
    field_size: int
    four_on_field: str  # "patu" or "play"
    four_in_hand: str  # "chongtong", "patu" or "play"
    chongtong: int
    score: dict[str, int]
    double_pi: int  # mask of the plains that count two
    triple_pi: int  # mask of the plains that count three
    sake_cup: str
    threshold: int
    go_add_calls: int
    factors: dict[str, int]
    pi_bak_below: int
    meong_bak_animals: int
    go_bak: str
    steal: dict[str, int]
    sweep_last_turn: bool
    bomb_dummies: int
    three_ppeok: int

    @classmethod
    def load(cls, name_or_path: str | Path = "gostop") -> GoStopProfile:
        return cls.from_data(load_game_data(name_or_path, "gostop"))

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> GoStopProfile:
        match, deal, score, pi, go, mult, steal, special = (
            table(data, t) for t in ("match", "deal", "score", "pi", "go", "multipliers", "steal", "special")
        )
        double = card_mask(pi.get("double"), "pi.double")
        triple = card_mask(pi.get("triple"), "pi.triple")
        if (double | triple) & ~PI or double & triple:
            raise ProfileError("pi.double and pi.triple must list distinct plain cards")
        profile = cls(
            name=str(data.get("name", "custom")),
            rounds=take(match, "rounds", int, "match"),
            players=take(match, "players", int, "match"),
            first_dealer=first_dealer(match),
            hand_size=take(deal, "hand-size", int, "deal"),
            field_size=take(deal, "field-size", int, "deal"),
            four_on_field=take(deal, "four-on-field", str, "deal", ("patu", "play")),
            four_in_hand=take(deal, "four-in-hand", str, "deal", ("chongtong", "patu", "play")),
            chongtong=non_negative(deal, "chongtong", "deal"),
            score={key: non_negative(score, key, "score") for key in SCORE_KEYS},
            double_pi=double,
            triple_pi=triple,
            sake_cup=take(pi, "sake-cup", str, "pi", SAKE_CUP_RULES),
            threshold=take(go, "threshold", int, "go"),
            go_add_calls=non_negative(go, "add-calls", "go"),
            factors={key: take(mult, key, int, "multipliers") for key in FACTOR_KEYS},
            pi_bak_below=non_negative(mult, "pi-bak-below", "multipliers"),
            meong_bak_animals=non_negative(mult, "meong-bak-animals", "multipliers"),
            go_bak=take(mult, "go-bak", str, "multipliers", GO_BAK),
            steal={key: non_negative(steal, key, "steal") for key in STEAL_KEYS},
            sweep_last_turn=take(steal, "sweep-last-turn", bool, "steal"),
            bomb_dummies=non_negative(special, "bomb-dummies", "special"),
            three_ppeok=non_negative(special, "three-ppeok", "special"),
        )
        profile._check()
        return profile

    def _check(self) -> None:
        if self.rounds < 1:
            raise ProfileError("match.rounds must be at least 1")
        if self.players not in (2, 3):
            raise ProfileError(f"match.players must be 2 (Matgo) or 3 (Go-Stop), not {self.players}")
        dealt = self.players * self.hand_size + self.field_size
        if self.hand_size < 1 or self.field_size < 0 or 48 - dealt < self.players * self.hand_size:
            raise ProfileError(
                f"deal: {self.players} hands of {self.hand_size} and {self.field_size} on the table leave a stock"
                " too short for every turn's flip"
            )
        if self.threshold < 1:
            raise ProfileError("go.threshold must be at least 1")
        for key, value in self.factors.items():
            if value < 1:
                raise ProfileError(f"multipliers.{key} must be at least 1 (1 switches it off)")
        for key in ("yeol-cards", "tti-cards", "pi-cards"):
            if self.score[key] < 1:
                raise ProfileError(f"score.{key} must be at least 1")

    def pi_value(self, mask: int, sake_as_pi: bool = False) -> int:
        """The pi count of a pile: plains one each, double and triple pi more, the cup two if it counts as pi."""
        count = (mask & PI).bit_count() + (mask & self.double_pi).bit_count() + 2 * (mask & self.triple_pi).bit_count()
        return count + (2 if sake_as_pi and mask & SAKE_CUP else 0)
