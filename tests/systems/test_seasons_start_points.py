"""«Времена Года» (Seasons): no advancement awarded to oneself in creation (issue: "type 5000 into
the experience resource while your character is in creation, then finish it").

The book has no experience points (L746). Its advancement resources are the unspent attribute,
skill and specialization points a NEW tier gives in play (L752, ``SYSTEM.advancement_resources``);
at creation the points are the tier's budgets, spent on the sheet (L125-141, L178-184), and a
tier above Novice needs the Storyteller (L185 «Подобный выбор необходимо обсудить с
Рассказчиком»). So at creation each pool must be 0 (the book's own start), and an unapproved
tier does not start play."""

from __future__ import annotations

import pytest

from characters import SEASONS_DOCTOR
from tabletop_systems.seasons import SYSTEM, Character
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.combat.records import persisted

POOLS = [r.trait for r in SYSTEM.advancement_resources()]


def novice(**values) -> Character:
    c = Character(**{**SEASONS_DOCTOR, **values})
    assert c.phase == "creation"
    return c


def test_the_advancement_resources_are_the_three_pools():
    assert POOLS == ["attribute_points", "skill_points", "specialization_points"]


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("value", [1, 99])
def test_a_pool_past_the_books_start_is_refused_by_validate_and_start_play_L752(pool, value):
    """L752: the points of a new tier come in play; at creation the pool starts at 0."""
    c = novice(**{pool: value})
    problems = [p for p in SYSTEM.validate(c) if p.code == "advancement_points_at_creation"]
    assert len(problems) == 1 and problems[0].severity == "error" and problems[0].field == pool
    assert str(value) in problems[0].message["en"] and str(value) in problems[0].message["ru"]
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        SYSTEM.start_play(c)
    assert [p.code for p in err.value.data["problems"]] == ["advancement_points_at_creation"]
    assert c.phase == "creation" and persisted(c) == before


def test_the_books_own_start_is_accepted():
    c = novice()
    assert all(getattr(c, pool) == 0 for pool in POOLS) and SYSTEM.validate(c) == []
    SYSTEM.start_play(c)
    assert c.phase == "play" and all(getattr(c, pool) == 0 for pool in POOLS)
    # in play the Storyteller's new tier fills the pools: no problem there (L752)
    SYSTEM.advance_tier(c)
    assert (c.attribute_points, c.skill_points, c.specialization_points) == (5, 10, 6)
    assert SYSTEM.validate(c) == []


def test_leftover_creation_points_the_storyteller_allows_wait_in_the_pools_from_play_on():
    """§11 #19 (allow_unspent): the only way the book's pools fill at the start is start_play."""
    lenient = SYSTEM.with_rules(allow_unspent=True)
    c = novice(empathy=2)  # one skill point left
    lenient.start_play(c)
    assert c.skill_points == 1
    again = novice(empathy=2, skill_points=1)
    with pytest.raises(RuleError):
        lenient.start_play(again)  # typed in creation: refused even where leftovers are allowed


def test_a_tier_above_novice_without_the_storytellers_leave_does_not_start_play_L185():
    """L185: a higher tier «необходимо обсудить с Рассказчиком»; the approval is the Storyteller's."""
    extra = dict(
        intelligence=4, wits=4, resolve=4, presence=3, manipulation=3, composure=3, strength=3, dexterity=3, stamina=2
    )  # 20 attribute points: Experienced (L182)
    skills = dict(medicine=5, science=5, investigation=5, empathy=5, athletics=5, persuasion=5, drive=5)
    specs = [
        {"skill": "medicine", "name": "surgery", "rating": 5},
        {"skill": "science", "name": "chemistry", "rating": 5},
        {"skill": "drive", "name": "trucks", "rating": 5},
        {"skill": "empathy", "name": "lies", "rating": 1},
    ]
    c = novice(tier="experienced", **extra, **skills, specializations=specs)
    warning = [p for p in SYSTEM.validate(c) if p.code == "tier_needs_approval"]
    assert [p.severity for p in warning] == ["warning"] and warning[0].data["blocks_finalize"] is True
    with pytest.raises(RuleError) as err:
        SYSTEM.start_play(c)
    assert [p.code for p in err.value.data["problems"]] == ["tier_needs_approval"] and c.phase == "creation"
    c.update(storyteller_approved=True)
    SYSTEM.start_play(c)
    assert c.phase == "play"


def test_the_storytellers_approval_is_the_storytellers_field():
    """A player's seat cannot tick «Storyteller approved» itself (the table refuses GM-only fields)."""
    assert SYSTEM.sheet.field("storyteller_approved").gm_only
    assert all(SYSTEM.sheet.field(pool).gm_only for pool in POOLS)
