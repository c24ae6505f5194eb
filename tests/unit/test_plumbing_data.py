"""DataTables: one loader for a system's data tables (issue 15)."""

import json

import pytest

from tabletop_widgets.core.data import DataTables, thaw


@pytest.fixture()
def pkg(tmp_path, monkeypatch):
    root = tmp_path / "housepkg"
    (root / "data").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    rows = [{"id": "sword", "en": "Sword", "ru": "Меч", "tags": ["edge"]}, {"id": "axe", "en": "Axe", "ru": "Топор"}]
    (root / "data" / "weapons.json").write_text(json.dumps(rows))
    (root / "data" / "skills.json").write_text(
        json.dumps({"table": "skills", "rows": [{"code": "a", "en": "A", "ru": "А"}]})
    )
    (root / "data" / "bands.json").write_text(json.dumps({"general": [1, 2]}))
    monkeypatch.syspath_prepend(str(tmp_path))
    return "housepkg"


def test_reads_lists_and_row_documents(pkg):
    t = DataTables(pkg)
    assert t.names() == ["bands", "skills", "weapons"]
    assert [r["id"] for r in t.rows("weapons")] == ["sword", "axe"]
    assert t.rows("skills")[0]["code"] == "a" and t.row("skills", "a")["en"] == "A"
    assert thaw(t.document("bands")) == {"general": [1, 2]}
    with pytest.raises(ValueError, match="not a list of rows"):
        t.rows("bands")
    with pytest.raises(KeyError, match=r"no data table 'armour'; known: \['bands', 'skills', 'weapons'\]"):
        t.rows("armour")


def test_rows_are_read_only(pkg):
    t = DataTables(pkg)
    row = t.rows("weapons")[0]
    with pytest.raises(TypeError):
        row["en"] = "Broken"  # type: ignore[index]
    with pytest.raises(AttributeError):
        row["tags"].append("x")
    assert DataTables(pkg).rows("weapons")[0]["en"] == "Sword" and t.rows("weapons") is t.rows("weapons")


def test_with_rows_replaces_by_id_and_adds_leaving_the_original_unchanged(pkg):
    book = DataTables(pkg)
    before = thaw(book.rows("weapons"))
    house = book.with_rows(
        "weapons", [{"id": "axe", "en": "Big axe", "ru": "Секира"}, {"id": "club", "en": "Club", "ru": "Дубина"}]
    )
    assert [r["en"] for r in house.rows("weapons")] == ["Sword", "Big axe", "Club"]
    assert thaw(book.rows("weapons")) == before and thaw(DataTables(pkg).rows("weapons")) == before
    again = house.with_rows("skills", [{"code": "b", "en": "B", "ru": "Б"}])
    assert [r["en"] for r in again.rows("weapons")] == ["Sword", "Big axe", "Club"]
    assert [r["code"] for r in again.rows("skills")] == ["a", "b"] and len(house.rows("skills")) == 1


def test_with_rows_refuses_bad_rows(pkg):
    t = DataTables(pkg)
    with pytest.raises(ValueError, match="needs an id"):
        t.with_rows("weapons", [{"en": "Nameless"}])
    with pytest.raises(KeyError, match="no data table"):
        t.with_rows("armour", [{"id": "x"}])
    with pytest.raises(TypeError, match="must be a mapping"):
        t.with_rows("weapons", ["sword"])


def test_a_real_system_package():
    t = DataTables("tabletop_systems.ret")
    assert "weapons" in t.names() and all("id" in r for r in t.rows("weapons"))


def test_game_system_data_reads_its_tables(pkg):
    from tabletop_widgets.core.system import GameSystem

    class House(GameSystem):
        slug = "house"
        tables = DataTables(pkg)

    system = House()
    assert system.data_tables() == ["bands", "skills", "weapons"]
    rows = system.data("weapons")
    rows[0]["en"] = "changed"  # a plain copy
    assert system.data("weapons")[0]["en"] == "Sword"
    with pytest.raises(KeyError, match="house: no data table 'armour'"):
        system.data("armour")
    assert GameSystem().data_tables() == []
