"""The frame first, the parts filling in (``PageParts``): plain Python, no browser.

A frame shows a loading text until its part is built; ``start()`` on a running event loop
builds one part at a time, with a pause between two (other callbacks, such as the kernel answering the
browser's request for the widgets' states, run between two parts); a part that fails shows its
error in its frame and the others are still built."""

from __future__ import annotations

import asyncio
import threading

import ipywidgets as widgets
import pytest

from tabletop_widgets.widgets import PageParts, page_language, show_sheet
from tabletop_systems.ret import Character


def alone(fn):
    """Run ``fn()`` in a thread of its own, where no event loop runs (in a session that also
    runs the browser tests, Playwright's loop counts as running in the main thread) and where
    ``asyncio.run`` may start one; returns its result, raises its exception."""
    out: dict = {}

    def target():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised below, in the test's thread
            out["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the test's thread did not finish"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def _label(text):
    return lambda: widgets.Label(text)


def test_a_frame_says_loading_in_both_languages_until_its_part_is_built():
    parts = PageParts()
    box = parts.frame("sheet", _label("the sheet"))
    assert "tt-part" in box._dom_classes and "tt-part-sheet" in box._dom_classes
    assert "tt-part-loading" in box._dom_classes
    status, marker = box.children
    assert "Loading…" in status.value and not marker.shown and "Загрузка…" in status.value
    assert 'class="tt-lang-en"' in status.value and 'class="tt-lang-ru"' in status.value
    assert not parts.done
    with pytest.raises(KeyError):
        parts.part("sheet")


def test_a_frame_of_a_page_with_one_language_says_it_in_that_language():
    box = PageParts(locale="ru").frame("tray", _label("x"))
    assert box.children[0].value == "Загрузка…"


def test_start_without_a_running_loop_builds_every_part_at_once():
    parts = PageParts()
    a = parts.frame("a", _label("A"))
    b = parts.frame("b", _label("B"))
    status, marker = a.children
    done = []
    parts.on_done(lambda: done.append(True))
    alone(parts.start)
    assert parts.done and done == [True]
    assert [w.value for w in a.children + b.children] == ["A", "B"]
    assert parts.part("a") is a.children[0]
    assert "tt-part-loading" not in a._dom_classes and "tt-part-a" in a._dom_classes
    assert status.comm is None and marker.comm is None  # their models are closed, not left behind


def test_on_a_running_loop_one_part_is_built_at_a_time_and_others_run_between():
    order: list[str] = []

    def build(name):
        def make():
            order.append(f"build {name}")
            return widgets.Label(name)

        return make

    async def page():
        parts = PageParts()
        boxes = [parts.frame(name, build(name)) for name in ("sheet", "tray", "tracker")]
        for box in boxes:
            drawn(box)
        loop = asyncio.get_running_loop()
        parts.start()  # the last cell: nothing is built while it runs
        order.append("cell ends")
        for k in range(3):  # what the kernel does meanwhile (answer the browser)
            loop.call_soon(order.append, f"answer {k}")
        finished = loop.create_future()
        parts.on_done(lambda: finished.set_result(True))
        await asyncio.wait_for(finished, 10)
        return boxes, parts

    boxes, parts = alone(lambda: asyncio.run(page()))
    assert order[0] == "cell ends"
    builds = [i for i, what in enumerate(order) if what.startswith("build")]
    assert [order[i] for i in builds] == ["build sheet", "build tray", "build tracker"]
    # something else ran between the first part and the last: the loop was not held
    assert any(what.startswith("answer") for what in order[builds[0] : builds[-1]])
    assert [b.children[0].value for b in boxes] == ["sheet", "tray", "tracker"]
    assert parts.done


def test_a_part_that_fails_shows_its_error_and_the_others_are_still_built():
    def broken():
        raise ValueError("no such character")

    parts = PageParts()
    bad = parts.frame("sheet", broken)
    good = parts.frame("tray", _label("tray"))
    alone(parts.start)
    (shown,) = bad.children
    assert "tt-part-failed" in bad._dom_classes and "tt-part-loading" not in bad._dom_classes
    assert "could not be built" in shown.value and "не удалось построить" in shown.value
    assert "ValueError: no such character" in shown.value
    assert 'role="alert"' in shown.value
    assert isinstance(parts.errors["sheet"], ValueError)
    assert good.children[0].value == "tray" and parts.done


def test_an_error_text_is_escaped():
    def broken():
        raise RuntimeError("<img src=x onerror=alert(1)>")

    parts = PageParts(locale="en")
    box = parts.frame("x", broken)
    parts.build_all()
    assert "<img" not in box.children[0].value and "&lt;img" in box.children[0].value


def test_names_are_unique_and_frames_come_before_start():
    parts = PageParts()
    parts.frame("a", _label("A"))
    with pytest.raises(ValueError, match="already exists"):
        parts.frame("a", _label("again"))
    alone(parts.start)
    with pytest.raises(RuntimeError, match="before start"):
        parts.frame("b", _label("B"))


def test_a_real_sheet_built_later_is_the_same_sheet():
    page_language()
    hero = Character(name="Vera Lind")
    parts = PageParts()
    box = parts.frame("sheet", lambda: show_sheet(hero))
    alone(parts.start)
    sheet = parts.part("sheet")
    assert box.children == (sheet,) and "tt-sheet" in sheet._dom_classes


def drawn(box):
    """What the browser sends once it has drawn ``box`` (a frame): its marker says so (the same
    message a forged one would be)."""
    marker = box.children[-1]
    marker._handle_msg({"content": {"data": {"method": "update", "state": {"shown": True}}}, "buffers": []})


def test_on_a_loop_a_built_part_waits_for_the_browser_to_draw_its_frame():
    """An update of a frame the browser has not made yet is dropped: a part goes into its frame
    only once the frame's marker says the browser drew it."""
    events: list[str] = []

    async def page():
        parts = PageParts()
        boxes = [parts.frame(name, _label(name)) for name in ("sheet", "tray")]
        for box in boxes:
            box.observe(lambda ch, box=box: events.append(f"filled {box._dom_classes[1]}"), names="children")
        parts.start()
        await asyncio.sleep(0.3)  # both are built by now
        assert parts.part("sheet").value == "sheet" and parts.part("tray").value == "tray"
        assert events == [] and not parts.done  # nothing drawn yet: held
        drawn(boxes[1])
        assert events == ["filled tt-part-tray"]
        drawn(boxes[0])
        assert events == ["filled tt-part-tray", "filled tt-part-sheet"] and parts.done
        return boxes

    boxes = alone(lambda: asyncio.run(page()))
    assert [b.children[0].value for b in boxes] == ["sheet", "tray"]


def test_a_frame_drawn_before_its_part_is_built_takes_the_part_at_once():
    async def page():
        parts = PageParts()
        box = parts.frame("sheet", _label("sheet"))
        drawn(box)  # a quick browser
        parts.start()
        finished = asyncio.get_running_loop().create_future()
        parts.on_done(lambda: finished.set_result(True))
        await asyncio.wait_for(finished, 10)
        return box

    assert alone(lambda: asyncio.run(page())).children[0].value == "sheet"


def test_with_no_browser_the_parts_go_in_after_the_hold_limit(monkeypatch):
    from tabletop_widgets.widgets import page_parts

    monkeypatch.setattr(page_parts, "HOLD_LIMIT", 0.3)

    async def page():
        parts = PageParts()
        box = parts.frame("sheet", _label("sheet"))
        parts.start()
        await asyncio.sleep(0.1)
        held = box.children[0].value
        finished = asyncio.get_running_loop().create_future()
        parts.on_done(lambda: finished.set_result(True))
        await asyncio.wait_for(finished, 10)
        return held, box.children[0].value

    held, then = alone(lambda: asyncio.run(page()))
    assert "Loading…" in held and then == "sheet"
