"""The ladder's evaluation: logistic-regression weights over the features of
:mod:`fanfold.agents.ladder.features`, one set per edition.

Fitted by :mod:`fanfold.agents.ladder.training` on the positions at the end of every turn of
600 games of the yardstick, ``planner(deals=1, nodes=20)``, against itself in each edition
(seeds 50000 to 50599), each labelled with whether the seat that had just played went on to
win: the evaluation of a position is a logit of winning it::

    python3 -m fanfold.agents.ladder.training --edition classic --games 600 --seed 50000
    python3 -m fanfold.agents.ladder.training --edition trionfey --games 600 --seed 50000

(the classic weights were checked to come out the same to the last digit).

Fits on the ladder's own games were weaker (``docs/notes/2026-11-28-fano-ladder.md``).
"""

from __future__ import annotations

from fanfold.agents.ladder.features import SIZE
from fanfold.games.fano.config import FanoConfig

#: The fit's name.
VERSION = "m3"

#: Classic edition (three promotions win).
CLASSIC: tuple[float, ...] = (
    0.7075585107194928,  # bias
    4.3538270140949065,  # m_lt1
    1.9962553404032894,  # m_lt2
    0.5133346484663357,  # m_pr1
    1.126355285562198,  # m_pr2
    0.06789906089328293,  # m_ready
    0.015182590593082029,  # m_ready_safe
    0.3209444216395471,  # m_ready_p2
    -0.041278207424354445,  # m_pair
    -0.02894982172535838,  # m_pin
    0.06061666054475787,  # m_half
    0.22814654783836605,  # m_combat
    -6.736386929961498e-05,  # m_useful
    -0.088271649440524,  # m_hand
    -0.35797906516522326,  # m_exp
    0.05124757444526275,  # m_exp_pair
    0.2830344927832847,  # m_threat
    -0.11037180769666302,  # m_threat_pair
    -0.09633811450431828,  # m_draw_prest
    -0.16395772455152238,  # m_free
    0.0,  # m_tribute
    0.0,  # m_joker
    -4.422144035348129,  # o_lt1
    -2.0257594867270154,  # o_lt2
    -0.7057324741201082,  # o_pr1
    -1.5191222686912316,  # o_pr2
    -0.09871102296701585,  # o_ready
    -0.3183871424635678,  # o_ready_p2
    -0.43012093475421975,  # o_combat
    -0.004946264117755521,  # o_useful
    0.10205913076476075,  # o_pin
    0.0,  # o_tribute
)

#: Trionfey edition (two promotions win).
TRIONFEY: tuple[float, ...] = (
    0.46172167277194814,  # bias
    1.4708847764064716,  # m_lt1
    -1.0091631036345703,  # m_lt2
    0.19247576435114236,  # m_pr1
    0.9048405847168336,  # m_pr2
    0.19758919396070526,  # m_ready
    -0.332497876038104,  # m_ready_safe
    0.5667900423412536,  # m_ready_p2
    -0.120188350209851,  # m_pair
    -0.1611415533237823,  # m_pin
    0.013897727841710183,  # m_half
    0.060082671852443446,  # m_combat
    0.26833191458361305,  # m_useful
    -0.03997301507200903,  # m_hand
    -0.32804622601760686,  # m_exp
    -0.1568334270435383,  # m_exp_pair
    0.2807099208569756,  # m_threat
    -0.08346617566443239,  # m_threat_pair
    -0.18163567397296332,  # m_draw_prest
    -0.21535291454941122,  # m_free
    0.0,  # m_tribute
    0.0,  # m_joker
    -1.0711103767436212,  # o_lt1
    1.532832049515581,  # o_lt2
    -0.5480398159878089,  # o_pr1
    -1.5072517030158896,  # o_pr2
    0.15764150414304545,  # o_ready
    -0.8031833169504243,  # o_ready_p2
    -0.39671919949370854,  # o_combat
    -0.2505328141856661,  # o_useful
    0.23312394338280637,  # o_pin
    0.0,  # o_tribute
)

assert len(CLASSIC) == SIZE
assert len(TRIONFEY) == SIZE


def weights_for(config: FanoConfig) -> tuple[float, ...]:
    """The weights for ``config``'s edition."""
    return TRIONFEY if config.trionfey else CLASSIC
