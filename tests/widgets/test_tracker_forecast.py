"""The tracker's folded fight forecast (``widgets/tracker_forecast.py``): the GM's, made when
first opened, redrawn as the fight changes while open, in both languages; never made for a
player's tracker, whose widget state holds no forecast and no figure of it."""

from __future__ import annotations

import json

from ipywidgets import Widget

from tabletop_widgets import get_system
from tabletop_widgets.widgets.lobby import sample_character
from tabletop_widgets.widgets.tracker import CombatTracker, show_combat
from tabletop_widgets.widgets.tracker_forecast import TEXTS, forecast_html
from helpers import frontend_update


def gm_tracker(slug="seasons", **kw) -> CombatTracker:
    system = get_system(slug)
    chars = {cid: sample_character(system, name) for cid, name in (("ann", "Ann"), ("bob", "Bob"), ("cid", "Cid"))}
    t = show_combat(system, characters=chars, **kw)
    t.combat.set_hidden("cid", True)
    return t


def models(widget: Widget, seen: dict | None = None) -> dict:
    """Every widget model under ``widget`` (children, layouts, styles), by id."""
    seen = {} if seen is None else seen
    if widget.model_id in seen:
        return seen
    seen[widget.model_id] = widget
    for name in widget.keys:
        value = getattr(widget, name, None)
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, Widget):
                models(item, seen)
    return seen


def widget_state(widget: Widget) -> str:
    return json.dumps([w.get_state() for w in models(widget).values()], default=str, ensure_ascii=False)


def test_every_text_is_in_english_and_russian():
    for key, text in TEXTS.items():
        assert text.get("en") and text.get("ru"), key


def test_the_gms_forecast_is_folded_and_made_when_opened():
    t = gm_tracker()
    part = t.forecast_part
    assert part.fold is not None and part.fold.selected_index is None
    assert part.fold.get_title(0) == "Forecast"
    assert part.view is None and part.last is None  # nothing worked out while folded
    assert part.fold in models(t).values()
    frontend_update(part.fold, selected_index=0)  # a click on its header
    assert part.last is not None and part.view is not None
    value = part.view.value
    assert "tt-forecast-table" in value and "Ann" in value and "Cid" in value  # the hidden one too, for the GM
    assert ("exact" if part.last.exact else "simulated: ±") in value
    assert [r.id for r in part.last.rows] == ["ann", "bob", "cid"]
    t.locale = "ru"
    assert part.fold.get_title(0) == "Прогноз боя"
    assert "Выбудет за" in part.view.value and "Out within" not in part.view.value


def test_it_follows_the_fight_while_open_and_waits_while_folded():
    t = gm_tracker()
    part = t.forecast_part
    t.combat.next_turn()
    assert part.last is None  # folded: not worked out
    part.fold.selected_index = 0
    first = part.last
    t.combat.next_turn()  # a turn change while open: worked out again
    assert part.last is not first
    t.combat.damage("bob", 3)
    assert part.last.row("bob").p_out != first.row("bob").p_out
    assert part.view.value.endswith(forecast_html(part.last, "en"))  # the figures shown are the new ones
    part.fold.selected_index = None
    shown = part.last
    t.combat.next_turn()
    assert part.last is shown  # folded again: it waits
    part.fold.selected_index = 0
    assert part.last is not shown


def test_a_players_tracker_has_no_forecast_and_no_figure_of_it():
    gm = gm_tracker()
    gm.forecast_part.fold.selected_index = 0
    assert gm.forecast_part.last is not None
    player = CombatTracker(combat=gm.combat, audience="player", can=lambda action: False)
    part = player.forecast_part
    assert part.fold is None and part.view is None and part.last is None and part.box.children == ()
    gm.combat.next_turn()  # the fight changes: still nothing worked out for the player
    assert part.last is None
    state = widget_state(player)
    for word in ("tt-forecast-fold", "tt-forecast-table", "Forecast", "Прогноз", "Out within", "Выбудет"):
        assert word not in state, word
    assert "tt-forecast-table" in widget_state(gm)  # what the player's state would hold, had it one


