"""Issue #19: every number on every system's sheet is bounded by what the rules allow. The sheet
declaration gives each numeric field (and each number inside a list entry or a table of values) a
``min`` and a ``max``; the model refuses a value outside them (construction, loading, every edit);
the sheet shows the range a player may enter and refuses one outside it with a player message."""

from __future__ import annotations

import pytest
import traitlets

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core.problems import ValidationError
from tabletop_widgets.widgets import CharacterSheet

SYSTEMS = available_systems()


def _int_trait(model, name) -> bool:
    t = model.class_traits().get(name)
    return isinstance(t, traitlets.Int) and not isinstance(t, traitlets.Bool)


def numeric_fields(system):
    """``(field, kind)``: every number of the sheet: ``"field"`` (an input or a resource),
    ``"entry"`` (a number in a list entry, with its list) and ``"mapping"`` (a table's values)."""
    out = []
    for f in system.sheet.fields():
        if f.kind in ("input", "resource") and _int_trait(system.Character, f.name):
            out.append((f, "field", None))
        elif f.kind == "list":
            out.extend((i, "entry", f) for i in f.item_fields if i.kind == "input")
        elif f.kind == "mapping" and (f.keys or any(i.kind == "input" for i in f.item_fields)):
            number = next((i for i in f.item_fields if i.kind == "input"), None)
            out.append((number, "mapping", f))
    return out


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_number_on_the_sheet_has_bounds_the_model_enforces(slug):
    system = get_system(slug)
    model = system.Character
    fields = numeric_fields(system)
    assert len(fields) >= 10
    for f, kind, owner in fields:
        where = f"{slug}: {owner.name + '.' if owner else ''}{f.name if f else '?'}"
        assert f is not None, f"{where}: a table of numbers declares no number field with bounds"
        assert f.min is not None and f.max is not None, f"{where}: no bounds"
        assert f.min <= f.max, where
        if kind == "field":
            for bad in (f.min - 1, f.max + 1, 10**40, -(10**40)):
                with pytest.raises(ValidationError) as exc:
                    model(**{f.name: bad})
                assert any(p.field == f.name for p in exc.value.problems), (where, bad)
            lo, hi = model.bounds(f.name)
            assert (lo, hi) == (f.min, f.max) or (lo >= f.min and hi <= f.max), where
            assert not [p for p in model.check_bounds({f.name: f.min}) if p.field == f.name], where
            assert not [p for p in model.check_bounds({f.name: f.max}) if p.field == f.name], where
        elif kind == "entry":
            for bad in (f.min - 1, f.max + 1, 10**40):
                item = {f.name: bad, "name": "Мирон"}
                problems = model.check_dict({owner.name: [item]}, require_header=False)
                assert any(p.field == owner.name and p.severity == "error" for p in problems), (where, bad)
            ok = model.check_bounds({owner.name: [{f.name: f.max, "name": "Мирон"}]})
            assert not ok, where
        else:
            keys = list(owner.keys or ["x"])
            bad_values = model.check_bounds({owner.name: {keys[0]: f.max + 1}})
            assert bad_values and bad_values[0].field == owner.name, where
            with pytest.raises(ValidationError):
                model(**{owner.name: {keys[0]: 10**40}})


@pytest.mark.parametrize("slug", SYSTEMS)
def test_the_sheet_shows_the_range_and_refuses_a_number_outside_it(slug):
    """Every numeric field of the sheet says what it takes (its tooltip), and a forged value
    past the range a player may enter is refused beside the field, naming the range, with the
    character unchanged."""
    system = get_system(slug)
    c = system.Character(name="Мирон")
    sheet = CharacterSheet(c, system, open_sections="all")
    checked = 0
    for f, kind, _owner in numeric_fields(system):
        if kind != "field" or f.gm_only:
            continue
        view = sheet.views[f.name]
        lo, hi = view.input_range()
        assert lo is not None and hi is not None, f.name
        assert f"{lo}–{hi}".replace("-", "−") in view.control.tooltip or f"{lo}–{hi}" in view.control.tooltip, (
            f.name,
            view.control.tooltip,
        )
        before = c.to_dict()
        for bad in (hi + 1, lo - 1):
            view.control.value = bad if isinstance(view.control.value, int) else str(bad)
            assert c.to_dict() == before, (f.name, bad)
            assert view.edit_error is not None, (f.name, bad)
            text = view.edit_error.problems[0].text("en")
            assert str(hi) in text or str(lo) in text, (f.name, text)
        checked += 1
    assert checked >= 5


def test_ret_health_is_entered_down_to_the_threshold_of_the_rules():
    """RET: Health may go below 0, down to −3 × its maximum (L325); −50 was accepted."""
    system = get_system("ret")
    c = system.Character(name="Мирон")  # Body 3: Health 6, threshold −18
    sheet = CharacterSheet(c, system, open_sections=["resources"])
    view = sheet.views["health"]
    assert view.input_range() == (-18, 6)
    view.control.value = "-50" if isinstance(view.control.value, str) else -50
    assert c.health == 6 and view.edit_error is not None
    assert "−18" in view.control.tooltip or "-18" in view.control.tooltip
    assert "-18" in view.edit_error.problems[0].text("en")
    view.control.value = "-18" if isinstance(view.control.value, str) else -18
    assert c.health == -18 and view.edit_error is None
    # a hit may take Health past it (the rules' doing): the player may then bring it back up
    c.health = -30
    view.step(+1)
    assert c.health == -29


def test_a_40_digit_age_or_amount_of_money_is_refused():
    ld = get_system("life_and_death")
    with pytest.raises(ValidationError) as exc:
        ld.Character(money={"fire": 10**40})
    assert exc.value.problems[0].field == "money"
    assert "999999999" in exc.value.problems[0].text("en")
    c = ld.Character(name="Мирон")
    sheet = CharacterSheet(c, ld, open_sections="all")
    assert not sheet.views["money"].set_entry("fire", "9" * 40)
    assert c.money.get("fire", 0) == 0
    ret = get_system("ret")
    with pytest.raises(ValidationError) as exc:
        ret.Character(age="9" * 40)
    assert exc.value.problems[0].field == "age"
    assert ret.Character(age="about 30").age == "about 30"
    with pytest.raises(ValidationError):
        ret.Character(money="9" * 40 + " gold")
    assert ret.Character(money="300 gold").money == "300 gold"
    with pytest.raises(ValidationError) as exc:
        ret.Character(name="x" * 1000)  # every text has a length too
    assert "200" in exc.value.problems[0].text("en")
