"""Issue 35's "done when", in the browser: a GM runs one fight of an evening from a JupyterLab
notebook while two players follow it on their Voila seat pages.

A RET table (Gail the GM; Pat playing Aria, Quinn playing Boris) is made in a SQLite file. A Voila
server on that file serves the players' seat pages, open in Chromium; a JupyterLab server (a
temporary home, as :mod:`test_jupyter_ui` starts it, light theme) runs a notebook that joins the
table with the GM's link (``%table open``), rolls a roll table defined in the notebook and
``2d6+1`` at the table (``%roll --table``), brings both characters and an NPC into the fight, rolls
initiative, begins the first turn and shows the fight's forecast. Then:

* each player's page shows the roll table's line and the ``2d6+1`` roll in its log, and the three
  combatants in its tracker, and nothing of the forecast (it is the GM's alone);
* the notebook shows the seat's page (the GM's table view) and the forecast's table.

Screenshots (docs/screenshots with ``TT_SCREENSHOTS=1``): the notebook (``notebook_gm.png``) and
Pat's page (``notebook_player.png``). The forecast's ``_repr_html_`` (both languages, the theme's
colour roles) is checked here too, without a browser.
"""

from __future__ import annotations

import re

import nbformat
from conftest import open_context, running, start_voila
from playwright.sync_api import expect
from test_jupyter_ui import Server as JupyterServer
from test_jupyter_ui import Watch, run_all, write_settings

from tabletop_widgets import get_system
from tabletop_widgets.core.combat.forecast import forecast
from tabletop_widgets.core.combat.machine import Combat
from tabletop_widgets.table import SeatSpec, create_table, open_store
from tabletop_widgets.widgets.lobby import sample_character

LOAD_TIMEOUT = 300_000  # a page or a kernel on a loaded 2-core machine can take minutes
RUN_TIMEOUT = 300_000

#: the notebook's roll table, as the GM writes it in a cell
WEATHER = 'weather = RollTable("1d6", {(1, 3): "Rain", (4, 6): "Sun"}, title="Weather")'
NPC = "Grik the Goblin"


#: scroll the log's own list (not the page) so that this line is its first one shown
SCROLL_LOG_TO = """el => {
  let box = el.parentElement;
  while (box && box !== document.body && box.scrollHeight <= box.clientHeight + 1) box = box.parentElement;
  if (box && box !== document.body) box.scrollTop += el.getBoundingClientRect().top - box.getBoundingClientRect().top;
}"""


def cells(gm_link: str, db: str) -> list[str]:
    """The GM's notebook: join, two rolls at the table, the fight, its forecast."""
    return [
        "%load_ext tabletop_widgets",
        f"%table open {gm_link} --db {db}",
        f"from tabletop_widgets.dice import RollTable\n{WEATHER}\n%roll --table weather",
        "%roll --table 2d6+1",
        "from tabletop_widgets import get_system\n"
        "from tabletop_widgets.widgets.lobby import sample_character\n"
        "fight = table.combat\n"
        'fight.add_table_character("c1")\n'
        'fight.add_table_character("c2")\n'
        f'goblin = sample_character(get_system("ret"), "{NPC}")\n'
        'goblin.is_npc, goblin.npc_tier, goblin.health = True, "mook", 2  # wounded; down at 0\n'
        'fight.add("goblin", goblin)\n'
        "fight.roll_initiative()\n"
        "fight.next_turn()\n"
        "print([fight.name(c) for c in fight.order], fight.round)",
        "from tabletop_widgets.core.combat.forecast import forecast\nforecast(fight)",
    ]


def _in_play(character) -> dict:
    return {**character.to_dict(), "phase": "play"}


def make_table(db):
    """Gail (GM), Pat (Aria, ``c1``) and Quinn (Boris, ``c2``), nobody in a fight yet."""
    ret = get_system("ret")
    store = open_store(str(db))
    try:
        return create_table(
            store,
            "ret",
            [
                SeatSpec("gm", "gm", "Gail"),
                SeatSpec("p1", "player", "Pat", "c1"),
                SeatSpec("p2", "player", "Quinn", "c2"),
            ],
            characters={"c1": _in_play(sample_character(ret, "Aria")), "c2": _in_play(sample_character(ret, "Boris"))},
            title="The ford at dusk",
        )
    finally:
        store.close()


