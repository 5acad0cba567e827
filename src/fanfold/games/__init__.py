"""The games. Importing this package registers each one."""

from fanfold.games import fan as fan
from fanfold.games import fano as fano
from fanfold.games import fantan as fantan
from fanfold.games import morris

__all__ = ["morris"]
