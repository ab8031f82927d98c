"""One call from a frame to what lies on the table: find the card quads, warp them, classify them in one batch,
label them jointly under the deck prior, and name the zone each lies in.

A dim frame is brightened first (``brighten``, ``vision.exposure``): the networks learned from scenes lit as a room
with its lights on, and found 8 % fewer cards in held-out scenes rendered at 0.3 of their light.

Where the finder is the learned one, it is also asked for doubtful candidates (heat from ``maybe_heat`` up to its
own threshold): such a candidate is kept only when the classifier is sure it shows a card's face
(``maybe_needs``): the classifier, not the finder, knows a half-hidden card from the table. Never a back on this
path: a phone's dark screen reads as a plain back with probability 0.95.

A still photo (``kibitz recognize``, ``eval-vision``: ``Recognizer.for_photos()``) gets fourteen things more:
- a closer look where its cards are small (``small_cards``): the finder sees a frame with its short side at 384 px,
  whatever the camera, so a phone shot from further away brings each card to the network smaller than any it trained
  on; where most sure cards' short side there is under ``SMALL_CARD`` px it looks again, zoomed, and of a card
  both looks found the surer look's quad stays (under ``MAYBE_SMALL`` px, where that look finds ``CLOSER_GAIN``
  times the sure cards); where it found too few sure cards to tell their size, and nothing card-sized, it looks
  again at ``PROBE_ZOOM`` and keeps that look where it finds ``PROBE_SURE`` sure cards (``_closer``);
- a lower bar for doubtful candidates (``maybe_needs=PHOTO_MAYBE_NEEDS``): the refiner checks them too; and a
  doubtful candidate read as a back is kept where it lies partly under a sure card's face (``pile_backs``), or alone,
  the size of the faces, when the refiner is sure it is a card (``lone_backs``);
- a look at each half of a doubtful candidate the classifier cannot name (``halves_look=HalvesLook()``,
  ``vision.halves_look``): two touching cards far from any named card may get one weak quad round both;
- more looks of the finder (``more_looks=MoreLooks()``, ``vision.more_looks``): the mirror image, a bigger copy,
  the frame with its lightness evened and with its top edge widened (a photo taken at a slant); what only they find
  is a doubtful candidate, and their quads over a card found but not named are tried on it (``other_quads``: in
  glare or a pile one of them may fit the card better);
- a second look (``second_look=SecondLook()``, ``vision.second_look``) at sure detections the classifier cannot
  name: in a fanned pile the finder's quad of a half-covered card is often a quarter of a width off;
- a look at cards still unnamed in the shape of their named neighbours (``pile_look=PileLook()``,
  ``vision.pile_look``): seen at a grazing angle a pile card is nearly square, and the finder's quad of it half again
  too long; a quad spanning two cards is split into both; a back's strip in a pile may be named a back there
  (``PHOTO_PILE_LOOK_BACKS``), and a face named only weakly (``weak_faces``) is looked at so too;
- a look at the whole card round a piece of it (``grow_look=GrowLook()``, ``vision.grow_look``): a card seen big
  may get a sure quad on its moon or its ribbon and none on the whole card;
- cards of a pile beside the named ones (``pile_steps=PileSteps()``, ``vision.pile_steps``): each named card moved a
  third to two thirds of a card along and across, onto a card the finder gave no peak;
- backs much smaller than the faces read (``small_backs=SmallBacks()``, ``vision.small_backs``): two halves of one
  back are one back, and a lone one is a shadow or a dark piece of something, not a card; a back much bigger than
  the faces is a phone or a box;
- one quad per card (``same_card_iou``): two quads overlapping that much and read as the same face are one card
  (the finder may put two loose quads on a close-up card, and a plain read twice is two plains to the deck prior);
- a second look at each detection by the refiner (``refiner=CardRefiner()``, ``vision.card_refiner``) before the
  crops are classified: moved onto the card it is about (the finder's quad of a covered card hedges between the
  strip that shows and the card), a doubtful one kept only when the refiner calls it a card, a sure one dropped when
  the refiner is all but sure there is no card (``refiner_veto=PHOTO_REFINER_VETO``: the art on a card box's lid,
  a dark gap named a back; the refiner sees what lies round them), and cards beside the sure ones looked for
  (``look_beside``);
- a look round each named close-up card, and each named card lying alone (``surround=CardSurround()``,
  ``vision.card_surround``): a card's art printed on a card box's lid is a card to the classifier, often bigger than
  the cards and so not looked at by the refiner, or away from them where the refiner may call it a card; a crop a
  card wider each way shows the lid's edge, the box's sides and its lettering;
- each named card checked in context by the refiner and the surround check (``in_context``): a playing card's
  diamond is a plain red patch to the classifier, a back; a back squarer than a card, or one both checks doubt, goes,
  and so does a face both are all but sure is no card;
- a squarish quad read as no card, lying apart, read again turned a quarter (``quarter_turn=PHOTO_QUARTER_TURN``):
  far up a slanted table a card's length is foreshortened until it looks wider than long, and its crop, long side
  down, shows it on its side.
The live table leaves them off: it knows a covered card from the views before it was covered, a played card's
half-covered partner named again cost it moves, a plain played onto its partner plain lies where one card's twin
quad would, and its time is better spent on the next frame (README). Its finder skips the coarse looks for cards
too big for the fine one (``default_finder``): its camera sees the cards at the mat's scale. One check it keeps:
each named back is shown to the refiner (``back_check``), one crop a back, and goes where the refiner all but rules
out a card (a playing card's pip is a plain patch to the classifier, as a back is).

Zones come from the printed mat when its markers are in view (``mat``: the layout that was printed), else from a
callable given by the caller (regions of the image), else every card's zone is None. The recogniser keeps no
per-frame state: call it from any thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.assign import assign_cards
from vision.capture import Frame
from vision.card_refiner import CardRefiner
from vision.card_surround import CardSurround
from vision.classifier import LIVE_TURN_BELOW, CardClassifier
from vision.exposure import brightened
from vision.finder import CardFinder
from vision.finder_learned import LearnedFinder, suppress
from vision.geometry import (
    expected_areas,
    iou_matrix,
    iou_of,
    order_quads,
    overlap_areas,
    quad_areas,
    quad_iou,
    quads_sides,
    smaller_share_of,
    warp_quads,
    within_frame,
)
from vision.grow_look import GrowLook
from vision.halves_look import HalvesLook
from vision.imageio import as_bgr
from vision.mat import MatLayout, locate_mat
from vision.more_looks import MoreLooks
from vision.observation import BACK, CardObservation, Detections, TableObservation
from vision.pile_look import PileLook
from vision.pile_steps import PileSteps
from vision.quad_refiner import shifted
from vision.second_look import SecondLook
from vision.small_backs import SmallBacks

ZoneOf = Callable[[np.ndarray, tuple[int, int]], Sequence[str | None]]
"""(N x 4 x 2 quads in image px, image (width, height)) -> the zone of each quad (or None)."""
Finder = Callable[[np.ndarray], Detections]


REFINE_MAX = 0.3  # a card longer than this share of the frame's short side keeps the finder's quad
REFINE_AGAIN = 0.2  # a detection the refiner gives a card this much, under its threshold, is looked at again
REFINE_SNAP = 0.85  # a refined quad this close to the finder's keeps the finder's (refitted at full resolution)
BESIDE_ALONG, BESIDE_ACROSS = 1.05, 1.08  # a card beside another, in its lengths and widths (a small gap between)
BESIDE_CLEAR = 0.3  # a card looked for beside the found ones overlaps none of them more (IoU)
PILE_TOUCH = 0.05  # a doubtful back overlapping a sure detection this much lies in a pile
OTHER_QUAD_OVER, OTHER_QUAD_CLEAR = 0.3, 0.6  # a more look's quad over a detection (IoU), clear of the others
OTHER_QUAD_NEEDS = 0.8  # the least probability of a card's face that such a quad must give to replace the detection's
PHOTO_PILE_LOOK_BACKS = 0.9  # a still photo's sure detection no try of the pile look reads as a face is named a back
# where its surest try gives a back this much (0.8 named a false back in a held-out scene; README, session 37)
WEAK_FACE = 0.7  # a still photo's face named less surely than this is looked at again in its neighbours' shape, and
# replaced where a try reads a card at the pile look's bar: a pile card's quad half on its neighbour reads that
# neighbour weakly (a card seen from its true quad gets 0.8-0.95; 0.8 lost a card named right; README, session 37)
SAME_CARD_IOU = 0.5  # two quads overlapping this much and read as the same card are one card
# ... and so are two read as the same class where the smaller lies this much in the other: one of them would show at
# most 30 % of its face (a half of a quad across two cards, a pile card found again). Backs only when one holds the
# other: a pile of backs overlaps that much (0.81 in a held-out pile).
SAME_CARD_INSIDE = 0.7
SAME_BACK_INSIDE = 0.9
PHOTO_MAYBE_NEEDS = 0.7  # a still photo's doubtful candidate needs this much of a card's face: the refiner checks
# them too (a doubtful one it does not call a card goes), and the classifier, trained with label smoothing, gives a
# card seen from its true quad 0.8-0.95, so 0.9 left out cards that were there (README, session 15)
PHOTO_PILE_BACKS = 0.8  # a still photo's doubtful candidate may be a back when the classifier gives a back this
# much and it lies partly under a sure card's face (README, session 17: held-out piles +0.3 points; never a back on
# the live table, where a phone's dark screen read as one with 0.95; 0.9 until session 33)
PHOTO_LONE_BACKS = 0.9  # a still photo's doubtful candidate read as a back and lying alone is kept when the refiner
# calls it a card this surely (README, session 29)
LONE_BACK_WEAK = 0.7  # ... or this much, where the refiner and the surround check both give it LONE_BACK_WEAK_SURE
LONE_BACK_WEAK_SURE = 0.85  # (0.97 in session 35; a fresh held-out back read 0.88 got 1.00 and 0.89: README,
# session 36)
LONE_BACK_NEEDS, LONE_BACK_CLEAR, LONE_BACK_SIZE = 0.9, 0.1, (0.6, 1.6)  # its back's least probability, its most
# overlap with another detection (IoU), its least and most area over a card's where it lies (``expected_areas``: from
# the faces read; on a slanted table a near back was over 1.6 times the far faces' median, README, session 35)
TWO_CARDS = 1.6  # a doubtful candidate this many cards big where it lies may be two backs touching: its halves are
# looked at as two (``HalvesLook``); the halves of one back read as backs too (README, session 35)
SMALL_CARD, ZOOMED_CARD, MOST_ZOOM = 22.0, 32.0, 2.5  # a still photo's cards are small when SMALL_SHARE of the sure
# ones have a short side under SMALL_CARD px at the finder's input; it then looks again, zoomed to bring their median
# to ZOOMED_CARD (README, sessions 29 and 42)
SMALL_SHARE = 0.75  # most of them: a pile's strips and a mat's far cards may be small among big ones
MAYBE_SMALL, CLOSER_GAIN = 28.0, 1.5  # under MAYBE_SMALL px the closer look is kept where it finds CLOSER_GAIN times
# the first look's sure cards
SMALL_CARDS_SEEN = 3  # sure cards needed to judge their size
PROBE_ZOOM = 2.0  # where fewer are seen, and none of the candidates is card-sized, the finder looks this much closer
PROBE_SURE, PROBE_MOST = 4, 40  # and takes that look where it finds this many sure cards, among no more candidates
# than PROBE_MOST (a black grid mat looked at closer gave 100: its cells)
SAME_LOOK_IOU = 0.3  # a first look's detection overlapping a closer look's this much is the same card
PHOTO_REFINER_VETO = 0.1  # a still photo's sure detection goes when the refiner gives a card less than this: of the
# held-out default scenes' named cards the least it gives is 0.17, the box art and dark things it drops 0-0.01
# (README, session 16)
VETO_APPEAL = 0.9  # a sure detection the refiner vetoes stays where the classifier names a face this surely and the
# surround check takes it for a loose card (``Recognizer._appealed``)
# A still photo's close-up face (not the only face named) goes when the surround check gives it a loose card less
# than PHOTO_SURROUND_VETO and the refiner less than CLOSE_UP_REFINER_VETO: card-box art (README, session 22). So
# does a face lying alone, no other detection within LONE_APART of its widths (centre to centre), that the surround
# check gives less than PHOTO_SURROUND_VETO: the art on a box's lid away from the cards (README, session 23).
PHOTO_SURROUND_VETO = 0.05
CLOSE_UP_REFINER_VETO = 0.3
LONE_APART = 3.0
# The only face named, close up, goes where the surround check gives it under ONLY_FACE_VETO: a card box alone in a
# close-up, its lid printed with the iris ribbon, got 0.003; the 56 close-up cards named alone in the held-out
# `close-up` set 0.077 or more (README, session 38).
ONLY_FACE_VETO = 0.02
# The check in context (``Recognizer._in_context``, still photos): a named back goes where both the refiner and the
# surround check give it a card under DOUBTED_BACK, or where its quad is squarer than SQUARE_BACK (long side over short)
# and either gives it under SQUARE_BACK_SURE; a named face (not close up) goes where the refiner gives it under
# DOUBTED_FACE[0] and the surround check under DOUBTED_FACE[1]. On real photos of a playing card on a grey table the
# pips read as backs (a diamond is a plain red patch to the classifier) and as plains; of the held-out scenes' named
# backs, those squarer than 1.3 (a card seen at a grazing angle) got 0.98-1.0 from both (README, session 35).
DOUBTED_BACK = 0.5
SQUARE_BACK, SQUARE_BACK_SURE = 1.3, 0.97
DOUBTED_FACE = (0.15, 0.05)
# The live table's named backs are shown to the refiner (``back_check``) and go where it gives them a card under
# LIVE_BACK_VETO: on real photos of a playing card the live recogniser named 67 backs (a diamond or a club is a plain
# patch to the classifier), 33 of them under 0.05; of the 161 true backs it named in held-out scenes the least got 0.08
# (README, session 36).
LIVE_BACK_VETO = 0.05
# A card far up a slanted table can look wider than long; its crop, warped long side down, shows it on its side and it
# reads as no card. A still photo's detection left unnamed whose quad's short side is PHOTO_QUARTER_TURN of its long
# side or more, overlapping no other detection (IoU under QUARTER_TURN_ALONE), is read again turned a quarter, and
# named so where a face or a back reaches QUARTER_TURN_NEEDS (README, session 38).
PHOTO_QUARTER_TURN, QUARTER_TURN_NEEDS, QUARTER_TURN_ALONE = 0.7, 0.8, 0.05


def _close_up(quads: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which quads are close-up cards: longer than ``REFINE_MAX`` of the frame's short side."""
    sides: np.ndarray = np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1)
    return sides > REFINE_MAX * min(shape[:2])


