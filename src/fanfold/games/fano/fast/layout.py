"""The array layout of a fast Fano state, and the packed integer action ids.

Pure Python constants shared by the compiled kernels (:mod:`.kernels`, which read module
globals as compile-time constants) and the codec (:mod:`.codec`), so that encoding and decoding
never import Numba.

**State.** One flat ``int32`` array: a header of :data:`HEADER` slots, then one block of
:data:`PLAYER_WIDTH` slots per seat. A zone is a count followed by its cards, sorted like the
reference's tuples (the draw pile in pile order, the next card last), so decoding is a slice.

**Config.** A small ``int32`` array of the options the kernels read (:data:`CFG_SIZE` slots).

**Actions.** An ``int64``: the kind in bits 0-7, then up to five card codes (0: none; a card
code is below 256) in bits 8-15, 16-23, 24-31, 32-39 and 48-55, and flags in bits 40-47. The
packing is one to one with the reference's action values (:mod:`.codec` converts both ways).
"""

from __future__ import annotations

# ------------------------------------------------------------------------------ the header
TURN_PLAYER = 0
PHASE = 1
TURN = 2
PENDING_ATTACKER = 3  # 0: no attack pending
PENDING_TARGET = 4
PENDING_DEFENDER = 5
PENDING_REVERSE = 6
PENDING_SUPPORT = 7
TARGET_SEAT = 8  # -1: None
PRIORITY = 9
HEADER = 12

# ------------------------------------------------------------------- one player's block
HAND_CAP = 4
FIELD_CAP = 6
PILE_CAP = 40
KNOWN_CAP = 4
SPECIALS_CAP = 16

HAND = 0
FIELD = HAND + 1 + HAND_CAP
DRAW = FIELD + 1 + FIELD_CAP
UP = DRAW + 1 + PILE_CAP
DOWN = UP + 1 + PILE_CAP
KNOWN = DOWN + 1 + PILE_CAP
PROTECTED = KNOWN + 1 + KNOWN_CAP
HIDDEN = PROTECTED + 1 + FIELD_CAP
SPECIALS = HIDDEN + 1 + FIELD_CAP  # entries level * 4 + special index
LEVEL = SPECIALS + 1 + SPECIALS_CAP
SHUFFLES = LEVEL + 1
TEMP_JOKERS = SHUFFLES + 1
TRIBUTE = TEMP_JOKERS + 1
PLAYER_WIDTH = TRIBUTE + 1

#: Each zone: (offset, capacity), in the order of the reference's ``PlayerState`` fields.
ZONES = {
    "hand": (HAND, HAND_CAP),
    "field": (FIELD, FIELD_CAP),
    "draw": (DRAW, PILE_CAP),
    "up": (UP, PILE_CAP),
    "down": (DOWN, PILE_CAP),
    "known": (KNOWN, KNOWN_CAP),
    "protected": (PROTECTED, FIELD_CAP),
    "hidden": (HIDDEN, FIELD_CAP),
}

# ------------------------------------------------------------------------------ phases
#: Phase codes, in the order of the reference's ``Phase`` enum.
P_DRAW_SHUFFLE = 0
P_MULLIGAN = 1
P_MAIN = 2
P_REACT = 3
P_SHUFFLE = 4
P_END = 5
P_OVER = 6

# ------------------------------------------------------------------------------ config
C_PLAYERS = 0
C_LAST_TURN = 1
C_PROMOTIONS_TO_WIN = 2
C_MULLIGAN = 3
C_PROMOTION_ENDS_MAIN = 4
C_EASY = 5  # any three prestige cards promote (2-suit, all prestige, easy)
C_HARD = 6  # an 8, a 9 and a 10 of one suit
C_TRIONFEY = 7
C_SPECIALS = 8  # 0 off, 1 by suit, 2 by choice
C_OVERSUM_PRESTIGE_ONLY = 9
C_TRIBUTE = 10
C_TEAMS = 11  # 0 none, 1 all for one, 2 one for all
C_SEAT_SPECIALS = 16  # one bit mask per seat: the specials it may use (bit = special index)
#: Seats the layout has room for.
MAX_SEATS = 8
CFG_SIZE = C_SEAT_SPECIALS + MAX_SEATS

#: Special indices, in the order of the reference's ``Special`` enum.
S_REVERSE = 0
S_OVERSUM = 1
S_TEMP_JOKER = 2
S_DEFENSE = 3

# ----------------------------------------------------------------------------- actions
K_ATTACK = 1
K_COMBINE = 2
K_PROMOTE = 3
K_DEFEND = 4
K_PLAY = 5
K_SUBSTITUTE = 6
K_DISCARD = 7
K_PASS = 8
K_MULLIGAN = 9
K_SHUFFLE = 10
K_DECLARE = 11
K_RECRUIT = 12
K_COUNTER = 13
K_ALLOW = 14
K_FLIP = 15
K_SACRIFICE = 16
K_PLACE_JOKER = 17

SHIFT_A = 8
SHIFT_B = 16
SHIFT_C = 24
SHIFT_D = 32
SHIFT_FLAGS = 40
SHIFT_E = 48
#: Flags: reverse / oversum / face down / mulligan taken / shuffle with joker.
F_SET = 1

#: Largest number of legal actions the kernels write (a buffer this long always suffices).
MAX_ACTIONS = 2048

# ------------------------------------------------------------------------ apply statuses
OK = 0
#: The apply needs the reference's reshuffle: ``shuffle[2]`` names the seat, ``shuffle[3]``
#: the number of cards (exact mode only).
NEEDS_SHUFFLE = 1
#: The shuffle buffer: mode (0 the fast path's own generator, 1 exact), the card count the
#: permutation given is for (-1: none), the seat asked for, the count asked for, then the
#: permutation.
SHUFFLE_MODE = 0
SHUFFLE_GIVEN = 1
SHUFFLE_SEAT = 2
SHUFFLE_COUNT = 3
SHUFFLE_PERM = 4
SHUFFLE_SIZE = SHUFFLE_PERM + PILE_CAP
