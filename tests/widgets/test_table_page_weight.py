"""A player's table page is as light as the GM's (issue 21: page speed).

Every widget model a page makes is a message the kernel sends (and Voila's server handles) and a
model, a view and DOM the browser makes before it draws anything. A player's page used to make
683 models against the GM's 333 on the bench's table (``bench/pages.py``: R.E.T., a GM and four
players with the lobby's sample characters; a player's character in creation, so the page opens
on the creation guide over their sheet): it built the dice tray of the Dice tab nobody looked at
yet, and a combat tracker of sixty models to say that no fight runs. Now the tray is built when
the Dice tab is first shown, and a player's page before the table's first fight shows the
tracker's empty face (:class:`~tabletop_widgets.widgets.table_fight.IdleTracker`) until a fight
starts. A page in Russian is built in Russian (it was built in English, then every label sent
again). The GM's Notes, Seat links and Sessions tabs are built when first shown
(``test_table_view_lazy.py``), and the page's own widgets share one style and one layout.

Measured on that table (models made, updates sent): GM 333 / 210, player 683 / 234 (in Russian
671 / 446) before; GM 243 / 139, player 524 / 142 (in Russian 513 / 144) after, of which the
player's sheet is 372 models and their creation guide 75.
"""

from __future__ import annotations

import pytest
from ipywidgets import Widget

from tabletop_widgets import get_system
from tabletop_widgets.core.combat import Combat
from tabletop_widgets.table import SeatSpec
from tabletop_widgets.widgets.lobby import sample_character
from tabletop_widgets.widgets.table_fight import IdleTracker
from tabletop_widgets.widgets.tracker import CombatTracker
from helpers import SeatPages, frontend_update
from message_count import counted
from test_table_view import classes

#: what the page itself makes around a player's sheet and creation guide, at most (was 236)
PLAYER_OWN_MODELS = 90
#: updates a player's page sends after making its models, at most (was 234; 446 in Russian)
PLAYER_UPDATES = 150
#: models and updates of the GM's page, at most (was 333 / 210)
GM_BUDGET = (250, 150)


class BenchTable(SeatPages):
    """The table of ``bench/pages.py``: R.E.T., a GM and four players."""

    def __init__(self, tmp_path):
        self.system = get_system("ret")
        names = ["Vera", "Oleg", "Mira", "Ivan"]
        chars = {f"c{k}": sample_character(self.system, name).to_dict() for k, name in enumerate(names)}
        seats = [SeatSpec("gm", "gm", "Gail")] + [
            SeatSpec(f"p{k}", "player", name, f"c{k}") for k, name in enumerate(names)
        ]
        super().__init__(str(tmp_path / "bench.db"), "ret", seats, chars, title="Page bench")


@pytest.fixture
def bench(tmp_path):
    t = BenchTable(tmp_path)
    yield t
    t.close()


def models_under(widget: Widget, seen: set | None = None) -> set:
    """Every widget model under ``widget`` (children, layouts, styles)."""
    seen = set() if seen is None else seen
    stack = [widget]
    while stack:
        w = stack.pop()
        if not isinstance(w, Widget) or w.model_id in seen:
            continue
        seen.add(w.model_id)
        for name in w.keys:
            value = getattr(w, name, None)
            stack.extend(value if isinstance(value, (list, tuple)) else [value])
    return seen


def test_a_players_page_costs_the_gms_page_plus_their_sheet_at_most(bench, monkeypatch):
    bench.view("gm").close()  # the shared styles and layouts exist in the kernel already
    gm, gm_models, gm_updates = counted(lambda: bench.view("gm", locale="en"), monkeypatch)
    player, models, updates = counted(lambda: bench.view("p0", locale="en"), monkeypatch)
    # the bench's player opens on their character's creation: the guide over the sheet
    assert player.showing("your_sheet") and list(player.sheets) == ["c0"]
    sheet = models_under(player.sheets["c0"])
    guide = models_under(player.creation_box)
    made = {w.model_id for w in models}
    assert len(made) <= len(gm_models) + len(sheet), (len(made), len(gm_models), len(sheet))
    own = made - sheet - guide
    assert len(own) <= PLAYER_OWN_MODELS, len(own)
    assert sum(updates.values()) <= PLAYER_UPDATES, updates.most_common(8)
    assert len(gm_models) <= GM_BUDGET[0] and sum(gm_updates.values()) <= GM_BUDGET[1], (
        len(gm_models),
        gm_updates.most_common(8),
    )
    # not built: the Dice tab's tray and the tracker (no fight yet)
    assert player.built_tray is None and player.built_tracker is None
    assert "tt-table-tray" not in classes(player) and "tt-tracker-toolbar" not in classes(player)


