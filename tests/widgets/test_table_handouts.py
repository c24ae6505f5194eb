"""Handouts on a seat's page (issue 34, part 3): the GM's form gives one to chosen seats; the
seats that got it see it (the text as safe HTML, the image), and every other page holds nothing
of it, in any widget's state."""

from __future__ import annotations

import base64

from helpers import frontend_click, frontend_update
from test_table_safety import page_state

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def give(gm, title, text, whom=("*",), image=None):
    frontend_update(gm.handouts.toggle, value=True)
    frontend_update(gm.handouts.title_text, value=title)
    frontend_update(gm.handouts.body_text, value=text)
    options = [v for _, v in gm.handouts.whom.options]
    frontend_update(gm.handouts.whom, index=[options.index(w) for w in whom])
    if image is not None:
        files = [
            {"name": "x.png", "type": "image/png", "size": len(image), "content": memoryview(image), "last_modified": 0}
        ]
        frontend_update(gm.handouts.upload, value=files)
    frontend_click(gm.handouts.give)


def test_a_handout_shows_on_the_chosen_page_only(table):
    gm, p1, p2, o1 = (table.view(s) for s in ("gm", "p1", "p2", "o1"))
    assert p1.handouts.box.layout.display == "none"  # nothing given yet: nothing shown
    give(gm, "The sealed letter", "Come *alone* <script>alert(1)</script>", whom=("p1",), image=PNG)
    assert "Handout given" in gm.status.value and gm.handouts.title_text.value == ""
    assert "to Pat" in gm.handouts.listing.value
    for view in (p1, p2, o1):
        view.session.poll()
    assert p1.handouts.box.layout.display is None and p1.handouts.toggle.value is True
    listing = p1.handouts.listing.value
    assert "The sealed letter" in listing and "<em>alone</em>" in listing
    assert "&lt;script&gt;" in listing and "<script" not in listing
    assert 'src="data:image/png;base64,' in listing
    assert "You got a handout" in p1.status.value
    for view in (p2, o1):
        assert view.handouts.box.layout.display == "none"
        view.show_tab("your_sheet") if view.tabs is not None else None
        text = page_state(view)
        assert "The sealed letter" not in text and "alone" not in text and base64.b64encode(PNG).decode() not in text


def test_the_gm_page_refuses_a_bad_handout_with_why(table):
    gm = table.view("gm")
    give(gm, "", "text")
    assert "title" in gm.status.value
    give(gm, "Fake", "text", image=b"MZ\x90\x00 not a picture")
    assert "not a PNG" in gm.status.value
    gm.locale = "ru"
    give(gm, "Fake", "text", image=b"MZ")
    assert "не картинка" in gm.status.value
    assert gm.session.handouts() == []


def test_a_handout_to_everyone_reaches_every_page(table):
    gm, p2, o1 = (table.view(s) for s in ("gm", "p2", "o1"))
    give(gm, "Rumours", "- the mill burned")
    for view in (p2, o1):
        view.session.poll()
        assert "<li>the mill burned</li>" in view.handouts.listing.value
        assert view.handouts.toggle.description == "Handouts (1)"
