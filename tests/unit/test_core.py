"""Core contracts: registry (with a dummy system), CharacterModel, i18n, result rendering."""

import pytest
from dice_helpers import Scripted
from traitlets import Int, List, Unicode

import tabletop_widgets
from tabletop_widgets.core import (
    CharacterModel,
    GameSystem,
    Problem,
    T,
    ValidationError,
    count,
    plural_ru,
    register_system,
)
from tabletop_widgets.core.registry import unregister_system
from tabletop_widgets.dice import roll


class Dummy(CharacterModel):
    SYSTEM = "dummy"
    name = Unicode("").tag(persist=True)
    might = Int(3).tag(persist=True)
    gear = List().tag(persist=True)
    health_max = Int(0).tag(derived=True)

    def _derive(self):
        self.health_max = 2 * self.might

    @classmethod
    def check_values(cls, values):
        out = []
        if not 0 <= values["might"] <= 7:
            out.append(Problem("range", T("might must be 0..7", "сила должна быть 0..7"), field="might"))
        for i, item in enumerate(values["gear"]):
            if not isinstance(item, dict) or "name" not in item:
                out.append(Problem("item", T(f"gear item {i} needs a name", f"у предмета {i} нет имени"), field="gear"))
        return out


class DummySystem(GameSystem):
    slug = "dummy"
    title = T("Dummy", "Пустышка")
    Character = Dummy


@pytest.fixture
def dummy():
    register_system(DummySystem())
    yield
    unregister_system("dummy")


def test_registry_lists_and_gets(dummy):
    assert "dummy" in tabletop_widgets.available_systems()
    assert tabletop_widgets.get_system("dummy").slug == "dummy"


def test_a_system_s_title_is_read_without_loading_its_rules(dummy):
    """``system_title`` gives what ``get_system(slug).title`` gives; a built-in system's package
    declares it (``TITLE``) and loads its rules on first use, so the lobby can list every game by
    name and load only the one it starts on (checked in a fresh process)."""
    from tabletop_widgets.core.registry import system_title

    for slug in ("ret", "seasons", "life_and_death", "threads_of_fate"):
        assert system_title(slug) == tabletop_widgets.get_system(slug).title
    assert system_title("dummy") == {"en": "Dummy", "ru": "Пустышка"}
    with pytest.raises(KeyError, match="no game system 'nope'"):
        system_title("nope")
    code = (
        "import sys\n"
        "from tabletop_widgets.core.registry import system_title\n"
        "titles = [system_title(s)['en'] for s in ('ret', 'seasons', 'life_and_death', 'threads_of_fate')]\n"
        "print(sorted(m for m in sys.modules if m.startswith('tabletop_systems.') and m.count('.') >= 2))\n"
        "from tabletop_systems.seasons import SYSTEM, Character\n"  # the package still gives its rules
        "print(SYSTEM.slug, Character.__name__)\n"
    )
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    loaded, seasons = out.stdout.strip().splitlines()
    assert loaded == "[]", loaded
    assert seasons == "seasons Character"


def test_registry_unknown_system_message():
    with pytest.raises(KeyError, match="no game system 'nope'"):
        tabletop_widgets.get_system("nope")


def test_registry_rejects_non_systems():
    with pytest.raises(TypeError):
        register_system(object())


def test_system_rules_options():
    class S(GameSystem):
        slug = "s"
        default_rules = {"strict": True}

    s = S()
    assert s.rules == {"strict": True} and s.with_rules(strict=False).rules == {"strict": False}
    with pytest.raises(ValueError, match="unknown rules option"):
        S(nope=1)


def test_model_derives_and_round_trips():
    c = Dummy(might=4, name="Ada")
    assert c.health_max == 8
    c.might = 5
    assert c.health_max == 10
    d = c.to_dict()
    assert d == {"system": "dummy", "schema": 1, "phase": "creation", "name": "Ada", "might": 5, "gear": []}
    assert Dummy.from_dict(d).to_dict() == d


def test_model_lists_every_problem_and_changes_nothing():
    c = Dummy(might=4)
    with pytest.raises(ValidationError) as e:
        c.load_dict({"system": "dummy", "schema": 1, "might": 9, "gear": [{"x": 1}], "zzz": 1, "health_max": 3})
    codes = sorted(p.code for p in e.value.problems)
    assert codes == ["derived_given", "item", "range", "unknown_field"]
    assert c.might == 4 and c.gear == []
    assert "не изменён" in e.value.messages("ru")


def test_model_rejects_wrong_system_and_schema():
    with pytest.raises(ValidationError) as e:
        Dummy.from_dict({"system": "other", "schema": 99})
    assert {p.code for p in e.value.problems} == {"wrong_system", "bad_schema"}
    with pytest.raises(ValidationError):
        Dummy.from_dict(["not", "a", "dict"])


def test_model_update_all_or_nothing():
    c = Dummy(might=2)
    with pytest.raises(ValidationError):
        c.update(might=3, gear=["bad"])
    assert c.might == 2
    c.update(might=3, gear=[{"name": "rope"}])
    assert c.might == 3 and c.health_max == 6


def test_model_type_errors():
    with pytest.raises(ValidationError) as e:
        Dummy(might="strong")
    assert e.value.problems[0].field == "might"


@pytest.mark.parametrize(
    "n,word",
    [
        (0, "успехов"),
        (1, "успех"),
        (2, "успеха"),
        (4, "успеха"),
        (5, "успехов"),
        (11, "успехов"),
        (12, "успехов"),
        (14, "успехов"),
        (21, "успех"),
        (22, "успеха"),
        (25, "успехов"),
        (101, "успех"),
        (111, "успехов"),
    ],
)
def test_russian_plurals(n, word):
    assert plural_ru(n, "успех", "успеха", "успехов") == word
    assert count(n, "success", "ru") == f"{n} {word}"


def test_english_plurals():
    assert count(1, "success") == "1 success" and count(2, "success") == "2 successes"


def test_breakdown_text_matches_the_issue_example():
    r = roll("4d6kh3", rng=Scripted([6, 5, 3, 1]))
    assert str(r) == "4d6kh3 [6, 5, 3, ~~1~~] = 14"


@pytest.mark.parametrize(
    "faces,en,ru",
    [
        ([6, 1, 1], "1 success", "1 успех"),
        ([6, 7, 1], "2 successes", "2 успеха"),
    ],
)
def test_success_text_plurals(faces, en, ru):
    r = roll("3d10>=6", rng=Scripted(faces))
    assert str(r).endswith(en) and r.text("ru").endswith(ru)


def test_five_successes_ru():
    assert roll("5d10>=1", seed=1).text("ru").endswith("5 успехов")


def test_html_strikes_dropped_and_marks_crits():
    h = roll("2d20kh1", rng=Scripted([20, 1])).html()
    assert "tt-dropped" in h and "<s>1</s>" in h and "tt-crit-success" in h
    assert 'role="status"' in h
    h = roll("3d10>=6f1", rng=Scripted([6, 1, 3])).html("ru")
    assert "tt-success" in h and "tt-failure" in h and "0 успехов" in h  # 1 success - 1 failure


def test_json_bundle():
    r = roll("2d6+1 >= 8", rng=Scripted([3, 4]))
    j = r.to_json()
    assert j["total"] == 8 and j["check"]["passed"] and len(j["dice"]) == 2
