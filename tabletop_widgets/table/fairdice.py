"""Fair dice for a shared table: a seed commitment per table.

At creation the table draws a 256-bit secret seed and publishes ``commitment(seed)`` (a sha256)
to every seat. Roll number ``i`` (0, 1, 2 ... in the table's log, hidden rolls included) uses
``rng_for(seed, i)``: a ``random.Random`` seeded from ``HMAC-SHA256(seed, "roll:<i>")``. When the
GM closes the table the seed is revealed, and anyone can check that it matches the commitment
and that every roll in the log is what that stream gives (``python -m tabletop_widgets.table
verify``). Nobody can pick a seed after seeing the rolls, and nobody can re-roll a roll index:
the outcome of index ``i`` is fixed by the seed.

Trust model: the seed sits in the store (the server's file), so whoever runs the server could
read it and predict rolls before the reveal; what the commitment rules out is changing the seed
or the recorded outcomes afterwards. Players' kernels never show it (it is read only inside a
write transaction, at the moment of rolling).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets

SEED_BYTES = 32
_COMMIT_PREFIX = b"tabletop-widgets/seed/v1\x00"


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The published hash of ``seed`` (hex sha256, domain-separated)."""
    return hashlib.sha256(_COMMIT_PREFIX + bytes(seed)).hexdigest()


def check_commitment(seed: bytes, seed_hash: str) -> bool:
    return hmac.compare_digest(commitment(seed), seed_hash)


def stream_key(seed: bytes, index: int) -> bytes:
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError(f"roll index must be a non-negative int, not {index!r}")
    return hmac.new(bytes(seed), b"roll:%d" % index, hashlib.sha256).digest()


def rng_for(seed: bytes, index: int) -> random.Random:
    """The RNG of roll number ``index`` of the table whose seed is ``seed``."""
    return random.Random(int.from_bytes(stream_key(seed, index), "big"))


class FairDice:
    """A seed and its commitment: ``FairDice.new()``, ``.seed_hash``, ``.rng_for(i)``."""

    def __init__(self, seed: bytes):
        if len(seed) < 16:
            raise ValueError("a fair-dice seed needs at least 128 bits")
        self.seed = bytes(seed)
        self.seed_hash = commitment(self.seed)

    @classmethod
    def new(cls) -> "FairDice":
        return cls(new_seed())

    @classmethod
    def revealed(cls, seed_hex: str, seed_hash: str) -> "FairDice":
        """The dice of a closed table; raises ``ValueError`` if the seed does not match."""
        dice = cls(bytes.fromhex(seed_hex))
        if not hmac.compare_digest(dice.seed_hash, seed_hash):
            raise ValueError("the revealed seed does not match the published commitment")
        return dice

    def rng_for(self, index: int) -> random.Random:
        return rng_for(self.seed, index)

    def __repr__(self) -> str:
        return f"<FairDice commitment {self.seed_hash[:16]}...>"
