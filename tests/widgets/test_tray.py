"""DiceTray without a browser: every system renders, chances equal SYSTEM.chance(), options move
them, rolls show results, effects go through apply_effects, bad input is shown, roles hold."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import traitlets

from tabletop_widgets.core import CharacterModel, CheckSpec, GameSystem, OptionSpec, RuleError, T

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core import Effect
from tabletop_widgets.dice import RollResult
from tabletop_widgets.widgets.dice_anim import DiceAnim
from tabletop_widgets.widgets.log import RollLog
from tabletop_widgets.widgets.tray import DiceTray, percent_text, show_tray
from helpers import frontend_custom, frontend_update

SYSTEMS = available_systems()


def make(slug, **kw):
    system = get_system(slug)
    character = system.Character()
    return system, character, DiceTray(character, rng=random.Random(7), **kw)


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_system_renders_one_control_per_check(slug):
    system, character, tray = make(slug)
    assert tray.system is system or tray.system.slug == slug
    ids = [c.id for c in system.checks(character)]
    assert [c.id for c in tray.checks] == ids
    for cid in ids:
        card = tray.card(cid)
        assert "tt-check" in card._dom_classes
        assert tray.check_button(cid).description  # a label, in the tray's locale
    assert "tt-dice-tray" in tray._dom_classes


@pytest.mark.parametrize("slug", SYSTEMS)
def test_chance_shown_is_the_systems_exact_chance(slug):
    system, character, tray = make(slug)
    for check in tray.checks[:25]:
        shown = tray.chance(check.id)
        try:
            expected = system.chance(character, check.id, **tray.options_for(check.id))
        except ValueError:
            expected = None
        assert shown == expected
        card = tray._cards.get(check.id) or (tray.card(check.id), tray._cards[check.id])[1]
        pill = card["pill"].value
        if expected is None:
            assert 'data-fraction=""' in pill
        else:
            assert f'data-fraction="{expected.numerator}/{expected.denominator}"' in pill
            assert percent_text(expected) in pill


@pytest.mark.parametrize("slug", SYSTEMS)
def test_rolling_every_group_first_check_shows_a_result(slug):
    system, character, tray = make(slug)
    log = RollLog()
    tray.roll_log = log
    for _, checks in tray._groups:
        check = checks[0]
        before = len(log.entries)
        result = tray.roll_check(check.id)
        if result is None:  # not available now (e.g. a survival roll above 0 Health): shown
            assert tray.last_error is not None
            assert '<pre role="alert">' in tray.error.value
            continue
        assert tray.last_result is result
        assert len(log.entries) == before + 1
        assert tray.announcement.startswith(f"{check.label['en']}:") or tray.who
        assert "tt-result-head" in tray.result_view.value
        assert tray.dice.announcement == tray.announcement
        assert tray.dice.roll_id >= 1


def test_options_change_the_chance_and_are_cached():
    system, character, tray = make("threads_of_fate")
    before = tray.chance("strength")
    tray.set_option("difficulty", 15)
    after = tray.chance("strength")
    assert after == system.chance(character, "strength", **{**tray.options_for("strength")})
    assert tray.options_for("strength")["difficulty"] == 15
    assert after < before
    # from the front end: the shared control's widget
    ctrl = next(c for c in tray.option_controls("strength") if c.name == "difficulty")
    frontend_update(ctrl.widget, value=5)
    assert tray.options_for("strength")["difficulty"] == 5
    assert tray.chance("strength") == system.chance(character, "strength", **tray.options_for("strength"))
    calls = []
    original = tray.system.chance
    tray.system.chance = lambda *a, **k: calls.append(1) or original(*a, **k)
    try:
        tray.chance("strength")
        tray.chance("strength")
    finally:
        del tray.system.chance
    assert calls == []  # cached per (check, options)


def test_ret_difficulty_preset_gives_a_chance():
    system, character, tray = make("ret")
    assert tray.options_for("attention")["difficulty"] == 8  # the tray starts at RET's usual (Medium)
    tray.set_option("difficulty", None)
    assert tray.chance("attention") is None  # no difficulty chosen: no pass/fail
    tray.set_option("difficulty", 8)
    p = tray.chance("attention")
    assert p == system.chance(character, "attention", **tray.options_for("attention"))
    assert isinstance(p, Fraction) and 0 < p < 1


def test_clamped_int_option_is_written_back():
    _, _, tray = make("threads_of_fate")
    ctrl = next(c for c in tray.option_controls("strength") if c.name == "advantages")
    tray.set_option("advantages", 99)
    assert ctrl.value == ctrl.spec.max
    assert ctrl.widget.value == ctrl.spec.max


class MiniCharacter(CharacterModel):
    SYSTEM = "mini"
    skill = traitlets.Int(2).tag(persist=True)


class Mini(GameSystem):
    """A fifth system the widgets have never seen: one optional-int option, two checks."""

    slug = "mini"
    title = T("Mini", "Мини")
    Character = MiniCharacter

    def checks(self, character):
        target = OptionSpec("target", T("Target", "Цель"), "int", default=None, min=1, max=6)
        return [CheckSpec(cid, T(cid.upper(), cid.upper()), options=(target,)) for cid in ("a", "b")]

    def chance(self, character, check_id, **options):
        if options.get("target") is None:
            raise RuleError("no_pass_fail", T("no target", "нет цели"))
        return Fraction(7 - options["target"], 6)


def test_a_fifth_system_and_bad_optional_int():
    system = Mini()
    tray = DiceTray(MiniCharacter(), system=system)
    assert tray.chance("a") is None
    ctrl = tray.option_controls("a")[0]
    assert ctrl.nullable_int and ctrl.shared
    frontend_update(ctrl.widget, value="3")
    assert tray.chance("a") == tray.chance("b") == Fraction(4, 6)
    before = ctrl.value
    frontend_update(ctrl.widget, value="abc")
    assert ctrl.value == before
    assert "tt-option-invalid" in ctrl.widget._dom_classes
    assert 'role="alert"' in tray.options_error.value
    frontend_update(ctrl.widget, value="")
    assert ctrl.value is None and tray.options_error.value == ""
    assert tray.chance("a") is None


def test_effects_are_applied_through_the_system_and_shown():
    system, character, tray = make("ret")
    luck = character.luck
    applied = []
    original = system.apply_effects

    def spy(ch, effects):
        applied.append(list(effects))
        return original(ch, effects)

    system.apply_effects = spy
    try:
        result = tray.roll_check("attention", difficulty=8, luck=2)
    finally:
        del system.apply_effects
    assert result.effects and applied == [result.effects]
    assert character.luck != luck or not tray.last_changes
    old, new = tray.last_changes["luck"]
    assert (old, new) == (luck, character.luck)
    line = "Luck −" if new < old else "Luck +"
    assert line in tray.result_view.value
    assert line in tray.announcement


def test_notation_uses_character_variables_and_enter_rolls():
    system, character, tray = make("threads_of_fate")
    tray.notation.value = "1d1 + @strength"
    frontend_custom(tray.notation, {"event": "submit"})
    assert isinstance(tray.last_result, RollResult)
    assert tray.last_result.total == 1 + character.strength
    assert [d["value"] for d in tray.dice.dice] == ["1"]


def test_bad_notation_shows_caret_and_keeps_last_result():
    _, _, tray = make("ret")
    good = tray.roll("2d6")
    assert tray.roll("2d6 +* 3") is None
    assert tray.last_result is good
    assert "^" in tray.error.value and 'role="alert"' in tray.error.value
    tray.roll("1d4")
    assert tray.error.value == ""


def test_button_click_rolls_even_via_forged_message_but_role_is_checked():
    _, _, tray = make("threads_of_fate", can=lambda action: action != "roll_check")
    frontend_custom(tray.check_button("strength"), {"event": "click"})
    assert tray.last_result is None
    assert tray.last_error is not None and "Not allowed" in tray.error.value


def test_forged_option_change_is_put_back_when_not_allowed():
    _, _, tray = make("threads_of_fate", can=lambda action: action != "set_option")
    ctrl = next(c for c in tray.option_controls("strength") if c.name == "difficulty")
    frontend_update(ctrl.widget, value=30)
    assert ctrl.value == 10 and ctrl.widget.value == 10


def test_gm_only_options_hidden_unless_allowed():
    system = get_system("ret")
    gm_names = {o.name for c in system.checks(system.Character()) for o in c.options if o.gm_only}
    if not gm_names:
        pytest.skip("no gm-only option")
    player = DiceTray(system.Character(), can=lambda a: a != "gm_options")
    gm = DiceTray(system.Character())
    assert not gm_names & {c.name for c in player.option_controls()}
    assert gm_names & {c.name for c in gm.option_controls()}


def test_locale_switches_live():
    _, _, tray = make("threads_of_fate")
    tray.roll_check("strength")
    en = tray.result_view.value
    tray.locale_toggle.value = "ru"
    assert tray.locale == "ru"
    assert tray.roll_button.description == "Бросить"
    assert tray.check_button("strength").description == "Сила"
    assert tray.result_view.value != en
    with pytest.raises(traitlets.TraitError, match="unknown locale 'de'"):
        tray.locale = "de"


def test_sheet_change_updates_chances():
    system, character, tray = make("threads_of_fate")
    before = tray.chance("strength")
    character.strength = character.strength + 3
    assert tray.chance("strength") == system.chance(character, "strength", **tray.options_for("strength"))
    assert tray.chance("strength") != before


def test_notation_only_tray():
    tray = show_tray(locale="ru")
    assert tray.checks == []
    assert tray.situation.layout.display == "none"
    r = tray.roll("3d6")
    assert r is not None and "3d6" in tray.result_view.value
    assert tray.roll_button.description == "Бросить"


def test_show_tray_with_system_slug_and_log():
    log = RollLog()
    tray = show_tray(system="seasons", log=log)
    tray.roll("pool 5")
    assert len(log.entries) == 1
    tray.locale = "ru"
    assert log.locale == "ru"


def test_dice_anim_state_round_trip_and_validation():
    anim = DiceAnim()
    anim.show([{"faces": 6, "value": 4, "classes": ["success"]}], announcement="4", label="d")
    state = anim.get_state()
    other = DiceAnim()
    other.set_state({k: state[k] for k in ("dice", "roll_id", "announcement", "label")})
    assert other.dice == [{"faces": "6", "sides": 0, "value": "4", "classes": ["success"]}]
    assert other.roll_id == 1
    assert str(anim._esm).lstrip().startswith("//")  # the bundled module, not a URL
    assert "https://" not in str(anim._esm) and "http://" not in str(anim._esm)


def test_effects_error_is_shown_not_half_applied():
    system, character, tray = make("ret")

    def broken(ch, effects):
        raise ValueError("nope")

    system.apply_effects = broken
    try:
        result = tray.roll_check("attention", difficulty=8, luck=1)
    finally:
        del system.apply_effects
    assert result is not None and tray.last_changes == {}
    assert "tt-effect-error" in tray.result_view.value


def test_effect_line_uses_sheet_label():
    system, character, tray = make("ret")
    tray.last_changes = {"luck": (3, 1)}
    assert tray._change_text("luck", 3, 1, "en") == "Luck −2 (3 → 1)"
    assert Effect("luck", -2).delta == -2


def test_groups_start_folded_with_their_counts_and_are_built_when_opened_from_the_front_end():
    _, _, tray = make("seasons")
    assert len(tray._groups) > 1
    # nothing open, no card made: a group's header tells how many checks it holds
    assert tray.accordion.selected_index is None
    assert tray._built_groups == set() and tray._cards == {}
    assert all(not pane.children for pane in tray.accordion.children)
    for i, (label, checks) in enumerate(tray._groups):
        assert tray.accordion.get_title(i) == f"{label['en']} ({len(checks)})"
    last = len(tray._groups) - 1
    frontend_update(tray.accordion, selected_index=last)
    assert tray._built_groups == {last}
    check = tray._groups[last][1][0]
    assert set(tray._cards) == {c.id for c in tray._groups[last][1]}
    frontend_custom(tray.check_button(check.id), {"event": "click"})
    assert tray.last_result is not None or tray.last_error is not None
    # closing and opening again builds nothing twice
    box = tray.card(check.id)
    frontend_update(tray.accordion, selected_index=None)
    frontend_update(tray.accordion, selected_index=last)
    assert tray.card(check.id) is box


def test_a_tray_with_one_group_shows_it_open():
    tray = DiceTray(MiniCharacter(), system=Mini())
    assert len(tray._groups) == 1
    assert tray.accordion.selected_index == 0 and tray._built_groups == {0}


def _pill_fraction(tray, check_id):
    pill = tray._cards[check_id]["pill"].value
    return pill.split('data-fraction="')[1].split('"')[0]


def test_a_card_built_late_shows_the_chance_of_the_options_set_before_and_follows_them_after():
    system, character, tray = make("ret")
    index = 1
    check = tray._groups[index][1][0]
    shared = next(c for c in tray.option_controls(check.id) if c.shared and c.spec.kind == "int")
    values = [v for v, _ in shared.spec.choices] or [shared.value + 2]
    value = next(v for v in values if v != shared.value)
    tray.set_option(shared.name, value)  # the group is still folded: no card to redraw
    assert check.id not in tray._cards
    tray.open_group(index)
    expected = system.chance(character, check.id, **tray.options_for(check.id))
    assert tray.options_for(check.id)[shared.name] == value
    assert _pill_fraction(tray, check.id) == f"{expected.numerator}/{expected.denominator}"
    other = next(v for v in values if v not in (value,))
    frontend_update(shared.widget, value=other)
    expected = system.chance(character, check.id, **tray.options_for(check.id))
    assert _pill_fraction(tray, check.id) == f"{expected.numerator}/{expected.denominator}"


def test_more_options_are_made_when_first_opened_and_their_values_count_before():
    system, character, tray = make("seasons")
    assert tray.more_options is not None and tray.more_options.selected_index is None
    rare = [c for c in tray.option_controls() if c.shared and c.widget is None]
    assert rare and not tray.more_options.children[0].children
    ctrl = next(c for c in rare if c.spec.kind in ("int", "bool"))
    value = True if ctrl.spec.kind == "bool" else (ctrl.spec.max if ctrl.spec.max is not None else 3)
    tray.set_option(ctrl.name, value)  # as the API (or a forged message) would, while folded
    check_id = ctrl.checks[0]
    assert tray.options_for(check_id)[ctrl.name] == value
    frontend_update(tray.more_options, selected_index=0)
    assert ctrl.widget is not None and ctrl.widget.value == value
    assert all(c.widget is not None for c in rare)
    made = tray.more_options.children[0].children
    tray.open_more_options()  # again: nothing new
    assert tray.more_options.children[0].children == made


def test_rebuild_when_the_checks_change_keeps_option_values_and_closes_old_widgets():
    system = Mini()
    character = MiniCharacter()
    tray = DiceTray(character, system=system)
    tray.set_option("target", 4)
    old_button = tray.check_button("a")
    extra = CheckSpec("c", T("C", "C"))
    original = Mini.checks
    system.checks = lambda ch: original(system, ch) + [extra]
    try:
        character.skill = 3
    finally:
        del system.checks
    assert [c.id for c in tray.checks] == ["a", "b", "c"]
    assert tray.options_for("a") == {"target": 4}
    assert old_button.comm is None  # closed
    assert tray.check_button("c").description == "C"


def test_title_follows_the_characters_name():
    system = get_system("threads_of_fate")
    if "name" not in system.Character.class_trait_names():
        pytest.skip("no name trait")
    character = system.Character(name="Aria")
    tray = DiceTray(character)
    assert "Aria" in tray.title.value
    character.name = "Bree"
    assert "Bree" in tray.title.value and tray.who == "Bree"


def test_checks_that_change_only_words_and_defaults_are_redrawn_without_new_widgets():
    from tabletop_widgets.core.combat import Combat

    system = get_system("seasons")
    character = system.Character(name="Ash")
    tray = DiceTray(character, rng=random.Random(7))
    before = {c.id: c for c in tray.checks}
    check_id = "first_aid_skill"  # its difficulty follows the damaged health levels
    tray.open_group(tray._group_of[check_id])
    card = tray.card(check_id)
    controls = {key: c.widget for key, c in tray._controls.items()}
    fight = Combat(system, rng=random.Random(1))
    fight.add("ash", character)
    fight.damage("ash", 2)  # the tray follows the character
    after = {c.id: c for c in tray.checks}
    assert after[check_id] != before[check_id]  # the rules' words changed
    assert after[check_id].notation != before[check_id].notation
    assert tray.card(check_id) is card  # ... and nothing was made anew
    assert {key: c.widget for key, c in tray._controls.items()} == controls
    expected = system.chance(character, check_id, **tray.options_for(check_id))
    pill = tray._cards[check_id]["pill"].value
    assert f'data-fraction="{expected.numerator}/{expected.denominator}"' in pill
    assert after[check_id].notation_text("en") in tray.check_button(check_id).tooltip
