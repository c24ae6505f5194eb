"""The creation wizard in Voila and Chromium (issue #17): on each system's play page a new player
presses "Make a new character" and completes the wizard from a blank character to the finished
character on the page's sheet, typing, picking and clicking in the real widgets; and at a shared
table a player makes their character on their seat while the GM's page shows it finished.

The test is generic: on each step it reads the fields the page shows (each field's element
carries the sheet's ``tt-field-<trait>`` and ``tt-kind-<kind>`` classes) and fills those the
finished sample (``tests/creation_samples.py``) sets, so it keeps working when a system's own
steps replace the default ones. Screenshots: a middle step of each system's wizard (one with a
budget when the steps show one), one in the dark theme and one on a 390 px phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from conftest import open_context
from creation_samples import SAMPLES, sample_values
from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, create_table, open_store
from tabletop_widgets.widgets.sheet_context import SheetContext, choice_options

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000


# ------------------------------------------------------------------------------------------------
# filling a field the way a player does
# ------------------------------------------------------------------------------------------------
def _label(system, field, value: Any) -> str:
    """The text a player picks for ``value`` in ``field``'s list (English)."""
    ctx = SheetContext(system.Character(), system, locale="en")
    for label, v in choice_options(ctx, field):
        if v == value:
            return label
    return str(value)


def _fill_item(system, form, item_fields, item: Any) -> None:
    if not item_fields:  # a list of plain texts
        box = form.locator(".tt-item-text input")
        box.fill(str(item))
        box.press("Enter")
        return
    by_name = {f.name: f for f in item_fields}
    for key, value in item.items():
        f = by_name.get(key)
        if f is None or value is None:
            continue
        control = form.locator(f".tt-item-{key}")
        if f.kind == "choice" and not f.free_text and not f.multiple:
            control.locator("select").select_option(label=_label(system, f, value))
        elif f.kind == "flag":
            control.locator("input").set_checked(bool(value))
        elif f.kind == "longtext":
            control.locator("textarea").fill(str(value))
        else:
            control.locator("input").fill(str(value))


def fill_field(page, system, element, name: str, value: Any) -> None:
    """Type, pick or click ``value`` into the field ``element`` shows (the sheet's view)."""
    field = system.sheet.field(name)
    kind = field.kind
    if kind == "list":
        for item in value:
            element.locator(".tt-list-new").click()
            form = element.locator(".tt-item-form")
            expect(form).to_be_visible(timeout=STEP_TIMEOUT)
            _fill_item(system, form, field.item_fields, item)
            form.locator(".tt-item-save").click()
            expect(form).to_be_hidden(timeout=STEP_TIMEOUT)
    elif kind == "mapping":
        for key, number in value.items():
            element.locator(".tt-map-key input").fill(str(key))
            element.locator(".tt-map-value input").fill(str(number))
            element.locator(".tt-map-add").click()
            expect(element.locator(".tt-map-key input")).to_have_value("", timeout=STEP_TIMEOUT)
    elif kind == "flag":
        element.locator("input[type=checkbox]").set_checked(bool(value))
    elif kind == "choice" and not field.free_text:
        element.locator("select").first.select_option(label=_label(system, field, value))
    elif kind == "longtext":
        box = element.locator("textarea").first
        box.fill(str(value))
        box.press("Tab")
    elif kind == "resource":
        box = element.locator(".tt-res-current input").first
        box.fill(str(value))
        box.press("Enter")
    else:  # numbers, texts, a choice one may also type
        box = element.locator(".tt-control input").first
        box.fill(str(value))
        box.press("Enter")


def shown_fields(wizard) -> list[tuple[str, Any]]:
    """``(trait, element)`` of each field the wizard's current step shows, from the page."""
    out = []
    fields = wizard.locator(".tt-wizard-fields > .widget-box > .tt-wizard-field, .tt-wizard-fields .tt-wizard-field")
    for i in range(fields.count()):
        element = fields.nth(i)
        classes = (element.get_attribute("class") or "").split()
        names = [c[len("tt-field-") :] for c in classes if c.startswith("tt-field-")]
        if names:
            out.append((names[0], element))
    return out


