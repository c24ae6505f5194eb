"""The creation wizard widget (issue #17): a view of ``core.wizard.Wizard`` that draws each step's
fields with the sheet's own field views, the running budgets and the step's problems, refuses
Next with the reasons, finishes on the last step and hands the finished character to the page.
Front-end messages are forged as a browser sends them (a disabled button still fires)."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from creation_samples import SAMPLES, sample_values
from helpers import frontend_click, frontend_update
from tabletop_widgets import get_system
from tabletop_widgets.widgets import CreationWizard, NewCharacter
from tabletop_widgets.widgets.sheet_views import ScalarView


@pytest.fixture()
def lantern():
    from fixtures.fifth_system import SYSTEM

    return SYSTEM


def fill(view, value) -> None:
    """Set a field the way a player does: a scalar through its control's front-end message, a
    list or mapping through the view's commit (the path its add/edit forms end in)."""
    control = getattr(view, "control", None)
    if isinstance(view, ScalarView) and isinstance(control, widgets.Dropdown):
        values = [v for _label, v in control.options]
        frontend_update(control, index=values.index(value))
    elif isinstance(view, ScalarView) and isinstance(control, (widgets.IntText, widgets.Checkbox)):
        frontend_update(control, value=value)
    elif isinstance(view, ScalarView) and isinstance(control, (widgets.Text, widgets.Textarea, widgets.Combobox)):
        frontend_update(control, value=str(value))  # what a text box sends is text
    else:
        assert view.commit(value), view.problem.value
    if isinstance(view, ScalarView):
        assert getattr(view.ctx.character, view.field.name) == value, view.field.name


def test_lantern_step_by_step_with_the_budget_and_the_refusals(lantern):
    c = lantern.Character(name="", nerve=0, wits=0)
    finished = []
    w = CreationWizard(c, lantern, locale="en")
    w.on_finish(finished.append)
    assert "Step 1 of 2" in w.progress.value and 'data-step="who"' in w.progress.value
    assert "Name your character." in w.explain.value
    assert list(w.views) == ["name"] and "tt-field-name" in w.views["name"].widget._dom_classes
    assert w.finish_button.layout.display == "none" and w.back_button.disabled

    frontend_click(w.next_button)  # the name is missing: refused, with the reason
    assert w.model.index == 0 and "Not yet" in w.message.value and "Give your character a name" in w.message.value
    frontend_update(w.views["name"].control, value="Ada")
    assert c.name == "Ada" and w.message.layout.display == "none"
    assert "This step is done" in w.problem_box.value
    frontend_click(w.next_button)
    assert "Step 2 of 2" in w.progress.value and list(w.views) == ["nerve", "wits"]
    assert "Points: 0 of 6 spent, 6 left" in w.budget_box.value

    frontend_update(w.views["nerve"].control, value=4)
    frontend_update(w.views["wits"].control, value=3)
    assert "Points: 7 of 6 spent, 1 over" in w.budget_box.value and "tt-over" in w.budget_box.value
    assert "share 6 points" in w.views["nerve"].problem.value  # next to its field, as on the sheet
    assert w.next_button.layout.display == "none" and w.finish_button.layout.display is None
    frontend_click(w.finish_button)
    assert c.phase == "creation" and "share 6 points" in w.message.value and finished == []

    frontend_update(w.views["nerve"].control, value=3)
    frontend_click(w.back_button)
    assert w.model.index == 0 and c.nerve == 3  # back undoes nothing
    frontend_click(w.next_button)
    frontend_click(w.finish_button)
    assert c.phase == "play" and finished == [c] and w.finished
    assert "Ada is ready to play" in w.message.value
    frontend_click(w.finish_button)  # a second (forged) click does nothing more
    assert finished == [c]


def test_a_field_keeps_the_sheets_limits_and_shows_the_refusal():
    ret = get_system("ret")
    c = ret.Character(name="Vera")
    w = CreationWizard(c, ret, locale="en")
    # straight to the step that sets Physique (walking there is the browser test's job)
    w.model.index = next(i for i, step in enumerate(w.model.steps) if "physique" in step.fields)
    w.refresh()
    frontend_update(w.views["physique"].control, value=99)  # above the model's range
    assert c.physique == 3 and w.views["physique"].control.value == 3
    assert "tt-has-error" in w.views["physique"].widget._dom_classes
    assert "(not 99)" in w.views["physique"].problem.value  # the same words as on the sheet


def test_russian_and_the_page_language(lantern):
    c = lantern.Character(name="")
    w = CreationWizard(c, lantern, locale="ru")
    assert "Шаг 1 из 2" in w.progress.value and "Назовите персонажа" in w.explain.value
    assert w.next_button.description == "Дальше ▶" and "Дайте персонажу имя" in w.problem_box.value
    w.locale = "en"
    assert "Step 1 of 2" in w.progress.value and w.next_button.description == "Next ▶"
    assert "Name" in w.views["name"].label.value


