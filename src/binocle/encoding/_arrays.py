"""What the environments built on NumPy share: the arrays of
:class:`~binocle.encoding._dense.DenseWriter`'s bytes (the PettingZoo environment
and the Gymnasium wrapper) and the check of a generator's seed (those two and the
vectorized environment).  NumPy is theirs to import, never the encoding's."""

from __future__ import annotations

from typing import Any

import numpy as np

from binocle.errors import InvalidArgumentError, excerpt

__all__ = ["dense_mask", "dense_observation", "dense_tensor", "generator_seed"]

# The arrays' types as dtype objects: numpy reads a type such as np.int8 afresh each call.
_INT8 = np.dtype(np.int8)
_FLOAT32 = np.dtype("<f4")


def dense_tensor(data: bytes) -> np.ndarray:
    """The float32 tensor of :meth:`DenseWriter.tensor`'s bytes (a new array)."""
    return np.frombuffer(bytearray(data), _FLOAT32)


def dense_observation(data: bytes, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The float32 tensor of ``size`` numbers and the int8 mask after it, of
    :meth:`DenseWriter.observation`'s bytes: two arrays over one new buffer, apart."""
    buffer = bytearray(data)
    return np.frombuffer(buffer, _FLOAT32, size), np.frombuffer(buffer, _INT8, -1, 4 * size)


def dense_mask(data: bytes) -> np.ndarray:
    """The int8 action mask of :meth:`DenseWriter.mask`'s bytes (a new array)."""
    return np.frombuffer(bytearray(data), _INT8)


def generator_seed(seed: Any) -> int | None:
    """``seed`` as :func:`numpy.random.default_rng` takes it: None, or a whole number
    from 0 (a Python or NumPy integer, not a bool); anything else raises
    :class:`~binocle.InvalidArgumentError`."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidArgumentError(f"a seed is None or a whole number from 0, not {excerpt(seed)}")
    return int(seed)
