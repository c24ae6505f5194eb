"""Helpers shared by the tests: ``from helpers import FixedRng, frontend_update, wait_until``.

(``tests/`` is on ``sys.path``: pytest puts the folder of the root ``tests/conftest.py`` there.)

* :class:`FixedRng` — dice that come up as scripted;
* :func:`frontend_update`, :func:`frontend_click`, :func:`frontend_custom` — the messages a
  browser sends a widget (a forged one too: nothing checks that the control is enabled);
* :func:`wait_until` / :func:`async_wait_until` — wait for a condition instead of sleeping;
  a timeout fails with what was awaited;
* :func:`seeded_random` — a ``random.Random`` for a test that draws random data: its seed is
  fixed, printed, and replayable.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from typing import Any, Callable

#: the environment variable that replays a test's random draws with another seed
SEED_ENV = "TABLETOP_TEST_SEED"


class FixedRng:
    """An RNG whose ``randint`` returns the given faces in order (whatever the range), and fails
    the test when more dice are rolled than scripted."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise AssertionError("more dice rolled than expected")
        return self.faces.pop(0)


def frontend_update(widget, **state: Any) -> None:
    """What the browser sends when the user changes a control: ``state`` set on ``widget``."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})


def frontend_custom(widget, content: Any) -> None:
    """A custom message from the browser to ``widget``."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def frontend_click(button) -> None:
    """What the browser sends when the user clicks ``button``."""
    frontend_custom(button, {"event": "click"})


def _answer(predicate: Callable[[], Any], deadline: float, timeout: float, what: str) -> Any:
    """``predicate()``; fail the test when it is false and the time is up."""
    value = predicate()
    if not value and time.monotonic() >= deadline:
        raise AssertionError(f"waited {timeout:g} s for {what}, in vain")
    return value


def wait_until(predicate: Callable[[], Any], timeout: float, what: str, *, interval: float = 0.01) -> Any:
    """Call ``predicate`` until it returns something true, and return that; after ``timeout``
    seconds fail the test with ``what`` (the condition awaited, in words)."""
    deadline = time.monotonic() + timeout
    while not (value := _answer(predicate, deadline, timeout, what)):
        time.sleep(interval)
    return value


async def async_wait_until(predicate: Callable[[], Any], timeout: float, what: str, *, interval: float = 0.01) -> Any:
    """:func:`wait_until` inside an event loop: the loop keeps running while it waits."""
    deadline = time.monotonic() + timeout
    while not (value := _answer(predicate, deadline, timeout, what)):
        await asyncio.sleep(interval)
    return value


def seeded_random(default: int) -> random.Random:
    """A ``random.Random`` seeded with ``$TABLETOP_TEST_SEED`` or else ``default``; the seed is
    printed, so a failing test's output says how to replay it."""
    seed = int(os.environ.get(SEED_ENV) or default)
    print(f"random seed {seed} (replay with {SEED_ENV}={seed})")
    return random.Random(seed)


def assert_attack_odds_match_sample(
    system, attacker, target, attack_id: str, *, n: int = 3000, seed: int = 1, **options
):
    """Roll ``attack_id`` ``n`` times (``system.resolve_attack`` with a seeded rng, never changing
    either character) and check the rolls against ``system.attack_odds``: the hit rate and the
    frequency of every damage value within five standard errors of the exact odds, no damage on
    a miss, and no damage the odds call impossible. Returns the odds."""
    import math
    from collections import Counter

    from tabletop_widgets.core.combat.records import persisted

    odds = system.attack_odds(attacker, target, attack_id, **options)
    assert sum(odds.damage.values()) + odds.damage.truncated_mass == 1
    assert 0 <= odds.p_hit <= 1
    before = (persisted(attacker), persisted(target))
    rng = random.Random(seed)
    hits, damage = 0, Counter()
    for _ in range(n):
        out = system.resolve_attack(attacker, target, attack_id, rng=rng, **options)
        assert out.attack_id == attack_id
        assert out.hit or out.damage == 0, f"{attack_id}: a miss dealt {out.damage} damage"
        assert out.text.get("en") and out.text.get("ru"), f"{attack_id}: the outcome has no text in both languages"
        hits += bool(out.hit)
        damage[out.damage] += 1
    assert (persisted(attacker), persisted(target)) == before, "resolve_attack changed a character"

    def close(p: float, k: int, what: str) -> None:
        sigma = math.sqrt(max(p * (1 - p), 1 / n) / n)
        assert abs(k / n - p) <= 5 * sigma + 1 / n, (
            f"{attack_id} (seed {seed}): {what}: {k}/{n} = {k / n:.4f} rolled, exact {p:.4f}"
        )

    close(float(odds.p_hit), hits, "hit rate")
    for value in sorted(set(damage) | set(odds.damage)):
        if damage[value] and not odds.damage.get(value):
            raise AssertionError(
                f"{attack_id}: {damage[value]} rolls dealt {value} damage, which the odds call impossible"
            )
        close(float(odds.damage.get(value, 0)), damage[value], f"damage {value}")
    return odds
