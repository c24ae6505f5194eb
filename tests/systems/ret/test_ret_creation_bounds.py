"""What a new R.E.T. character may start with (brief items 2 and 4): no development points typed
in at creation (L278, L284, L462), abilities at their starting level and not on a pillar (L407,
L419, L397-400, L1726), and a New ability row that starts as the book starts one — through the API
and the creation wizard's model, in plain Python."""

from __future__ import annotations

import pytest

from tabletop_systems.ret import SYSTEM, Character
from tabletop_systems.ret.params import TIER1
from tabletop_systems.ret.sheet import SHEET
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.sheet import new_item
from tabletop_widgets.core.wizard import Wizard

TABLE = SYSTEM.with_rules(param_dp=3, ability_dp=3)


def ready(**extra) -> Character:
    """A character that may enter play at TABLE: three skills, a talent, nothing else wrong."""
    abilities = [
        {"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3},
        {"name": "Stealth", "kind": "skill", "base_param": "body_control", "level": 3},
        {"name": "First aid", "kind": "skill", "base_param": "fine_motor", "level": 3},
        {"name": "Detective", "kind": "talent", "base_param": "perception", "level": 3},
    ]
    return Character(name="Vera", abilities=extra.pop("abilities", abilities), **extra)


def codes(problems):
    return [p.code for p in problems]


# -- item 2: development points typed in at creation -------------------------------------------------
@pytest.mark.parametrize("pool", ["dp", "dp_params", "dp_abilities"])
def test_dp_typed_in_at_creation_keep_the_character_from_play(pool):
    """L278: «Очки выдает мастер после окончания сессии или сюжетной арки»; L462: at creation the
    player distributes the GM's creation points. 5000 DP typed in while creating is a creation
    problem, and Finish refuses while it remains."""
    c = ready(**{pool: 5000})
    problems = [p for p in TABLE.validate(c) if p.code == "creation_dp"]
    assert [p.field for p in problems] == [pool] and problems[0].severity == "error"
    assert "5000" in problems[0].message["en"] and "очков развития" in problems[0].message["ru"]
    with pytest.raises(RuleError) as err:
        TABLE.start_play(c)
    assert "creation_dp" in codes(err.value.data["problems"]) and c.phase == "creation"
    setattr(c, pool, 0)
    TABLE.start_play(c)
    assert c.phase == "play" and getattr(c, pool) == 0


def test_in_play_dp_are_no_creation_problem():
    """In play the GM's awards fill the pools (L278): what always holds is checked only."""
    c = ready()
    TABLE.start_play(c)
    c.dp = 7
    assert "creation_dp" not in codes(TABLE.validate(c))


def test_the_gm_may_keep_unspent_creation_points():
    """The book is silent on creation points left unspent (L462): by default they are lost; the
    GM option ``keep_unspent_creation_dp`` makes them the character's DP on entering play (two of
    three parameter points spent, one left; no ability point spent, three left)."""
    c = ready(physique=4, endurance=4)
    TABLE.start_play(c)
    assert c.dp == 0
    kept = TABLE.with_rules(keep_unspent_creation_dp=True)
    c = ready(physique=4, endurance=4)
    assert kept.start_play(c)["dp"] == (0, 1 + 3)
    simple = kept.with_rules(costing="simplified")
    c = ready(physique=4, endurance=4)
    simple.start_play(c)
    assert (c.dp_params, c.dp_abilities, c.dp) == (1, 3, 0)


# -- item 4: an ability's starting level and base -----------------------------------------------------
def test_a_skill_below_its_starting_level_is_a_creation_problem():
    """L407: «Стартовый уровень навыков при создании персонажей: 3»; L419 for talents. A skill at
    level 1 keeps the character in creation; the GM option ``allow_below_start`` lets it be."""
    abilities = [
        {"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 1},
        {"name": "Stealth", "kind": "skill", "base_param": "body_control", "level": 3},
        {"name": "First aid", "kind": "skill", "base_param": "fine_motor", "level": 3},
        {"name": "Detective", "kind": "talent", "base_param": "perception", "level": 2},
    ]
    c = ready(abilities=abilities)
    low = [p for p in TABLE.validate(c) if p.code == "ability_below_start"]
    assert [p.data["ability"] for p in low] == ["Lockpicking", "Detective"]
    assert low[0].message["en"].startswith("Lockpicking = 1 is below the starting level 3 of a new skill")
    assert "таланта" in low[1].message["ru"]
    with pytest.raises(RuleError):
        TABLE.start_play(c)
    assert "ability_below_start" not in codes(TABLE.with_rules(allow_below_start=True).validate(c))


def test_an_ability_on_a_pillar_is_a_creation_problem_unless_a_superpower():
    """L397-399: abilities stand on the third or second tier; L1726: the first only for «самых
    могущественных сверхспособностей» (a warning then: the GM's call, L400)."""
    skill = {"name": "Insight", "kind": "skill", "base_param": "mind", "level": 3}
    power = {
        "name": "Godhood",
        "kind": "talent",
        "base_param": "body",
        "level": 3,
        "is_superpower": True,
        "sanity_cost": 3,
    }
    c = ready()
    c.abilities = [*c.abilities, skill, power]
    pillar = {p.data["ability"]: p.severity for p in TABLE.validate(c) if p.code == "ability_on_pillar"}
    assert pillar == {"Insight": "error", "Godhood": "warning"}
    relaxed = TABLE.with_rules(pillar_base="allowed")
    assert {p.severity for p in relaxed.validate(c) if p.code == "ability_on_pillar"} == {"warning"}


def test_a_new_ability_row_starts_as_the_book_starts_one():
    """The sheet's New form (``core.sheet.new_item`` of the system's declarations): level 3 (L407,
    L419), a base parameter that is not a pillar (L397-400); with a name it is a legal ability."""
    row = new_item(SHEET.field("abilities"))
    assert row["kind"] == "skill" and row["level"] == 3
    assert row["base_param"] not in TIER1 and row["base_param"] in Character.class_trait_names()
    c = ready()
    c.abilities = [*c.abilities[:2], {**row, "name": "Knife fighting"}, c.abilities[3]]
    assert not [p for p in TABLE.validate(c) if p.code in ("ability_below_start", "ability_on_pillar")]


def test_the_wizards_abilities_step_reports_a_level_1_skill():
    """Through the creation wizard's model: the step "Skills and a talent" says «starting at level
    3», and a skill typed at level 1 is the step's error, so Next stays shut."""
    c = ready()
    c.abilities = [dict(c.abilities[0], level=1), *c.abilities[1:]]
    w = Wizard(TABLE, c)
    w.next()
    w.next()
    assert w.step.id == "abilities" and "starting at level 3" in w.step.explain["en"]
    assert "ability_below_start" in codes(w.step_errors())
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "step_problems"
    c.abilities = [dict(c.abilities[0], level=3), *c.abilities[1:]]
    assert w.next().id == "kit"


def test_the_wizards_points_step_reports_typed_in_dp():
    """Brief item 2 through the wizard: DP typed in while creating block Finish on the last step."""
    c = ready(dp=5000)
    w = Wizard(TABLE, c)
    while not w.is_last:
        w.next()
    assert "creation_dp" in codes(w.problems()) and "dp" in w.fields()
    with pytest.raises(RuleError):
        w.finish()
    assert c.phase == "creation"