def complete_wizard(page, system, wizard, *, shoot=None) -> list[str]:
    """Fill every step from the system's sample and finish; ``shoot(index, total, has_budget,
    filled)`` is called on each step once its fields are filled. Returns the step ids walked."""
    values = sample_values(system)
    where = wizard.locator(".tt-wizard-where")
    walked = []
    done: set[str] = set()  # a field two steps show (RET's abilities) is filled once, as a player does
    while True:
        expect(where).to_be_visible(timeout=STEP_TIMEOUT)
        index, total = int(where.get_attribute("data-index")), int(where.get_attribute("data-total"))
        walked.append(where.get_attribute("data-step"))
        expect(where).to_contain_text(f"Step {index} of {total}")
        filled = 0
        for name, element in shown_fields(wizard):
            if name in values and name not in done:
                fill_field(page, system, element, name, values[name])
                done.add(name)
                filled += 1
        if shoot is not None:
            shoot(index, total, wizard.locator(".tt-wizard-budget").count() > 0, filled)
        if index == total:
            break
        wizard.locator(".tt-wizard-next").click()
        try:
            expect(where).to_have_attribute("data-index", str(index + 1), timeout=STEP_TIMEOUT)
        except AssertionError:
            raise AssertionError(
                f"{system.slug}: Next refused on step {walked[-1]}: {wizard.locator('.tt-wizard-message').inner_text()}"
            ) from None
    wizard.locator(".tt-wizard-finish").click()
    return walked


# ------------------------------------------------------------------------------------------------
# the play pages
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", sorted(SAMPLES))
def test_a_new_player_makes_a_character_on_the_play_page(browser, voila_url, watch_page, screenshot_dir, slug):
    system = get_system(slug)
    context = open_context(browser, viewport={"width": 1240, "height": 1000})
    page = context.new_page()
    watch = watch_page(page)
    shots = {}

    def shoot(index, total, has_budget, filled):
        # a middle step that shows the most: one with a budget, else one the sample filled in
        if 1 < index < total or total == 1:
            rank = (has_budget, filled > 0, -abs(index - (total + 1) / 2))
            if "rank" not in shots or rank > shots["rank"]:
                shots.update(rank=rank, png=page.locator(".tt-wizard").screenshot())

    try:
        page.goto(f"{voila_url}/voila/render/play_{slug}.ipynb", timeout=LOAD_TIMEOUT)
        start = page.locator(".tt-new-character .tt-new-start")
        expect(start).to_have_text("Make a new character", timeout=LOAD_TIMEOUT)
        start.click()
        wizard = page.locator(".tt-new-character .tt-wizard")
        expect(wizard).to_be_visible(timeout=STEP_TIMEOUT)
        expect(wizard.locator(".tt-wizard-where")).to_contain_text("Step 1 of", timeout=STEP_TIMEOUT)
        # Next on a blank first step says what is missing, in words
        if wizard.locator(".tt-wizard-todo").count():
            wizard.locator(".tt-wizard-next").click()
            expect(wizard.locator(".tt-wizard-message [role=alert]")).to_contain_text("Not yet")
        walked = complete_wizard(page, system, wizard, shoot=shoot)
        assert len(walked) >= 2 and "png" in shots
        (screenshot_dir / f"wizard_{slug}.png").write_bytes(shots["png"])
        name = SAMPLES[slug]["name"]
        sheet = page.locator(".tt-play-sheet-area .tt-sheet")
        expect(sheet.locator(".tt-sheet-title h2")).to_have_text(name, timeout=STEP_TIMEOUT)
        expect(sheet.locator(".tt-sheet-phase .tt-phase")).to_have_text("In play")
        expect(sheet.locator(".tt-sheet-problems")).to_contain_text("No problems found")
        expect(page.locator(".tt-new-character .tt-new-done")).to_contain_text(f"{name} is finished")
        expect(wizard).to_have_count(0)
        assert watch.problems() == []
    finally:
        context.close()


