"""What a player reads while making and advancing a character, in all four systems, in both
languages: the wizard's steps and budgets, and every advance with its options, price, plan and
refusal. It names no seed line of the books (``L1757``: a reference for us, noise for a player)
and has both languages."""

from __future__ import annotations

import re

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core import RuleError
from tabletop_widgets.widgets.lobby import sample_character

SLUGS = ("ret", "seasons", "life_and_death", "threads_of_fate")
SEED_LINE = re.compile(r"\bL\d{2,4}\b")


def option_texts(options):
    for o in options:
        yield o.label
        yield o.help
        for _value, label in o.choices or ():
            yield label


def growth_texts(system):
    blank = system.Character()
    for step in system.creation_wizard(blank):
        yield step.title
        yield step.explain
    for budget in system.creation_budgets(blank).values():
        yield budget.label
    c = sample_character(system)
    c.phase = "play"
    for r in system.advancement_resources():
        yield r.label
        setattr(c, r.trait, 500)  # enough to be offered everything the rules allow
    for spec in system.advancements(c):
        yield from (spec.label, spec.help, spec.blocked, spec.group)
        yield from option_texts(spec.options)
        if spec.blocked is None:
            try:
                plan = system.plan_advance(c, spec.id)
            except RuleError as exc:
                yield exc.message
            else:
                yield plan.text
                yield from plan.notes


@pytest.mark.parametrize("slug", SLUGS)
def test_growth_texts_name_no_seed_line_and_have_both_languages(slug):
    system = get_system(slug)
    texts = [t for t in growth_texts(system) if t]
    assert len(texts) > 10, "the wizard and the advances say something"
    missing = [t for t in texts if not (t.get("en") and t.get("ru"))]
    assert not missing, missing[:3]
    marked = [v for t in texts for v in t.values() if SEED_LINE.search(v)]
    assert not marked, marked[:5]