def test_a_tracker_turned_to_a_player_drops_its_forecast():
    t = gm_tracker()
    t.forecast_part.fold.selected_index = 0
    fold = t.forecast_part.fold
    t.audience = "player"
    assert t.forecast_part.fold is None and t.forecast_part.last is None and t.forecast_part.box.children == ()
    assert fold.comm is None  # closed: the front end forgets it
    assert "tt-forecast-table" not in widget_state(t)


def test_its_stylesheet_has_dark_values_and_a_phone_layout():
    import re

    from tabletop_widgets.front import css

    text = css("forecast")
    used = set(re.findall(r"var\(--tt-([a-z0-9-]+),", text))
    block = re.search(r'body\[data-jp-theme-light="false"\]\s*\{(.*?)\}', css("theme"), re.S).group(1)
    assert used and used <= set(re.findall(r"--tt-([a-z0-9-]+)\s*:", block))
    assert not re.search(r"(?:^|;|\{)\s*(?:color|background)\s*:\s*#", text)  # every colour a role
    assert "@media (max-width: 480px)" in text


def test_at_a_table_the_gm_sees_the_forecast_and_a_player_nothing_of_it(tmp_path):
    from test_table_view import Table, synced_text

    table = Table(tmp_path)
    try:
        gm, p1 = table.view("gm"), table.view("p1")
        gm.bring_into_combat("c1")
        gm.tracker.add_combatant(name="Zzyzxmook", hidden=True)
        gm.tracker.roll_initiative()
        gm.tracker.next_turn()
        part = gm.tracker.forecast_part
        part.fold.selected_index = 0
        assert part.last is not None and part.last.sides == 2  # the party against the GM's
        assert {r.side for r in part.last.rows} == {"party", "other"}
        assert "Zzyzxmook" in part.view.value
        p1.session.poll()
        assert p1.tracker.forecast_part.fold is None and p1.tracker.forecast_part.last is None
        text = synced_text(p1)
        assert "tt-forecast" not in text.replace("tt-forecast-box", "") and "Zzyzxmook" not in text
    finally:
        table.close()


def test_the_table_in_both_languages():
    from tabletop_widgets.core.combat.forecast import Forecast, ForecastRow

    rows = (
        ForecastRow("a", "Ann", "party", False, 0.0, (0.1, 0.5, 0.999, 1.0)),
        ForecastRow("b", "Bob <b>", "other", True, 0.0, (0.004, 0.2, 0.7, 0.8)),
        ForecastRow("c", "Cid", "other", False, 1.0, (1.0, 1.0, 1.0, 1.0)),
    )
    f = Forecast(rows, 4, (0.1, 0.5, 0.9, 0.95), 2.45, 0.05, False, samples=2000, seed=0, error=0.0219, sides=2)
    en, ru = forecast_html(f, "en"), forecast_html(f, "ru")
    assert "Expected length: 2.5 rounds" in en and "(5% chance it lasts beyond 4)" in en
    assert "simulated: ±2.2%" in en and "2000 simulated fights (seed 0)" in en
    assert "Ожидаемая длина боя, в раундах: 2,5" in ru and "моделирование: ±2,2%" in ru
    # three rounds shown; the rare and the near-certain do not round to 0% and 100%
    assert ">10%<" in en and ">50%<" in en and ">&gt;99%<" in en and "&lt;1%" in en and ">80%<" not in en
    assert "Bob &lt;b&gt;" in en and "hidden" in en and "скрыт" in ru  # names escaped
    assert ">out<" in en and ">выбыл<" in ru
    exact = Forecast(rows, 4, (1.0,) * 4, 0.0, 0.0, True, sides=2)
    assert "The fight is over" in forecast_html(exact, "en") and ">exact<" in forecast_html(exact, "en")


def test_a_sheet_edit_is_taken_in_at_the_next_opening():
    t = gm_tracker()
    part = t.forecast_part
    part.fold.selected_index = 0
    before = part.last.row("bob")
    part.fold.selected_index = None
    bob = t.combat.character("bob")
    hp, _ = t.system.health(bob)
    t.system.apply_damage(bob, hp)  # the sheet, not the fight: no event
    assert t.combat.is_defeated("bob")
    part.fold.selected_index = 0
    assert part.last.row("bob").p_out_now == 1.0 != before.p_out_now