def jupyter_home(tmp, source: list[str]):
    home = tmp / "jupyter"
    for sub in ("root", "settings", "workspaces", "config", "data", "runtime", "ipython"):
        (home / sub).mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in source]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, home / "root" / "play.ipynb")
    write_settings(home / "settings", "lab", "light")
    return home


def test_gm_runs_a_fight_from_jupyterlab_beside_two_players_on_voila(
    browser, tmp_path, screenshot_dir, watch_page, chromium_path
):
    db = tmp_path / "table.db"
    made = make_table(db)
    contexts = []
    with running(start_voila(tmp_path, db)) as (voila,):
        links = made.links(f"{voila.base}/voila/render/table.ipynb")
        players = {}
        for seat in ("p1", "p2"):
            context = open_context(browser, viewport={"width": 1100, "height": 1200})
            contexts.append(context)
            page = context.new_page()
            players[seat] = (page, watch_page(page))
            page.goto(links[seat], timeout=LOAD_TIMEOUT)
        for page, _ in players.values():
            expect(page.locator(".tt-table-view").first).to_be_visible(timeout=LOAD_TIMEOUT)

        home = jupyter_home(tmp_path, cells(links["gm"], str(db)))
        lab = JupyterServer("lab", home)
        try:
            context = open_context(browser, viewport={"width": 1400, "height": 1000})
            contexts.append(context)
            nb = context.new_page()
            watch = Watch(nb, lab.base)
            nb.goto(lab.url(), timeout=LOAD_TIMEOUT)
            expect(nb.locator(".jp-Notebook .jp-CodeCell").first).to_be_visible(timeout=LOAD_TIMEOUT)
            assert nb.evaluate("document.body.dataset.jpThemeLight") == "true"
            lab.wait_kernel_idle(timeout=LOAD_TIMEOUT / 1000)
            nb.locator(".jp-Notebook .jp-Cell").first.click()
            run_all(nb)

            code = nb.locator(".jp-Notebook .jp-CodeCell")
            expect(code).to_have_count(6, timeout=LOAD_TIMEOUT)
            # the forecast, last, once every cell before it ran
            shown = code.nth(5).locator(".tt-forecast-table")
            expect(shown).to_be_visible(timeout=RUN_TIMEOUT)
            for name in ("Aria", "Boris", NPC):
                expect(shown).to_contain_text(name)
            expect(code.nth(5)).to_contain_text("Out within")
            expect(code.nth(5)).to_contain_text("Expected length")
            assert re.search(r"\d+%", shown.inner_text()), shown.inner_text()
            mook = shown.locator("tbody tr", has_text=NPC).inner_text()
            assert re.search(r"(?<![<\d])[1-9]\d*%", mook), mook  # the wounded mook may well fall
            # a neat table: names to the left, figures to the right (not JupyterLab's own layout)
            align = "e => getComputedStyle(e).textAlign"
            assert shown.locator("tbody th").first.evaluate(align) == "left"
            assert shown.locator("tbody td").first.evaluate(align) == "right"
            # the seat's page, following the table: its tracker has the fight
            seat_page = code.nth(1).locator(".tt-table-view")
            expect(seat_page).to_be_visible(timeout=RUN_TIMEOUT)
            expect(seat_page.locator(".tt-table-tracker .tt-combatant")).to_have_count(3, timeout=RUN_TIMEOUT)
            # what the two rolls said in the notebook
            told = code.nth(2).locator(".tt-table-roll")
            expect(told).to_contain_text("Weather", timeout=RUN_TIMEOUT)
            weather = re.search(r"Weather\b.*?\b(Rain|Sun)\b", told.inner_text())
            assert weather, told.inner_text()
            rolled = code.nth(3).locator(".tt-table-roll")
            expect(rolled).to_contain_text("fair dice: roll ", timeout=RUN_TIMEOUT)
            total = re.search(r"(\d+)\s+\(at the table", rolled.inner_text())
            assert total and 3 <= int(total.group(1)) <= 13, rolled.inner_text()
            expect(code.nth(4).locator(".jp-OutputArea")).to_contain_text(NPC, timeout=RUN_TIMEOUT)
            for i in range(6):
                text = code.nth(i).locator(".jp-Cell-outputArea").inner_text()
                assert not any(w in text for w in ("Error displaying widget", "Traceback", "UsageError")), (i, text)

            # each player's page: both lines in the log, the fight in the tracker, no forecast
            for seat, (page, pwatch) in players.items():
                log = page.locator(".tt-table-log")
                expect(log).to_contain_text(weather.group(1), timeout=RUN_TIMEOUT)
                expect(log).to_contain_text("Weather", timeout=RUN_TIMEOUT)
                expect(log).to_contain_text("2d6+1", timeout=RUN_TIMEOUT)
                expect(log.locator("li", has_text="2d6+1").first).to_contain_text(total.group(1))
                tracker = page.locator(".tt-table-tracker")
                expect(tracker.locator(".tt-combatant")).to_have_count(3, timeout=RUN_TIMEOUT)
                for name in ("Aria", "Boris", NPC):
                    expect(tracker).to_contain_text(name)
                expect(tracker.locator(".tt-combatant.tt-current")).to_have_count(1, timeout=RUN_TIMEOUT)
                assert page.locator(".tt-forecast, .tt-forecast-table, .tt-forecast-box .tt-forecast-fold").count() == 0
                body = page.locator("body").inner_text()
                assert "Out within" not in body and "Expected length" not in body, seat
                assert [p for p in pwatch.problems() if "/voila/api/shutdown/" not in p] == [], seat

            # screenshots: the notebook from the end of the seat's page down to the forecast
            # (the notebook scrolls inside its own panel: the window is made tall enough first),
            # and Pat's page: the fight and the log from the weather's line on
            nb.set_viewport_size({"width": 1400, "height": 1250})
            code.nth(5).evaluate("el => el.scrollIntoView({block: 'end'})")
            nb.wait_for_timeout(500)
            nb.screenshot(path=str(screenshot_dir / "notebook_gm.png"))
            pat = players["p1"][0]
            pat.locator(".tt-table-log li", has_text="Weather").first.evaluate(SCROLL_LOG_TO)
            pat.wait_for_timeout(500)
            view = pat.viewport_size
            pat.screenshot(
                path=str(screenshot_dir / "notebook_player.png"),
                clip={"x": 0, "y": 0, "width": view["width"], "height": 780},
            )

            if watch.other_errors:
                print("console errors not from this package:", *watch.other_errors, sep="\n  ")
            assert watch.errors == [], "\n\n".join(watch.errors)
        finally:
            for context in contexts:
                context.close()
            lab.stop()


