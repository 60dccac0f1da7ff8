"""One seat's tensor and legal-id mask of an engine state, as bytes NumPy reads whole.

The PettingZoo environment and the Gymnasium wrapper hand out one tensor a step.
:class:`DenseWriter` writes it as :class:`~binocle.encoding._fast.FastEncoder`
reads it from the state, as the bytes of its float32 numbers: zeros, with the
bytes of the columns the encoder wrote set over them.  The
mask is a byte for each action id.  NumPy takes both whole
(:mod:`binocle.encoding._arrays`); :meth:`DenseWriter.observation` writes the two
one after the other, for the PettingZoo environment's two arrays over one buffer.

The compiled build compiles this module: ``BytesWriter`` item access and its
``write_*`` functions are then inline C.
"""

from __future__ import annotations

from struct import pack
from typing import TYPE_CHECKING, Any, Final

from librt.strings import BytesWriter, write_f32_le

from binocle.core import GameState
from binocle.encoding._fast import FastEncoder
from binocle.encoding._walk import Walk

if TYPE_CHECKING:
    # A 64-bit machine integer to mypyc (byte positions); a plain int at run time.
    from mypy_extensions import i64

__all__ = ["DenseWriter"]


def _next_high() -> list[int]:
    """By the two high bytes (little endian, as one number) of float32 ``n``, those of
    ``n + 1``, for n = 0..254: a whole number below 256 has two zero low bytes, so a
    column's count is stepped on by its high bytes alone."""
    table = [0] * 0x4380  # 255.0 is 0x437F0000
    prev = 0
    for n in range(1, 256):
        b = pack("<f", n)
        high = b[2] | (b[3] << 8)
        table[prev] = high
        prev = high
    return table


_NEXT_HIGH: Final[list[int]] = _next_high()


class DenseWriter:
    """Writes ``encoder``'s tensor of a seat and the mask of a tuple of legal ids."""

    def __init__(self, encoder: FastEncoder) -> None:
        self.encoder = encoder
        self.zeros: bytes = bytes(4 * encoder.size)
        self.no_ids: bytes = bytes(encoder.num_actions)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its encoder (the compiled class has no other way).
        return (DenseWriter, (self.encoder,))

    def tensor(self, state: GameState, seat: int) -> tuple[bytes, bool]:
        """``seat``'s tensor of ``state`` as float32 numbers (little endian), and
        :meth:`FastEncoder.observe`'s return value (True: read from the view)."""
        out = BytesWriter()
        whole = self._write(out, state, seat)
        return out.getvalue(), whole

    def observation(self, walk: Walk, seat: int) -> bytes:
        """``seat``'s tensor where ``walk`` stands (as :meth:`tensor`, its deal in
        draw order where the view is read whole), then its mask: a byte for each
        action id, 1 for its legal ids where ``seat`` is to act, else all 0."""
        out = BytesWriter()
        if self._write(out, walk.raw, seat) and walk.tail >= 0:
            # The view was read: from the walk's settled state (its history written).
            out.truncate(0)
            self._write(out, walk.state, seat)
        base: i64 = len(out)
        out.write(self.no_ids)
        if walk.where() == seat:
            for i in walk.legal_ids():
                out[base + i] = 1
        return out.getvalue()

    def _write(self, out: BytesWriter, state: GameState, seat: int) -> bool:
        """Write ``seat``'s tensor of ``state`` to ``out`` (empty); return
        :meth:`FastEncoder.observe`'s value."""
        ones: list[int] = []
        at: list[int] = []
        values: list[float] = []
        whole = self.encoder.observe(state, seat, ones, at, values)
        # Only the columns written are touched: each counted column's number steps up
        # by its two high bytes (a whole number below 256 has two zero low bytes);
        # each value's four bytes over them (a column with a value counts nothing).
        out.write(self.zeros)
        step = _NEXT_HIGH
        for k in ones:
            p: i64 = 4 * k + 2
            lo: int = out[p]
            hi: int = out[p + 1]
            high: int = step[lo | (hi << 8)]
            out[p] = high & 255
            out[p + 1] = high >> 8
        if at:
            numbers = BytesWriter()
            for v in values:
                write_f32_le(numbers, v)
            q: i64 = 0
            for c in at:
                p = 4 * c
                out[p] = numbers[q]
                out[p + 1] = numbers[q + 1]
                out[p + 2] = numbers[q + 2]
                out[p + 3] = numbers[q + 3]
                q += 4
        return whole

    def mask(self, ids: tuple[int, ...]) -> bytes:
        """A byte for each action id: 1 for those in ``ids``, 0 for the others."""
        mask = BytesWriter()
        mask.write(self.no_ids)
        for i in ids:
            mask[i] = 1
        return mask.getvalue()
