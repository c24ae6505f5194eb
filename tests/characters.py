"""Test characters that several suites build (one copy each): import them with
``from characters import ...`` (``tests/`` is on the path, as for ``helpers``)."""

from __future__ import annotations

from tabletop_systems.ret import Character as RetCharacter
from tabletop_systems.seasons import Character as SeasonsCharacter
from tabletop_systems.threads_of_fate import Character as ThreadsCharacter

#: A legal Seasons novice: D14's attributes, 25 skill points, 10 specialization points.
SEASONS_NOVICE = dict(
    intelligence=3,
    wits=2,
    resolve=1,
    presence=3,
    manipulation=2,
    composure=4,
    strength=2,
    dexterity=3,
    stamina=4,
    athletics=3,
    melee=3,
    ranged=2,
    larceny=2,
    science=3,
    medicine=3,
    investigation=3,
    persuasion=3,
    empathy=3,
    archetype="Detective",
    goal="Stop a serial killer",
    problems=["Stubborn"],
    advantages=["Sharp eye"],
    specializations=[
        {"skill": "science", "name": "chemistry", "rating": 3},
        {"skill": "melee", "name": "knives", "rating": 4},
        {"skill": "medicine", "name": "first aid", "rating": 3},
    ],
)

#: Vera, a legal Seasons novice doctor (15 / 25 / 10 points spent, L129, L135, L141), by the
#: creation steps she is made in (the wizard's step ids).
SEASONS_DOCTOR_STEPS = {
    "archetype_goal": dict(name="Vera", archetype="Doctor", goal="Find her brother"),
    "problem": dict(problems=["Curious"]),
    "advantage": dict(advantages=["Calm"]),
    "attributes": dict(
        intelligence=3, wits=3, resolve=3, presence=2, manipulation=2, composure=3, strength=2, dexterity=3, stamina=3
    ),
    "skills": dict(medicine=5, science=4, investigation=4, empathy=3, athletics=3, persuasion=3, drive=3),
    "specializations": dict(
        specializations=[
            {"skill": "medicine", "name": "surgery", "rating": 5},
            {"skill": "science", "name": "chemistry", "rating": 5},
        ]
    ),
}
SEASONS_DOCTOR = {k: v for step in SEASONS_DOCTOR_STEPS.values() for k, v in step.items()}

#: Threads of Fate characteristics worth the 70 creation points (spec D02)
THREADS_CHARACTERISTICS = dict(strength=10, dexterity=14, constitution=14, intelligence=12, wisdom=12, charm=8)

#: A legal Threads of Fate hero: 70 characteristic points, two Attributes with their Facets, two
#: Tricks, the creation XP in three skills.
THREADS_LEGAL = dict(
    **THREADS_CHARACTERISTICS,
    tricks=[{"name": "Experienced shooter"}, {"name": "Ambidextrous"}],
    attributes=[
        {"code": "veteran", "name": "Veteran", "expert_access": ["warfare", "trade"]},
        {"code": "martial_arts", "name": "Martial arts"},
    ],
    facets=[{"name": "Old soldier"}, {"name": "Calm"}],
    stealth=4,
    unarmed=3,
    warfare=3,
)


def seasons_novice(**kw) -> SeasonsCharacter:
    """:data:`SEASONS_NOVICE` with ``kw`` changed."""
    return SeasonsCharacter(**{**SEASONS_NOVICE, **kw})


def threads_legal(**kw) -> ThreadsCharacter:
    """:data:`THREADS_LEGAL` with ``kw`` changed."""
    return ThreadsCharacter(**{**THREADS_LEGAL, **kw})


#: RET abilities a legal character holds: three skills and a talent at level 3.
RET_ABILITIES = [
    {"name": "Lockpicking", "kind": "skill", "level": 3, "base_param": "fine_motor"},
    {"name": "Shooting", "kind": "skill", "level": 3, "base_param": "attention"},
    {"name": "Running", "kind": "skill", "level": 3, "base_param": "endurance"},
    {"name": "Lucky", "kind": "talent", "level": 3, "base_param": "intuition"},
]


def legal_ret(**kw) -> RetCharacter:
    """Vera, a legal RET character with :data:`RET_ABILITIES`, with ``kw`` changed."""
    return RetCharacter(**{"name": "Vera", "abilities": RET_ABILITIES, **kw})
