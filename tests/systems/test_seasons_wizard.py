"""The Seasons («Времена Года») creation wizard (issue #17): the book's eight steps in order
(L108-186), each explained, with the running budgets (15 / 25 / 10 points, L129, L135, L141;
more with a higher tier, L181-184), walked from a blank character to play with
``core.wizard.Wizard`` as a player would."""

from __future__ import annotations

import pytest

from tabletop_widgets.core import RuleError
from tabletop_widgets.core.wizard import Wizard
from tabletop_systems.seasons import SYSTEM, Character

STEPS = ["archetype_goal", "problem", "advantage", "attributes", "skills", "specializations", "extras", "experience"]


def codes(problems):
    return [p.code for p in problems]


def refused(w: Wizard) -> list[str]:
    """``next()`` refused: the codes of the step's errors it names (the step is unchanged)."""
    index = w.index
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "step_problems" and w.index == index
    assert err.value.text("en").startswith("Before the next step, fix:")
    assert err.value.text("ru").startswith("Прежде чем идти дальше")
    return codes(err.value.data["problems"])


def test_the_eight_steps_in_the_books_order_each_explained():
    steps = SYSTEM.creation_wizard(Character())
    assert [s.id for s in steps] == STEPS  # L108, L114, L120, L125, L131, L137, L143, L178
    for s in steps:  # the wizard numbers the steps itself: a title carries no number
        assert s.title["en"][0].isalpha() and s.title["ru"][0].isalpha()
        assert len(s.explain["en"]) > 40 and len(s.explain["ru"]) > 40
        for name in s.fields:  # every field a step shows is on the sheet
            SYSTEM.sheet.field(name)
    by_id = {s.id: s for s in steps}
    assert by_id["attributes"].budgets == ("attributes",) and "stamina" in by_id["attributes"].fields
    assert by_id["experience"].budgets == ("attributes", "skills", "specializations")


def test_a_player_walks_from_a_blank_character_to_play():
    c = Character()
    w = Wizard(SYSTEM, c)
    # 1. Archetype and Goal (L108-112): a name is needed to go on
    assert w.step.id == "archetype_goal" and w.budgets() == []
    assert refused(w) == ["no_name"]
    c.update(name="Vera", archetype="Doctor", goal="Find her brother")
    assert w.next().id == "problem"
    # 2-3. Problem and Advantage (L114-123): warnings while empty, they do not hold the player
    assert codes(w.problems()) == ["no_problem"]
    c.update(problems=["Curious"])
    assert w.problems() == []
    w.next()
    c.update(advantages=["Calm"])
    assert w.next().id == "attributes"
    # 4. Attributes: 15 points over nine attributes starting at 1 (L129)
    (budget,) = w.budgets()
    assert budget.text() == "Attribute points: 0 of 15 spent, 15 left"
    assert refused(w) == ["attribute_points_unspent"]
    c.update(intelligence=3, wits=3, resolve=3, presence=2, manipulation=2, composure=3, strength=2, dexterity=3)
    c.update(stamina=6)  # above the human cap of 5 and one point over
    assert sorted(refused(w)) == ["attribute_points_over", "attribute_range"]
    assert w.budgets()[0].text() == "Attribute points: 18 of 15 spent, 3 over"
    c.update(stamina=3)
    assert w.budgets()[0].text("ru") == "Пункты атрибутов: потрачено 15 из 15, осталось 0"
    assert w.next().id == "skills"
    # 5. Skills: 25 points, each 0-5 (L133-135)
    assert w.budgets()[0].text() == "Skill points: 0 of 25 spent, 25 left"
    c.update(medicine=5, science=4, investigation=4, empathy=3, athletics=3, persuasion=3, drive=2)
    assert refused(w) == ["skill_points_unspent"]
    c.update(drive=3)
    assert w.next().id == "specializations"
    # 6. Specializations: 10 points, only in skills rated 1+ (L139-141)
    c.update(specializations=[{"skill": "occult", "name": "hypnosis", "rating": 5}])
    assert sorted(refused(w)) == ["specialization_points_unspent", "specialization_without_skill"]
    c.update(
        specializations=[
            {"skill": "medicine", "name": "surgery", "rating": 5},
            {"skill": "science", "name": "chemistry", "rating": 5},
        ]
    )
    assert w.budgets()[0].text() == "Specialization points: 10 of 10 spent, 0 left"
    assert w.next().id == "extras"
    # 7. The rest (L143-176): derived values follow; Size 5 for an adult
    assert (c.health_max, c.initiative, c.speed, c.drama_start) == (10, 9, 8, 7)
    assert w.problems() == []
    assert w.next().id == "experience"
    # 8. Experience (L178-185): a novice finishes
    assert [b.text() for b in w.budgets()] == [
        "Attribute points: 15 of 15 spent, 0 left",
        "Skill points: 25 of 25 spent, 0 left",
        "Specialization points: 10 of 10 spent, 0 left",
    ]
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "last_step"
    c.update(drama=0)  # whatever Drama says in creation, play starts with PRE + MAN + COM (L147)
    changes = w.finish()
    assert c.phase == "play" and c.drama == c.drama_start == 7
    assert changes["drama"] == (0, 7)
    assert SYSTEM.validate(c) == []


def test_a_higher_tier_at_step_8_sends_the_player_back_to_spend_its_points():
    c = Character(
        name="Old Jack",
        archetype="Veteran",
        goal="One last job",
        problems=["Old Age"],
        advantages=["Contacts"],
        intelligence=3,
        wits=3,
        resolve=3,
        presence=2,
        manipulation=2,
        composure=3,
        strength=2,
        dexterity=3,
        stamina=3,
        melee=5,
        ranged=5,
        survival=5,
        larceny=5,
        drive=5,
        specializations=[
            {"skill": "melee", "name": "knives", "rating": 5},
            {"skill": "drive", "name": "trucks", "rating": 5},
        ],
    )
    w = Wizard(SYSTEM, c)
    for _ in range(7):
        w.next()
    assert w.step.id == "experience"
    c.update(tier="experienced")  # L182: +5 / +10 / +6
    assert [b.text() for b in w.budgets()] == [
        "Attribute points: 15 of 20 spent, 5 left",
        "Skill points: 25 of 35 spent, 10 left",
        "Specialization points: 10 of 16 spent, 6 left",
    ]
    assert {"tier_needs_approval", "attribute_points_unspent"} <= set(codes(w.problems()))
    with pytest.raises(RuleError) as err:
        w.finish()
    assert err.value.code == "creation_problems" and c.phase == "creation"
    for step in ("extras", "specializations", "skills", "attributes"):
        assert w.back().id == step
    c.update(strength=4, dexterity=5, stamina=4)
    w.next()
    c.update(athletics=5, empathy=5)
    w.next()
    c.update(specializations=[*c.specializations, {"skill": "athletics", "name": "running", "rating": 6}])
    assert "specialization_range" in refused(w)  # rated 1-5 (L139)
    c.update(specializations=[*c.specializations[:2], {"skill": "athletics", "name": "running", "rating": 5}])
    assert "specialization_points_unspent" in refused(w)
    c.update(
        specializations=[
            *c.specializations[:2],
            {"skill": "athletics", "name": "running", "rating": 5},
            {"skill": "empathy", "name": "lies", "rating": 1},
        ]
    )
    w.next()
    w.next()
    c.update(storyteller_approved=True)
    w.finish()
    assert c.phase == "play" and SYSTEM.validate(c) == []
