"""The table's safety tools on a seat's page: :class:`SafetyPart` (class ``tt-safety``).

Every seat has the **X-card** button: tapping it is the seat's ``x_card`` (``TableSession``:
anonymous, bounded for the whole table), and the GM's page (every page, when the GM chose so)
says "someone tapped the X-card", naming nobody. Beside it, **Lines and veils** folds out the
campaign's lines (never in the game) and veils (off screen), the same on every page; the GM edits
them there (one a line), and chooses whether a tap shows on every page.
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.table import EventError, set_table_option, table_option

from .base import text_lookup
from .sheet_context import button_widget, hbox, html_widget, set_display, shared_layout, shared_style, vbox
from .table_texts import esc, gm_words

TEXTS: dict[str, dict[str, str]] = {
    "xcard": {"en": "X-card", "ru": "Х-карта"},
    "xcard_tip": {
        "en": "Tap it when something in the game is not OK for you: the table stops it. Nobody learns who tapped.",
        "ru": "Коснитесь, если что-то в игре вам не подходит: стол это уберёт. Никто не узнает, кто коснулся.",
    },
    "tapped_you": {
        "en": "The table has your X-card. Nobody is told who tapped it.",
        "ru": "Стол получил вашу Х-карту. Никому не сообщается, кто её коснулся.",
    },
    "alert": {
        "en": "Someone tapped the X-card. Stop, take out what was just in play, and go on without it.",
        "ru": "Кто-то коснулся Х-карты. Остановитесь, уберите то, что сейчас было в игре, и продолжайте без этого.",
    },
    "alert_n": {"en": "(taps: {n})", "ru": "(касаний: {n})"},
    "seen": {"en": "Got it", "ru": "Понятно"},
    "lines_toggle": {"en": "Lines and veils", "ru": "Границы и завесы"},
    "lines": {"en": "Lines: never in this game", "ru": "Границы: этого в игре не будет"},
    "veils": {"en": "Veils: only off screen", "ru": "Завесы: только за кадром"},
    "none": {"en": "none yet", "ru": "пока нет"},
    "edit_lines": {"en": "Lines, one a line", "ru": "Границы, по одной в строке"},
    "edit_veils": {"en": "Veils, one a line", "ru": "Завесы, по одной в строке"},
    "save": {"en": "Save lines and veils", "ru": "Сохранить границы и завесы"},
    "saved": {"en": "Lines and veils saved for every seat.", "ru": "Границы и завесы сохранены для всех мест."},
    "public": {"en": "Show an X-card tap on every page", "ru": "Показывать касание Х-карты на всех страницах"},
    "who_sees": {
        "en": "A tap shows on the {gm}'s page only.",
        "ru": "Касание видно только на странице: {gm}.",
    },
    "who_sees_all": {"en": "A tap shows on every page.", "ru": "Касание видно на всех страницах."},
}

_t = text_lookup(TEXTS)


class SafetyPart:
    """A seat's safety tools (see the module): ``x_button`` (``tt-xcard``), ``alert``
    (``tt-xcard-alert``), ``lines_toggle`` and, once opened, ``panel`` with the lines and veils
    (a GM's: ``lines_text``, ``veils_text``, ``public_box``, ``save``) in ``box``."""

    def __init__(self, session: Any, locale: str, *, say: Callable[..., Any], refused: Callable[[BaseException], Any]):
        self.session, self.locale = session, locale
        self._say, self._refused = say, refused
        self.is_gm = session.role == "gm"
        self.seen = session.x_cards()  # a page opened later is not alarmed by old taps
        # the page's shared styles and layouts: the part costs the page few models
        self.x_button = button_widget(button_style="danger", classes=("tt-xcard",), icon="")
        self.x_button.on_click(lambda _b: self.tap())
        self.lines_toggle = widgets.ToggleButton(
            value=False,
            style=shared_style(widgets.widget_bool.ToggleButtonStyle),
            layout=shared_layout(),
            _dom_classes=("tt-safety-toggle",),
        )
        self.lines_toggle.observe(lambda ch: self.show_panel(ch["new"]), names="value")
        # the alert and its "Got it" are made when a tap is first to be told (most evenings: never)
        self.alert: widgets.HTML | None = None
        self.seen_button: widgets.Button | None = None
        self.panel: widgets.VBox | None = None
        self.row = hbox([self.x_button, self.lines_toggle], classes=("tt-safety-row",))
        self.box = vbox([self.row], classes=("tt-safety",))
        self.relabel(locale)

    # -- the X-card ------------------------------------------------------------------------------
    def tap(self) -> Any:
        """Tap the X-card (the table checks and bounds it)."""
        try:
            event = self.session.x_card()
        except (PermissionError, EventError, ValueError) as exc:
            return self._refused(exc)
        if not self.is_gm:
            self._say("info", TEXTS["tapped_you"])
        self.render_alert()
        return event

    def dismiss(self) -> None:
        self.seen = self.session.x_cards()
        self.render_alert()

    def _make_alert(self) -> None:
        self.alert = html_widget(classes=("tt-xcard-alert",))
        self.seen_button = button_widget(classes=("tt-xcard-seen",))
        self.seen_button.description = _t("seen", self.locale)
        self.seen_button.on_click(lambda _b: self.dismiss())
        self.row.children = (*self.row.children, self.alert, self.seen_button)

    def render_alert(self) -> None:
        new = self.session.x_cards() - self.seen
        if new <= 0:
            if self.alert is not None:
                set_display(self.alert, "none")
                set_display(self.seen_button, "none")
            return
        if self.alert is None:
            self._make_alert()
        loc = self.locale
        count = f" {esc(_t('alert_n', loc, n=new))}" if new > 1 else ""
        self.alert.value = f'<div class="tt-xcard-msg" role="alert">{esc(_t("alert", loc))}{count}</div>'
        set_display(self.alert, None)
        set_display(self.seen_button, None)

    # -- lines and veils -------------------------------------------------------------------------
    def show_panel(self, shown: bool) -> None:
        if shown and self.panel is None:
            self._build_panel()
        if self.panel is not None:
            self.panel.layout.display = None if shown else "none"

    def _build_panel(self) -> None:
        self.listing = html_widget(classes=("tt-safety-list",))
        children: list[widgets.Widget] = [self.listing]
        if self.is_gm:
            self.lines_text = widgets.Textarea(
                layout=widgets.Layout(width="100%"), _dom_classes=("tt-safety-edit-lines",)
            )
            self.veils_text = widgets.Textarea(
                layout=widgets.Layout(width="100%"), _dom_classes=("tt-safety-edit-veils",)
            )
            self.public_box = widgets.Checkbox(indent=False, _dom_classes=("tt-safety-public",))
            self.public_box.observe(self._on_public, names="value")
            self.save = widgets.Button(button_style="primary", _dom_classes=("tt-safety-save",))
            self.save.on_click(lambda _b: self.save_lines())
            children += [self.lines_text, self.veils_text, self.public_box, self.save]
        self.panel = widgets.VBox(children, layout=widgets.Layout(display=None), _dom_classes=("tt-safety-panel",))
        self.box.children = [*self.box.children, self.panel]
        self.render_panel(fill=True)
        self.relabel(self.locale)

    def save_lines(self, lines: Any = None, veils: Any = None) -> Any:
        """GM: save the lines and veils (the text boxes', one a line, by default)."""
        if lines is None:
            lines = self.lines_text.value.splitlines()
        if veils is None:
            veils = self.veils_text.value.splitlines()
        try:
            event = self.session.set_lines_and_veils(lines, veils)
        except (PermissionError, EventError, ValueError) as exc:
            return self._refused(exc)
        self._say("info", TEXTS["saved"])
        return event

    def _on_public(self, change) -> None:
        if change["new"] == table_option(self.session, "x_card_public"):
            return
        try:
            set_table_option(self.session, "x_card_public", bool(change["new"]))
        except (PermissionError, EventError, ValueError, TypeError) as exc:
            self.public_box.value = table_option(self.session, "x_card_public")
            self._refused(exc)
        self.render_panel()

    def render_panel(self, *, fill: bool = False) -> None:
        if self.panel is None:
            return
        loc, got = self.locale, self.session.lines_and_veils()

        def items(key: str) -> str:
            shown = (
                "".join(f"<li>{esc(x)}</li>" for x in got[key]) or f'<li class="tt-none">{esc(_t("none", loc))}</li>'
            )
            return f'<div class="tt-safety-{key}"><b>{esc(_t(key, loc))}</b><ul>{shown}</ul></div>'

        public = table_option(self.session, "x_card_public")
        who = _t("who_sees_all", loc) if public else _t("who_sees", loc, **gm_words(self.session.system, loc))
        self.listing.value = items("lines") + items("veils") + f'<div class="tt-sub">{esc(who)}</div>'
        if self.is_gm:
            if fill:
                self.lines_text.value = "\n".join(got["lines"])
                self.veils_text.value = "\n".join(got["veils"])
            self.public_box.value = public

    # -- following -------------------------------------------------------------------------------
    def follow(self, events) -> None:
        from tabletop_widgets.table import SAFETY_LINES, TABLE_OPTION, X_CARD, is_kind

        if any(is_kind(e, X_CARD) for e in events):
            self.render_alert()
        if any(is_kind(e, SAFETY_LINES, TABLE_OPTION) for e in events):
            self.render_panel(fill=any(is_kind(e, SAFETY_LINES) for e in events))

    def relabel(self, loc: str) -> None:
        self.locale = loc
        self.x_button.description = _t("xcard", loc)
        self.x_button.tooltip = _t("xcard_tip", loc)
        self.lines_toggle.description = _t("lines_toggle", loc)
        if self.seen_button is not None:
            self.seen_button.description = _t("seen", loc)
        if self.panel is not None and self.is_gm:
            self.lines_text.placeholder = _t("edit_lines", loc)
            self.lines_text.description = ""
            self.veils_text.placeholder = _t("edit_veils", loc)
            self.public_box.description = _t("public", loc)
            self.save.description = _t("save", loc)
        self.render_alert()
        self.render_panel()


__all__ = ["SafetyPart", "TEXTS"]