def test_the_wizard_in_the_dark_theme_and_on_a_phone(browser, voila_url, watch_page, screenshot_dir):
    context = open_context(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/play_threads_of_fate.ipynb", timeout=LOAD_TIMEOUT)
        page.locator(".tt-new-character .tt-new-start").click(timeout=LOAD_TIMEOUT)
        wizard = page.locator(".tt-new-character .tt-wizard")
        expect(wizard.locator(".tt-wizard-where")).to_contain_text("Step 1 of", timeout=STEP_TIMEOUT)
        name = wizard.locator(".tt-field-name input")
        name.fill("Rook")
        name.press("Enter")
        wizard.locator(".tt-wizard-next").click()
        expect(wizard.locator(".tt-wizard-where")).to_contain_text("Step 2 of", timeout=STEP_TIMEOUT)
        # nothing sticks out sideways at 390 px; every control is reached by the keyboard
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 392, f"the page is {width} px wide on a 390 px phone"
        box = wizard.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 391
        # (both buttons are enabled by the step's update, which a loaded machine may deliver late)
        expect(wizard.locator(".tt-wizard-back")).to_be_enabled(timeout=STEP_TIMEOUT)
        expect(wizard.locator(".tt-wizard-next")).to_be_enabled(timeout=STEP_TIMEOUT)
        wizard.locator(".tt-wizard-back").focus()
        assert page.evaluate("document.activeElement.closest('.tt-wizard-back') !== null"), "Back takes focus"
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.closest('.tt-wizard-next') !== null")
        assert focused, "Tab from Back reaches Next"
        page.keyboard.press("Enter")
        expect(wizard.locator(".tt-wizard-where")).to_contain_text("Step 3 of", timeout=STEP_TIMEOUT)
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")  # Back, by the keyboard
        expect(wizard.locator(".tt-wizard-where")).to_contain_text("Step 2 of", timeout=STEP_TIMEOUT)
        wizard.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(screenshot_dir / "phone_wizard.png"))
        assert watch.problems() == []
    finally:
        context.close()

    context = open_context(browser, viewport={"width": 1000, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/play_seasons.ipynb?theme=dark", timeout=LOAD_TIMEOUT)
        page.locator(".tt-new-character .tt-new-start").click(timeout=LOAD_TIMEOUT)
        wizard = page.locator(".tt-new-character .tt-wizard")
        expect(wizard.locator(".tt-wizard-where")).to_contain_text("Step 1 of", timeout=STEP_TIMEOUT)
        ink = wizard.locator(".tt-wizard-explain h3").evaluate("e => getComputedStyle(e).color")
        channels = [int(x) for x in ink[ink.index("(") + 1 : ink.index(")")].split(",")[:3]]
        assert sum(channels) / 3 > 160, f"the step title is drawn in {ink} on the dark theme"
        wizard.screenshot(path=str(screenshot_dir / "wizard_dark.png"))
        assert watch.problems() == []
    finally:
        context.close()


# ------------------------------------------------------------------------------------------------
# at a shared table
# ------------------------------------------------------------------------------------------------
def test_a_player_makes_their_character_at_the_table(browser, voila_url, voila_db, watch_page, screenshot_dir):
    system = get_system("ret")
    store = open_store(str(voila_db))
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pavel", "c1")],
        characters={"c1": system.Character().to_dict()},
        validate_characters=False,
        title="Wizard night",
    )
    store.close()
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    context = open_context(browser, viewport={"width": 1240, "height": 1000})
    try:
        player, gm = context.new_page(), context.new_page()
        watch_player, watch_gm = watch_page(player), watch_page(gm)
        player.goto(links["p1"], timeout=LOAD_TIMEOUT)
        gm.goto(links["gm"], timeout=LOAD_TIMEOUT)
        wizard = player.locator(".tt-table-view .tt-creation .tt-wizard")
        expect(wizard).to_be_visible(timeout=LOAD_TIMEOUT)  # the seat opens on the wizard, no click
        complete_wizard(player, system, wizard)
        expect(wizard).to_have_count(0, timeout=STEP_TIMEOUT)
        sheet = player.locator(".tt-table-sheet-area .tt-sheet")
        expect(sheet.locator(".tt-sheet-phase .tt-phase")).to_have_text("In play", timeout=STEP_TIMEOUT)
        player.screenshot(path=str(screenshot_dir / "table_player_wizard_done.png"))

        # the GM's page follows: the character's sheet says it is in play
        expect(gm.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
        gm.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Characters").click()
        gm_sheet = gm.locator(".tt-table-sheets .tt-sheet").first
        expect(gm_sheet.locator(".tt-sheet-title h2")).to_have_text(SAMPLES["ret"]["name"], timeout=STEP_TIMEOUT)
        expect(gm_sheet.locator(".tt-sheet-phase .tt-phase")).to_have_text("In play", timeout=STEP_TIMEOUT)
        assert watch_player.problems() == [] and watch_gm.problems() == []
    finally:
        context.close()
