"""Observation layouts: a flat tensor made of named blocks, each with a shape and bounds.

Every encoding describes its observation as a :class:`Layout`: an ordered list of
:class:`Block` values. The flat tensor is the blocks' values flattened in order; the dict form
maps each block's name to its values in their own shape (views into the flat tensor, so both
forms always agree). ``docs/envs/encodings.md`` prints every layout from these descriptions.

>>> layout = Layout((Block("board", (2, 3), "cells"), Block("turn", (1,), "whose turn")))
>>> layout.size, layout.offsets["turn"]
(7, 6)
>>> tensor = layout.zeros()
>>> layout.views(tensor)["board"].shape
(2, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float32]


@dataclass(frozen=True)
class Block:
    """One named part of an observation.

    Attributes:
        name: the key in the dict form.
        shape: the block's shape (its values are flattened in C order in the tensor).
        meaning: one line for the documentation: what the axes and the values mean.
        low: the smallest value an entry can take.
        high: the largest value an entry can take (``math.inf`` when unbounded).
    """

    name: str
    shape: tuple[int, ...]
    meaning: str
    low: float = 0.0
    high: float = 1.0

    @property
    def size(self) -> int:
        """How many numbers the block holds."""
        return math.prod(self.shape)


@dataclass(frozen=True)
class Layout:
    """An observation's blocks, in tensor order."""

    blocks: tuple[Block, ...]

    @cached_property
    def size(self) -> int:
        """The length of the flat tensor."""
        return sum(block.size for block in self.blocks)

    @cached_property
    def offsets(self) -> dict[str, int]:
        """Where each block starts in the flat tensor."""
        offsets: dict[str, int] = {}
        position = 0
        for block in self.blocks:
            offsets[block.name] = position
            position += block.size
        return offsets

    @cached_property
    def bounds(self) -> tuple[FloatArray, FloatArray]:
        """The lowest and highest value of every entry of the flat tensor."""
        low = np.concatenate(
            [np.full(block.size, block.low, dtype=np.float32) for block in self.blocks]
        )
        high = np.concatenate(
            [np.full(block.size, block.high, dtype=np.float32) for block in self.blocks]
        )
        return low, high

    def zeros(self) -> FloatArray:
        """A flat tensor of zeros, to be filled through :meth:`views`."""
        return np.zeros(self.size, dtype=np.float32)

    @cached_property
    def _slices(self) -> tuple[tuple[str, int, int, tuple[int, ...]], ...]:
        """Each block's name, start, end and shape (what :meth:`views` cuts, computed once)."""
        offsets = self.offsets
        return tuple(
            (block.name, offsets[block.name], offsets[block.name] + block.size, block.shape)
            for block in self.blocks
        )

    def views(self, tensor: FloatArray) -> dict[str, FloatArray]:
        """The dict form of ``tensor``: each block's values in its shape (views, not copies)."""
        return {name: tensor[start:end].reshape(shape) for name, start, end, shape in self._slices}

    def describe(self) -> list[tuple[str, str, int, int, str]]:
        """Rows for documentation: name, shape, offset, size, meaning."""
        return [
            (
                block.name,
                "x".join(map(str, block.shape)),
                self.offsets[block.name],
                block.size,
                block.meaning,
            )
            for block in self.blocks
        ]
