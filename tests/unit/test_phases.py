"""The phase every character carries (issue #17): ``Character.phase`` is ``"creation"`` or
``"play"``, persisted, ``"creation"`` by default; anything else is refused in both languages and
changes nothing; old saved characters (and L&D's and Threads' old ``stage``) load; copies keep
it; ``GameSystem.start_play`` is the one step from creation to play."""

from __future__ import annotations

import json

import pytest
from traitlets import Int, Unicode

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core import (
    PHASES,
    CharacterModel,
    GameSystem,
    Problem,
    RuleError,
    T,
    ValidationError,
    clone_character,
)
from tabletop_widgets.core.phases import blocks_play, phase_words

SLUGS = ["ret", "seasons", "life_and_death", "threads_of_fate"]


def test_the_four_systems_are_there():
    assert set(SLUGS) <= set(available_systems())
    assert PHASES == ("creation", "play")


@pytest.mark.parametrize("slug", SLUGS)
def test_phase_defaults_to_creation_and_is_saved(slug):
    model = get_system(slug).Character
    c = model()
    assert c.phase == "creation"
    assert "phase" in model.persisted_traits() and "phase" not in model.derived_traits()
    d = c.to_dict()
    assert d["phase"] == "creation"
    played = model.from_dict({**d, "phase": "play"})
    assert played.phase == "play"
    again = model.from_dict(json.loads(json.dumps(played.to_dict())))  # the JSON file's round trip
    assert again.phase == "play" and again.to_dict() == played.to_dict()


@pytest.mark.parametrize("slug", SLUGS)
def test_an_old_saved_character_without_a_phase_loads_in_creation(slug):
    model = get_system(slug).Character
    old = model().to_dict()
    del old["phase"]
    assert model.from_dict(old).phase == "creation"
    assert model.check_dict(old) == []
    assert model.phase_of(old) == "creation"


@pytest.mark.parametrize("slug", ["life_and_death", "threads_of_fate"])
def test_the_old_stage_is_read_as_the_phase(slug):
    model = get_system(slug).Character
    old = model().to_dict()
    del old["phase"]
    old["stage"] = "play"
    assert model.check_dict(old) == []
    c = model.from_dict(old)
    assert c.phase == "play" and c.stage == "play" and "stage" not in c.to_dict()
    assert model.phase_of(old) == "play"
    assert model(stage="play").phase == "play"
    bad = {**old, "stage": "finished"}
    assert [p.code for p in model.check_dict(bad)] == ["bad_phase"]


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("value", ["finished", "Play", "", 1, None, True, ["play"]])
def test_any_other_phase_is_refused_in_both_languages(slug, value):
    model = get_system(slug).Character
    with pytest.raises(ValidationError) as e:
        model(phase=value)
    (problem,) = e.value.problems
    assert problem.code == "bad_phase" and problem.field == "phase"
    assert '"creation"' in problem.text("en") and '"play"' in problem.text("en")
    assert "создаётся" in problem.text("ru") and "в игре" in problem.text("ru")
    assert problem.full_text("en").startswith("Phase: ") and problem.full_text("ru").startswith("Этап: ")
    with pytest.raises(ValidationError):
        model.from_dict({**model().to_dict(), "phase": value})
    c = model(name="Kept")
    with pytest.raises(ValidationError):
        c.phase = value
    with pytest.raises(ValidationError):
        c.update(name="Changed", phase=value)
    assert c.phase == "creation" and c.name == "Kept"  # nothing changed


def test_the_refusal_quotes_what_was_given():
    model = get_system("ret").Character
    (problem,) = model.check_dict({**model().to_dict(), "phase": "done"})
    assert "(not done)" in problem.text("en") and "(а не done)" in problem.text("ru")


@pytest.mark.parametrize("slug", SLUGS)
def test_copies_keep_the_phase(slug):
    model = get_system(slug).Character
    c = model.from_dict({**model().to_dict(), "phase": "play"})
    assert clone_character(c).phase == "play"
    fresh = model()
    fresh.load_dict(c.to_dict())
    assert fresh.phase == "play"


def test_phase_words():
    assert phase_words("creation", "en") == "Being created" and phase_words("play", "ru") == "В игре"


# ---------------------------------------------------------------------------------------------
# start_play on any GameSystem (a bare one here: the contract, not a system's rules)
# ---------------------------------------------------------------------------------------------
class Hero(CharacterModel):
    SYSTEM = "phase_probe"
    name = Unicode("").tag(persist=True)
    points = Int(0).tag(persist=True)
    bonus = Int(0).tag(persist=True)


class Probe(GameSystem):
    slug = "phase_probe"
    title = T("Probe", "Проба")
    Character = Hero

    def validate(self, c):
        if c.phase != "creation":
            return []
        out = []
        if c.points > 3:
            out.append(Problem("over", T("Too many points.", "Слишком много очков."), field="points"))
        if not c.name:
            out.append(Problem("unnamed", T("Name it.", "Дайте имя."), severity="warning"))
        if c.points < 3:
            out.append(
                Problem("unspent", T("Points left.", "Очки остались."), severity="warning", data={"blocks_finalize": 1})
            )
        return out

    def play_changes(self, c):
        return {"bonus": 3 - c.points}


def test_start_play_refuses_with_every_blocking_problem_and_changes_nothing():
    system, c = Probe(), Hero(points=5)
    with pytest.raises(RuleError) as e:
        system.start_play(c)
    assert e.value.code == "creation_problems"
    assert [p.code for p in e.value.data["problems"]] == ["over"]
    assert "Too many points." in e.value.text("en") and "Слишком много очков." in e.value.text("ru")
    assert c.phase == "creation" and c.bonus == 0
    c.points = 1
    with pytest.raises(RuleError) as e:
        system.start_play(c)  # a warning the system marks as blocking
    assert [p.code for p in e.value.data["problems"]] == ["unspent"]
    assert not blocks_play(system.validate(Hero(points=3))[0])  # the plain warning does not


def test_start_play_moves_to_play_once_with_the_systems_changes():
    system, c = Probe(), Hero(points=3)
    assert system.start_play(c) == {"phase": ("creation", "play")}
    assert c.phase == "play" and c.bonus == 0
    with pytest.raises(RuleError) as e:
        system.start_play(c)
    assert e.value.code == "already_in_play"
    assert e.value.text("ru") == "Этот персонаж уже в игре."


def test_a_character_in_play_has_no_creation_steps():
    from tabletop_widgets.core.creation import creation_steps

    ret = get_system("ret")
    power = {"name": "Telekinesis", "kind": "skill", "level": 3, "base_param": "will", "is_superpower": True}
    c = ret.Character(name="Vera", abilities=[power])
    assert creation_steps(ret, c)
    c.phase = "play"
    assert [p.code for p in ret.validate(c)] == ["superpower_cost"]  # what always holds
    assert creation_steps(ret, c) == []  # but nothing of creation is left to do
