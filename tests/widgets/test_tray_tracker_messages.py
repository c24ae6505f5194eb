"""A dice tray and a combat tracker cost few models and messages (issue 21), as the sheet does
(``test_sheet_messages.py``): a play page's kernel sends every widget model they make and every
update after a model is made. Their widgets are made with their CSS classes (one message each,
not one more per class), and their folded parts are made when opened.

Before this treatment (each system's sample character; the tracker with three more): the tray
(RET, Seasons, L&D, Threads) made 82, 153, 79 and 87 models and sent 67, 119, 69 and 71 updates
after them (31, 58, 33 and 34 of them classes); the tracker of four made 175 models and sent
191 updates (74 classes).

Then (issue 21, the page-speed part) the pieces that never hide or resize share one frozen
layout and one style per kind, and are made with their words, so no update follows: the trays
make 49, 79, 48 and 52 models and send 15 updates; the tracker of four 87 models and 7 updates
(counted in a fresh process: the shared layouts and styles are among them; a page makes those
once). The budgets are those numbers: a regression fails."""

from __future__ import annotations

import random

import pytest
import traitlets

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.widgets.lobby import sample_character
from tabletop_widgets.widgets.log import RollLog
from tabletop_widgets.widgets.tracker import show_combat
from tabletop_widgets.widgets.tray import DiceTray

from message_count import counted

#: models a tray of each system's sample character makes at most (before issue 21's models work:
#: 82, 153, 79 and 87)
TRAY_BUDGET = {"ret": 49, "seasons": 79, "life_and_death": 48, "threads_of_fate": 52}
#: updates a tray sends after its models at most (before: 36 to 62)
TRAY_UPDATES = 15
#: models and updates a tracker of four makes and sends at most (before: 175 and 119; 87 before
#: the GM's Forecast fold of issue 35: its box, the fold and the fold's pane, its table made when opened)
TRACKER_BUDGET = (90, 7)


@pytest.mark.parametrize("slug", available_systems())
def test_a_tray_makes_few_models_and_sends_its_classes_with_them(slug, monkeypatch):
    if slug not in TRAY_BUDGET:
        pytest.skip(f"no budget for the system {slug}")
    system = get_system(slug)
    tray, models, updates = counted(lambda: DiceTray(sample_character(system, "Hero"), seed=3), monkeypatch)
    try:
        assert len(models) <= TRAY_BUDGET[slug], f"{slug}: {len(models)} models"
        assert sum(updates.values()) <= TRAY_UPDATES, (slug, updates.most_common(6))
        assert updates["_dom_classes"] <= 1, (slug, updates["_dom_classes"])  # classes go with the model
        assert tray.accordion is not None and len(tray._built_groups) <= 1  # folded groups: no cards yet
    finally:
        tray.close()


@pytest.mark.parametrize("slug", available_systems())
def test_a_tracker_makes_few_models_and_sends_its_classes_with_them(slug, monkeypatch):
    system = get_system(slug)
    people = {"hero": sample_character(system, "Hero")}
    people.update({f"foe{k}": sample_character(system, f"Foe {k}") for k in range(3)})
    tracker, models, updates = counted(
        lambda: show_combat(system, characters=people, rng=random.Random(5)), monkeypatch
    )
    try:
        most_models, most_updates = TRACKER_BUDGET
        assert len(models) <= most_models, f"{slug}: {len(models)} models"
        assert sum(updates.values()) <= most_updates, (slug, updates.most_common(6))
        assert updates["_dom_classes"] <= 3, (slug, updates["_dom_classes"])  # before: 74
        rows = [w for w in models if "tt-combatant" in getattr(w, "_dom_classes", ())]
        assert len(rows) == 4 and all(any(c.startswith("tt-id-") for c in r._dom_classes) for r in rows)
        assert "tt-add-row" in tracker.add_box._dom_classes  # the browser tests find the add row by it
    finally:
        tracker.close()


def test_a_combatant_who_joins_costs_its_row_and_the_rest_redraws_only_what_changed(monkeypatch):
    """A row is made as it is shown (its words, its health, its place) and shares the frozen
    layout: before issue 21's models work a fifth combatant made 26 models and 20 updates."""
    system = get_system("ret")
    people = {f"p{k}": sample_character(system, f"P {k}") for k in range(4)}
    tracker = show_combat(system, characters=people, rng=random.Random(5))
    try:
        tracker.roll_initiative()
        tracker.next_turn()
        late = sample_character(system, "Late")
        event, models, updates = counted(lambda: tracker.add_combatant(late, name="Late"), monkeypatch)
        assert event is not None and "Late" in tracker.combatant_list.rows[event["id"]].select.description
        assert len(models) <= 11, [type(w).__name__ for w in models]
        assert sum(updates.values()) <= 6, updates.most_common(6)
        row = tracker.combatant_list.rows[event["id"]]
        assert row.marker.layout is row.hp.layout is row.box.layout  # one shared, frozen layout
        assert row.act_now.layout is not row.marker.layout  # the one that hides has its own
        with pytest.raises(traitlets.TraitError, match="cannot change"):
            row.marker.layout.display = "none"  # would hide every row's pieces at once
        _, _, updates = counted(tracker.next_turn, monkeypatch)
        assert sum(updates.values()) <= 10, updates.most_common(6)
    finally:
        tracker.close()


def test_a_roll_log_and_each_new_entry_cost_few_models(monkeypatch):
    """A roll log (before issue 21's models work: 40 models and 31 updates; an entry 3 models)."""
    log, models, updates = counted(RollLog, monkeypatch)
    try:
        assert len(models) <= 26 and sum(updates.values()) <= 5, (len(models), updates.most_common(6))
        log.add(who="Ann", what="1d20", breakdown="1d20: 7")
        entry, models, updates = counted(lambda: log.add(who="Ann", what="2d6", breakdown="2d6: 3 4"), monkeypatch)
        assert entry is not None and len(models) == 1 and "tt-log-item" in models[0]._dom_classes
        assert sum(updates.values()) <= 4, updates.most_common(6)
        assert "2d6: 3 4" in models[0].value
    finally:
        log.close()
