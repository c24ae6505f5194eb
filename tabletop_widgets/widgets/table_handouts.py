"""Handouts on a seat's page: :class:`HandoutsPart` (class ``tt-handouts``).

A seat's page lists the handouts the GM gave it (the text as safe HTML, the image as a
``data:`` URL), folded under **Handouts (n)**; a page that got none shows nothing (its kernel
never received one: the store sends a seat only what is addressed to it). The GM's page has
the same list (with who got each) and the form that gives one: a title, a text (Markdown), to
whom, and an image file. Everything the form sends is checked by the table
(``TableSession.give_handout``).
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.table import EventError

from .base import text_lookup
from .sheet_context import html_widget, vbox
from .table_texts import esc

EVERYONE = "*"

TEXTS: dict[str, dict[str, str]] = {
    "toggle": {"en": "Handouts ({n})", "ru": "Раздаточные материалы ({n})"},
    "none": {"en": "No handouts yet.", "ru": "Раздаточных материалов пока нет."},
    "to_all": {"en": "to everyone", "ru": "всем"},
    "to": {"en": "to {names}", "ru": "кому: {names}"},
    "title": {"en": "Title", "ru": "Заголовок"},
    "text": {
        "en": "Text (Markdown: **bold**, *italic*, - lists)",
        "ru": "Текст (Markdown: **жирный**, *курсив*, - списки)",
    },
    "whom": {"en": "To", "ru": "Кому"},
    "everyone": {"en": "Everyone", "ru": "Всем"},
    "image": {"en": "Image…", "ru": "Картинка…"},
    "give": {"en": "Give the handout", "ru": "Выдать материал"},
    "given": {"en": "Handout given: {title}", "ru": "Материал выдан: {title}"},
    "got": {"en": "You got a handout: {title}", "ru": "Вам выдан материал: {title}"},
}

_t = text_lookup(TEXTS)


class HandoutsPart:
    """A seat's handouts (see the module): ``toggle`` (``tt-handouts-toggle``) and, once
    opened, ``panel`` with ``listing`` (``tt-handouts-list``) and, on a GM's page, the form
    (``title_text``, ``body_text``, ``whom``, ``upload``, ``give``) in ``box``."""

    def __init__(self, session: Any, locale: str, *, say: Callable[..., Any], refused: Callable[[BaseException], Any]):
        self.session, self.locale = session, locale
        self._say, self._refused = say, refused
        self.is_gm = session.role == "gm"
        self.count = len(session.handouts())
        self.toggle = widgets.ToggleButton(value=False, _dom_classes=("tt-handouts-toggle",))
        self.toggle.observe(lambda ch: self.show_panel(ch["new"]), names="value")
        self.panel: widgets.VBox | None = None
        shown = self.is_gm or self.count > 0
        self.box = vbox(
            [self.toggle], classes=("tt-handouts",), layout=widgets.Layout(display=None if shown else "none")
        )
        self.relabel(locale)

    def show_panel(self, shown: bool) -> None:
        if shown and self.panel is None:
            self._build_panel()
        if self.panel is not None:
            self.panel.layout.display = None if shown else "none"

    def _build_panel(self) -> None:
        self.listing = html_widget(classes=("tt-handouts-list",))
        children: list[widgets.Widget] = [self.listing]
        if self.is_gm:
            self.title_text = widgets.Text(layout=widgets.Layout(width="100%"), _dom_classes=("tt-handout-title",))
            self.body_text = widgets.Textarea(layout=widgets.Layout(width="100%"), _dom_classes=("tt-handout-text",))
            self.whom = widgets.SelectMultiple(rows=4, _dom_classes=("tt-handout-whom",))
            self.upload = widgets.FileUpload(accept="image/*", multiple=False, _dom_classes=("tt-handout-image",))
            self.give = widgets.Button(button_style="primary", _dom_classes=("tt-handout-give",))
            self.give.on_click(lambda _b: self.give_handout())
            children += [self.title_text, self.body_text, self.whom, self.upload, self.give]
        self.panel = widgets.VBox(children, layout=widgets.Layout(display=None), _dom_classes=("tt-handouts-panel",))
        self.box.children = [self.toggle, self.panel]
        self.relabel(self.locale)

    def _whom_options(self, loc: str) -> list[tuple[str, str]]:
        out = [(_t("everyone", loc), EVERYONE)]
        for seat, info in sorted(self.session.state.seats.items()):
            if info.get("role") == "player" and not info.get("retired"):
                out.append((str(info.get("name") or seat), seat))
        return out

    def give_handout(self) -> Any:
        """GM: give what the form holds (the table checks it all)."""
        chosen = list(self.whom.value)
        seats = None if not chosen or EVERYONE in chosen else chosen
        image = None
        files = self.upload.value
        if files:
            first = files[0] if isinstance(files, (list, tuple)) else next(iter(dict(files).values()), {})
            image = first.get("content") if isinstance(first, dict) else None
            if image is None:
                image = b""  # a forged upload: the table says it is no image
        try:
            self.session.give_handout(self.title_text.value, self.body_text.value, seats=seats, image=image)
        except (PermissionError, EventError, ValueError) as exc:
            return self._refused(exc)
        title = self.title_text.value.strip()
        self.title_text.value = self.body_text.value = ""
        self.upload.value = ()
        self._say("info", {loc: _t("given", loc, title=title) for loc in ("en", "ru")})
        return True

    def _names(self, seats: list[str]) -> str:
        st = self.session.state.seats
        return ", ".join(str((st.get(s) or {}).get("name") or s) for s in seats)

    def render(self) -> None:
        loc = self.locale
        got = self.session.handouts()
        self.count = len(got)
        self.toggle.description = _t("toggle", loc, n=self.count)
        if self.count and self.box.layout.display == "none":
            self.box.layout.display = None
        if self.panel is None:
            return
        parts = []
        for h in reversed(got):  # the newest first
            whom = ""
            if self.is_gm:
                whom = _t("to_all", loc) if h["all"] else _t("to", loc, names=self._names(h["to"]))
                whom = f'<div class="tt-sub">{esc(whom)}</div>'
            image = (
                f'<img class="tt-handout-img" src="{esc(h["image"])}" alt="{esc(h["title"])}">' if h["image"] else ""
            )
            parts.append(
                f'<div class="tt-handout"><h3>{esc(h["title"])}</h3>{whom}'
                f'<div class="tt-handout-body">{h["html"]}</div>{image}</div>'
            )
        self.listing.value = "".join(parts) or f'<div class="tt-sub">{esc(_t("none", loc))}</div>'

    def follow(self, events) -> None:
        from tabletop_widgets.table import HANDOUT, is_kind

        new = [e for e in events if is_kind(e, HANDOUT)]
        if not new:
            return
        self.render()
        if not self.is_gm:
            title = str(new[-1].payload.get("title") or "")
            self._say("info", {loc: _t("got", loc, title=title) for loc in ("en", "ru")})
            self.toggle.value = True  # opens the list

    def relabel(self, loc: str) -> None:
        self.locale = loc
        if self.panel is not None and self.is_gm:
            self.title_text.placeholder = _t("title", loc)
            self.body_text.placeholder = _t("text", loc)
            value = self.whom.value
            self.whom.options = self._whom_options(loc)
            self.whom.value = tuple(v for v in value if v in dict((b, a) for a, b in self.whom.options)) or (EVERYONE,)
            self.whom.description = _t("whom", loc)
            self.upload.description = _t("image", loc)
            self.give.description = _t("give", loc)
        self.render()


__all__ = ["EVERYONE", "HandoutsPart", "TEXTS"]