def _lone(quads: np.ndarray) -> np.ndarray:
    """Which quads lie alone: no other quad's centre within ``LONE_APART`` of their short side."""
    centres = quads.mean(axis=1)
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
    np.fill_diagonal(apart, np.inf)
    lone: np.ndarray = apart.min(axis=1, initial=np.inf) > LONE_APART * quads_sides(quads)[0]
    return lone


def _joined(first: Detections, closer: Detections) -> Detections:
    """Two looks' detections as one: of a card both found (IoU over ``SAME_LOOK_IOU``), the surer look's quad."""
    if not len(first) or not len(closer):
        return Detections.concatenate([first, closer])
    same = iou_matrix(first.quads, closer.quads) > SAME_LOOK_IOU
    surer = first.confidence[:, None] >= closer.confidence[None, :]
    return Detections.concatenate([first[~(same & ~surer).any(axis=1)], closer[~(same & surer).any(axis=0)]])


def _one_quad_per_card(quads: np.ndarray, probabilities: np.ndarray, faces: np.ndarray, back: int,
                       same_card_iou: float = SAME_CARD_IOU) -> np.ndarray:
    """Which detections to keep when two quads lie on one card (the finder's two loose quads on a close-up, or a
    step's second quad on a card already found): of two whose likeliest class is the same card's face (``faces``:
    which classes are) and that overlap by more than ``same_card_iou``, or where the smaller lies
    ``SAME_CARD_INSIDE`` in the other, the less sure goes; of two backs (class ``back``), where one lies
    ``SAME_BACK_INSIDE`` in the other. Two plains of a month are two cards to the deck prior, so it would name
    both."""
    top = probabilities.argmax(axis=1)
    sure = probabilities.max(axis=1)
    areas = overlap_areas(quads, quads)
    overlap, inside = iou_of(*areas), smaller_share_of(*areas)
    keep = np.ones(len(quads), bool)
    for i in np.argsort(-sure, kind="stable"):
        if not keep[i] or not (faces[top[i]] or top[i] == back):
            continue
        if top[i] == back:
            twin = inside[i] >= SAME_BACK_INSIDE
        else:
            twin = (overlap[i] > same_card_iou) | (inside[i] >= SAME_CARD_INSIDE)
        twin &= (top == top[i]) & keep
        twin[i] = False
        keep[twin] = False
    return keep


