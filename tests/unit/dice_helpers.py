"""Test helpers: an RNG that returns scripted faces, so tests can say exactly what was rolled."""

import random


class Scripted(random.Random):
    """``randrange(n)`` returns the next scripted face (1-based for numeric dice: face f -> f-1;
    for custom faces the script holds indexes + 1). Fails loudly when the script runs out."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)
        self.calls = []

    def randrange(self, n, *args):  # noqa: D401
        assert not args, "engine must call randrange(n)"
        if not self.faces:
            raise AssertionError(f"script exhausted (call {len(self.calls) + 1}, randrange({n}))")
        f = self.faces.pop(0)
        assert 1 <= f <= n, f"scripted face {f} impossible for randrange({n})"
        self.calls.append(n)
        return f - 1
