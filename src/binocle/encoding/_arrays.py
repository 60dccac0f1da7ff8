"""The arrays of :class:`~binocle.encoding._dense.DenseWriter`'s bytes, for the
PettingZoo environment and the Gymnasium wrapper (NumPy is theirs to import)."""

from __future__ import annotations

import numpy as np

__all__ = ["dense_mask", "dense_tensor"]

# The arrays' types as dtype objects: numpy reads a type such as np.int8 afresh each call.
_INT8 = np.dtype(np.int8)
_FLOAT32 = np.dtype("<f4")


def dense_tensor(data: bytes) -> np.ndarray:
    """The float32 tensor of :meth:`DenseWriter.tensor`'s bytes (a new array)."""
    return np.frombuffer(bytearray(data), _FLOAT32)


def dense_mask(data: bytes) -> np.ndarray:
    """The int8 action mask of :meth:`DenseWriter.mask`'s bytes (a new array)."""
    return np.frombuffer(bytearray(data), _INT8)
