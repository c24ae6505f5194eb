"""A hostile player at a sheet and a tray: random and boundary values into every field through the
widgets' Python API (what a forged front-end message can send), every check rolled with random
options, and every text the player could read collected along the way (field errors, the sheet
check, tooltips, tray errors, the log), in both languages, with a test of what never belongs in
them: trait and class names, snake_case ids, Python reprs, rulebook line markers."""

from __future__ import annotations

import random
import re
from typing import Any, Iterable

import ipywidgets as widgets

from tabletop_widgets import get_system
from tabletop_widgets.widgets import CharacterSheet, DiceTray, RollLog
from tabletop_widgets.widgets.sheet_fields import ListView, MappingView, ResourceView, ScalarView, TagsView

from russian_screens import widget_texts

# -- what developer text looks like -------------------------------------------------------------

DEVELOPER_TEXT: list[tuple[str, re.Pattern]] = [
    ("a trait", re.compile(r"\btraits?\b")),
    (
        "a class name",
        re.compile(
            r"\b(?:Character (?:instance|object|class)|HasTraits|[A-Z]\w*(?:Error|Exception)|\w+Model)\b|\w\((?!s\))"
        ),
    ),
    ("a snake_case id", re.compile(r"(?<![\w.@/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")),
    (
        "a Python repr",
        re.compile(r"\{'|\['|'\]|'\}|<[\w.]+ object at|<class |\bNone\b|\bTrue\b|\bFalse\b|(?<!\w)'[a-z_][a-z0-9_]*'"),
    ),
    ("an index", re.compile(r"\w\[\d+\]")),
    ("a line marker", re.compile(r"\bL\d{2,}\b|\bA-?\d{2,}\b|§\s?\d|\bTV-\w+")),
]


def developer_text(text: str) -> str | None:
    """What developer text ``text`` holds (a reason), or None when a player may read it."""
    for reason, pattern in DEVELOPER_TEXT:
        m = pattern.search(text)
        if m:
            return f"{reason} ({m.group()!r})"
    return None


def offenders(texts: Iterable[str]) -> dict[str, str]:
    """``{reason: the first text showing it}`` over ``texts`` (one entry per offending match)."""
    found: dict[str, str] = {}
    for text in dict.fromkeys(texts):
        for reason, pattern in DEVELOPER_TEXT:
            for m in pattern.finditer(text):
                start = max(0, m.start() - 100)
                found.setdefault(f"{reason} ({m.group()!r})", text.replace("\n", " ")[start : m.end() + 100])
    return found


# -- the hostile player -------------------------------------------------------------------------

#: Text a player might type (no underscores: a snake_case id the player typed is theirs).
JUNK_TEXT = ("", " ", "abc", "12x", "−3", "-", "1e5", "3.5", "9" * 40, "-" + "9" * 40, "Мирон", "x" * 300)


def junk_numbers(lo: int | None, hi: int | None) -> list[int]:
    out = [0, 1, -1, 7, 99, -50, 10**40, -(10**40), 2**63]
    for b in (lo, hi):
        if b is not None:
            out += [b - 1, b, b + 1]
    return out


class Collector:
    """Gathers what the player reads: ``look()`` reads the parts that change at each step,
    ``look_all()`` the whole of every part."""

    def __init__(self, *parts: widgets.Widget):
        self.parts = parts
        self.watch: list[widgets.Widget] = list(parts)
        self.texts: list[str] = []
        self.steps = 0

    def look(self) -> None:
        self.steps += 1
        for part in self.watch:
            self.texts.extend(widget_texts(part))

    def look_all(self) -> None:
        for part in self.parts:
            self.texts.extend(widget_texts(part))


def _control_values(view, rng: random.Random) -> list[Any]:
    ctl = view.control
    f = view.field
    if isinstance(ctl, widgets.Checkbox):
        return [not ctl.value, ctl.value]
    if isinstance(ctl, (widgets.Dropdown, widgets.SelectMultiple)):
        return []  # options only (set by index below)
    if isinstance(ctl, widgets.IntText):
        return rng.sample(junk_numbers(f.min, f.max), 5)
    if isinstance(ctl, widgets.FloatText):
        return [rng.uniform(-1e6, 1e6), 0.0]
    return [rng.choice(JUNK_TEXT) for _ in range(3)] + [str(rng.choice(junk_numbers(f.min, f.max)))]