def test_a_page_in_russian_is_built_in_russian(bench, monkeypatch):
    bench.view("p1", locale="en").close()
    _en, en_models, en_updates = counted(lambda: bench.view("p0", locale="en"), monkeypatch)
    ru, ru_models, ru_updates = counted(lambda: bench.view("p0", locale="ru"), monkeypatch)
    assert sum(ru_updates.values()) <= sum(en_updates.values()) + 10, ru_updates.most_common(8)
    assert ru.sheets["c0"].locale == "ru" and ru.idle_tracker.empty_note.value != _en.idle_tracker.empty_note.value
    assert "Бой" in ru.idle_tracker.title.value


def test_the_tray_is_built_when_the_dice_tab_is_first_shown(bench):
    player, gm = bench.view("p0"), bench.view("gm")
    assert player.built_tray is None
    # the table changes the character meanwhile: the tray built later shows it as it is then
    gm.models["c0"].name = "Vera the Bold"
    player.session.poll()
    for bad in (7, -1, None):  # a forged tab index builds nothing
        try:
            frontend_update(player.tabs, selected_index=bad)
        except Exception:  # noqa: BLE001 - refused by the Tab's own validation: fine too
            pass
        assert player.built_tray is None
    frontend_update(player.tabs, selected_index=player._tab_keys.index("tab_dice"))
    tray = player.built_tray
    assert tray is not None and tray in player.tray_box.children and "tt-table-tray" in classes(player)
    assert tray.character is player.models["c0"] and tray.character.name == "Vera the Bold"
    assert tray.locale_toggle.layout.display == "none"  # one language switch per screen
    frontend_update(player.tabs, selected_index=player._tab_keys.index("your_sheet"))
    frontend_update(player.tabs, selected_index=player._tab_keys.index("tab_dice"))
    assert player.built_tray is tray  # shown again: the same tray
    # it rolls through the table, as the seat
    tray.roll("2d6+1")
    gm.session.poll()
    assert gm.roll_log.entries[-1].who == "Vera" and "2d6+1" in gm.roll_log.entries[-1].text()


def test_the_language_reaches_a_tray_built_later(bench):
    player = bench.view("p0", locale="en")
    player.locale_toggle.value = "ru"
    assert player.tray.locale == "ru"  # asked for: built, in the screen's language


def _player_tracker(system, loc: str) -> CombatTracker:
    return CombatTracker(combat=Combat(system), locale=loc, audience="player", can=lambda action: False)


@pytest.mark.parametrize("loc", ["en", "ru"])
def test_the_empty_face_says_what_the_players_tracker_says(bench, loc):
    system = bench.system
    face, tracker = IdleTracker(system, loc), _player_tracker(system, loc)
    try:
        for part in ("title", "round_label", "empty_note"):
            mine, theirs = getattr(face, part), getattr(tracker, part)
            assert mine.value == theirs.value and mine.value, part
            assert set(mine._dom_classes) == set(theirs._dom_classes), part
        assert {"tt-tracker", "tt-player-tracker", "tt-table-tracker"} <= set(face.box._dom_classes)
    finally:
        face.close()
        tracker.close()


def test_the_first_fight_replaces_the_empty_face_with_the_tracker(bench):
    player, gm = bench.view("p0", locale="ru"), bench.view("gm")
    face = player.idle_tracker
    assert face is not None and face.box in player.combat_column.children
    player.locale = "en"  # the face follows the screen's language
    assert face.empty_note.value == IdleTracker(bench.system, "en").empty_note.value
    gm.bring_into_combat("c0")
    gm.bring_into_combat("c1")
    player.session.poll()
    tracker = player.built_tracker
    assert tracker is not None and player.idle_tracker is None
    assert tracker in player.combat_column.children and face.box not in player.combat_column.children
    assert face.box.comm is None  # closed: no model left behind
    assert set(tracker.combat.ids) == {"c0", "c1"} and tracker.locale == "en"
    assert tracker.locale_toggle.layout.display == "none"
    # it follows the fight from then on
    gm.tracker.roll_initiative()
    gm.tracker.next_turn()
    player.session.poll()
    assert tracker.combat.round == 1 and tracker.combat.current == gm.tracker.combat.current
    # and it is a player's: a GM's action is refused in Python
    assert not tracker.can("next") and not tracker.can("add")


def test_a_page_opened_during_a_fight_builds_the_tracker_at_once(bench):
    gm = bench.view("gm")
    gm.bring_into_combat("c0")
    player = bench.view("p0")
    assert player.idle_tracker is None and player.built_tracker is not None
    assert player.built_tracker.combat.ids == ["c0"]
