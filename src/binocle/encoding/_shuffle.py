"""The engine's shuffle for the games held in place, compiled.

A deal's pack is shuffled by :func:`binocle.rules.deal.shuffled_pack`:
``random.Random(seed)`` (the Mersenne Twister, MT19937, seeded from the seed text
as Python seeds it: the text's UTF-8 bytes followed by their SHA-512 digest, read
as one big-endian number) draws ``getrandbits(k)`` for each position from the
last down.  :func:`shuffled_deck` deals exactly that pack.  Compiled, it runs the same
generator on machine integers: the state after Python's seeding begins from a
constant (kept), the key is mixed in, and only the words the shuffle draws are
twisted, one by one, where Python twists all 624 before the first draw and calls
``getrandbits`` once a card.  Interpreted, it is ``shuffled_pack`` itself (the
generator written out in Python would be far slower than Python's own in C).

The compiled build compiles this module; it is written with typed locals and no
closures.
"""

from __future__ import annotations

import types
from hashlib import sha512
from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from binocle.cards import pack
from binocle.rules.deal import shuffled_pack

__all__ = ["shuffled_deck", "twister_deck"]

# MT19937's size and constants.
_N: Final = 624
_M: Final = 397
_MATRIX_A: Final = 0x9908B0DF
_UPPER: Final = 0x80000000
_LOWER: Final = 0x7FFFFFFF
_WORD: Final = 0xFFFFFFFF


def _interpreted() -> bool:
    """Whether this module runs as Python source (its functions are Python functions)."""
    return isinstance(_interpreted, types.FunctionType)


def _initial(seed: i64) -> vec[i64]:
    """The generator's state seeded by one number (``init_genrand``): where every
    seeding by a key begins."""
    mt = vec[i64](capacity=_N)
    mt = append(mt, seed)
    prev = seed
    for i in range(1, _N):
        prev = (1812433253 * (prev ^ (prev >> 30)) + i) & _WORD
        mt = append(mt, prev)
    return mt


_START: Final = _initial(19650218)
#: The sorted packs as card numbers, by size.
_PACKS: Final[dict[int, tuple[int, ...]]] = {}
#: The bits a draw takes for position ``i`` (from the last down): those of ``i + 1``.
_BITS: Final[tuple[int, ...]] = tuple(n.bit_length() for n in range(66))


def shuffled_deck(size: int, seed: str) -> tuple[int, ...]:
    """The ``size``-card pack (48 or 64) shuffled from ``seed`` as
    :func:`~binocle.rules.deal.shuffled_pack` shuffles it, as card numbers."""
    if _NATIVE:
        return twister_deck(size, seed)
    return shuffled_pack(size, seed)


def _key(seed: str) -> vec[i64]:
    """The seeding key of ``seed`` as Python's ``random.seed`` makes it: the number of
    the text's bytes and their SHA-512 digest (big-endian), as 32-bit words from the
    least significant."""
    data = seed.encode()
    number = int.from_bytes(data + sha512(data).digest(), "big")
    words = (number.bit_length() + 31) >> 5
    if words == 0:
        words = 1
    raw = number.to_bytes(words * 4, "little")
    key = vec[i64](capacity=words)
    for w in range(words):
        k = 4 * w
        key = append(key, raw[k] | raw[k + 1] << 8 | raw[k + 2] << 16 | raw[k + 3] << 24)
    return key


def twister_deck(size: int, seed: str) -> tuple[int, ...]:
    """:func:`shuffled_deck` by this module's own generator, compiled or not (the tests compare
    it with Python's)."""
    cards = _PACKS.get(size)
    if cards is None:
        cards = _PACKS[size] = tuple([int(c) for c in pack(size)])
    key = _key(seed)
    n = len(key)
    mt = _START[:]
    # init_by_array: the key mixed in (624 steps, the key repeated), then 623 more.
    prev: i64 = mt[0]
    j: i64 = 0
    i: i64 = 1
    for _mixed in range(_N):
        prev = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & _WORD
        mt[i] = prev
        i += 1
        if i >= _N:
            mt[0] = prev
            i = 1
        j += 1
        if j >= n:
            j = 0
    for _stirred in range(_N - 1):
        prev = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _WORD
        mt[i] = prev
        i += 1
        if i >= _N:
            mt[0] = prev
            i = 1
    mt[0] = _UPPER
    # The shuffle: each position from the last down swaps with a draw of the bits of
    # its count (drawn again while beyond it), each draw one tempered 32-bit word.
    out = list(cards)
    at: i64 = 0  # the state's next word to twist and draw
    for pos in range(len(out) - 1, 0, -1):
        shift: i64 = 32 - _BITS[pos + 1]
        r: i64 = pos + 1
        while r > pos:
            nxt: i64 = at + 1 if at + 1 < _N else 0
            far: i64 = at + _M if at + _M < _N else at + _M - _N
            y: i64 = (mt[at] & _UPPER) | (mt[nxt] & _LOWER)
            v: i64 = mt[far] ^ (y >> 1)
            if y & 1:
                v ^= _MATRIX_A
            mt[at] = v
            at = nxt
            v ^= v >> 11
            v ^= (v << 7) & 0x9D2C5680
            v ^= (v << 15) & 0xEFC60000
            v ^= v >> 18
            r = v >> shift
        out[pos], out[r] = out[r], out[pos]
    return tuple(out)


#: Whether :func:`shuffled_deck` runs this module's generator (compiled) or Python's.
_NATIVE: Final = not _interpreted()
