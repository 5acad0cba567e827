"""Each game's strategy and difficulty levels, registered on import.

One module a game: its :class:`fanfold.agents.knowledge.Knowledge` (the heuristic move, the
playout policy and the evaluation that search uses) and the agent behind each of the levels
``easy``, ``medium`` and ``hard`` (:mod:`fanfold.agents.levels`).
"""

from fanfold.agents.strategy import fan, fano, fantan, morris

__all__ = ["fan", "fano", "fantan", "morris"]
