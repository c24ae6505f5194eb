"""GmOptions: the GM options as one frozen object (issue 15)."""

import copy
import pickle

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core.options import GmOptions

DEFAULTS = {"base_hp": 10, "luck": True, "table": {"small": 1}}


def test_overrides_and_both_ways_of_reading():
    o = GmOptions(DEFAULTS, base_hp=12)
    assert o.base_hp == 12 and o["base_hp"] == 12 and o.get("base_hp") == 12
    assert o.luck is True and o.get("missing", "x") == "x"
    assert dict(o) == {"base_hp": 12, "luck": True, "table": {"small": 1}}
    assert list(o) == ["base_hp", "luck", "table"] and len(o) == 3 and "luck" in o


def test_unknown_override_names_the_known_options():
    with pytest.raises(ValueError, match=r"unknown GM option\(s\) \['bse_hp'\]; known: \['base_hp', 'luck', 'table'\]"):
        GmOptions(DEFAULTS, bse_hp=3)


def test_unknown_name_raises_naming_the_known_ones():
    o = GmOptions(DEFAULTS)
    with pytest.raises(AttributeError, match=r"no GM option 'lcuk'; known: \['base_hp', 'luck', 'table'\]"):
        o.lcuk  # noqa: B018
    with pytest.raises(KeyError, match="known"):
        o["lcuk"]
    assert not hasattr(o, "lcuk")


def test_refuses_assignment_both_ways():
    o = GmOptions(DEFAULTS)
    with pytest.raises(AttributeError, match="frozen"):
        o.base_hp = 3
    with pytest.raises(TypeError):
        o["base_hp"] = 3  # type: ignore[index]
    with pytest.raises(AttributeError):
        del o.base_hp
    assert o.base_hp == 10


def test_replace_returns_a_new_object_and_checks_names():
    o = GmOptions(DEFAULTS)
    p = o.replace(luck=False)
    assert p.luck is False and o.luck is True and p is not o
    with pytest.raises(ValueError, match="known"):
        o.replace(lcuk=False)


def test_defaults_changed_later_do_not_leak_in():
    defaults = dict(DEFAULTS)
    o = GmOptions(defaults)
    defaults["base_hp"] = 99
    assert o.base_hp == 10


def test_equality_and_hash():
    a, b = GmOptions(DEFAULTS, base_hp=12), GmOptions(DEFAULTS, base_hp=12)
    assert a == b and hash(a) == hash(b)
    assert a != GmOptions(DEFAULTS) and a == {**DEFAULTS, "base_hp": 12} and a != {**DEFAULTS}
    assert {a: 1}[b] == 1  # usable as a key although a value is a dict
    assert GmOptions(DEFAULTS, table={"small": 2}) != GmOptions(DEFAULTS)
    assert pickle.loads(pickle.dumps(a)) == a and copy.deepcopy(a) == a


@pytest.mark.parametrize("slug", ["ret", "seasons", "life_and_death", "threads_of_fate"])
def test_every_system_holds_its_rules_as_gm_options(slug):
    system = get_system(slug)
    assert isinstance(system.rules, GmOptions)
    assert dict(system.rules) == dict(system.default_rules)
    name = next(iter(system.default_rules))
    assert system.rules.get(name) == system.rules[name] == getattr(system.rules, name)
    with pytest.raises(AttributeError):
        system.rules.anything = 1
    with pytest.raises(ValueError, match="unknown rules option"):
        system.with_rules(no_such_option=1)
    assert system.with_rules().rules == system.rules
