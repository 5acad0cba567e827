"""Which Fan Tan variants the compiled search covers (:func:`supports`), apart from the search
itself (:mod:`fanfold.agents.strategy.fantan_fast`): asking costs no import of its compiled
kernels, so a server process that only decides whether a Fan Tan game has an engine review
(:func:`fanfold.play.review_cards.reviews_cards`) never loads the compiler."""

from __future__ import annotations

from fanfold.games.fantan.config import FanTanConfig, Scoring


def supports(config: FanTanConfig) -> bool:
    """Whether the compiled search covers ``config``: a fixed starting rank, one hand a match,
    plain scoring."""
    return config.start_rank is not None and not config.is_match and config.scoring is Scoring.PLAIN


__all__ = ["supports"]
