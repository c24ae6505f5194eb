"""The advancement and creation-wizard contracts (``core/advancement.py``, ``core/wizard.py``,
``GameSystem.advancements/plan_advance/advance/award``, ``creation_wizard/creation_budgets``),
played with the fifth-system example (Lantern): experience raises a trait for twice its new value."""

from __future__ import annotations

import pytest

from tabletop_widgets.core import RuleError
from tabletop_widgets.core.advancement import MAX_AWARD, price_text
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.wizard import Wizard, WizardStep, default_steps


@pytest.fixture()
def lantern():
    from fixtures.fifth_system import SYSTEM

    return SYSTEM


def played(system, **values):
    c = system.Character(name="Ada", nerve=3, wits=3, **values)
    system.start_play(c)
    return c


def test_the_price_shows_before_buying_and_a_blocked_advance_says_why(lantern):
    ada = played(lantern, xp=8)
    nerve, wits = lantern.advancements(ada)
    assert (nerve.id, dict(nerve.cost), nerve.blocked) == ("raise:nerve", {"xp": 8}, None)
    assert price_text(lantern, nerve.cost) == "8 XP"
    assert price_text(lantern, nerve.cost, "ru") == "8 опыта"
    plan = lantern.plan_advance(ada, "raise:nerve")
    assert (dict(plan.cost), dict(plan.changes)) == ({"xp": 8}, {"nerve": 4})
    assert (ada.nerve, ada.xp) == (3, 8), "planning changes nothing"
    ada.xp = 7
    assert "Needs 8 XP" in lantern.advancements(ada)[0].blocked["en"]


def test_an_advance_spends_and_raises_past_the_creation_budget(lantern):
    ada = played(lantern, xp=20)
    outcome = lantern.advance(ada, "raise:nerve")
    assert dict(outcome.changes) == {"nerve": (3, 4), "xp": (20, 12)}
    assert outcome.line() == "Nerve 3 → 4 for 8 XP"
    assert outcome.line("ru") == "Нервы 3 → 4 за 8 опыта"
    assert (ada.nerve, ada.xp, ada.health_max) == (4, 12, 14)
    assert lantern.validate(ada) == [], "in play the six-point budget no longer binds"
    assert persisted(ada)["nerve"] == 4


@pytest.mark.parametrize(
    ("setup", "advance_id", "options", "code"),
    [
        ({"xp": 100, "nerve": 5, "wits": 1}, "raise:nerve", {}, "advance_blocked"),
        ({"xp": 3}, "raise:nerve", {}, "advance_blocked"),
        ({"xp": 100}, "raise:luck", {}, "unknown_advance"),
        ({"xp": 100}, "raise:nerve", {"gm_leave": True}, "unknown_option"),
        ({"xp": 100}, ["raise:nerve"], {}, "unknown_advance"),
    ],
)
def test_refusals_name_what_is_wrong_and_change_nothing(lantern, setup, advance_id, options, code):
    c = lantern.Character(name="Ada", **{"nerve": 3, "wits": 3, **setup})
    c.phase = "play"
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        lantern.advance(c, advance_id, **options)
    assert err.value.code == code
    assert err.value.text("en") and err.value.text("ru") and err.value.text("en") != err.value.text("ru")
    assert persisted(c) == before


def test_a_character_in_creation_cannot_advance(lantern):
    c = lantern.Character(name="Ada", nerve=3, wits=3, xp=50)
    with pytest.raises(RuleError) as err:
        lantern.advance(c, "raise:nerve")
    assert err.value.code == "not_in_play"
    assert "finish the character first" in str(err.value)


def test_not_enough_is_checked_even_when_the_list_did_not_block(lantern, monkeypatch):
    ada = played(lantern, xp=3)
    from fixtures.fifth_system import advancement

    monkeypatch.setattr(
        lantern,
        "advancements",
        lambda c: [s.__class__(**{**s.__dict__, "blocked": None}) for s in advancement.advance_list(c)],
    )
    with pytest.raises(RuleError) as err:
        lantern.advance(ada, "raise:nerve")
    assert err.value.code == "not_enough"
    assert err.value.data == {"resource": "xp", "cost": 8, "have": 3}
    assert (ada.nerve, ada.xp) == (3, 3)