def _other_quads(image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray, todo: np.ndarray,
                 others: np.ndarray, classifier: CardClassifier) -> tuple[np.ndarray, np.ndarray]:
    """Each ``todo`` detection read again from the more looks' quads over it (``others``, IoU above 0.3; not one
    covering another detection, IoU over 0.6): in glare or a pile the evened or mirrored look may fit the card
    better. The quad the classifier is surest is a card's face replaces it from ``OTHER_QUAD_NEEDS``."""
    quads, probabilities = quads.copy(), probabilities.copy()
    over = iou_matrix(quads, others)
    for i in np.flatnonzero(todo):
        tries = others[over[i] > OTHER_QUAD_OVER]
        tries = tries[iou_matrix(tries, np.delete(quads, i, axis=0)).max(axis=1, initial=0.0) <= OTHER_QUAD_CLEAR]
        if not len(tries):
            continue
        read = classifier.classify(warp_quads(image, tries, classifier.input_size))
        face = classifier.face_probability(read)
        best = int(face.argmax())
        if face[best] >= OTHER_QUAD_NEEDS:
            quads[i], probabilities[i] = tries[best], read[best]
    return quads, probabilities


def default_back_check() -> CardRefiner | None:
    """The refiner that checks the live table's named backs (``back_check``), or None when its model is not shipped."""
    try:
        return CardRefiner()
    except FileNotFoundError:
        return None


def default_finder(coarse: bool = False) -> Finder:
    """The learned finder when its model is shipped; else the classical one (``CardFinder()`` stays selectable).
    ``coarse``: with its coarse looks, for cards too big for its input scale (still photos: a phone held over a
    card). The live table's camera looks down on the mat from where it stands, so its cards come at the mat's scale;
    the coarse looks were a quarter to a third of its time (README, session 24)."""
    try:
        return LearnedFinder() if coarse else LearnedFinder(zoom_out=())
    except FileNotFoundError:
        return CardFinder()