def test_a_seat_that_may_not_edit_or_act_is_refused_whatever_the_browser_sends(lantern):
    c = lantern.Character(name="Ada")
    w = CreationWizard(c, lantern, locale="en", can=lambda action: False)
    frontend_update(w.views["name"].control, value="Mallory")
    assert c.name == "Ada" and w.views["name"].control.value == "Ada"
    w.next()
    w.finish_button.disabled = False  # a client can flip it
    frontend_click(w.finish_button)
    assert c.phase == "creation" and "may not change this character" in w.message.value


def test_the_page_start_opens_a_wizard_and_hands_over_the_finished_character(lantern):
    made = []
    start = NewCharacter(lantern, locale="en")
    start.on_finish(made.append)
    assert start.start_button.description == "Make a new character" and start.slot.children == ()
    frontend_click(start.start_button)
    w = start.wizard
    assert isinstance(w, CreationWizard) and start.slot.children == (w,) and w.character.name == ""
    frontend_update(w.views["name"].control, value="Bea")
    frontend_click(w.next_button)
    frontend_update(w.views["wits"].control, value=2)
    frontend_click(w.finish_button)
    assert [m.name for m in made] == ["Bea"] and made[0].phase == "play"
    assert start.wizard is None and "Bea is finished" in start.intro.value
    assert start.start_button.description == "Make another character"
    frontend_click(start.start_button)
    assert start.wizard.character is not made[0]  # a new blank one
    frontend_click(start.cancel_button)
    assert start.wizard is None and start.slot.children == ()
    start.locale = "ru"
    assert start.start_button.description == "Создать ещё одного персонажа"


@pytest.mark.parametrize("slug", sorted(SAMPLES))
def test_each_system_completes_its_wizard_from_a_finished_sample(slug):
    """Every installed system: from a blank character, each step's shown fields filled from the
    sample through the views, Next on every step, Finish on the last: the finished character is
    in play with no problem left."""
    system = get_system(slug)
    values = sample_values(system)
    c = system.Character()
    w = CreationWizard(c, system, locale="en")
    seen = []
    while True:
        seen.append(w.model.step.id)
        for name, view in list(w.views.items()):
            if name in values and getattr(c, name) != values[name]:
                fill(view, values[name])
        if w.model.is_last:
            break
        assert w.next(), f"{slug} step {w.model.step.id}: {w.message.value}"
    assert len(seen) == len(w.model.steps) >= 2
    assert w.finish(), f"{slug}: {w.message.value}"
    assert c.phase == "play" and [p for p in system.validate(c) if p.severity == "error"] == []
    assert c.name == SAMPLES[slug]["name"]


def test_a_field_fixed_on_the_last_step_stays_where_the_player_types(lantern, monkeypatch):
    from tabletop_widgets.core.wizard import WizardStep

    only_who = [WizardStep("who", {"en": "Who", "ru": "Кто"}, {"en": "Name.", "ru": "Имя."}, ("name",))]
    monkeypatch.setattr(lantern, "creation_wizard", lambda c: only_who)
    c = lantern.Character(name="Ada", nerve=5, wits=3)
    w = CreationWizard(c, lantern, locale="en")
    assert list(w.views) == ["name", "nerve"]  # over the budget: Nerve, which no step asks for
    nerve = w.views["nerve"]
    frontend_update(nerve.control, value=3)
    assert w.views["nerve"] is nerve and "Everything is in place" in w.problem_box.value
    assert w.finish() and c.phase == "play"


def test_a_step_without_fields_says_so(lantern, monkeypatch):
    from tabletop_widgets.core.wizard import WizardStep

    steps = [
        WizardStep("intro", {"en": "Welcome", "ru": "Привет"}, {"en": "Read on.", "ru": "Читайте."}),
        WizardStep("who", {"en": "Who", "ru": "Кто"}, {"en": "Name.", "ru": "Имя."}, ("name",)),
    ]
    monkeypatch.setattr(lantern, "creation_wizard", lambda c: steps)
    w = CreationWizard(lantern.Character(name=""), lantern, locale="en")
    assert w.views == {} and "Nothing to fill in" in w.no_fields.value and w.fields.children == (w.no_fields,)
    w.locale = "ru"
    assert "заполнять нечего" in w.no_fields.value
    assert w.next() and list(w.views) == ["name"]


def test_the_step_list_numbers_each_step_in_its_text(lantern):
    w = CreationWizard(lantern.Character(name="Ada"), lantern, locale="en")
    w.next()
    assert '<li class="tt-wizard-dot tt-done">1. Who</li>' in w.progress.value
    assert 'aria-current="step">2. Nerve and Wits</li>' in w.progress.value
