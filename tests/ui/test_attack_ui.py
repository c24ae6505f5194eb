"""The tracker's Attack part on the play pages, in a real Voila server and Chromium: the GM selects
a combatant and opens Attack, the odds show before the roll (the chance to hit and a bar per damage
amount whose chances add up to the whole), Attack rolls and the log shows the line the tracker
wrote. One page per system (light, wide), and the RET page in Voila's dark theme and on a 390 px
phone, where nothing of the panel may stick out of the screen. Screenshots of the tracker go to
``docs/screenshots/tracker_attack_*.png`` with ``TT_SCREENSHOTS=1``."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from tabletop_widgets.widgets.tracker_attack import TEXTS as ATTACK_TEXTS
from conftest import open_context
from test_phone_ui import FIT_JS

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 300_000  # a play page on a loaded 2-core machine can take minutes
STEP_TIMEOUT = 60_000
PLAY = ["ret", "seasons", "life_and_death", "threads_of_fate"]
PERCENT = re.compile(r"^(<0\.1|>99\.9|\d{1,3}(\.\d)?)%$")


def _attack_on_the_play_page(page, voila_url, slug: str, *, theme: str = "light"):
    """Open play_<slug> and attack with the combatant the page selected; returns the tracker."""
    query = "?theme=dark" if theme == "dark" else ""
    page.goto(f"{voila_url}/voila/render/play_{slug}.ipynb{query}", timeout=LOAD_TIMEOUT)
    tracker = page.locator(".tt-tracker")
    expect(tracker.locator(".tt-round-number")).to_have_text(re.compile(r"\d"), timeout=LOAD_TIMEOUT)
    attacker = tracker.locator(".tt-selected-name").inner_text().strip()
    assert attacker, "the play page selects a combatant"

    # folded until the GM opens it: nothing of it in the page before
    expect(tracker.locator(".tt-attack-panel")).to_have_count(0)
    header = tracker.locator(".tt-attack-fold .jupyter-widget-Collapse-header")
    expect(header).to_contain_text(ATTACK_TEXTS["section"]["en"])
    header.click()
    panel = tracker.locator(".tt-attack-panel")
    expect(panel).to_be_visible(timeout=STEP_TIMEOUT)
    target = panel.locator(".tt-attack-target select")
    expect(target).to_be_visible()
    # ipywidgets draws a select's spaces as no-break spaces (to keep them): the name as the log writes it
    target_name = target.locator("option:checked").inner_text().replace("\xa0", " ").strip()
    expect(panel.locator(".tt-attack-choice select option").first).to_be_attached()

    # the odds before the roll
    hit = panel.locator(".tt-attack-odds .tt-odds-hit .tt-odds-value")
    expect(hit).to_have_text(PERCENT, timeout=STEP_TIMEOUT)
    bars = panel.locator(".tt-attack-chart .tt-dmg-col")
    expect(bars.first).to_be_visible()
    fractions = [bars.nth(i).get_attribute("data-fraction") for i in range(bars.count())]
    assert sum(Fraction(f) for f in fractions) <= 1 and sum(Fraction(f) for f in fractions) > Fraction(99, 100)

    # Attack: rolled in the kernel, applied, and a new newest line in the log says so (the page's
    # own fight may have left an attack line of the same two there already)
    newest = tracker.locator(".tt-tracker-log li").first
    before = newest.inner_text().strip()
    panel.locator(".tt-attack-go").click()
    expect(newest).not_to_have_text(before, timeout=STEP_TIMEOUT)
    expect(newest).to_contain_text(re.compile(f"{re.escape(attacker)} (hits|misses) {re.escape(target_name)}"))
    # the status line, in view, says the same sentence (white space aside: the log wraps it)
    status = tracker.locator(".tt-tracker-status .tt-msg")
    expect(status).to_contain_text(re.compile(f"{re.escape(attacker)} (hits|misses) {re.escape(target_name)}"))
    assert " ".join(status.inner_text().split()) in " ".join(newest.inner_text().split())
    # the dice on demand: folded under the sentence, opened by a click
    fold = newest.locator("details.tt-attack-dice")
    expect(fold.locator("summary")).to_have_text("Dice")
    fold.locator("summary").click()
    expect(fold.locator("div").first).to_be_visible()
    box = status.bounding_box()
    assert box and box["width"] > 100 and box["height"] > 10, f"the status line is not in view: {box}"
    expect(tracker.locator(".tt-tracker-status .tt-error")).to_have_count(0)
    # the odds are drawn again for the characters as they are now
    expect(hit).to_have_text(PERCENT)
    return tracker


def _shoot(page, element, path) -> None:
    """A screenshot of ``element`` whole: the page is made tall enough to hold it first (Voila
    scrolls inside its own box, where a taller element comes out cut)."""
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 2400})
    page.wait_for_timeout(500)
    element.screenshot(path=str(path))
    page.set_viewport_size(size)


@pytest.mark.parametrize("slug", PLAY)
def test_the_gm_attacks_on_a_play_page(browser, voila_url, watch_page, screenshot_dir, slug):
    context = open_context(browser, viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    watch = watch_page(page)
    try:
        tracker = _attack_on_the_play_page(page, voila_url, slug)
        _shoot(page, tracker, screenshot_dir / f"tracker_attack_{slug}.png")
        assert watch.problems() == []
    finally:
        context.close()


def test_the_attack_part_in_the_dark_theme(browser, voila_url, watch_page, screenshot_dir):
    context = open_context(browser, viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    watch = watch_page(page)
    try:
        tracker = _attack_on_the_play_page(page, voila_url, "ret", theme="dark")
        assert page.evaluate("document.body.dataset.jpThemeLight") == "false"
        # the figures are light ink on the dark theme's surfaces, not dark on dark
        ink = tracker.locator(".tt-odds-hit .tt-odds-value").evaluate("e => getComputedStyle(e).color")
        channels = [int(c) for c in re.findall(r"\d+", ink)[:3]]
        assert sum(channels) / 3 > 160, f"the chance to hit is drawn in {ink} on the dark theme"
        _shoot(page, tracker, screenshot_dir / "tracker_attack_dark.png")
        assert watch.problems() == []
    finally:
        context.close()


def test_the_attack_part_on_a_phone(browser, voila_url, watch_page, screenshot_dir):
    context = open_context(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    watch = watch_page(page)
    try:
        tracker = _attack_on_the_play_page(page, voila_url, "ret")
        fit = page.evaluate(FIT_JS)
        # the part and the status line that says what the attack did (a long line: the dice)
        ours = ("tt-attack", "tt-dmg", "tt-odds", "tt-tracker-status", "tt-msg")
        panel = [w for w in fit["wide"] + fit["clipped"] if any(k in w for k in ours)]
        assert panel == [], "the Attack part does not fit a phone:\n" + "\n".join(panel)
        _shoot(page, tracker.locator(".tt-tracker-panel"), screenshot_dir / "phone_tracker_attack.png")
        assert watch.problems() == []
    finally:
        context.close()
