"""``tabletop_widgets.core.combat`` as a package (issue 15): every public name of the old module is
still importable from it, and its parts (projection, text) read the combat through public methods
that hand out copies, so a reader cannot change the combat behind its event log."""

from __future__ import annotations

import random

import pytest

import tabletop_widgets.core.combat as combat_pkg
from tabletop_widgets import get_system
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.combat import (
    COUNTED_UNITS,
    EVENT_TYPES,
    EVENT_VERSION,
    Combat,
    Combatant,
    clone_character,
    jsonable,
)
from tabletop_widgets.core.combat import projection, text

SYSTEM = get_system("ret")


def _fight() -> Combat:
    c = Combat(SYSTEM, rng=random.Random(3))
    c.add("aria", SYSTEM.Character(), name="Aria")
    c.add("boris", SYSTEM.Character(), name="Boris")
    c.roll_initiative()
    c.next_turn()
    return c


def test_every_public_name_is_importable_from_the_package():
    assert set(combat_pkg.__all__) == {
        "COUNTED_UNITS",
        "EVENT_TYPES",
        "EVENT_VERSION",
        "Combat",
        "Combatant",
        "clone_character",
        "jsonable",
    }
    assert EVENT_VERSION == 1 and "undo" in EVENT_TYPES and "rounds" in COUNTED_UNITS
    assert jsonable((1, {2})) == [1, [2]]
    hero = SYSTEM.Character()
    twin = clone_character(hero)
    assert twin is not hero and twin.to_dict() == hero.to_dict()


def test_entry_is_a_copy():
    c = _fight()
    before = c.state()
    entry = c.entry("aria")
    assert entry["name"] == "Aria"
    entry["name"] = "Mallory"
    entry["conditions"].append({"id": "forged"})
    assert c.state() == before
    with pytest.raises(RuleError):
        c.entry("nobody")


def test_projection_matches_the_combat():
    c = _fight()
    rows = projection.combatants_of(c)
    assert [r.id for r in rows] == c.order
    assert all(isinstance(r, Combatant) for r in rows)
    assert rows == c.combatants()
    c.set_hidden("boris", True)
    assert [r.id for r in c.combatants(audience="player")] == ["aria"]
    assert {r.id for r in c.combatants()} == {"aria", "boris"}


def test_text_names_who_the_combat_knows_and_ids_it_does_not():
    c = _fight()
    assert c.label("aria") == "Aria"
    assert c.label("ghost") == "ghost"
    added = c.events[0]
    assert text.describe(c, added, "en") == c.describe(added, "en") == "Aria joins the combat"
    assert c.describe(added, "ru") == "Aria вступает в бой"
    assert c.condition_spec("no such condition") is None
