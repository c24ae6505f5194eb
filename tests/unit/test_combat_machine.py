"""Hypothesis state machine over the Combat tracker, for every installed system.

Random sequences of add / remove / reorder / initiative / next / previous / delay / act now /
damage / heal / defeat / hide / conditions / undo keep the issue's invariants:

* the current combatant exists unless the combat is empty (or not started);
* the order is deterministic: replaying the log (with other dice) gives the same state;
* skip-defeated works both ways: next and previous land on someone able to act, and everyone
  they passed over was defeated, delaying or sitting out that round (judged before the action:
  a system's ``on_turn`` may defeat the one whose turn just started, which the GM then sees);
* undo restores the exact previous state (``end`` included);
* a refused action changes nothing and logs nothing;
* the system's hooks (turn effects, conditions, initiative effects) are recorded, never re-run.

Run for every installed system and for ``Skirmish`` (tests/fixtures/skirmish.py), a small
system registered at run time whose hooks do something (bleeding, regeneration, knock-outs,
lost rounds, Luck spent on initiative), so the machine covers them whatever the real systems do.
"""

from __future__ import annotations

import json
import os
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.combat import Combat
from tabletop_widgets.table.audience import PLAYERS, project_combat, secret_combatants

from fixtures.skirmish import Skirmish

NAMES = ("Ann", "Bob", "Cid", "Goblin", "Orc")


def _passed_over(order, start, end, step):
    """``(id, wrapped)`` strictly between ``start`` and ``end`` walking ``step`` through
    ``order`` (wrapping); ``wrapped``: past the end (forwards) or the start (backwards)."""
    n = len(order)
    i = order.index(start)
    out = []
    wrapped = False
    for _ in range(n):
        raw = i + step
        wrapped = wrapped or raw >= n or raw < 0
        i = raw % n
        if order[i] == end:
            return out
        out.append((order[i], wrapped))
    return out


def _able(combat: Combat) -> dict:
    """Who could act in the rounds around the current one, before an action."""
    return {
        (cid, r): combat.can_act(cid, round=r)
        for cid in combat.ids
        for r in range(max(1, combat.round - 1), combat.round + 2)
    }


