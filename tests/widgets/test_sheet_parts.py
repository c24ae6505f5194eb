"""Each part of the character sheet built alone, from its explicit inputs (no CharacterSheet
around it): the character's binding to its play, the layout's places, the section cards, the
sheet check, Save/Load and the phase bar. What the sheet as a whole does is in test_sheet*.py."""

from __future__ import annotations

import json

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core import T
from tabletop_widgets.core.phases import FINISH_ACTION
from tabletop_widgets.core.problems import Problem, ValidationError
from tabletop_widgets.core.sheet import Field, Section, Sheet
from tabletop_widgets.widgets.character_view import CharacterBinding
from tabletop_widgets.widgets.sheet_context import SheetContext, vbox
from tabletop_widgets.widgets.sheet_file import SheetFile
from tabletop_widgets.widgets.sheet_index import SheetIndex
from tabletop_widgets.widgets.sheet_phase import PhaseBar
from tabletop_widgets.widgets.sheet_problems import SheetCheck
from tabletop_widgets.widgets.sheet_sections import SectionCards

RET = get_system("ret")


def ret_context(**kw):
    character = RET.Character(name="Mira")
    return SheetContext(character, RET, **kw), character


class RecordingPlay:
    """A play interface that says what it was asked (the seat ``seat-1`` may only edit)."""

    system = RET

    def __init__(self):
        self.calls = []

    def can(self, action, character_id=None):
        self.calls.append(("can", action, character_id))
        return action == "edit"

    def sheet_action(self, character_id, character, action, args):
        self.calls.append(("sheet_action", character_id, action))

    def advance(self, character_id, character, advance_id, **options):
        self.calls.append(("advance", character_id, advance_id, options))

    def award(self, character_id, character, resource, amount):
        self.calls.append(("award", character_id, resource, amount))


# -- CharacterBinding -------------------------------------------------------------------------
def test_a_binding_through_a_play_asks_the_play_for_its_character():
    play = RecordingPlay()
    character = RET.Character()
    binding = CharacterBinding(character, play=play, character_id="c1", locale="ru")
    assert binding.system is RET and binding.ctx.character is character and binding.ctx.locale == "ru"
    assert binding.can("edit") and not binding.can("save")
    binding.perform(FINISH_ACTION, [character])
    binding.advance("buy", cost=2)
    binding.award("dp", 3)
    assert play.calls == [
        ("can", "edit", "c1"),
        ("can", "save", "c1"),
        ("sheet_action", "c1", FINISH_ACTION),
        ("advance", "c1", "buy", {"cost": 2}),
        ("award", "c1", "dp", 3),
    ]
    assert binding.ctx.can("edit") and not binding.ctx.can("load")  # the views ask the same check


def test_a_binding_given_its_seams_keeps_them_and_without_a_play_allows_everything():
    play = RecordingPlay()
    mine = CharacterBinding(RET.Character(), RET, play=play, can=lambda action: action == "save")
    assert mine.can("save") and not mine.can("edit") and play.calls == []
    alone = CharacterBinding(RET.Character())
    assert alone.system is RET and alone.can("edit_gm") and alone.perform is None and alone.advance is None
    seen = []
    alone.observe(seen.append)
    alone.character.name = "Ann"
    alone.unobserve(seen.append)
    alone.unobserve(seen.append)  # twice: a no-op
    alone.character.name = "Bob"
    assert [c["name"] for c in seen] == ["name"]


# -- SheetIndex ---------------------------------------------------------------------------------
PROBE = Sheet(
    (
        Section(
            "body",
            T("Body", "Тело"),
            (
                Field("hp", T("HP", "ОЗ"), "resource", max_trait="hp_max"),
                Field("strength", T("Strength", "Сила"), "input"),
            ),
        ),
        Section("mind", T("Mind", "Разум"), (Field("wits", T("Wits", "Смекалка"), "input"),)),
    )
)


def test_the_index_says_where_each_field_and_each_problem_shows():
    index = SheetIndex(PROBE)
    assert list(index.section_specs) == ["body", "mind"]
    assert index.section_of == {"hp": "body", "strength": "body", "wits": "mind"}
    assert index.field("wits").label["en"] == "Wits" and index.field("nope") is None and index.field(None) is None
    assert index.home_of("strength") == "strength"
    assert index.home_of("hp_max") == "hp"  # not on the sheet: the resource that shows its maximum
    assert index.home_of("age") is None and index.home_of(None) is None
    whole, mine, cap = (
        Problem("x", T("x", "x")),
        Problem("y", T("y", "y"), field="wits"),
        Problem("z", T("z", "z"), field="hp_max"),
    )
    assert index.by_home([whole, mine, cap]) == {None: [whole], "wits": [mine], "hp": [cap]}


# -- SheetCheck ---------------------------------------------------------------------------------
def test_the_check_shows_the_rules_problems_and_the_refused_edits_of_the_views_it_is_given():
    ctx, character = ret_context()
    index = SheetIndex(RET.sheet)
    views = {}
    check = SheetCheck(ctx, index, views)
    assert check.problems == [] and check.by_home() == {}
    problems = check.revalidate()
    assert problems == list(RET.validate(character)) and problems  # a new RET character lacks abilities
    check.render()
    assert "Sheet check" in check.widget.value and "tt-sheet-problems" in check.widget._dom_classes
    assert check.homes() == {index.home_of(p.field) for p in problems} - {None}

    cards = SectionCards(ctx, index, built=views, problems_by_home=check.by_home, open_sections=["identity"])
    name = cards.views["name"]
    refused = Problem("too_long", T("too long", "слишком длинно"), field="name")
    name.show_edit_error(ValidationError([refused]))
    assert ("name", refused) in check.shown() and "name" in check.homes()
    ctx.locale = "ru"
    check.render()
    assert "Проверка листа" in check.widget.value and "слишком длинно" in check.widget.value


