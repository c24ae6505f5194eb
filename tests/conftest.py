"""The whole suite's conftest: puts ``tests/`` on ``sys.path`` so that every test file can
``from helpers import ...`` (the shared helpers: :mod:`helpers`), whatever pytest's import mode."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
