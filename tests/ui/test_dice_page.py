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


#: The error box, the card it sits in, the marked character and its caret, measured in the page.
ERROR_BOX_JS = """() => {
  const card = document.querySelector('.tt-roller').getBoundingClientRect();
  const box = document.querySelector('.tt-roll-error-box');
  const b = box.getBoundingClientRect();
  const mark = document.querySelector('.tt-roll-error-line .tt-caret');
  const m = mark.getBoundingClientRect();
  const caret = getComputedStyle(mark, '::after');
  return {card: [card.left, card.right], box: [b.left, b.right], scroll: box.scrollWidth, client: box.clientWidth,
          mark: mark.textContent, markMid: (m.left + m.right) / 2, caret: caret.content, page: document.documentElement.scrollWidth,
          width: document.documentElement.clientWidth};
}"""


def _error_stays_in_its_card(page):
    """The error box inside the roller's card, nothing scrolling sideways, the caret drawn under
    the marked character."""
    got = page.evaluate(ERROR_BOX_JS)
    assert got["card"][0] - 0.5 <= got["box"][0] and got["box"][1] <= got["card"][1] + 0.5, got
    assert got["scroll"] <= got["client"] + 1, got
    assert got["page"] <= got["width"], got
    assert got["caret"] == '"^"', got
    return got


def test_bad_expression_shows_the_error_with_a_caret(dice, screenshot_dir):
    page, _ = dice
    result_before = page.locator(".tt-roll-result").inner_text()
    page.locator(".tt-notation input").fill("4d6kh3 +* 2")
    page.locator(".tt-roll-button").click()
    error = page.locator(".tt-roll-error .tt-roll-error-box")
    expect(error).to_be_visible(timeout=ROLL_TIMEOUT)
    expect(error.locator(".tt-roll-error-msg")).to_contain_text("unexpected '*'")
    expect(error.locator(".tt-roll-error-line")).to_have_text("4d6kh3 +* 2")
    assert _error_stays_in_its_card(page)["mark"] == "*"
    # nothing else changed
    expect(page.locator(".tt-roll-history li")).to_have_count(3)
    assert page.locator(".tt-roll-result").inner_text() == result_before
    page.locator(".tt-roller").screenshot(path=str(screenshot_dir / "dice_page_error.png"))
    # a good roll clears the error
    page.locator(".tt-notation input").fill("1d20")
    page.locator(".tt-roll-button").click()
    expect(error).to_have_count(0, timeout=ROLL_TIMEOUT)
    expect(page.locator(".tt-roll-history li")).to_have_count(4)


def test_prob_gives_the_exact_odds(dice):
    """``--prob 2d6+1 >= 8`` used to fail with "unknown word 'prob'" (and overflow the card)."""
    page, _ = dice
    page.locator(".tt-notation input").fill("--prob 2d6+1 >= 8")
    page.locator(".tt-roll-button").click()
    result = page.locator(".tt-roll-result")
    expect(result.locator(".tt-dist")).to_be_visible(timeout=ROLL_TIMEOUT)
    expect(result.locator(".tt-pchance")).to_contain_text("58.33%")
    expect(result.locator(".tt-roll-typed")).to_have_text("--prob 2d6+1 >= 8")
    expect(page.locator(".tt-roll-error .tt-roll-error-box")).to_have_count(0)
    expect(page.locator(".tt-roll-history li").first).to_have_text("--prob 2d6+1 >= 8: chance to pass 58.33%")


def test_the_echo_says_what_was_typed_and_what_it_means(dice):
    """``1d20+5 adv vs 15`` used to be echoed as ``2d20kh1`` only."""
    page, _ = dice
    page.locator(".tt-roll-example", has_text="1d20+5 adv vs 15").click()
    result = page.locator(".tt-roll-result")
    expect(result.locator(".tt-roll-typed")).to_have_text("1d20+5 adv vs 15", timeout=ROLL_TIMEOUT)
    expect(result.locator(".tt-roll-means")).to_contain_text("two d20, the higher counts (2d20kh1)")
    expect(result.locator(".tt-roll-odds")).to_contain_text("chance to pass 79.75%")
    expect(result.locator(".tt-roll-command code")).to_have_text("%roll 1d20+5 adv vs 15")
    expect(page.locator(".tt-roll-history li").first).to_contain_text(re.compile(r"^1d20\+5 adv vs 15 → 2d20kh1"))


def test_locale_switch_to_russian(dice):
    page, _ = dice
    page.locator(".tt-locale").get_by_role("button", name="RU").click()
    expect(page.locator(".tt-roll-button")).to_have_text("Бросить", timeout=ROLL_TIMEOUT)
    expect(page.locator(".tt-roll-history h3")).to_have_text("История")
    page.locator(".tt-locale").get_by_role("button", name="EN").click()
    expect(page.locator(".tt-roll-button")).to_have_text("Roll", timeout=ROLL_TIMEOUT)


LONG_BAD = "--seed 3 1d20 + 4d6kh3 + 2d8 + 1d12 + 3d4 + 1d10 + 12d6 + 44x + 1d100 + 4d6kh3 + 2d8 + 1d6"


@pytest.mark.parametrize("width", [1000, 390], ids=["desktop", "phone"])
def test_a_long_bad_line_wraps_inside_its_card_with_the_caret_under_the_spot(
    browser, voila_url, watch_page, screenshot_dir, width
):
    """The error of a long line used to run out of the card on a desktop: the message and the
    line wrap, and the caret stays under the bad character, on a desktop and a 390 px phone."""
    context = open_context(browser, viewport={"width": width, "height": 844})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(voila_url + "/voila/render/dice.ipynb?theme=dark", timeout=LOAD_TIMEOUT)
        box = page.locator(".tt-notation input")
        expect(box).to_be_visible(timeout=LOAD_TIMEOUT)
        box.fill(LONG_BAD)
        box.press("Enter")
        expect(page.locator(".tt-roll-error .tt-roll-error-box")).to_be_visible(timeout=ROLL_TIMEOUT)
        got = _error_stays_in_its_card(page)
        assert got["mark"] == "x", got
        # a flag's error too, in Russian
        page.locator(".tt-locale").get_by_role("button", name="RU").click()
        box.fill("--prob 2d6+1 >= 8 " + "+ 1d6 " * 20 + "--nope")
        box.press("Enter")
        expect(page.locator(".tt-roll-error-msg")).to_contain_text("неизвестное слово", timeout=ROLL_TIMEOUT)
        _error_stays_in_its_card(page)
        box.fill("--nope 3d6")
        box.press("Enter")
        expect(page.locator(".tt-roll-error-msg")).to_contain_text("неизвестный флаг --nope", timeout=ROLL_TIMEOUT)
        assert _error_stays_in_its_card(page)["mark"] == "-"
        if width == 390:
            page.locator(".tt-roller").screenshot(path=str(screenshot_dir / "phone_dice_error_dark.png"))
        assert watch.problems() == []
    finally:
        context.close()


def test_no_console_errors_or_failed_requests(dice):
    _, watch = dice
    assert watch.problems() == []