def test_a_check_whose_rules_fail_says_so_instead_of_breaking():
    ctx, _ = ret_context()

    class Broken:
        sheet, slug = RET.sheet, "ret"

        def validate(self, character):
            raise RuntimeError("boom")

    ctx.system = Broken()
    check = SheetCheck(ctx, SheetIndex(RET.sheet), {})
    [problem] = check.revalidate()
    assert problem.code == "validate_failed" and "boom" in problem.text("en")


# -- SectionCards -------------------------------------------------------------------------------
def test_the_cards_build_a_folded_section_when_looked_up_and_show_its_problems():
    ctx, character = ret_context()
    index = SheetIndex(RET.sheet)
    missing = Problem("ability_count", T("pick abilities", "выберите способности"), field="abilities")
    built = {}
    cards = SectionCards(
        ctx, index, built=built, problems_by_home=lambda: {"abilities": [missing]}, open_sections=["indicators"]
    )
    assert cards.built_sections == {"indicators"} and cards.is_open("indicators")
    assert "abilities" in cards.views and "abilities" not in built  # there, not built yet
    view = cards.views["abilities"]
    assert built["abilities"] is view and view.problems == [missing]
    assert "abilities" in cards.built_sections and not cards.is_open("abilities")  # built, still folded
    cards.mark_problems({"abilities"})
    marked = [sid for sid, box in cards.sections.items() if "tt-section-has-problem" in box._dom_classes]
    assert marked == ["abilities"]
    cards.toggle_section("abilities")
    assert cards.is_open("abilities")
    with pytest.raises(KeyError):
        cards.open_section("nope")


def test_the_cards_follow_the_character_when_told_what_changed():
    ctx, character = ret_context()
    cards = SectionCards(ctx, SheetIndex(RET.sheet), open_sections=["indicators"])
    shown = cards.views["health_max"]
    before = shown.widget.value
    for leaf in ("physique", "endurance", "fine_motor", "body_control"):  # Body's leaves
        setattr(character, leaf, getattr(character, leaf) + 2)
    assert character.health_max == 10  # the derived maximum changed; nothing told the cards yet
    assert shown.widget.value == before
    cards.follow("health_max")
    assert shown.widget.value != before and f">{character.health_max}</span>" in shown.widget.value


# -- SheetFile ----------------------------------------------------------------------------------
def test_save_and_load_place_their_link_and_status_where_they_are_told():
    ctx, character = ret_context()
    placed = []
    box = vbox()
    file = SheetFile(
        ctx,
        can=lambda action: True,
        place_link=lambda w: placed.append(("link", w)),
        place_status=lambda w: (placed.append(("status", w)), setattr(box, "children", [w])),
    )
    assert file.tools == [file.save_button, file.upload] and placed == []
    assert file.prepare_download() and placed == [("link", file.download)]
    assert "Mira.ret.json" in file.download.value
    other = RET.Character(name="Ilya")
    assert file.load_json(json.dumps(other.to_dict()), "ilya.json") and character.name == "Ilya"
    assert placed[-1] == ("status", file.status) and "ilya.json" in file.status.value
    assert not file.load_json(b"[1, 2]", "list.json") and character.name == "Ilya"
    assert file.load_error is not None and "list.json" in box.children[0].value
    assert len(placed) == 2  # the link and the status line are made once


def test_save_and_load_ask_the_role_check_they_are_given():
    ctx, character = ret_context()
    file = SheetFile(ctx, can=lambda action: False, place_link=lambda w: None, place_status=lambda w: None)
    assert not file.prepare_download() and "you may not do this" in file.status.value
    assert not file.load_json(json.dumps({"name": "Ilya"})) and character.name == "Mira"


# -- PhaseBar -----------------------------------------------------------------------------------
def test_the_phase_bar_finishes_through_the_perform_it_is_given():
    done = []
    ctx, character = ret_context(perform=lambda action, args: done.append((action, args)))
    bar = PhaseBar(ctx)
    bar.render()
    assert "tt-phase-creation" in bar.badge.value and bar.finish.widget in bar.widget.children
    assert bar.finish_character() and done == [(FINISH_ACTION, [character])]


def test_the_phase_bar_shows_the_refusal_and_has_no_finish_in_play():
    ctx, character = ret_context()
    bar = PhaseBar(ctx)
    assert not bar.finish_character()  # a new RET character lacks abilities: the rules refuse
    assert character.phase == "creation" and "Not yet" in bar.finish.message.value
    in_play = RET.Character(name="Old hand", phase="play")
    played = PhaseBar(SheetContext(in_play, RET))
    assert list(played.widget.children) == [played.badge]  # no Finish made
    played.render()
    assert "tt-phase-play" in played.badge.value and list(played.widget.children) == [played.badge]