def machine_for(slug: str, system=None):
    system = system or get_system(slug)
    conditions = [c.id for c in system.conditions()]

    class CombatMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.combat = Combat(system, rng=random.Random(0))
            self.undo_states: list[dict] = []  # the state before each undoable action

        # -- helpers -------------------------------------------------------------------------
        def pick(self, index: int) -> str:
            ids = self.combat.ids
            return ids[index % len(ids)]

        def act(self, fn):
            """Run one action; a refusal must change nothing and log nothing."""
            before, n = self.combat.state(), len(self.combat.events)
            try:
                event = fn()
            except RuleError:
                assert self.combat.state() == before
                assert len(self.combat.events) == n
                return None
            assert len(self.combat.events) == n + 1
            if event["type"] != "undo":
                self.undo_states.append(before)
            return event

        # -- rules ---------------------------------------------------------------------------
        @precondition(lambda self: len(self.combat) < 6)
        @rule(name=st.sampled_from(NAMES), hidden=st.booleans(), position=st.none() | st.integers(0, 6))
        def add(self, name, hidden, position):
            self.act(lambda: self.combat.add(None, system.Character(name=name), hidden=hidden, position=position))

        @precondition(lambda self: len(self.combat) > 0)
        @rule(index=st.integers(0, 10))
        def remove(self, index):
            cid = self.pick(index)
            was_current = self.combat.current == cid
            old_order = self.combat.ids
            able, rnd = _able(self.combat), self.combat.round
            if self.act(lambda: self.combat.remove(cid)) and was_current and self.combat.current:
                # the turn passed forwards: only those unable to act were passed over
                skipped = _passed_over(old_order, cid, self.combat.current, +1)
                assert all(not able[(s, rnd + w)] for s, w in skipped)

        @precondition(lambda self: len(self.combat) > 0)
        @rule(index=st.integers(0, 10), to=st.integers(0, 10))
        def reorder(self, index, to):
            current = self.combat.current
            self.act(lambda: self.combat.move(self.pick(index), to))
            assert self.combat.current == current

        @precondition(lambda self: len(self.combat) > 0)
        @rule(some=st.booleans(), index=st.integers(0, 10))
        def initiative(self, some, index):
            current = self.combat.current
            ids = [self.pick(index)] if some else None
            self.act(lambda: self.combat.roll_initiative(ids))
            assert self.combat.current == current

        @rule()
        def next_turn(self):
            before = self.combat.current
            order = self.combat.ids
            able, rnd = _able(self.combat), self.combat.round
            event = self.act(self.combat.next_turn)
            if event:
                now = self.combat.current
                if before is None:
                    assert self.combat.round >= 1
                else:
                    # able to act when the turn came (a start effect may have defeated them since),
                    # or the one whose own end effect took out the last one able to act
                    ended = [x for x in event.get("effects", []) if x.get("when") == "end"]
                    assert able.get((now, self.combat.round), False) or (now == before and ended)
                if before is not None and now != before:
                    assert all(not able[(s, rnd + w)] for s, w in _passed_over(order, before, now, +1))
                assert "start" not in [x.get("when") for x in event.get("effects", []) if x["id"] != now]

        @rule()
        def previous_turn(self):
            before = self.combat.current
            order = self.combat.ids
            able, rnd = _able(self.combat), self.combat.round
            event = self.act(self.combat.previous_turn)
            if event:
                now = self.combat.current
                assert able[(now, self.combat.round)]
                assert self.combat.round >= 1
                assert all(x["hook"] == "condition_changed" for x in event.get("effects", []))
                if now != before:
                    assert all(not able[(s, rnd - w)] for s, w in _passed_over(order, before, now, -1))

        @rule()
        def delay(self):
            self.act(self.combat.delay)

        @precondition(lambda self: len(self.combat) > 0)
        @rule(index=st.integers(0, 10))
        def act_now(self, index):
            self.act(lambda: self.combat.act_now(self.pick(index)))

        @precondition(lambda self: len(self.combat) > 0)
        @rule(index=st.integers(0, 10), amount=st.integers(0, 40), heal=st.booleans())
        def harm(self, index, amount, heal):
            cid = self.pick(index)
            if heal:
                opts = {o.name: o.default for o in system.healing_options(self.combat.character(cid))}
                self.act(lambda: self.combat.heal(cid, amount, **opts))
            else:
                opts = {o.name: o.default for o in system.damage_options(self.combat.character(cid))}
                self.act(lambda: self.combat.damage(cid, amount, **opts))

        @precondition(lambda self: len(self.combat) > 0)
        @rule(index=st.integers(0, 10), value=st.sampled_from([True, False, None]))
        def defeat(self, index, value):
            cid = self.pick(index)
            current = self.combat.current
            self.act(lambda: self.combat.set_defeated(cid, value))
            assert self.combat.current == current  # the turn never jumps

        @precondition(lambda self: len(self.combat) > 0)
        @rule(index=st.integers(0, 10), value=st.booleans())
        def hide(self, index, value):
            self.act(lambda: self.combat.set_hidden(self.pick(index), value))

        @precondition(lambda self: len(self.combat) > 0 and bool(conditions))
        @rule(index=st.integers(0, 10), cond=st.integers(0, 100), duration=st.none() | st.integers(1, 3))
        def condition(self, index, cond, duration):
            self.act(
                lambda: self.combat.add_condition(
                    self.pick(index), conditions[cond % len(conditions)], duration=duration
                )
            )

        @precondition(lambda self: len(self.combat) > 0 and bool(conditions))
        @rule(index=st.integers(0, 10), which=st.integers(0, 10))
        def uncondition(self, index, which):
            cid = self.pick(index)
            held = self.combat.conditions(cid, include_expired=True)
            if held:
                self.act(lambda: self.combat.remove_condition(cid, held[which % len(held)]["uid"]))

        @rule()
        def end(self):
            if self.act(self.combat.end):
                assert self.combat.current is None and self.combat.round == 0

        @rule()
        def undo(self):
            expected = self.undo_states[-1] if self.undo_states else None
            event = self.act(self.combat.undo)
            if event:
                assert self.combat.state() == expected
                self.undo_states.pop()
            else:
                assert expected is None

        # -- invariants ----------------------------------------------------------------------
        @invariant()
        def current_exists_unless_empty(self):
            c = self.combat
            assert sorted(c.ids) == sorted(set(c.ids))
            if c.current is not None:
                assert c.current in c.ids and c.round >= 1
            else:
                assert c.round == 0
            if not c.ids:
                assert c.current is None

        @invariant()
        def log_replays_to_the_same_state(self):
            log = json.loads(json.dumps(self.combat.events))
            calls = len(getattr(system, "calls", ()))
            again = Combat.replay(system, None, log, rng=random.Random(12345))
            assert again.state() == self.combat.state()
            assert again.ids == self.combat.ids
            assert len(getattr(system, "calls", ())) == calls  # replay never calls a hook

        @invariant()
        def players_never_see_hidden_combatants(self):
            c = self.combat
            secret = secret_combatants(c)
            view = project_combat(c, PLAYERS)
            public = view["state"]
            assert not secret & set(public.get("combatants", {})) and not secret & set(public.get("order", []))
            assert not any(e.get("id") in secret for e in view["events"])

    CombatMachine.__name__ = f"CombatMachine_{slug}"
    return CombatMachine


_SETTINGS = settings(
    max_examples=int(os.environ.get("TT_COMBAT_EXAMPLES", "20")),
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

for _slug in available_systems():
    _machine = machine_for(_slug)
    _machine.TestCase.settings = _SETTINGS
    globals()[f"TestCombatMachine_{_slug}"] = _machine.TestCase


class _SkirmishMachine(machine_for("skirmish", Skirmish())):
    """Skirmish with knock-outs, bleeding and lost rounds in play: initiative spends Luck and
    some fighters fumble it."""

    @precondition(lambda self: 0 < len(self.combat) < 6)
    @rule(fumbles=st.integers(0, 2))
    def fumble(self, fumbles):
        """A frail fighter who may lose rounds on the initiative roll."""
        self.act(lambda: self.combat.add(None, Skirmish.Character(name="Imp", fumbles=fumbles, hp=3)))

    @precondition(lambda self: len(self.combat) > 0)
    @rule()
    def lucky_initiative(self):
        self.act(lambda: self.combat.roll_initiative(spend_luck=True))


_SkirmishMachine.TestCase.settings = _SETTINGS
TestCombatMachine_skirmish = _SkirmishMachine.TestCase
