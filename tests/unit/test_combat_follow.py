"""One character, one state (issue #19): a combatant is a view of its character. A sheet edit
reaches the combat's views (``observe_characters``), a combatant named after its character
follows the character's renames, and a rename in the tracker renames the character too."""

from __future__ import annotations

import random

from tabletop_widgets import get_system
from tabletop_widgets.core.combat import Combat

RET = get_system("ret")


def fight():
    hero = RET.Character(name="Vera")
    goblin = RET.Character(name="Goblin")
    combat = Combat(RET, rng=random.Random(3))
    combat.add("hero", hero)
    combat.add("g2", goblin, name="Goblin 2")  # a name of its own
    return combat, hero, goblin


def test_a_sheet_rename_reaches_the_combatant_and_is_no_action_to_undo():
    """The rename is no event (issue 30): whoever holds the character's values gets the same name,
    so a page that rebuilds the combat after a player renamed their character writes nothing."""
    combat, hero, _ = fight()
    combat.damage("hero", 2)
    hero.name = "Vera Lind"  # the sheet, outside the combat
    assert combat.name("hero") == "Vera Lind"
    assert combat.events[-1]["type"] == "damage" and combat.state()["combatants"]["hero"]["name"] == "Vera Lind"
    # undo takes back the damage (the last action), not the rename, and keeps the name
    undone = combat.undo()
    assert combat.events[undone["undoes"]]["type"] == "damage"
    assert combat.name("hero") == "Vera Lind" and hero.name == "Vera Lind"
    assert RET.health(hero)[0] == RET.health(hero)[1]


def test_a_combatant_with_a_name_of_its_own_keeps_it():
    combat, _, goblin = fight()
    goblin.name = "Hobgoblin"
    assert combat.name("g2") == "Goblin 2"
    assert not any(e["type"] == "rename" for e in combat.events)


def test_a_tracker_rename_renames_the_character_and_undo_restores_both():
    combat, hero, goblin = fight()
    combat.rename("hero", "Vera the Medic")
    assert hero.name == "Vera the Medic"
    combat.undo()
    assert hero.name == "Vera" and combat.name("hero") == "Vera"
    combat.rename("g2", "Big goblin")  # its own name: the character keeps its name
    assert goblin.name == "Goblin"


def test_views_hear_of_outside_changes_only():
    combat, hero, _ = fight()
    heard: list[str] = []
    stop = combat.observe_characters(heard.append)
    combat.damage("hero", 1)  # the combat's own change: an event, not an outside change
    assert heard == []
    hero.health = 2
    assert heard and set(heard) == {"hero"}
    assert combat.combatant("hero").health[0] == 2
    stop()
    heard.clear()
    hero.health = 3
    assert heard == []


def test_replay_gives_the_same_names_and_characters():
    combat, hero, _ = fight()
    hero.name = "Vera Lind"
    combat.rename("hero", "Dr Lind")
    again = Combat.replay(RET, None, combat.events)
    assert again.state() == combat.state()
    assert again.character("hero").name == "Dr Lind"


def test_an_older_log_s_follow_rename_still_applies():
    combat, hero, _ = fight()
    combat.apply({"type": "rename", "id": "hero", "name": "Vera Lind", "follow": True})
    assert combat.name("hero") == "Vera Lind"
    again = Combat.replay(RET, None, combat.events)
    assert again.name("hero") == "Vera Lind"
