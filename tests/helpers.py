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
from contextlib import contextmanager
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


class DiceInOrder(random.Random):
    """A ``random.Random`` whose ``randint`` returns the given values in order (whatever the
    range asked); its other draws come from seed 0."""

    def __init__(self, values):
        super().__init__(0)
        self.values = list(values)

    def randint(self, a, b):
        return self.values.pop(0)


@contextmanager
def registered(system):
    """``system`` registered (``get_system(system.slug)`` finds it, a table made in-process
    plays it) for the ``with`` block, unregistered after, whatever happens."""
    from tabletop_widgets.core import register_system, unregister_system

    register_system(system)
    try:
        yield system
    finally:
        unregister_system(system.slug)


class SeatPages:
    """A shared table made in the file store ``path``, opened from its seats as separate pages
    are (each Voila page has its own kernel and store connection): :meth:`session` joins a
    seat, :meth:`view` is its ``TableView`` (not following, not animated: tests poll by hand),
    :meth:`close` closes every connection opened."""

    def __init__(self, path: str, slug: str, seats, characters, **create_options: Any):
        from tabletop_widgets.table import create_table, open_store

        self.path = path
        store = open_store(path)
        self.made = create_table(store, slug, seats, characters=characters, **create_options)
        store.close()
        self.stores: list = []

    def session(self, seat: str):
        from tabletop_widgets.table import TableSession, open_store

        store = open_store(self.path)  # one connection per "kernel"
        self.stores.append(store)
        return TableSession.join(store, self.made.table_id, self.made.tokens[seat])

    def view(self, seat: str, **kw: Any):
        from tabletop_widgets.widgets.table_view import TableView

        return TableView(self.session(seat), follow=False, animate=False, **kw)

    def close(self) -> None:
        for s in self.stores:
            s.close()


class CommSpy:
    """Stands in for the kernel's comms: counts the messages and bytes widgets send."""

    def __init__(self):
        self.opened = 0
        self.messages = 0
        self.bytes = 0

    def record(self, data) -> None:
        import json

        self.messages += 1
        self.bytes += len(json.dumps(data, default=str))

    def create_comm(self, **args):
        spy = self

        class Comm:
            kernel = True

            def __init__(self, data=None, comm_id=None, **_kw):
                import uuid

                self.comm_id = comm_id or uuid.uuid4().hex
                spy.opened += 1
                spy.record(data)

            def send(self, data=None, buffers=None, **_kw):
                spy.record(data)

            def on_msg(self, callback):
                pass

            def close(self, *args, **kwargs):
                spy.record({"close": True})

        return Comm(**args)

    def cost(self, action) -> tuple[int, int, int]:
        """(widgets opened, messages, bytes) that ``action()`` sends."""
        before = (self.opened, self.messages, self.bytes)
        action()
        return self.opened - before[0], self.messages - before[1], self.bytes - before[2]


def spy_on_comms(monkeypatch) -> CommSpy:
    """A :class:`CommSpy` standing in for the kernel's comms for the rest of the test."""
    from ipywidgets.widgets import widget as widget_module

    spy = CommSpy()
    monkeypatch.setattr(widget_module.comm, "create_comm", spy.create_comm)
    return spy


def one_die_changed(event) -> dict:
    """A recorded roll's payload with one counted die changed (6 to 5, anything else to 6) and
    its total made to match: what someone editing the log by hand would write."""
    res = dict(event.payload["result"])
    res["dice"] = [dict(d) for d in res["dice"]]
    kept = [d for d in res["dice"] if d["counted"]]
    kept[0]["value"] = 6 if kept[0]["value"] != 6 else 5
    res["total"] = sum(d["value"] for d in kept)
    return {**event.payload, "result": res}


def assert_refused_unchanged(combat, call, code: str) -> None:
    """``call(combat)`` is refused with the ``RuleError`` ``code``, a message in both languages,
    and neither the combat's events nor any combatant changed."""
    import pytest

    from tabletop_widgets.core import RuleError
    from tabletop_widgets.core.combat.records import persisted

    before = (len(combat.events), {cid: persisted(combat.character(cid)) for cid in combat.ids})
    with pytest.raises(RuleError) as err:
        call(combat)
    assert err.value.code == code
    assert err.value.message["en"] and err.value.message["ru"]
    assert (len(combat.events), {cid: persisted(combat.character(cid)) for cid in combat.ids}) == before


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