@dataclass
class Recognizer:
    finder: Finder = field(default_factory=default_finder)
    classifier: CardClassifier = field(default_factory=lambda: CardClassifier(turn_below=LIVE_TURN_BELOW))
    min_confidence: float = 0.5
    zone_of: ZoneOf | None = None
    mat: MatLayout | None = None
    maybe_heat: float = 0.25  # a learned finder's candidates from this heat up are checked by the classifier
    maybe_needs: float = 0.9  # the classifier's least probability of a card's face for such a candidate
    second_look: SecondLook | None = None  # still photos: SecondLook() (see the module docstring)
    same_card_iou: float | None = None  # still photos: SAME_CARD_IOU (see the module docstring)
    more_looks: MoreLooks | None = None  # still photos: MoreLooks() (see the module docstring)
    grow_look: GrowLook | None = None  # still photos: GrowLook() (see the module docstring)
    small_backs: SmallBacks | None = None  # still photos: SmallBacks() (see the module docstring)
    refiner: CardRefiner | None = None  # still photos: CardRefiner() (see the module docstring)
    look_beside: bool = False  # still photos: with the refiner, cards beside the sure ones looked for
    refiner_veto: float | None = None  # still photos: PHOTO_REFINER_VETO (see the module docstring)
    pile_look: PileLook | None = None  # still photos: PileLook() (see the module docstring)
    weak_faces: float | None = None  # still photos: WEAK_FACE (faces named less surely looked at by the pile look)
    pile_backs: float | None = None  # still photos: PHOTO_PILE_BACKS (see the module docstring)
    lone_backs: float | None = None  # still photos: PHOTO_LONE_BACKS (see the module docstring)
    other_quads: bool = False  # still photos: the more looks' quads over an unnamed card tried (module docstring)
    pile_steps: PileSteps | None = None  # still photos: PileSteps() (see the module docstring)
    halves_look: HalvesLook | None = None  # still photos: HalvesLook() (see the module docstring)
    small_cards: bool = False  # still photos: the finder looks closer where the cards are small (module docstring)
    surround: CardSurround | None = None  # still photos: CardSurround() (see the module docstring)
    surround_veto: float = PHOTO_SURROUND_VETO  # see _surrounded
    in_context: bool = False  # still photos: named cards checked by the refiner and the surround check (_in_context)
    quarter_turn: float | None = None  # still photos: PHOTO_QUARTER_TURN (squarish unnamed quads read turned too)
    brighten: bool = True  # a dim frame brightened first (``vision.exposure``)
    back_check: CardRefiner | None = field(default_factory=default_back_check)  # the live table: a named back goes
    # where this refiner gives it a card under LIVE_BACK_VETO (still photos check theirs in context: None)

    def __post_init__(self) -> None:
        if self.maybe_heat < 0.0 or not 0.0 <= self.maybe_needs <= 1.0:
            raise ValueError(f"Recognizer: maybe_heat must be >= 0 and maybe_needs in [0, 1], got {self.maybe_heat}"
                             f" and {self.maybe_needs}")
        if self.refiner_veto is not None and not 0.0 < self.refiner_veto < 1.0:
            raise ValueError(f"Recognizer: refiner_veto must lie in (0, 1) or be None, got {self.refiner_veto}")
        if not 0.0 < self.surround_veto < 1.0:
            raise ValueError(f"Recognizer: surround_veto must lie in (0, 1), got {self.surround_veto}")
        if self.weak_faces is not None and not 0.0 < self.weak_faces <= 1.0:
            raise ValueError(f"Recognizer: weak_faces must lie in (0, 1] or be None, got {self.weak_faces}")
        if self.quarter_turn is not None and not 0.0 < self.quarter_turn <= 1.0:
            raise ValueError(f"Recognizer: quarter_turn must lie in (0, 1] or be None, got {self.quarter_turn}")
        if self.same_card_iou is not None and not 0.0 < self.same_card_iou < 1.0:
            raise ValueError(f"Recognizer: same_card_iou must lie in (0, 1) or be None, got {self.same_card_iou}")

    @classmethod
    def for_photos(cls, **knobs: Any) -> Recognizer:
        """The recogniser for still photos (``kibitz recognize``, ``eval-vision``): a lower bar for doubtful
        candidates and backs in piles, more looks and their other quads, the second look, the pile look, the look at
        whole cards, small backs checked, one quad per card and the refiner on top of the live table's recogniser
        (see the module docstring); ``knobs`` as for the class."""
        photo = {"second_look": SecondLook(), "pile_look": PileLook(back_needs=PHOTO_PILE_LOOK_BACKS),
                 "weak_faces": WEAK_FACE, "pile_backs": PHOTO_PILE_BACKS,
                 "lone_backs": PHOTO_LONE_BACKS, "other_quads": True, "same_card_iou": SAME_CARD_IOU,
                 "more_looks": MoreLooks(), "grow_look": GrowLook(), "halves_look": HalvesLook(), "small_cards": True,
                 "small_backs": SmallBacks(), "look_beside": True, "pile_steps": PileSteps(),
                 "maybe_needs": PHOTO_MAYBE_NEEDS, "refiner_veto": PHOTO_REFINER_VETO, "in_context": True,
                 "quarter_turn": PHOTO_QUARTER_TURN, "back_check": None}
        if "refiner" not in knobs:  # a network session: not opened where the caller brings its own (or none)
            photo["refiner"] = CardRefiner()
        if "surround" not in knobs:
            photo["surround"] = CardSurround()
        if "classifier" not in knobs:  # every crop read both ways up (the live table's turns only the doubtful)
            photo["classifier"] = CardClassifier()
        if "finder" not in knobs:  # with its coarse looks, for close-up cards
            photo["finder"] = default_finder(coarse=True)
        return cls(**(photo | knobs))

    def _find(self, image: np.ndarray) -> tuple[Detections, np.ndarray, Detections]:
        """The finder's detections, which of them are doubtful (below the learned finder's threshold, or found by
        the more looks only), and the more looks' other quads of cards already found."""
        if not isinstance(self.finder, LearnedFinder):
            found = self.finder(image)
            return found, np.zeros(len(found), bool), Detections.empty()
        least = min(self.maybe_heat, self.finder.heat_threshold)
        found = self.finder(image, threshold=least)
        zoom = 1.0
        if self.small_cards:
            zoom, found = self._closer(image, found, least)
        doubtful = found.confidence < self.finder.heat_threshold
        others = Detections.empty()
        if self.more_looks is not None:  # zoomed, they look at the usual scale too: on a black grid mat the zoomed
            # looks alone lost five cards that those found (README, session 42)
            for scale in (zoom, 1.0) if zoom > 1.0 else (1.0,):
                more, seen_again = self.more_looks.split(self.finder, image, found, scale)
                found = Detections.concatenate([found, more])
                doubtful = np.concatenate([doubtful, np.ones(len(more), bool)])
                others = Detections.concatenate([others, seen_again])
        return found, doubtful, others

    def _zoom(self, found: Detections, shape: tuple[int, ...], small: float = SMALL_CARD) -> float:
        """How much bigger the finder should look at a still photo whose cards are small (``small_cards``): where
        ``SMALL_SHARE`` of the sure cards have a short side under ``small`` px at the finder's input, the zoom that
        brings their median to ``ZOOMED_CARD`` (at most ``MOST_ZOOM``); else 1, and 1 where fewer than
        ``SMALL_CARDS_SEEN`` are sure."""
        assert isinstance(self.finder, LearnedFinder)
        sure = found.confidence >= self.finder.heat_threshold
        if sure.sum() < SMALL_CARDS_SEEN:
            return 1.0
        sides = quads_sides(found.quads[sure])[0] * self.finder.input_scale(shape[1], shape[0])
        if float(np.quantile(sides, SMALL_SHARE)) >= small:
            return 1.0
        return max(min(ZOOMED_CARD / float(np.median(sides)), MOST_ZOOM), 1.0)

    def _probed(self, found: Detections, shape: tuple[int, ...]) -> bool:
        """Whether a photo whose first look found too few sure cards to judge their size may hold cards too small
        for that look: none of its candidates is card-sized (a sure one ``SMALL_CARD`` px or more at the finder's
        input, any one twice that: a close-up card, a box lid)."""
        assert isinstance(self.finder, LearnedFinder)
        sure = found.confidence >= self.finder.heat_threshold
        if sure.sum() >= SMALL_CARDS_SEEN or not len(found):
            return False
        sides = quads_sides(found.quads)[0] * self.finder.input_scale(shape[1], shape[0])
        return float(sides[sure].max(initial=0.0)) < SMALL_CARD and float(sides.max(initial=0.0)) < 2 * SMALL_CARD

    def _closer(self, image: np.ndarray, found: Detections, least: float) -> tuple[float, Detections]:
        """The finder's closer look at a still photo whose cards are small (``_zoom``); where they may be small
        (under ``MAYBE_SMALL``), kept where it finds ``CLOSER_GAIN`` times the sure cards; or, where its first look
        saw too few sure cards to tell and none card-sized (``_probed``), at ``PROBE_ZOOM``, kept where that look
        finds ``PROBE_SURE`` sure cards among at most ``PROBE_MOST`` candidates (a table seen from standing height).
        The zoom taken (1 for none) and both looks' detections joined (``_joined``)."""
        assert isinstance(self.finder, LearnedFinder)
        heat = self.finder.heat_threshold
        zoom = self._zoom(found, image.shape)
        if zoom > 1.0:
            return zoom, _joined(found, self.finder(image, threshold=least, zoom=zoom))
        zoom = self._zoom(found, image.shape, small=MAYBE_SMALL)
        if zoom > 1.0:  # maybe small: taken where it finds many more
            closer = self.finder(image, threshold=least, zoom=zoom)
            if (closer.confidence >= heat).sum() >= CLOSER_GAIN * (found.confidence >= heat).sum():
                return zoom, _joined(found, closer)
            return 1.0, found
        if not self._probed(found, image.shape):
            return 1.0, found
        closer = self.finder(image, threshold=least, zoom=PROBE_ZOOM)
        if (closer.confidence >= heat).sum() < PROBE_SURE or len(closer) > PROBE_MOST:
            return 1.0, found
        return PROBE_ZOOM, _joined(found, closer)

    def _refined(self, image: np.ndarray, found: Detections, doubtful: np.ndarray) -> tuple[Detections, np.ndarray]:
        """The detections moved onto the cards they are about (``refiner``; one it half doubts, ``REFINE_AGAIN``,
        looked at again from where it moved it); a doubtful one is kept only when the refiner calls it a card, a sure
        one only when it is not all but sure there is none (``refiner_veto``, unless ``_appealed``; a close-up card,
        which the refiner does not look at, stays), and of two that end on one card the surer stays."""
        assert self.refiner is not None
        big = _close_up(found.quads, image.shape)  # its crop would reach far past the frame
        quads, card = found.quads.copy(), np.ones(len(found), np.float32)
        if (~big).any():
            quads[~big], card[~big] = self.refiner(image, found.quads[~big])
        again = np.flatnonzero(~big & (card >= REFINE_AGAIN) & (card < self.refiner.threshold))
        if len(again):  # looked at again from where the refiner moved it, taken where it is surer there
            moved, surer = self.refiner(image, quads[again])
            better = surer > card[again]
            quads[again[better]], card[again[better]] = moved[better], surer[better]
        keep = ~doubtful | (card >= self.refiner.threshold)
        if self.refiner_veto is not None:  # a close-up card is not looked at: its card stays 1
            vetoed = keep & (card < self.refiner_veto)
            if vetoed.any() and self.surround is not None:
                vetoed[vetoed] = ~self._appealed(image, found.quads[vetoed])
            keep &= ~vetoed
        still = np.array([quad_iou(a, b) >= REFINE_SNAP for a, b in zip(quads, found.quads, strict=True)], bool)
        quads = np.where(still[:, None, None] | (card < self.refiner.threshold)[:, None, None], found.quads, quads)
        found, doubtful = found.replace(quads=quads)[keep], doubtful[keep]
        order = np.argsort(-found.confidence, kind="stable")
        kept = np.sort(order[suppress(found.quads[order], self.refiner.same_iou)])
        found, doubtful = found[kept], doubtful[kept]
        if self.look_beside and len(found):
            beside = self._beside(image, found.quads[~doubtful], found.quads)
            found = Detections.concatenate([found, beside])
            doubtful = np.concatenate([doubtful, np.ones(len(beside), bool)])
        return found, doubtful

    def _appealed(self, image: np.ndarray, quads: np.ndarray) -> np.ndarray:
        """Which sure detections the refiner vetoed stay after all: those the classifier names a card's face surely
        (``VETO_APPEAL``) and the surround check takes for a loose card (``surround_veto``). The refiner gave a clear
        held-out pampas moon on a wooden table 0.04; the card-box art it rightly vetoes is named as surely, but the
        surround check gives it 0.00-0.004 (README, session 32)."""
        assert self.surround is not None
        probabilities = self.classifier.classify(warp_quads(image, quads, self.classifier.input_size))
        face = self.classifier.face_probability(probabilities) >= VETO_APPEAL
        if face.any():
            face[face] = self.surround(image, quads[face])[1] >= self.surround_veto
        return face

    def _beside(self, image: np.ndarray, sure: np.ndarray, found: np.ndarray) -> Detections:
        """Cards the finder missed beside its sure ones (``look_beside``): in a row of small cards it may find some
        and miss a neighbour outright. Each sure card is moved a card's width across and a length along, either way,
        into the frame and clear of what was found (IoU 0.3); what the refiner then calls a card there is a
        doubtful candidate (the classifier must name a face)."""
        assert self.refiner is not None
        steps = ((BESIDE_ALONG, 0.0), (-BESIDE_ALONG, 0.0), (0.0, BESIDE_ACROSS), (0.0, -BESIDE_ACROSS))
        proposals = np.array([shifted(q, along, across) for q in sure for along, across in steps],
                             np.float32).reshape(-1, 4, 2)
        proposals = proposals[within_frame(proposals, image.shape)]
        if len(proposals):
            proposals = proposals[iou_matrix(proposals, found).max(axis=1, initial=0) < BESIDE_CLEAR]
        if not len(proposals):
            return Detections.empty()
        moved, card = self.refiner(image, proposals)
        ok = (card >= self.refiner.threshold) & (iou_matrix(moved, found).max(axis=1, initial=0) < BESIDE_CLEAR)
        moved, card = moved[ok], card[ok]
        order = np.argsort(-card, kind="stable")
        keep = order[suppress(moved[order], self.refiner.same_iou)]
        return Detections(moved[keep], confidence=card[keep], partial=np.zeros(len(keep), bool))

    def _pile_back(self, quads: np.ndarray, probabilities: np.ndarray, doubtful: np.ndarray) -> np.ndarray:
        """Which doubtful candidates are backs in a pile: read as a back with at least ``pile_backs`` and partly
        under (or over) a sure card's face. A lone dark thing the shape of a card (a phone's screen) is not, nor is
        the stock's next back, hidden under its top one."""
        assert self.pile_backs is not None
        back = probabilities[:, self.classifier.classes.index(BACK)] >= self.pile_backs
        faces = ~doubtful & (self.classifier.face_probability(probabilities) >= self.min_confidence)
        ask = np.flatnonzero(doubtful & back)
        out = np.zeros(len(quads), bool)
        if len(ask) and faces.any():
            out[ask] = iou_matrix(quads[ask], quads[faces]).max(axis=1) >= PILE_TOUCH
        return out

    def _lone_back(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray, ask: np.ndarray,
                   going: np.ndarray | None = None) -> np.ndarray:
        """Which ``ask`` candidates are backs lying alone (``lone_backs``): read as a back with at least
        ``LONE_BACK_NEEDS``, clear of every other detection but those ``going`` (doubtful candidates about to go, not
        read as a card: a second, looser quad on the back itself, half read as a face, blocked one), the size of a card
        where it lies as the faces read tell it (there must be one), and called a card by the refiner with at least
        ``lone_backs``. The refiner sees round the quad: a phone's dark screen, which the classifier reads as a back,
        has its body and its shadow there. A back read with only ``LONE_BACK_WEAK`` (a plain dark rectangle is also
        what a patch of dark table looks like) needs the refiner and the surround check both at
        ``LONE_BACK_WEAK_SURE``."""
        assert self.lone_backs is not None and self.refiner is not None
        out = np.zeros(len(quads), bool)
        back = probabilities[:, self.classifier.classes.index(BACK)]
        weak = back < LONE_BACK_NEEDS  # then both networks that see round it must be all but sure
        candidates = np.flatnonzero(ask & (back >= LONE_BACK_WEAK))
        if not len(candidates):
            return out
        blocking = np.ones(len(quads), bool) if going is None else ~going
        blocking[candidates] = True  # two of them on one back block each other
        overlap = iou_matrix(quads[candidates], quads) * blocking[None, :]
        overlap[np.arange(len(candidates)), candidates] = 0.0
        candidates = candidates[overlap.max(axis=1) <= LONE_BACK_CLEAR]
        faces = self.classifier.face_probability(probabilities) >= self.min_confidence
        if not faces.any():  # nothing to measure it by: an app's icon on a phone reads as a red back
            return out
        size = quad_areas(quads[candidates]) / expected_areas(quads[faces], quads[candidates])
        candidates = candidates[(size >= LONE_BACK_SIZE[0]) & (size <= LONE_BACK_SIZE[1])]
        if not len(candidates):
            return out
        card = self.refiner(image, quads[candidates])[1]
        sure = card >= self.lone_backs
        half_read = weak[candidates] & sure  # read as a back under LONE_BACK_NEEDS: the surround check must agree
        if half_read.any():
            around = (self.surround(image, quads[candidates[half_read]])[1] if self.surround is not None
                      else np.zeros(int(half_read.sum()), np.float32))
            sure[half_read] = (card[half_read] >= LONE_BACK_WEAK_SURE) & (around >= LONE_BACK_WEAK_SURE)
        out[candidates] = sure
        return out

    def _in_shape(self, image: np.ndarray, found: Detections, probabilities: np.ndarray, todo: np.ndarray,
                  lenders: np.ndarray, doubtful: bool = False) -> tuple[Detections, np.ndarray, np.ndarray]:
        """The pile look (``pile_look``) at the ``todo`` detections in the shape of the ``lenders`` (``doubtful``:
        candidates the finder was unsure of, about to go): the detections and probabilities after it, and the
        detection each came from."""
        assert self.pile_look is not None
        quads, probabilities, source = self.pile_look(image, found.quads, probabilities, todo, lenders,
                                                      self.classifier, self.refiner, doubtful=doubtful)
        return found[source].replace(quads=quads), probabilities, source

    def _doubtful_dropped(self, image: np.ndarray, found: Detections, probabilities: np.ndarray,
                          doubtful: np.ndarray) -> tuple[Detections, np.ndarray]:
        """The detections without the doubtful candidates the classifier does not name a card's face surely enough
        (``maybe_needs``), save backs in a pile (``pile_backs``); the pile look tries those first in their
        neighbours' shape."""
        if not doubtful.any():
            return found, probabilities
        backs = np.zeros(len(found), bool) if self.pile_backs is None else self._pile_back(found.quads, probabilities,
                                                                                           doubtful)
        if self.pile_look is not None:  # it leaves the backs alone, so they stay backs in a pile
            found, probabilities, source = self._in_shape(image, found, probabilities,
                                                          self._going(probabilities, doubtful, backs),
                                                          ~doubtful & ~self._unnamed(probabilities), doubtful=True)
            doubtful, backs = doubtful[source], backs[source]
        if self.halves_look is not None:
            faces = self.classifier.face_probability(probabilities) >= self.min_confidence
            pairs = (quad_areas(found.quads) >= TWO_CARDS * expected_areas(found.quads[faces], found.quads)
                     if faces.any() else np.zeros(len(found), bool))
            quads, probabilities, source = self.halves_look(image, found.quads, probabilities,
                                                            self._going(probabilities, doubtful, backs),
                                                            self.classifier, self.refiner, pairs)
            found, doubtful, backs = found[source].replace(quads=quads), doubtful[source], backs[source]
        if self.lone_backs is not None and self.refiner is not None:
            backs |= self._lone_back(image, found.quads, probabilities, doubtful & ~backs,
                                     self._going(probabilities, doubtful, backs))
        keep = ~self._going(probabilities, doubtful, backs)
        return found[keep], probabilities[keep]

    def _going(self, probabilities: np.ndarray, doubtful: np.ndarray, backs: np.ndarray) -> np.ndarray:
        """Which detections go as things stand: doubtful candidates neither kept as backs (``backs``) nor read as a
        card's face surely enough (``maybe_needs``)."""
        going: np.ndarray = doubtful & ~backs & (self.classifier.face_probability(probabilities) < self.maybe_needs)
        return going

    def _looked_again(self, image: np.ndarray, found: Detections, probabilities: np.ndarray, others: Detections
                      ) -> tuple[Detections, np.ndarray]:
        """The photo steps that look again at detections read as no card, each at those the steps before left:
        the second look, the pile look (and again at the faces named only weakly), the more looks' other quads, the
        look at the whole card round a piece."""
        if self.second_look is not None and len(found):
            unnamed = self._unnamed(probabilities)
            if unnamed.any():
                quads, probabilities = self.second_look(image, found.quads, probabilities, unnamed, self.classifier)
                found = found.replace(quads=quads)
        if self.pile_look is not None and len(found):
            unnamed = self._unnamed(probabilities)
            found, probabilities, _ = self._in_shape(image, found, probabilities, unnamed, ~unnamed)
            if self.weak_faces is not None:
                unnamed = self._unnamed(probabilities)
                weak = self._weakly_named(probabilities, unnamed)
                if weak.any():
                    found, probabilities, _ = self._in_shape(image, found, probabilities, weak, ~unnamed & ~weak)
        if self.other_quads and len(others) and len(found):
            unnamed = self._unnamed(probabilities)
            if unnamed.any():
                quads, probabilities = _other_quads(image, found.quads, probabilities, unnamed, others.quads,
                                                    self.classifier)
                found = found.replace(quads=quads)
        if self.grow_look is not None and len(found):
            unnamed = self._unnamed(probabilities)
            if unnamed.any():
                faces = self.classifier.face_probability(probabilities) >= self.min_confidence
                quads, probabilities, keep = self.grow_look(image, found.quads, probabilities, unnamed, faces,
                                                            self.classifier)
                found, probabilities = found.replace(quads=quads)[keep], probabilities[keep]
        return found, probabilities

    def _stepped(self, image: np.ndarray, found: Detections, probabilities: np.ndarray
                 ) -> tuple[Detections, np.ndarray]:
        """The detections and the cards of a pile found beside the named ones (``pile_steps``). A new card that
        overlaps a detection lies in a pile, over or under it: partial."""
        assert self.pile_steps is not None and self.refiner is not None
        quads, read = self.pile_steps(image, found.quads, probabilities, ~self._unnamed(probabilities),
                                      self.classifier, self.refiner)
        if not len(quads):
            return found, probabilities
        partial = iou_matrix(quads, found.quads).max(axis=1) >= PILE_TOUCH
        confidence = self.classifier.face_probability(read)
        new = Detections(quads, confidence=confidence, partial=partial)
        return Detections.concatenate([found, new]), np.concatenate([probabilities, read])

    def _surrounded(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
        """Which detections to keep: all but the close-up faces that neither the surround check nor the refiner
        takes for a card, and the faces lying alone that the surround check does not (the art on a card box's lid:
        ``vision.card_surround``). The refiner does not look at a close-up card before (``_refined``). The only face
        named, close up, goes only where the surround check all but rules out a card (``ONLY_FACE_VETO``): both
        crops then reach far past the frame, where the two networks doubt real close-up cards. Nor is a face near
        others asked, since the surround check doubts cards in piles and hands (README, sessions 22, 23 and 38)."""
        assert self.surround is not None
        keep = np.ones(len(quads), bool)
        faces = self.classifier.face_probability(probabilities) >= self.min_confidence
        if faces.sum() == 1:
            only = np.flatnonzero(faces)
            if _close_up(quads[only], image.shape)[0]:
                keep[only] = self.surround(image, quads[only])[1] >= ONLY_FACE_VETO
            return keep
        if faces.sum() < 2:
            return keep
        big = _close_up(quads, image.shape)
        ask = np.flatnonzero(faces & (big | _lone(quads)))
        if not len(ask):
            return keep
        _, around = self.surround(image, quads[ask])
        card = np.zeros(len(ask), np.float32)  # a lone face not close up: the refiner has looked at it already
        if self.refiner is not None and big[ask].any():
            card[big[ask]] = self.refiner(image, quads[ask][big[ask]])[1]
        keep[ask] = (around >= self.surround_veto) | (card >= CLOSE_UP_REFINER_VETO)
        return keep

    def _in_context(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
        """Which detections to keep: all but the named backs and faces that the refiner and the surround check, which
        see round the quad, do not take for cards (``DOUBTED_BACK``, ``SQUARE_BACK``, ``DOUBTED_FACE``). A back is a
        plain patch of a card's colour to the classifier, and so is a diamond pip on a playing card; its outline is all
        that tells it for a card, so a back squarer than a card needs both checks all but sure. A close-up card is left
        alone: both crops reach far past the frame (see ``_surrounded``)."""
        assert self.refiner is not None and self.surround is not None
        keep = np.ones(len(quads), bool)
        backs = self._named_backs(probabilities)
        ask = np.flatnonzero((backs | (self.classifier.face_probability(probabilities) >= self.min_confidence))
                             & ~_close_up(quads, image.shape))
        if not len(ask):
            return keep
        around = self.surround(image, quads[ask])[1]
        card = self.refiner(image, quads[ask])[1]
        short, long = quads_sides(quads[ask])
        square = long < SQUARE_BACK * short
        doubted_back = (((card < DOUBTED_BACK) & (around < DOUBTED_BACK))
                        | (square & ((card < SQUARE_BACK_SURE) | (around < SQUARE_BACK_SURE))))
        doubted_face = (card < DOUBTED_FACE[0]) & (around < DOUBTED_FACE[1])
        keep[ask] = ~np.where(backs[ask], doubted_back, doubted_face)
        return keep

    def _backs_checked(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
        """Which detections to keep on the live table: all but the named backs the refiner (``back_check``), which
        sees round the quad, all but rules out as cards (``LIVE_BACK_VETO``). A back is a plain patch of a card's
        colour to the classifier, and so is a playing card's pip or a dark gap; one crop each, backs only, as a frame
        shows few (a face checked so too would cost the live table 5 ms a frame). A close-up back is left alone: its
        crop would reach far past the frame (see ``_surrounded``)."""
        assert self.back_check is not None
        keep = np.ones(len(quads), bool)
        ask = np.flatnonzero(self._named_backs(probabilities) & ~_close_up(quads, image.shape))
        if len(ask):
            keep[ask] = self.back_check(image, quads[ask])[1] >= LIVE_BACK_VETO
        return keep

    def _weakly_named(self, probabilities: np.ndarray, unnamed: np.ndarray) -> np.ndarray:
        """Which detections read as a face, but no class reaches ``weak_faces``."""
        assert self.weak_faces is not None
        weak: np.ndarray = (~unnamed & ~self._named_backs(probabilities)
                            & (probabilities.max(axis=1, initial=0.0) < self.weak_faces))
        return weak

    def _quarter_turned(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
        """The probabilities with the unnamed squarish quads (``quarter_turn``) that overlap no other detection read
        again turned a quarter, where that names a face or a back with ``QUARTER_TURN_NEEDS``: seen at a grazing
        angle, a card's short side may be the longer one in the photo (held-out seed 7900 scene 78: five
        foreshortened cards read as no card long side down, each named right turned; the refiner must call it a
        card too: a real photo's spade pip read turned as a pine plain, 0.85, which the refiner gives 0.39, where it
        gives those cards 0.95-1.0). In a pile a squarish strip is a covered card, which the pile look tries in its
        neighbours' shape: named turned, from its loose quad, it led the pile steps astray (``piles`` scene 15 lost
        two cards)."""
        assert self.quarter_turn is not None
        short, long = quads_sides(quads)
        ask = np.flatnonzero(self._unnamed(probabilities) & (short >= self.quarter_turn * long))
        if len(ask):
            overlap = iou_matrix(quads[ask], quads)
            overlap[np.arange(len(ask)), ask] = 0.0  # not with itself
            ask = ask[overlap.max(axis=1) < QUARTER_TURN_ALONE]
        if not len(ask):
            return probabilities
        turned = np.roll(order_quads(quads[ask]), 1, axis=1)  # its short side now along the crop's height
        read = self.classifier.classify(warp_quads(image, turned, self.classifier.input_size, as_given=True))
        take = self._card_probability(read) >= QUARTER_TURN_NEEDS
        if self.refiner is not None and take.any():  # it sees what lies round the quad: a pip of a playing card is
            take[take] = self.refiner(image, quads[ask[take]])[1] >= self.refiner.threshold  # no card there
        out = probabilities.copy()
        out[ask[take]] = read[take]
        return out

    def _named_backs(self, probabilities: np.ndarray) -> np.ndarray:
        """Which detections read as backs: a back at ``min_confidence``, and likelier than any face."""
        if BACK not in self.classifier.classes:
            return np.zeros(len(probabilities), bool)
        back = probabilities[:, self.classifier.classes.index(BACK)]
        named: np.ndarray = (back >= self.min_confidence) & (back >= self.classifier.face_probability(probabilities))
        return named

    def _card_probability(self, probabilities: np.ndarray) -> np.ndarray:
        """Each detection's likeliest card: its surest face, or its back where that is surer."""
        card = self.classifier.face_probability(probabilities)
        if BACK in self.classifier.classes:
            card = np.maximum(card, probabilities[:, self.classifier.classes.index(BACK)])
        return card

    def _unnamed(self, probabilities: np.ndarray) -> np.ndarray:
        """Which detections read as no card: neither a face nor a back at ``min_confidence``."""
        unnamed: np.ndarray = self._card_probability(probabilities) < self.min_confidence
        return unnamed

    def __call__(self, frame: Frame | np.ndarray) -> TableObservation:
        image = frame.image if isinstance(frame, Frame) else as_bgr(frame)
        height, width = image.shape[:2]
        t0 = time.perf_counter()
        if self.brighten:
            image = brightened(image)
        found, doubtful, others = self._find(image)
        t1 = time.perf_counter()
        pose = locate_mat(image, self.mat) if self.mat is not None else None
        if pose is not None and len(found):
            off_markers = ~pose.on_markers(found.quads)  # a marker is never a card
            found, doubtful = found[off_markers], doubtful[off_markers]
        t_refine = time.perf_counter()
        if self.refiner is not None and len(found):
            found, doubtful = self._refined(image, found, doubtful)
        t_mat = time.perf_counter()
        crops = warp_quads(image, found.quads, self.classifier.input_size)
        t2 = time.perf_counter()
        probabilities = self.classifier.classify(crops)
        if self.quarter_turn is not None and len(found):
            probabilities = self._quarter_turned(image, found.quads, probabilities)
        found, probabilities = self._doubtful_dropped(image, found, probabilities, doubtful)
        found, probabilities = self._looked_again(image, found, probabilities, others)
        if self.pile_steps is not None and self.refiner is not None and len(found):
            found, probabilities = self._stepped(image, found, probabilities)
        if pose is not None and len(found):  # an empty zone's printed frame is not a card either
            unnamed = self._unnamed(probabilities)
            if unnamed.any():
                unnamed[unnamed] = pose.on_zone_frames(found.quads[unnamed])
                found, probabilities = found[~unnamed], probabilities[~unnamed]
        if self.small_backs is not None and len(found) > 1:
            found, probabilities = self.small_backs(image, found, probabilities, self.classifier)
        if self.surround is not None and len(found):
            keep = self._surrounded(image, found.quads, probabilities)
            found, probabilities = found[keep], probabilities[keep]
        if self.in_context and self.surround is not None and self.refiner is not None and len(found):
            keep = self._in_context(image, found.quads, probabilities)
            found, probabilities = found[keep], probabilities[keep]
        if self.back_check is not None and len(found):
            keep = self._backs_checked(image, found.quads, probabilities)
            found, probabilities = found[keep], probabilities[keep]
        if self.same_card_iou is not None and len(found) > 1:
            keep = _one_quad_per_card(found.quads, probabilities, self.classifier.is_face,
                                      self.classifier.classes.index(BACK), self.same_card_iou)
            found, probabilities = found[keep], probabilities[keep]
        t3 = time.perf_counter()
        labels = assign_cards(probabilities, self.classifier.classes, self.classifier.class_cards,
                              self.min_confidence)
        t4 = time.perf_counter()
        zones: Sequence[str | None] = [None] * len(found)
        positions: Sequence[tuple[float, float] | None] = [None] * len(found)
        if pose is not None and len(found):
            zones, centres = pose.place(found.quads)
            positions = [(float(x), float(y)) for x, y in centres]
        elif self.zone_of is not None and len(found):
            zones = self.zone_of(found.quads, (width, height))
        t5 = time.perf_counter()
        timings = {"find": (t1 - t0 + t_mat - t_refine) * 1e3, "warp": (t2 - t_mat) * 1e3, "classify": (t3 - t2) * 1e3,
                   "assign": (t4 - t3) * 1e3, "zones": (t5 - t4 + t_refine - t1) * 1e3}
        cards = tuple(
            CardObservation(label, float(confidence), quad, zone=zone, position_mm=mm, partial=bool(partial))
            for label, confidence, quad, zone, mm, partial in zip(
                labels.labels, labels.confidences, found.quads, zones, positions, found.partial, strict=True)
        )
        mat = pose.layout.game if pose is not None else None
        return TableObservation((width, height), cards, timings, mat)
