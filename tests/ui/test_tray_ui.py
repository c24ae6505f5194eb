"""The dice tray page (notebooks/gallery/tray.ipynb) in a real Voila + Chromium, per system.

One page load per system: the chance shown for a check equals ``SYSTEM.chance()`` (as the
exact fraction in the tooltip and as the rounded percentage), a click rolls and shows the
result with its dice and a spoken announcement, Enter in the notation box rolls, and a
screenshot of the tray is saved.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core import ValidationError
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.widgets.tray import DiceTray, percent_text
from tabletop_widgets.widgets.tray_text import css_id as _css_id
from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
ROLL_TIMEOUT = 30_000


#: Records whether the dice ever enter the "rolling" state (reset before each roll).
WATCH_ROLLING = """() => {
  window.__ttRolled = false;
  const el = document.querySelector('.tt-dice-anim');
  if (window.__ttObserver) window.__ttObserver.disconnect();
  window.__ttObserver = new MutationObserver(() => {
    if (el.dataset.state === 'rolling') window.__ttRolled = true;
  });
  window.__ttObserver.observe(el, {attributes: true, attributeFilter: ['data-state']});
}"""


def sample_character(system):
    """The same mid-range character as notebooks/gallery/tray.ipynb builds."""
    values = {}
    defaults = system.Character().to_dict()
    for field in system.sheet.fields():
        if field.kind == "input" and field.min is not None and field.max is not None:
            lo, hi = system.Character.input_range(field.name, defaults)
            if hi - lo <= 20:  # a rules' scale, not an open cap (issue #19 bounds every number)
                values[field.name] = lo + (hi - lo) // 2
    extra = {"name": "Aria"} if "name" in system.Character.class_trait_names() else {}
    try:
        return system.Character(**extra, **values)
    except ValidationError:
        return system.Character(**extra)


def _pick_check(tray: DiceTray):
    """The first check of the first group, and (name, value, label) of a preset to select
    first when it shows no chance with the default options."""
    check = tray._groups[0][1][0]
    if tray.chance(check.id) is not None:
        return check, None
    for ctrl in tray.option_controls(check.id):
        if ctrl.spec.kind == "int" and ctrl.spec.choices:

            def odds(choice):  # the preset that gives the most telling picture: nearest 50%
                tray.set_option(ctrl.name, choice[0])
                p = tray.chance(check.id)
                return abs(p - Fraction(1, 2)) if p is not None else 1

            value, label = min(ctrl.spec.choices, key=odds)
            tray.set_option(ctrl.name, ctrl.spec.default)
            return check, (ctrl.name, value, tr(label, "en"))
    pytest.skip(f"{check.id}: no chance and no preset to choose")


@pytest.mark.parametrize("slug", available_systems())
def test_tray_chance_matches_system_and_roll_shows_result(slug, browser, voila_url, watch_page, screenshot_dir):
    system = get_system(slug)
    character = sample_character(system)
    model = DiceTray(character, system=system)
    check, preset = _pick_check(model)

    context = open_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/gallery/tray.ipynb?system={slug}", timeout=LOAD_TIMEOUT)
        tray = page.locator(".tt-dice-tray")
        expect(tray.locator(".tt-tray-title")).to_be_visible(timeout=LOAD_TIMEOUT)
        card = tray.locator(f".tt-check-{_css_id(check.id)}").first
        if len(model._groups) > 1:
            # the groups start folded, their cards not made: the player opens the check's group
            expect(card).to_have_count(0)
            headers = tray.locator(".tt-check-groups .jupyter-widget-Collapse-header")
            expect(headers).to_have_count(len(model._groups))
            _, checks = model._groups[model._group_of[check.id]]
            header = headers.nth(model._group_of[check.id])
            expect(header).to_contain_text(f"({len(checks)})")
            header.click()
        expect(card).to_be_visible(timeout=LOAD_TIMEOUT)

        if preset is not None:
            name, value, label = preset
            page.locator(f".tt-tray-situation .tt-option-{_css_id(name)} select").select_option(label=label)
            model.set_option(name, value)

        p = system.chance(character, check.id, **model.options_for(check.id))
        pill = card.locator(".tt-chance .tt-pill")
        expect(pill).to_have_attribute("data-fraction", f"{p.numerator}/{p.denominator}", timeout=ROLL_TIMEOUT)
        expect(pill.locator(".tt-chance-text")).to_have_text(percent_text(p))

        # a click on the check rolls it: the dice tumble, then settle; verdict, breakdown, and
        # the live region speaks
        page.evaluate(WATCH_ROLLING)
        card.locator(".tt-check-button").click()
        result = tray.locator(".tt-tray-result")
        expect(result.locator(".tt-result-head")).to_contain_text(tr(check.label, "en"), timeout=ROLL_TIMEOUT)
        expect(result.locator(".tt-dice-anim")).to_have_attribute("data-state", "settled", timeout=ROLL_TIMEOUT)
        live = result.locator(".tt-live[role=status][aria-live=polite]")
        expect(live).to_contain_text(tr(check.label, "en"), timeout=ROLL_TIMEOUT)
        expect(page.locator(".tt-roll-log li")).to_have_count(1, timeout=ROLL_TIMEOUT)

        assert page.evaluate("window.__ttRolled") is True

        # the notation box: Enter rolls; a reader who prefers reduced motion gets still dice
        page.emulate_media(reduced_motion="reduce")
        page.evaluate(WATCH_ROLLING)
        box = tray.locator(".tt-tray-notation input")
        box.fill("2d6+1 >= 5")
        box.press("Enter")
        expect(result.locator(".tt-result-head")).to_contain_text("2d6+1 >= 5", timeout=ROLL_TIMEOUT)
        expect(result.locator(".tt-anim-die")).to_have_count(2)
        expect(live).to_contain_text(re.compile(r"2d6 .*≥ 5"))
        expect(page.locator(".tt-roll-log li")).to_have_count(2, timeout=ROLL_TIMEOUT)
        expect(result.locator(".tt-dice-anim")).to_have_attribute("data-state", "settled")
        assert page.evaluate("window.__ttRolled") is False

        # keyboard: a check button takes the focus and Enter rolls it
        card.locator(".tt-check-button").focus()
        page.keyboard.press("Enter")
        expect(page.locator(".tt-roll-log li")).to_have_count(3, timeout=ROLL_TIMEOUT)
        expect(result.locator(".tt-result-head")).to_contain_text(tr(check.label, "en"), timeout=ROLL_TIMEOUT)

        page.wait_for_timeout(800)  # let the dice settle for the picture
        # Voila scrolls inside the page: make the viewport tall enough for the whole tray
        height = int(tray.bounding_box()["height"]) + 120
        page.set_viewport_size({"width": 1100, "height": max(900, height)})
        page.wait_for_timeout(300)
        tray.screenshot(path=str(screenshot_dir / f"tray_{slug}.png"))
        assert watch.problems() == []
    finally:
        context.close()