def test_an_advance_that_breaks_a_rule_the_character_kept_is_refused(lantern, monkeypatch):
    ada = played(lantern, xp=50)
    real = lantern.validate

    def strict(c):
        problems = list(real(c))
        if c.nerve > 3:
            from tabletop_widgets.core import Problem, T

            problems.append(Problem("house_cap", T("Nerve stays at 3 here.", "Нервы здесь не выше 3."), field="nerve"))
        return problems

    monkeypatch.setattr(lantern, "validate", strict)
    with pytest.raises(RuleError) as err:
        lantern.advance(ada, "raise:nerve")
    assert err.value.code == "advance_breaks_rules" and "Nerve stays at 3" in str(err.value)
    assert (ada.nerve, ada.xp) == (3, 50)


def test_the_gm_awards_experience(lantern):
    ada = played(lantern)
    out = lantern.award(ada, "xp", 12)
    assert dict(out.changes) == {"xp": (0, 12)} and out.line() == "Ada gets 12 XP."
    assert out.line("ru") == "Ada получает 12 опыта."


@pytest.mark.parametrize("amount", [0, -5, MAX_AWARD + 1, True, "10", 2.5, None])
def test_a_bad_award_is_refused(lantern, amount):
    ada = played(lantern, xp=4)
    with pytest.raises(RuleError) as err:
        lantern.award(ada, "xp", amount)
    assert err.value.code == "bad_award" and ada.xp == 4


def test_an_award_of_something_the_game_does_not_award_is_refused(lantern):
    ada = played(lantern)
    with pytest.raises(RuleError) as err:
        lantern.award(ada, "health", 5)
    assert err.value.code == "unknown_resource" and "Experience" in str(err.value)


# -- the creation wizard ---------------------------------------------------------------------------
def test_the_wizard_walks_the_steps_with_the_running_budget(lantern):
    c = lantern.Character(name="", nerve=0, wits=0)
    w = Wizard(lantern, c)
    assert [s.id for s in w.steps] == ["who", "traits"]
    assert w.step.id == "who" and w.budgets() == []
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "step_problems" and "name" in str(err.value).lower()
    c.name = "Ada"
    assert w.next().id == "traits"
    c.nerve, c.wits = 4, 3
    (budget,) = w.budgets()
    assert budget.text() == "Points: 7 of 6 spent, 1 over"
    assert [p.code for p in w.problems()] == ["over_budget"]
    with pytest.raises(RuleError) as err:
        w.finish()
    assert err.value.code == "creation_problems" and c.phase == "creation"
    c.nerve = 3
    assert w.budgets()[0].text("ru") == "Очки: потрачено 6 из 6, осталось 0"
    assert w.back().id == "who" and w.index == 0
    with pytest.raises(RuleError):
        w.finish()
    w.next()
    w.finish()
    assert c.phase == "play"


def test_a_system_without_steps_gets_one_per_sheet_section(lantern):
    steps = default_steps(lantern)
    assert [(s.id, tuple(s.fields)) for s in steps] == [("who", ("name", "nerve", "wits", "xp"))]
    assert "Character" in steps[0].explain["en"]


def test_the_wizard_finishes_through_the_start_play_it_is_given(lantern):
    c = lantern.Character(name="Ada", nerve=3, wits=3)
    calls = []
    w = Wizard(lantern, c, start_play=lambda ch: calls.append(ch) or "recorded")
    w.next()
    assert w.finish() == "recorded" and calls == [c]
    assert c.phase == "creation"  # the given action decides (a table records it; the model follows)


def test_the_last_step_also_asks_for_what_no_step_sets_but_blocks_play(lantern, monkeypatch):
    only_who = [WizardStep("who", {"en": "Who", "ru": "Кто"}, {"en": "Name.", "ru": "Имя."}, ("name",))]
    monkeypatch.setattr(lantern, "creation_wizard", lambda c: only_who)
    c = lantern.Character(name="Ada", nerve=5, wits=3)  # over the budget: Nerve is on no step
    w = Wizard(lantern, c)
    assert w.is_last and w.fields() == ["name", "nerve"]
    c.nerve = 3
    assert w.fields() == ["name"]