# -- the forecast in a notebook, without a browser -----------------------------------------------
def _fight():
    ret = get_system("ret")
    combat = Combat(ret)
    goblin = sample_character(ret, "Grik <the> Goblin")
    goblin.is_npc, goblin.npc_tier = True, "mook"
    combat.add("a", sample_character(ret, "Aria"))
    combat.add("g", goblin)
    combat.add("h", sample_character(ret, "Shade"), hidden=True)
    return combat


def test_a_forecast_shows_itself_as_a_table_in_both_languages_and_themes():
    f = forecast(_fight())
    shown = f._repr_html_()
    assert shown == f.html("en")
    assert '<table class="tt-forecast-table">' in shown
    assert "Out within" in shown and "1 round" in shown and "3 rounds" in shown and "Expected length" in shown
    assert "Grik &lt;the&gt; Goblin" in shown and "<the>" not in shown  # names are escaped
    assert 'class="tt-forecast-hidden">hidden<' in shown  # the hidden one is marked (GM only)
    assert shown.count("<tr>") == 2 + len(f.rows)  # two header rows, one per combatant
    # its colours are the theme's roles: light fallbacks, dark values under a dark theme
    assert "<style>" in shown and "var(--tt-ink" in shown and 'body[data-jp-theme-light="false"]' in shown
    ru = f.html("ru")
    assert "Участник" in ru and "Выбудет за" in ru and "1 раунд" in ru and "2 раунда" in ru
    assert "Ожидаемая длина боя" in ru and "скрыт" in ru and "Out within" not in ru
    assert f.html("fr") == shown  # an unknown language falls back to English
    assert "Aria" in f.text() and "Expected length" in f.text() and "Ожидаемая" in f.text("ru")
    # the fight that is over says so
    over = Combat(get_system("ret"))
    over.add("a", sample_character(get_system("ret"), "Aria"))
    assert "The fight is over" in forecast(over).html()
