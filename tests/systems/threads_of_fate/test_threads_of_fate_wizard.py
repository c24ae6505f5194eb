"""Threads of Fate's creation wizard (issue #17): the book's creation order (seed
``004_930342107b23b376.txt`` L249-268: the hero pictured, 70 characteristic points, 2 Attributes or
XP, 2 Tricks, 0-2 Flaws, a Facet per Attribute, 0-2 Bonds, 10 XP of skills), walked from a blank
character with ``core.wizard.Wizard`` as a player would."""

from __future__ import annotations

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.wizard import Wizard

ORDER = ["concept", "characteristics", "attributes", "tricks", "flaws", "facets", "bonds", "skills", "ready"]
VETERAN = {"code": "veteran", "name": "Veteran", "expert_access": ["warfare", "trade"]}
MARTIAL = {"code": "martial_arts", "name": "Martial arts"}


def refused(w: Wizard, code: str) -> str:
    """``next()`` refuses with the step's own errors; the wizard stays on the step."""
    at = w.index
    with pytest.raises(RuleError) as err:
        w.next()
    assert w.index == at
    assert err.value.code == "step_problems"
    assert code in {p.code for p in err.value.data["problems"]}
    return err.value.text("en")


def budget(w: Wizard, locale="en") -> list[str]:
    return [b.text(locale) for b in w.budgets()]


def test_every_step_explains_itself_and_names_sheet_fields():
    c = Character(attributes=[VETERAN])
    names = {f.name for f in SYSTEM.sheet.fields()}
    keys = set(SYSTEM.creation_budgets(c))
    for step in SYSTEM.creation_wizard(c):
        assert step.title["en"] and step.title["ru"] and step.title["en"] != step.title["ru"]
        assert len(step.explain["en"]) > 40 and step.explain["ru"] != step.explain["en"]
        assert set(step.fields) <= names, step.id
        assert set(step.budgets) <= keys, step.id


def test_steps_follow_earlier_choices():
    """No Facets step without Attributes (L266: as many Facets as Attributes); the skills step offers
    the Expert skills the hero has access to (L410-412)."""
    bare = Character()
    assert [s.id for s in SYSTEM.creation_wizard(bare)] == [s for s in ORDER if s != "facets"]
    skills = next(s for s in SYSTEM.creation_wizard(bare) if s.id == "skills")
    assert "stealth" in skills.fields and "warfare" not in skills.fields
    vet = Character(attributes=[VETERAN])
    assert [s.id for s in SYSTEM.creation_wizard(vet)] == ORDER
    skills = next(s for s in SYSTEM.creation_wizard(vet) if s.id == "skills")
    assert {"warfare", "trade"} <= set(skills.fields) and "medicine" not in skills.fields


def test_a_blank_character_walks_to_play_step_by_step():
    c = Character()
    w = Wizard(SYSTEM, c)

    # 1. who the hero is (L249-250); a Medium hero unless the GM agrees (L303)
    assert w.step.id == "concept"
    assert "name" in refused(w, "no_name").lower()
    c.update(name="Rook", concept="An old soldier from the river forts.", size="large")
    refused(w, "V16")
    c.size = "medium"
    w.next()

    # 2. 70 characteristic points, each at most 18 at creation (L271-274)
    assert w.step.id == "characteristics"
    assert budget(w) == ["Characteristic points: 60 of 70 spent, 10 left"]
    c.update(strength=18, dexterity=18, constitution=18)
    assert budget(w) == ["Characteristic points: 84 of 70 spent, 14 over"]
    assert "Remove 14" in refused(w, "V01")
    c.update(strength=19, dexterity=10, constitution=10)
    refused(w, "V03")
    c.update(strength=10, dexterity=14, constitution=14, intelligence=12, wisdom=12, charm=8)
    assert budget(w, "ru") == ["Очки характеристик: потрачено 70 из 70, осталось 0"]
    w.next()

    # 3. two Attributes, or 5 XP for each refused (L263)
    assert w.step.id == "attributes"
    assert budget(w) == ["Attribute picks: 0 of 2 spent, 2 left", "XP for skills: 0 of 20 spent, 20 left"]
    c.attributes = [VETERAN, MARTIAL, {"code": "augmented", "name": "Augmented"}]
    refused(w, "V07")
    c.attributes = [VETERAN, MARTIAL]
    assert budget(w)[1] == "XP for skills: 0 of 10 spent, 10 left"
    w.next()

    # 4. two Tricks (L264)
    assert w.step.id == "tricks"
    c.tricks = [{"name": "Experienced shooter"}, {"name": "Ambidextrous"}, {"name": "Quick draw"}]
    assert budget(w) == ["Trick picks: 3 of 2 spent, 1 over"]
    refused(w, "V09")
    c.tricks = c.tricks[:2]
    w.next()

    # 5. up to two Flaws (L265)
    assert w.step.id == "flaws"
    c.flaws = [{"name": "Drunkard"}]
    w.next()

    # 6. a Facet per Attribute (L266)
    assert w.step.id == "facets"
    assert "2 Facets" in w.step.explain["en"] and "2 Грани" in w.step.explain["ru"]
    refused(w, "V11")
    c.facets = [{"name": "Old soldier"}, {"name": "Calm"}]
    w.next()

    # 7. up to two Bonds (L267)
    assert w.step.id == "bonds"
    c.bonds = [{"name": "Never leave your own"}]
    w.next()

    # 8. 10 XP into skills, none above Intelligence (L268, L370)
    assert w.step.id == "skills"
    c.stealth = 11
    assert budget(w) == ["XP for skills: 11 of 10 spent, 1 over"]
    refused(w, "V13")
    c.update(stealth=4, unarmed=3, warfare=2)
    assert budget(w) == ["XP for skills: 9 of 10 spent, 1 left"]
    w.next()

    # back and forth keeps what was set
    w.back()
    assert w.step.id == "skills" and c.warfare == 2
    w.next()

    assert w.step.id == "ready" and w.is_last
    assert w.problems() == []
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "last_step"
    changes = w.finish()
    assert c.phase == "play"
    assert changes["xp_free"] == (0, 1), "the XP left from skills stay the hero's (L263-268)"
    assert SYSTEM.validate(c) == []


def test_a_size_other_than_medium_waits_for_the_gm_L303():
    """The player picks the size; only the GM ticks the approval (a player's sheet cannot)."""
    c = Character(name="Rook", size="small")
    w = Wizard(SYSTEM, c)
    refused(w, "V16")
    assert SYSTEM.sheet.field("gm_approved_size").gm_only
    assert "gm_approved_size" not in w.step.fields
    c.gm_approved_size = True  # the GM agrees
    w.next()
    assert w.step.id == "characteristics"


def test_finish_only_from_the_last_step_and_only_without_problems():
    c = Character(name="Rook")
    w = Wizard(SYSTEM, c)
    with pytest.raises(RuleError) as err:
        w.finish()
    assert err.value.code == "not_last_step"
    w.index = len(w.steps) - 1
    c.update(strength=18, dexterity=18, constitution=18)  # over the 70 points
    assert "V01" in {p.code for p in w.problems()}
    with pytest.raises(RuleError):
        w.finish()
    assert c.phase == "creation"
