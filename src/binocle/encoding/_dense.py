"""One seat's tensor and legal-id mask of an engine state, as bytes NumPy reads whole.

The PettingZoo environment and the Gymnasium wrapper hand out one tensor a step.
:class:`DenseWriter` writes it as :class:`~binocle.encoding._fast.FastEncoder`
reads it from the state, as the bytes of its float32 numbers: zeros, with the
bytes of the columns the encoder wrote set over them.  The
mask is a byte for each action id.  NumPy takes both whole
(:mod:`binocle.encoding._arrays`).

The compiled build compiles this module: ``BytesWriter`` item access and its
``write_*`` functions are then inline C.
"""

from __future__ import annotations

from struct import pack
from typing import Any, Final

from librt.strings import BytesWriter, write_f32_le

from binocle.core import GameState
from binocle.encoding._fast import FastEncoder

__all__ = ["DenseWriter"]

#: The third and fourth bytes of float32 ``n`` (little endian), for n = 0..255.
_BYTE2: Final = bytes([pack("<f", n)[2] for n in range(256)])
_BYTE3: Final = bytes([pack("<f", n)[3] for n in range(256)])


class DenseWriter:
    """Writes ``encoder``'s tensor of a seat and the mask of a tuple of legal ids."""

    def __init__(self, encoder: FastEncoder) -> None:
        self.encoder = encoder
        self.blank: bytes = bytes(encoder.size)
        self.zeros: bytes = bytes(4 * encoder.size)
        self.no_ids: bytes = bytes(encoder.num_actions)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its encoder (the compiled class has no other way).
        return (DenseWriter, (self.encoder,))

    def tensor(self, state: GameState, seat: int) -> tuple[bytes, bool]:
        """``seat``'s tensor of ``state`` as float32 numbers (little endian), and
        :meth:`FastEncoder.observe`'s return value (True: read from the view)."""
        ones: list[int] = []
        at: list[int] = []
        values: list[float] = []
        whole = self.encoder.observe(state, seat, ones, at, values)
        # Only the columns written are touched: each counted column's count, then its
        # number's two high bytes (a whole number below 256 has two zero low bytes);
        # each value's four bytes over them (a column with a value counts nothing).
        counts = BytesWriter()
        counts.write(self.blank)
        for k in ones:
            counts[k] = counts[k] + 1
        out = BytesWriter()
        out.write(self.zeros)
        for k in ones:
            c = counts[k]
            p = 4 * k
            out[p + 2] = _BYTE2[c]
            out[p + 3] = _BYTE3[c]
        numbers = BytesWriter()
        for i in range(len(at)):
            write_f32_le(numbers, values[i])
            p = 4 * at[i]
            q = 4 * i
            out[p] = numbers[q]
            out[p + 1] = numbers[q + 1]
            out[p + 2] = numbers[q + 2]
            out[p + 3] = numbers[q + 3]
        return out.getvalue(), whole

    def mask(self, ids: tuple[int, ...]) -> bytes:
        """A byte for each action id: 1 for those in ``ids``, 0 for the others."""
        mask = BytesWriter()
        mask.write(self.no_ids)
        for i in ids:
            mask[i] = 1
        return mask.getvalue()
