"""The combat state machine: an event-sourced turn tracker keyed by combatant id (no widgets).

A :class:`Combat` is a projection of its event log. Every action (add, remove, rename, reorder,
roll initiative, next/previous turn, delay, act now, damage, healing, conditions, defeated and
hidden flags, undo) becomes one plain JSON-able ``dict`` that records the *outcome* (the dice
rolled, the order that came out, the traits that changed) and goes through :meth:`Combat.apply`.
Replaying the same log (:meth:`Combat.replay`) rebuilds the same state without rolling or
calling a damage rule again, so every viewer of a shared table sees the same order.

Rules come only from the :class:`~tabletop_widgets.core.system.GameSystem`: initiative and its
tie-break chain (``roll_initiative``), damage and healing (``apply_damage`` / ``apply_healing``
with ``damage_options``), health (``health``), defeat (``is_defeated``) and the conditions
catalogue (``conditions``).

Turn pointer decisions (the bugs other trackers shipped, notes-landscape §3 items 18-19):

* the current turn is held by **id**, never by index: reordering, re-rolling initiative, adding
  or removing someone else never moves it, and changing the order emits no turn events;
* removing the combatant whose turn it is passes the turn *forwards* to the next one able to act
  (a new round when it was the last), never back to the previous one;
* next and previous both skip defeated (and delaying) combatants, also when the first in the
  order is defeated;
* equal initiatives are ordered by the system's own tie-break chain, rolled once and recorded in
  the event (with the tie-break notes shown), never re-sorted by name or by the viewer.

Ongoing effects (the system's hooks, each called once, live, on a scratch copy of the character;
the outcome is recorded in the event as an ``"effects"`` entry and replay only sets the recorded
values, so undo restores and replay never calls a hook again):

* ``system.on_turn(character, "start"|"end", rng=..., conditions=[...])`` when a combatant's turn
  starts or ends (next, delay, act now, the turn passing on after a removal; going back a turn
  and ending the combat call none). Each turn boundary is hooked once: going back a turn and
  forwards again, or delaying and then acting, does not call it a second time. The conditions given are those active when the boundary is reached
  (before durations count down). A start effect that defeats the combatant is shown; the GM
  passes the turn on. An end effect that defeats them takes them out of the turn search.
* ``system.condition_changed(character, id, active, **data)`` when a catalogue condition is
  added or removed, and when one runs out (or comes back by going back a turn).
* ``InitiativeRoll.effects`` through ``system.apply_effects``, and ``InitiativeRoll.skip_rounds``
  (the combatant is skipped in the first rounds it would have acted in).

When an effect changes the system's verdict (``is_defeated``), the GM's defeated mark is cleared
so the rules decide again.

Condition durations are counted in turns of one combatant (the bearer, or the one given as
``ticks_on``): each combatant counts the turns it started and ended; an instance added when that
count was ``b`` has ``duration - (count - b)`` left and is active while that is positive
(``ConditionSpec.ticks_at`` says whether starts or ends count). Going back a turn uncounts the
turn, so previous/next are exact inverses for durations too.

The package: :mod:`.machine` (:class:`Combat`: the actions that build the events),
:mod:`.state` (what a combat holds, reading it, applying an event, undo, a view),
:mod:`.initiative`, :mod:`.harm` (damage, healing, attacks), :mod:`.conditions` and
:mod:`.effects` (the system's hooks as events record them), :mod:`.projection` (what a seat
sees: :class:`Combatant` rows in turn order), :mod:`.text` (events in words for the log) and
:mod:`.records` (the JSON of events and characters). Every public name is importable from
``tabletop_widgets.core.combat``.
"""

from .machine import COUNTED_UNITS, EVENT_TYPES, EVENT_VERSION, Combat
from .projection import Combatant
from .records import clone_character, jsonable

__all__ = ["COUNTED_UNITS", "EVENT_TYPES", "EVENT_VERSION", "Combat", "Combatant", "clone_character", "jsonable"]
