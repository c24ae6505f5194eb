"""Finished sample characters that keep every creation rule, one per installed system (the play
pages' heroes): the creation wizard's tests fill each step's fields from them."""

from __future__ import annotations

from typing import Any

SAMPLES: dict[str, dict[str, Any]] = {
    "ret": dict(
        name="Vera Lind",
        concept="Field medic",
        abilities=[
            dict(name="Medicine", kind="skill", base_param="education", level=3, category="support"),
            dict(name="Firearms", kind="skill", base_param="fine_motor", level=3, category="combat_attack"),
            dict(name="Dodge", kind="skill", base_param="agility", level=3, category="combat_defence"),
            dict(name="Sixth sense", kind="talent", base_param="intuition", level=3, category="analytic"),
        ],
    ),
    "seasons": dict(
        name="Anna Kovac",
        archetype="Detective",
        goal="Find who burned the archive",
        problems=["Insomnia"],
        advantages=["Police badge"],
        intelligence=3,
        wits=3,
        resolve=2,
        presence=2,
        manipulation=2,
        composure=3,
        strength=2,
        dexterity=3,
        stamina=4,
        investigation=4,
        athletics=2,
        melee=2,
        ranged=3,
        drive=1,
        medicine=2,
        persuasion=2,
        empathy=3,
        larceny=2,
        survival=1,
        science=1,
        socialize=2,
        specializations=[
            dict(skill="investigation", name="Crime scenes", rating=3),
            dict(skill="ranged", name="Pistols", rating=2),
            dict(skill="empathy", name="Lies", rating=2),
            dict(skill="athletics", name="Running", rating=1),
            dict(skill="medicine", name="First aid", rating=2),
        ],
    ),
    "life_and_death": dict(
        name="Lirien",
        age="young",
        might=2,
        dexterity=3,
        alertness=3,
        complexity=3,
        power=2,
        luck=2,
        param_points={"dexterity": 1, "alertness": 1},
        skills={"athletics": 1, "stealth": 2, "detection": 2, "restoration": 2, "life": 1},
        features=[{"id": "speed", "level": 1}],
    ),
    "threads_of_fate": dict(
        name="Rook",
        concept="Wasteland scout",
        strength=12,
        dexterity=14,
        constitution=12,
        intelligence=12,
        wisdom=10,
        charm=10,
        attributes=[{"code": "veteran", "name": "Veteran"}],
        facets=[{"name": "Old soldier", "heads": "Keeps calm under fire", "tails": "Cannot leave anyone behind"}],
        tricks=[
            {"name": "Quick draw", "text": "Draws and shoots in one motion"},
            {"name": "Scavenger", "text": "Always finds something useful"},
        ],
        # the play page's Rook without Warfare (an Expert skill his Veteran attribute opens) and
        # without the 5 XP for the Attribute he refused (the XP step checks it against the
        # Attributes taken): steps that ask for skills or XP before Attributes would refuse them
        athletics=3,
        weapons=2,
        perception=3,
        stealth=2,
        shooting=3,
        communication=2,
        weapons_list=[{"name": "Rifle", "kind": "ranged", "dmb": 2}],
    ),
}


def sample(system) -> Any:
    """The system's finished sample as a character (still in creation)."""
    return system.Character(**SAMPLES[system.slug])


def sample_values(system) -> dict[str, Any]:
    """What the sample differs in from a blank character: ``{trait: value}`` as the model holds it
    (the wizard's steps set these)."""
    blank, made = system.Character().to_dict(), sample(system).to_dict()
    return {k: v for k, v in made.items() if blank.get(k) != v}