def fuzz_view(view, rng: random.Random, look) -> None:
    """Random and boundary values into one field view, as a forged message would send them."""
    if isinstance(view, (ScalarView, ResourceView)):
        ctl = view.control
        if isinstance(ctl, (widgets.Dropdown,)) and ctl.options:
            for _ in range(2):
                ctl.index = rng.randrange(len(ctl.options))
                look()
        elif isinstance(ctl, widgets.SelectMultiple) and ctl.options:
            ctl.index = tuple(rng.sample(range(len(ctl.options)), rng.randint(0, len(ctl.options))))
            look()
        else:
            for value in _control_values(view, rng):
                try:
                    ctl.value = value
                except Exception:  # noqa: BLE001 - a widget that refuses a value itself is fine
                    pass
                look()
        if isinstance(view, ResourceView):
            for _ in range(rng.randint(1, 4)):
                view.step(rng.choice((-1, 1)))
            look()
    elif isinstance(view, ListView):
        rows = view.ctx.rows(view.field.source)
        from tabletop_widgets.widgets.sheet_fields import row_id

        for row in rng.sample(rows, min(2, len(rows))):
            view.add_from_table(row_id(row))
            look()
        view.open_form(None)
        for _name, (f, ctl, _lab) in view.form.controls.items():
            if isinstance(ctl, widgets.Dropdown) and ctl.options:
                ctl.index = rng.randrange(len(ctl.options))
            elif isinstance(ctl, widgets.SelectMultiple):
                continue
            elif isinstance(ctl, widgets.Checkbox):
                ctl.value = rng.random() < 0.5
            elif f is not None and f.kind == "input":
                ctl.value = str(rng.choice(junk_numbers(f.min, f.max) + [1, 2, 3]))
            else:
                ctl.value = rng.choice(JUNK_TEXT + ("Меч", "Rope"))
        view.save_form()
        look()
        if view.items():
            view.open_form(rng.randrange(len(view.items())))
            view.save_form()
            look()
            view.remove(rng.randrange(len(view.items())))
            look()
    elif isinstance(view, TagsView):
        opts = view.options()
        for text in [rng.choice(opts)[0] if opts else "x", rng.choice(JUNK_TEXT)]:
            view.add(text)
            look()
        items = list(getattr(view.ctx.character, view.field.name) or [])
        if items:
            view.remove(rng.choice(items))
            look()
    elif isinstance(view, MappingView):
        keys = view.key_options()
        key = rng.choice(keys)[0] if keys else "Меч"
        view.add(key, str(rng.choice(junk_numbers(None, None))))
        look()
        view.add(rng.choice(("", "Луна", "x")), rng.choice(JUNK_TEXT))
        look()
        for k in list(view.mapping())[:3]:
            view.set_entry(k, rng.choice(JUNK_TEXT + ("2", "-1", "1000000")))
            look()


def fuzz_sheet(slug: str, seed: int, locale: str = "en") -> tuple[CharacterSheet, Collector]:
    """A sheet for a fresh character of ``slug`` with every field fuzzed (and every section
    action run), in ``locale``, then switched to the other language."""
    rng = random.Random(seed)
    system = get_system(slug)
    character = system.Character(name="Мирон")
    sheet = CharacterSheet(character, system, locale=locale, open_sections="all")
    seen = Collector(sheet)
    seen.look_all()
    names = list(sheet.views)
    rng.shuffle(names)
    for name in names:
        view = sheet.views[name]
        seen.watch = [view.widget, sheet.summary]
        fuzz_view(view, rng, seen.look)
    seen.look_all()
    seen.watch = [sheet.summary, sheet.status]
    for bars in sheet.actions.values():
        for bar in bars:
            if bar.picker.options:
                bar.picker.index = rng.randrange(len(bar.picker.options))
            bar.run()
            seen.texts.extend(widget_texts(bar.widget))
            seen.look()
    sheet.load_json(b'{"system": "' + slug.encode() + b'", "schema": 1, "name": 5, "no such": 1}')
    seen.look()
    sheet.load_json(b"[1, 2")
    seen.look()
    sheet.locale = "ru" if locale == "en" else "en"
    seen.look_all()
    return sheet, seen


def fuzz_tray(
    slug: str, seed: int, locale: str = "en", character=None, checks_per_tray: int = 15
) -> tuple[DiceTray, Collector]:
    """A tray whose checks (a seeded sample of ``checks_per_tray``: Seasons has 240, and each
    option set recomputes the odds of every check sharing it) are rolled with random (and some
    bad) options, in ``locale``, then switched to the other language."""
    rng = random.Random(seed)
    system = get_system(slug)
    character = character if character is not None else system.Character(name="Мирон")
    log = RollLog(locale=locale)
    tray = DiceTray(character, system=system, locale=locale, log=log, rng=random.Random(seed), animate=False)
    seen = Collector(tray, log)
    seen.look_all()
    checks = tray.checks
    for spec in rng.sample(checks, min(checks_per_tray, len(checks))):
        seen.watch = [tray.card(spec.id), tray.error, tray.result_view, tray.options_error]
        for ctrl in tray.option_controls(spec.id):
            o = ctrl.spec
            if o.kind == "bool":
                value: Any = rng.random() < 0.5
            elif o.choices:
                value = rng.choice([v for v, _ in o.choices])
            elif o.kind == "int" and ctrl.nullable_int:
                value = rng.choice([str(v) for v in junk_numbers(o.min, o.max)] + ["abc", ""])
            elif o.kind == "int":
                value = rng.choice([v for v in junk_numbers(o.min, o.max) if abs(v) < 10**6])
            else:
                value = rng.choice(JUNK_TEXT)
            tray.set_option(o.name, value, check_id=spec.id)
        tray.roll_check(spec.id)
        seen.look()
    tray.roll("2d6+@nosuch")
    seen.look_all()
    tray.locale = "ru" if locale == "en" else "en"
    seen.look_all()
    return tray, seen
