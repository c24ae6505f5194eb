"""The dice page (notebooks/dice.ipynb) rendered by a real Voila server in Chromium.

One page (one Voila kernel) for the whole module keeps the suite lean: the tests run in file
order against it, and the last one checks the console and the network for the whole visit.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from conftest import open_context

pytestmark = pytest.mark.ui

#: First render on a cold 2-core machine can take a while (kernel start + front-end boot).
LOAD_TIMEOUT = 120_000
ROLL_TIMEOUT = 30_000


@pytest.fixture(scope="module")
def dice(browser, voila_url, watch_page):
    context = open_context(browser, viewport={"width": 1000, "height": 760})
    page = context.new_page()
    watch = watch_page(page)
    page.goto(voila_url + "/voila/render/dice.ipynb", timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-notation input")).to_be_visible(timeout=LOAD_TIMEOUT)
    yield page, watch
    context.close()


def test_roll_shows_a_result_with_a_total(dice):
    page, _ = dice
    box = page.locator(".tt-notation input")
    box.fill("4d6kh3")
    page.locator(".tt-roll-button").click()
    result = page.locator(".tt-roll-result")
    expect(result).to_contain_text("4d6kh3", timeout=ROLL_TIMEOUT)
    total = int(result.locator(".tt-total").last.inner_text())
    assert 3 <= total <= 18
    expect(result.locator(".tt-die")).to_have_count(4)  # the breakdown: four dice, one dropped
    expect(result.locator(".tt-dropped")).to_have_count(1)
    expect(page.locator(".tt-roll-history li")).to_have_count(1)
    expect(page.locator(".tt-roll-error pre")).to_have_count(0)


def test_enter_rolls_and_history_is_newest_first(dice, screenshot_dir):
    page, _ = dice
    box = page.locator(".tt-notation input")
    box.fill("2d6+3 >= 8")
    box.press("Enter")
    history = page.locator(".tt-roll-history li")
    expect(history).to_have_count(2, timeout=ROLL_TIMEOUT)
    expect(history.first).to_contain_text(re.compile(r"^2d6 .*≥ 8"))
    expect(page.locator(".tt-roll-result")).to_contain_text(re.compile(r"≥ 8 → (pass|fail)"))
    box.fill("6#4d6kh3")
    page.locator(".tt-roll-button").click()
    expect(history).to_have_count(3, timeout=ROLL_TIMEOUT)
    expect(history.first).to_contain_text(re.compile(r"^6#4d6kh3: (\d+, ){5}\d+ \(total \d+\)$"))
    page.locator(".tt-roller").screenshot(path=str(screenshot_dir / "dice_page.png"))


def test_bad_expression_shows_the_error_with_a_caret(dice, screenshot_dir):
    page, _ = dice
    result_before = page.locator(".tt-roll-result").inner_text()
    page.locator(".tt-notation input").fill("4d6kh3 +* 2")
    page.locator(".tt-roll-button").click()
    error = page.locator(".tt-roll-error pre")
    expect(error).to_be_visible(timeout=ROLL_TIMEOUT)
    lines = error.inner_text().splitlines()
    assert lines[0].strip() == "4d6kh3 +* 2"
    assert lines[1].strip() == "^"
    # nothing else changed
    expect(page.locator(".tt-roll-history li")).to_have_count(3)
    assert page.locator(".tt-roll-result").inner_text() == result_before
    page.locator(".tt-roller").screenshot(path=str(screenshot_dir / "dice_page_error.png"))
    # a good roll clears the error
    page.locator(".tt-notation input").fill("1d20")
    page.locator(".tt-roll-button").click()
    expect(error).to_have_count(0, timeout=ROLL_TIMEOUT)
    expect(page.locator(".tt-roll-history li")).to_have_count(4)


def test_locale_switch_to_russian(dice):
    page, _ = dice
    page.locator(".tt-locale").get_by_role("button", name="RU").click()
    expect(page.locator(".tt-roll-button")).to_have_text("Бросить", timeout=ROLL_TIMEOUT)
    expect(page.locator(".tt-roll-history h3")).to_have_text("История")
    page.locator(".tt-locale").get_by_role("button", name="EN").click()
    expect(page.locator(".tt-roll-button")).to_have_text("Roll", timeout=ROLL_TIMEOUT)


def test_no_console_errors_or_failed_requests(dice):
    _, watch = dice
    assert watch.problems() == []
