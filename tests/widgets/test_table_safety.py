"""The safety tools on a seat's page (issue 34, part 4): every seat's X-card button, the GM's
alert naming nobody (every page's, when the GM chooses), the lines and veils the GM edits and
every seat reads."""

from __future__ import annotations

import html
import json
import re

from helpers import frontend_click, frontend_update

from tabletop_widgets.table.seats import table_option


def alerted(view) -> bool:
    """Whether the page shows the X-card alert (made only once there is one to show)."""
    alert = view.safety.alert
    return alert is not None and alert.layout.display != "none"


def page_state(view) -> str:
    """Every synced value of every widget under ``view``, as one text."""
    from ipywidgets import Widget

    seen, stack, out = set(), [view], []
    while stack:
        w = stack.pop()
        if not isinstance(w, Widget) or w.model_id in seen:
            continue
        seen.add(w.model_id)
        state = w.get_state()
        out.append(json.dumps(state, default=str, ensure_ascii=False))
        for name in w.keys:
            value = getattr(w, name, None)
            stack.extend(value if isinstance(value, (list, tuple)) else [value])
    return "\n".join(out)


def test_every_seat_has_the_x_card_and_the_gm_sees_a_tap_without_a_name(table):
    gm, p1, p2, o1 = (table.view(s) for s in ("gm", "p1", "p2", "o1"))
    for view in (gm, p1, p2, o1):
        assert "tt-xcard" in view.safety.x_button._dom_classes
        assert not alerted(view)
    frontend_click(p1.safety.x_button)
    assert "Nobody is told" in p1.status.value and not alerted(p1)
    for view in (gm, p2, o1):
        view.session.poll()
    assert alerted(gm)
    assert "Someone tapped the X-card" in gm.safety.alert.value and "Pat" not in gm.safety.alert.value
    assert not alerted(p2) and not alerted(o1)
    assert "X-card" not in page_state(p2).replace('"X-card"', "")  # the button's label only
    frontend_click(gm.safety.seen_button)
    assert not alerted(gm)
    gm.locale = "ru"
    assert gm.safety.x_button.description == "Х-карта"


def test_the_gm_shows_taps_on_every_page_and_edits_the_lines(table):
    gm, p1, o1 = (table.view(s) for s in ("gm", "p1", "o1"))
    frontend_update(gm.safety.lines_toggle, value=True)
    frontend_update(gm.safety.public_box, value=True)
    assert table_option(gm.session, "x_card_public") is True
    frontend_update(gm.safety.lines_text, value="spiders\n\nharm to animals")
    frontend_update(gm.safety.veils_text, value="romance")
    frontend_click(gm.safety.save)
    for view in (p1, o1):
        view.session.poll()
        frontend_update(view.safety.lines_toggle, value=True)
        listing = view.safety.listing.value
        assert "spiders" in listing and "harm to animals" in listing and "romance" in listing
        assert "every page" in listing
        assert not hasattr(view.safety, "lines_text")  # no editing on a player's or observer's page
    frontend_click(o1.safety.x_button)
    p1.session.poll()
    assert "Someone tapped the X-card" in p1.safety.alert.value


def test_a_player_cannot_save_lines_by_a_forged_call(table):
    p1 = table.view("p1")
    frontend_update(p1.safety.lines_toggle, value=True)
    p1.safety.save_lines(["mine"], [])
    assert "GM" in p1.status.value or "мастер" in p1.status.value
    assert p1.session.lines_and_veils() == {"lines": [], "veils": []}


def test_too_many_taps_are_refused_on_the_page(table):
    p1 = table.view("p1")
    frontend_click(p1.safety.x_button)
    frontend_click(p1.safety.x_button)
    assert "Wait a moment" in p1.status.value


def test_the_safety_and_handout_parts_read_russian(table):
    """Every label of both parts, their panels open and an alert and a handout shown, is Russian
    on a Russian page (the GM's, with its forms; a player's)."""
    from russian_screens import ALLOWED_LATIN, latin_words
    from test_table_handouts import give

    gm, p1 = table.view("gm", locale="ru"), table.view("p1", locale="ru")
    give(gm, "Письмо", "Приходи **один**", whom=("p1",))
    frontend_click(p1.safety.x_button)
    for view in (gm, p1):
        view.session.poll()
        frontend_update(view.safety.lines_toggle, value=True)
        frontend_update(view.handouts.toggle, value=True)
    texts = []
    for view in (gm, p1):
        for part in (view.safety, view.handouts):
            stack = [part.box]
            while stack:
                w = stack.pop()
                stack.extend(getattr(w, "children", ()))
                for name in ("description", "placeholder", "tooltip", "value"):
                    value = getattr(w, name, None)
                    if isinstance(value, str) and not value.startswith("<style"):
                        texts.append(html.unescape(re.sub(r"<[^>]+>", " ", value)))  # what is read
            if hasattr(part, "whom"):
                texts.extend(label for label, _v in part.whom.options)
    texts.append(re.sub(r"<[^>]+>", " ", p1.status.value))
    assert "Кто-то коснулся Х-карты" in gm.safety.alert.value
    assert "Раздаточные материалы (1)" in texts and "Сохранить границы и завесы" in texts
    assert latin_words(["Save lines and veils"])  # the check finds English
    assert not latin_words(texts, ALLOWED_LATIN | {"Markdown", "Gail", "Pat", "Quinn", "Olga"})
