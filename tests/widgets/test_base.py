"""The widgets' shared base (``tabletop_widgets.widgets.base``): one text lookup, one locale
check, one ``close_tree``, and no widget module writing its own copy again (issue 15)."""

from __future__ import annotations

import ast
from pathlib import Path

import ipywidgets as widgets
import pytest
import traitlets

from tabletop_widgets.widgets import base
from tabletop_widgets.widgets.base import close_tree, locale_validator, text_lookup, valid_locale

WIDGETS = Path(base.__file__).resolve().parent

TEXTS = {
    "roll": {"en": "Roll {n}", "ru": "Бросить {n}"},
    "only_en": {"en": "Only English"},
    "empty_ru": {"en": "Empty Russian", "ru": ""},
}


def test_text_lookup_reads_the_language_and_formats():
    t = text_lookup(TEXTS)
    assert t("roll", "ru", n=3) == "Бросить 3"
    assert t("roll", "en", n="2d6") == "Roll 2d6"
    assert t("roll", "en") == "Roll {n}"  # no arguments: the text as written


def test_text_lookup_falls_back_to_english():
    t = text_lookup(TEXTS)
    assert t("only_en", "ru") == "Only English"
    assert t("empty_ru", "ru") == "Empty Russian"


def test_text_lookup_reads_the_table_when_called():
    table = {"a": {"en": "A", "ru": "А"}}
    t = text_lookup(table)
    table["b"] = {"en": "B", "ru": "Б"}
    assert t("b", "ru") == "Б"
    with pytest.raises(KeyError):
        t("no_such_key", "en")


class Localized(traitlets.HasTraits):
    locale = traitlets.Unicode("en")
    _check_locale = locale_validator()


def test_locale_validator_refuses_an_unknown_language():
    w = Localized()
    w.locale = "ru"
    assert w.locale == "ru"
    with pytest.raises(traitlets.TraitError, match="unknown locale 'fr': expected one of en, ru"):
        w.locale = "fr"
    assert w.locale == "ru"
    with pytest.raises(traitlets.TraitError, match="unknown locale"):
        Localized(locale="")
    assert valid_locale("en") == "en"


def _widget_classes():
    from tabletop_widgets.core.combat import Combat
    from tabletop_widgets.core.registry import get_system
    from tabletop_widgets.widgets import CharacterSheet, CombatTracker, DiceTray, RollLog
    from tabletop_widgets.widgets.language import PageLanguage

    system = get_system("ret")
    return {
        "sheet": lambda: CharacterSheet(system.Character(), locale="en"),
        "tray": lambda: DiceTray(system.Character(), locale="en"),
        "tracker": lambda: CombatTracker(combat=Combat(system), locale="en"),
        "log": lambda: RollLog(locale="en"),
        "page language": lambda: PageLanguage("en"),
    }


@pytest.mark.parametrize("name", ["sheet", "tray", "tracker", "log", "page language"])
def test_every_widget_refuses_a_forged_locale(name):
    """A forged front-end message may set any value: every widget keeps a known language."""
    w = _widget_classes()[name]()
    try:
        w.locale = "ru"
        with pytest.raises(traitlets.TraitError, match="unknown locale 'xx'"):
            w.locale = "xx"
        assert w.locale == "ru"
    finally:
        if isinstance(w, widgets.Widget):
            close_tree(w)


def test_close_tree_closes_every_widget_below():
    leaves = [widgets.Label("a"), widgets.Button(description="b")]
    inner = widgets.HBox([leaves[1]])
    root = widgets.VBox([leaves[0], inner])
    every = [root, inner, *leaves]
    assert all(w.comm is not None for w in every)
    close_tree(root)
    assert all(w.comm is None for w in every)


def copies(name: str, tree: ast.AST) -> list[str]:
    """The places in a module that write their own text lookup (``TEXTS[key].get(locale)``),
    ``locale`` validator or ``close_tree`` instead of using ``base``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                if (
                    isinstance(dec, ast.Call)
                    and isinstance(dec.func, ast.Attribute)
                    and dec.func.attr == "validate"
                    and any(isinstance(a, ast.Constant) and a.value == "locale" for a in dec.args)
                ):
                    found.append(f"{name}:{node.lineno} a locale validator {node.name}")
            if node.name.lstrip("_") == "close_tree":
                found.append(f"{name}:{node.lineno} {node.name}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Subscript)
            and isinstance(node.func.value.value, ast.Name)
            and node.func.value.value.id == "TEXTS"
        ):
            found.append(f"{name}:{node.lineno} a text lookup {ast.unparse(node)}")
    return found


def test_no_widget_module_writes_its_own_copy():
    """The text lookup, the ``locale`` validator and ``close_tree`` live in ``base.py`` only."""
    found = []
    for path in sorted(WIDGETS.glob("*.py")):
        if path.name != "base.py":
            found += copies(path.name, ast.parse(path.read_text(encoding="utf-8")))
    assert not found, "use tabletop_widgets.widgets.base instead:\n" + "\n".join(found)


def test_the_scan_finds_a_copy():
    """The scan above can fail: a module with its own lookup, validator and close_tree."""
    source = (
        "def _t(key, locale):\n    return TEXTS[key].get(locale) or TEXTS[key]['en']\n"
        "class W:\n    @traitlets.validate('locale')\n    def _v(self, p):\n        return p['value']\n"
        "def _close_tree(w):\n    w.close()\n"
    )
    found = copies("m.py", ast.parse(source))
    assert sorted(f.split(" ", 1)[0] for f in found) == ["m.py:2", "m.py:5", "m.py:7"], found
    assert copies("base-like.py", ast.parse("_t = text_lookup(TEXTS)\nclose_tree(w)\n")) == []
