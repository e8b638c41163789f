"""The session's auditable random stream.

Derivation (the README documents it for anyone writing a verifier):

- seed: 32 bytes from ``secrets``; commitment = SHA-256(seed), hex.
- block(counter) = HMAC-SHA256(key=seed, msg=counter as 8-byte big-endian).
- uniform(n): take x = first 8 bytes of block(counter) as a big-endian unsigned
  integer and advance the counter; accept when x < 2**64 - (2**64 % n) and
  return x % n, otherwise try again with the next counter (rejection sampling:
  no modulo bias, no floats).
- a die with face layout F rolls F[uniform(len(F))].
- a shuffle is Fisher-Yates: for i from n-1 down to 1, j = uniform(i + 1),
  swap items i and j.

Never the ``random`` module: its sequences may change between Python versions,
which would break replays.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeVar

T = TypeVar("T")

SEED_BYTES = 32
_SPACE = 1 << 64


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def block(seed: bytes, counter: int) -> bytes:
    return hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()


# HMAC (RFC 2104) is SHA-256(key ^ opad || SHA-256(key ^ ipad || msg)) with the key padded to SHA-256's 64-byte block
# (hashed first when longer). A stream keeps both keyed hashes as they stand after their pad, and each block copies
# them: the same bytes as ``block``, without setting up the key again for every draw.
_BLOCK_SIZE = hashlib.sha256().block_size
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


@lru_cache(maxsize=1024)
def _keyed(seed: bytes) -> tuple[Any, Any]:
    """The seed's two keyed hashes, set up once per process for each seed (a session's every command makes a stream
    from the same seed; OpenSSL's set-up of a hash is most of a short stream's cost). Shared by every stream of the
    seed, so never updated: each block updates copies of them."""
    key = hashlib.sha256(seed).digest() if len(seed) > _BLOCK_SIZE else seed
    key = key.ljust(_BLOCK_SIZE, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


def accept(x: int, n: int) -> int | None:
    """One 64-bit draw mapped to 0..n-1, or None when it falls in the last, partial cycle of n
    (from 2**64 - (2**64 mod n) up): folding those in would favour the low outcomes."""
    return x % n if x < kept_below(n) else None


def kept_below(n: int) -> int:
    """The first 64-bit draw ``accept`` rejects for n outcomes: the end of the last full cycle of n."""
    return _SPACE - (_SPACE % n)


class RandomStream:
    """HMAC-SHA256(seed, counter) as a cursor; ``counter`` is the next unused value."""

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter
        self._inner, self._outer = _keyed(seed)

    def _block(self, counter: int) -> bytes:
        """``block(self.seed, counter)``, from the stream's keyed hashes."""
        inner = self._inner.copy()
        inner.update(counter.to_bytes(8, "big"))
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def uniform(self, n: int) -> int:
        if n < 1:
            raise ValueError("uniform() needs at least one outcome")
        limit = kept_below(n)  # ``accept``'s bound, worked out once for every draw this takes
        while True:
            x = int.from_bytes(self._block(self.counter)[:8], "big")
            self.counter += 1
            if x < limit:
                return x % n

    def roll(self, layout: Sequence[T]) -> T:
        return layout[self.uniform(len(layout))]

    def rolls(self, layout: Sequence[T], count: int) -> list[T]:
        """``count`` rolls of one die, ``[self.roll(layout) for _ in range(count)]``: the same draws from the same
        counters, with ``uniform``'s bound worked out once for the die rather than once a roll."""
        n = len(layout)
        if n < 1:
            raise ValueError("uniform() needs at least one outcome")
        limit = kept_below(n)
        faces: list[T] = []
        while len(faces) < count:
            x = int.from_bytes(self._block(self.counter)[:8], "big")
            self.counter += 1
            if x < limit:
                faces.append(layout[x % n])
        return faces

    def shuffle(self, items: Sequence[T]) -> list[T]:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.uniform(i + 1)
            result[i], result[j] = result[j], result[i]
        return result
