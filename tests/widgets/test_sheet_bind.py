"""The binding helper (widgets/_bind.py): plain traitlets.link leaves a widget showing a value the
model clamped away (notes-jupyter §1.1, §9.4); bind() writes the model's value back."""

from __future__ import annotations

import ipywidgets as widgets
import pytest
import traitlets as t

from tabletop_widgets import get_system
from tabletop_widgets.core.problems import ValidationError
from tabletop_widgets.widgets._bind import apply_edit, bind
from helpers import frontend_update


class Clamped(t.HasTraits):
    hp = t.Int(10)
    max_hp = t.Int(10)

    @t.validate("hp")
    def _clamp(self, proposal):
        return max(0, min(proposal["value"], self.max_hp))


def test_plain_link_diverges_and_bind_does_not():
    model, box = Clamped(), widgets.IntText()
    link = t.link((model, "hp"), (box, "value"))
    frontend_update(box, value=99)
    assert model.hp == 10 and box.value == 99  # the pitfall: the two disagree
    link.unlink()

    model, box = Clamped(), widgets.IntText()
    bind(model, "hp", box)
    frontend_update(box, value=99)
    assert model.hp == 10 and box.value == 10  # written back
    frontend_update(box, value=-5)
    assert model.hp == 0 and box.value == 0
    model.hp = 7
    assert box.value == 7


def test_converters_errors_and_unbind():
    model, box = Clamped(), widgets.Text()
    errors, oks = [], []
    binding = bind(
        model, "hp", box, to_widget=str, to_model=int, on_error=errors.append, on_ok=lambda: oks.append(True)
    )
    assert box.value == "10"
    frontend_update(box, value="4")
    assert model.hp == 4 and oks
    frontend_update(box, value="four")  # unparsable: refused, box restored
    assert model.hp == 4 and box.value == "4"
    assert isinstance(errors[-1], ValidationError)
    binding.unbind()
    model.hp = 2
    assert box.value == "4"


def test_allowed_is_asked_before_every_edit():
    model, box = Clamped(), widgets.IntText()
    errors = []
    bind(model, "hp", box, allowed=lambda: False, on_error=errors.append)
    frontend_update(box, value=3)
    assert model.hp == 10 and box.value == 10
    assert errors and errors[0].problems[0].code == "not_allowed"


def test_apply_edit_is_all_or_nothing_and_ignores_unrelated_old_errors():
    c = get_system("ret").Character()
    with pytest.raises(ValidationError) as info:
        apply_edit(c, "attention", 99)
    assert c.attention == 3 and info.value.problems[0].field == "attention"
    c.weapons = [{"name": "stick"}]  # a bad item set from Python (no damage)
    assert apply_edit(c, "attention", 4) == 4  # other edits still work
    with pytest.raises(ValidationError):
        apply_edit(c, "armour", [{"name": ""}])
    assert c.armour == []


def test_quiet_changes_are_not_edits():
    menu = widgets.Dropdown(options=[("a", "x"), ("b", "y")])

    class Pick(t.HasTraits):
        value = t.Unicode("y")

    pick = Pick()
    binding = bind(pick, "value", menu)
    assert menu.value == "y"
    with binding.quiet():
        menu.options = [("A", "x"), ("B", "y")]  # resets the dropdown to "x" for a moment
    assert pick.value == "y" and menu.value == "y"
