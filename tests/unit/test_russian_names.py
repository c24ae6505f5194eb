"""System words in %roll and the tray take the books' Russian names as well as the ids (#22):
RET parameters and abilities, L&D parameters and skills, Threads characteristics and skills; any
case, «ё» or «е», a name of several words in braces. The names come from each system's own
labels and data, so a test per system rolls by the Russian name and by the id with the same
dice and expects the same roll."""

from __future__ import annotations

import random

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core.names import NameIndex, name_key
from tabletop_widgets.widgets import DiceTray


def test_name_key_ignores_case_yo_spaces_and_braces():
    assert name_key("{Мелкая  Моторика}") == name_key("мелкая_моторика") == "мелкая моторика"
    assert name_key("Лёгкий") == name_key("ЛЕГКИЙ")
    index = NameIndex({"a": {"en": "Fine motor", "ru": "Мелкая моторика"}, "b": {"en": "Twin", "ru": "Ёж"}})
    assert index.id_of("fine_motor") == index.id_of("Fine Motor") == "a"
    assert index.id_of("{мелкая моторика}") == "a" and index.id_of("ЕЖ") == "b" and index.id_of("b") == "b"
    shared = NameIndex({"x": {"ru": "Сила"}, "y": {"ru": "сила"}})
    assert shared.id_of("Сила") is None  # a name two ids share is not guessed


def _same_roll(character, by_name: str, by_id: str):
    a = DiceTray(character, locale="ru", rng=random.Random(11), animate=False)
    b = DiceTray(character, locale="ru", rng=random.Random(11), animate=False)
    ra, rb = a.roll(by_name), b.roll(by_id)
    assert ra is not None, a.error.value
    assert rb is not None, b.error.value
    assert ra.total == rb.total and [d.value for d in ra.dice] == [d.value for d in rb.dice]
    return ra


def _yo(text: str) -> str:
    """The name as someone typing «ё» for «е» (or the other way) would write it."""
    return text.replace("е", "ё", 1) if "е" in text else text.replace("ё", "е")


def _ret_params():
    from tabletop_systems.ret.params import LABELS

    return [(pid, lab["ru"]) for pid, lab in LABELS.items()]


@pytest.mark.parametrize("pid,name", _ret_params())
def test_ret_rolls_a_parameter_by_its_russian_name(pid, name):
    hero = get_system("ret").Character(name="Аня")
    r = _same_roll(hero, "{" + _yo(name).upper() + "} +1", f"{pid} +1")
    assert name in r.text("ru")  # the roll text names it the way the book does
    if " " not in name:
        _same_roll(hero, name.lower(), pid)


def test_ret_rolls_an_ability_by_its_name_in_any_case():
    hero = get_system("ret").Character(
        name="Аня", abilities=[{"name": "Взлом сейфов", "kind": "skill", "base_param": "wits", "level": 3}]
    )
    r = _same_roll(hero, 'навык "взлом СЕЙФОВ" +1', 'skill "Взлом сейфов" +1')
    assert "Навык: Взлом сейфов" in r.text("ru") and "[бонус]" in r.text("ru") and "bonus" not in r.text("ru")


def _ld_names():
    from tabletop_systems.life_and_death import data
    from tabletop_systems.life_and_death.model import PARAM_LABELS

    params = [(k, v["ru"]) for k, v in PARAM_LABELS.items()]
    skills = [(r["id"], r["ru"]) for r in data.TABLES.rows("skills") if r.get("param")]
    return params, skills


@pytest.mark.parametrize("pid,name", _ld_names()[0])
def test_life_and_death_rolls_a_parameter_by_its_russian_name(pid, name):
    hero = get_system("life_and_death").Character(name="Аня")
    _same_roll(hero, f"ld {_yo(name)}+2 dc 1", f"ld {pid}+2 dc 1")


@pytest.mark.parametrize("sid,name", _ld_names()[1][:8])
def test_life_and_death_rolls_a_skill_by_its_russian_name(sid, name):
    from tabletop_systems.life_and_death import data

    hero = get_system("life_and_death").Character(name="Аня")
    param = data.TABLES.row("skills", sid)["param"]
    plab = get_system("life_and_death").sheet.field(param).label["ru"]
    _same_roll(hero, "ld {" + name.upper() + "}", f"ld {sid}")
    _same_roll(hero, "ld {" + plab + "}+{" + _yo(name) + "}", f"ld {param}+{sid}")


def _threads_names():
    from tabletop_systems.threads_of_fate.traits import CHAR_LABELS, SKILLS

    return [(k, v["ru"]) for k, v in CHAR_LABELS.items()], [(code, ru) for code, (_en, ru, _u) in SKILLS.items()]


@pytest.mark.parametrize("cid,name", _threads_names()[0])
def test_threads_rolls_a_characteristic_by_its_russian_name(cid, name):
    hero = get_system("threads_of_fate").Character(name="Аня")
    r = _same_roll(hero, f"проверка {_yo(name).upper()} vs 12", f"check {cid} vs 12")
    assert name in r.text("ru")


@pytest.mark.parametrize("code,name", _threads_names()[1][:10])
def test_threads_rolls_a_skill_check_by_its_russian_names(code, name):
    from tabletop_systems.threads_of_fate.traits import CHAR_LABELS, SKILLS

    hero = get_system("threads_of_fate").Character(name="Аня")
    char = SKILLS[code][2][0]
    r = _same_roll(hero, "проверка {" + CHAR_LABELS[char]["ru"] + "}+{" + _yo(name) + "}", f"check {char}+{code}")
    assert f"{CHAR_LABELS[char]['ru']} + {name}" in r.text("ru")
    _same_roll(hero, "static {" + name.lower() + "}", f"static {code}")


def test_an_unknown_russian_name_says_so():
    hero = get_system("ret").Character(name="Аня")
    tray = DiceTray(hero, locale="ru", rng=random.Random(1), animate=False)
    assert tray.roll("{Смекалка и отвага}") is None and "неизвестная проверка" in tray.error.value
    tray = DiceTray(get_system("life_and_death").Character(name="Аня"), locale="ru", animate=False)
    assert tray.roll("ld Смекалка") is None and "неизвестный ключ или навык" in tray.error.value
