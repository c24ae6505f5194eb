"""The table's progress clocks on a seat's page: :class:`TableClocks`.

Every seat's page shows the clocks it may see under its header (``faces``, class ``tt-clocks``),
each drawn as the circle players know: an SVG pie of its segments, the filled ones coloured. A
clock the players know of but may not read (``"known"``) is a blank circle with a question mark
on a player's page. The GM's page has a **Clocks** tab (``tab_box``, built when first shown) to
add a clock, tick it up or down, choose what the players see of it and remove it.

Nothing is decided here: each button calls the seat's session (``add_clock``, ``tick_clock``,
``set_clock_visibility``, ``remove_clock``), which checks the role and every value in Python
whatever the browser sends, and the picture is drawn from ``session.clocks()``, which holds only
what this seat may see. The screen hands new events on (:meth:`TableClocks.follow`).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.wording import counted
from tabletop_widgets.table import CLOCK_KINDS, EventError, is_kind

from .base import text_lookup
from .sheet_context import hbox, html_widget, set_display, vbox
from .table_texts import esc

TEXTS: dict[str, dict[str, str]] = {
    "title": T("Clocks", "Часы"),
    "hidden_clock": T("Hidden clock", "Скрытые часы"),
    "fill": T("{filled} of {segments}", "{filled} из {segments}"),
    "aria": T("Clock «{name}»: {filled} of {segments}", "Часы «{name}»: заполнено {filled} из {segments}"),
    "aria_hidden": T("A hidden clock of {count}", "Скрытые часы: {count}"),
    "full": T("full", "заполнены"),
    "tag_known": T("players see the circle", "игроки видят круг"),
    "tag_secret": T("secret", "тайные"),
    "new": T("New clock", "Новые часы"),
    "name": T("Name", "Название"),
    "name_placeholder": T("The guards' alarm", "Тревога стражи"),
    "segments": T("Segments", "Сегментов"),
    "shows": T("Players see", "Игрокам"),
    "open": T("everything", "видно всё"),
    "known": T("a blank circle", "пустой круг"),
    "secret": T("nothing (secret)", "ничего (тайные)"),
    "add": T("Add clock", "Добавить часы"),
    "pick": T("Clock", "Часы"),
    "tick_up": T("+1", "+1"),
    "tick_up_tip": T("Fill one more segment", "Заполнить ещё сегмент"),
    "tick_down": T("−1", "−1"),
    "tick_down_tip": T("Empty one segment", "Очистить сегмент"),
    "remove": T("Remove", "Убрать"),
    "remove_confirm": T("Remove it? Click again", "Убрать? Нажмите ещё раз"),
    "none": T("No clocks yet: add one above.", "Часов пока нет: добавьте их выше."),
    "empty_name": T("Give the clock a name.", "Дайте часам название."),
}

_t = text_lookup(TEXTS)

#: the segments the GM's picker offers (the table checks 2 to 12 again)
SEGMENTS = tuple(range(2, 13))
VISIBILITIES = ("open", "known", "secret")


def clock_svg(segments: int, filled: int | None, *, label: str, size: int = 64) -> str:
    """A clock as an SVG pie of ``segments`` wedges, the first ``filled`` coloured, clockwise
    from the top; ``filled`` None: a blank circle with a question mark (a hidden clock)."""
    n = max(1, int(segments))
    r, c = 44.0, 50.0
    wedges = []
    for i in range(n):
        a0, a1 = 2 * math.pi * i / n, 2 * math.pi * (i + 1) / n
        x0, y0 = c + r * math.sin(a0), c - r * math.cos(a0)
        x1, y1 = c + r * math.sin(a1), c - r * math.cos(a1)
        large = 1 if a1 - a0 > math.pi else 0
        on = " tt-clock-on" if filled is not None and i < filled else ""
        wedges.append(
            f'<path class="tt-clock-seg{on}" d="M{c:g},{c:g} L{x0:.2f},{y0:.2f} '
            f'A{r:g},{r:g} 0 {large} 1 {x1:.2f},{y1:.2f} Z"/>'
        )
    mark = (
        '<circle class="tt-clock-hub" cx="50" cy="50" r="19"/><text class="tt-clock-mark" x="50" y="51">?</text>'
        if filled is None
        else ""
    )
    return (
        f'<svg class="tt-clock-svg" viewBox="0 0 100 100" width="{size}" height="{size}" role="img" '
        f'aria-label="{esc(label)}"><circle class="tt-clock-rim" cx="50" cy="50" r="46"/>'
        f"{''.join(wedges)}{mark}</svg>"
    )


def clock_face(clock: Mapping[str, Any], loc: str, *, gm: bool) -> str:
    """One clock's face (its circle and the words under it) as this seat may see it."""
    segments = clock.get("segments") if isinstance(clock.get("segments"), int) else 0
    name, filled = clock.get("name"), clock.get("filled")
    if name is None or not isinstance(filled, int):  # a known clock on a player's page
        count = counted(segments, ("segment", "segments"), ("сегмент", "сегмента", "сегментов"))[loc]
        svg = clock_svg(segments, None, label=_t("aria_hidden", loc, count=count))
        words = f'<span class="tt-clock-name">{esc(_t("hidden_clock", loc))}</span>'
        words += f'<span class="tt-clock-fill">{esc(count)}</span>'
        return f'<div class="tt-clock tt-clock-hidden">{svg}<div class="tt-clock-words">{words}</div></div>'
    svg = clock_svg(segments, filled, label=_t("aria", loc, name=name, filled=filled, segments=segments))
    fill = _t("fill", loc, filled=filled, segments=segments)
    if filled >= segments:
        fill += f" · {_t('full', loc)}"
    words = f'<span class="tt-clock-name">{esc(name)}</span><span class="tt-clock-fill">{esc(fill)}</span>'
    visibility = clock.get("visibility")
    if gm and visibility in ("known", "secret"):
        words += f'<span class="tt-clock-tag tt-clock-{visibility}">{esc(_t("tag_" + visibility, loc))}</span>'
    full = " tt-clock-full" if filled >= segments else ""
    return f'<div class="tt-clock{full}">{svg}<div class="tt-clock-words">{words}</div></div>'


class TableClocks:
    """The clocks of a seat's page (see the module): ``faces`` for every seat, ``tab_box`` (the
    GM's Clocks tab, filled by :meth:`build_tab`). ``say(kind, text)`` and ``refused(exc)`` are
    the screen's status line."""

    def __init__(
        self,
        session: Any,
        locale: str,
        *,
        say: Callable[[str | None, Any], Any],
        refused: Callable[[BaseException], Any],
    ):
        self.session = session
        self.locale = locale
        self.is_gm = session.role == "gm"
        self._say, self._refused = say, refused
        self.faces = html_widget(classes=("tt-clocks",), layout=widgets.Layout(display="none"))
        self.tab_box = vbox(classes=("tt-gm-clocks",)) if self.is_gm else None
        self.built = False
        self._confirm: str | None = None  # the clock whose Remove was clicked once
        self._pick_next: str | None = None  # the clock to pick once the picker lists it
        self._syncing = False
        self.render()

    # -- the GM's tab ----------------------------------------------------------------------------
    def build_tab(self) -> None:
        """Fill the GM's Clocks tab (once; nothing on another seat's page)."""
        if self.tab_box is None or self.built:
            return
        self.built = True
        self.head = html_widget(classes=("tt-clocks-head",))
        self.name = widgets.Text(
            layout=widgets.Layout(flex="1 1 12em", width="auto"), _dom_classes=("tt-clock-name-in",)
        )
        self.name.on_msg(self._on_name_msg)
        self.segments = widgets.Dropdown(
            options=list(SEGMENTS), value=4, layout=widgets.Layout(width="auto"), _dom_classes=("tt-clock-segments",)
        )
        self.shows = widgets.Dropdown(layout=widgets.Layout(width="auto"), _dom_classes=("tt-clock-shows",))
        self.add_button = widgets.Button(button_style="primary", _dom_classes=("tt-clock-add",))
        self.add_button.on_click(lambda _b: self.add())
        self.pick = widgets.Dropdown(
            layout=widgets.Layout(width="auto", min_width="12em"), _dom_classes=("tt-clock-pick",)
        )
        self.pick.observe(lambda _ch: self._picked(), names="value")
        self.down_button = widgets.Button(_dom_classes=("tt-clock-down",), layout=widgets.Layout(width="auto"))
        self.down_button.on_click(lambda _b: self.tick(-1))
        self.up_button = widgets.Button(_dom_classes=("tt-clock-up",), layout=widgets.Layout(width="auto"))  # as −1
        self.up_button.on_click(lambda _b: self.tick(1))
        self.pick_shows = widgets.Dropdown(layout=widgets.Layout(width="auto"), _dom_classes=("tt-clock-pick-shows",))
        self.pick_shows.observe(lambda ch: self._shows_changed(ch["new"]), names="value")
        self.remove_button = widgets.Button(button_style="danger", _dom_classes=("tt-clock-remove",))
        self.remove_button.on_click(lambda _b: self.remove())
        self.list_hint = html_widget(classes=("tt-clocks-none",))
        new_row = hbox([self.name, self.segments, self.shows, self.add_button], classes=("tt-clock-row",))
        self.pick_row = hbox(
            [self.pick, self.down_button, self.up_button, self.pick_shows, self.remove_button],
            classes=("tt-clock-row",),
        )
        self.tab_box.children = [self.head, new_row, self.list_hint, self.pick_row]
        self.relabel(self.locale)

    def _on_name_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":  # Enter in the name
            self.add()

    def _picked(self) -> None:
        self._confirm = None
        self._render_pick_row()

    def _shows_changed(self, value: Any) -> None:
        if self._syncing:
            return
        clock = self._picked_clock()
        if clock is not None and value != clock.get("visibility"):
            self.set_visibility(value)

    def _picked_clock(self) -> dict[str, Any] | None:
        pick = getattr(self, "pick", None)
        return next((c for c in self.session.clocks() if pick is not None and c["id"] == pick.value), None)

    # -- the GM's actions (the session checks them again, whoever calls) ---------------------------
    def _act(self, action: Callable[[], Any]) -> Any:
        try:
            out = action()
        except (PermissionError, EventError, ValueError, TypeError) as exc:
            self._render_pick_row()
            return self._refused(exc)
        self._say(None, None)
        return out

    def add(self, name: Any = None, segments: Any = None, visibility: Any = None) -> Any:
        """GM: a new clock (the form's values by default); the form is cleared once it is made."""
        if name is None and not self.built:
            return self._say("error", TEXTS["empty_name"])
        name = self.name.value if name is None else name
        if isinstance(name, str) and not name.strip():
            return self._say("error", TEXTS["empty_name"])
        segments = self.segments.value if segments is None else segments
        visibility = self.shows.value if visibility is None else visibility
        clock_id = self._act(lambda: self.session.add_clock(name, segments, visibility))
        if clock_id is not None and self.built:
            self.name.value = ""
            self._pick_next = clock_id
            self.render()
        return clock_id

    def tick(self, by: Any, clock_id: Any = None) -> Any:
        """GM: tick the picked clock (or ``clock_id``) by ``by``."""
        cid = clock_id if clock_id is not None else getattr(getattr(self, "pick", None), "value", None)
        return self._act(lambda: self.session.tick_clock(cid, by))

    def set_visibility(self, visibility: Any, clock_id: Any = None) -> Any:
        cid = clock_id if clock_id is not None else getattr(getattr(self, "pick", None), "value", None)
        return self._act(lambda: self.session.set_clock_visibility(cid, visibility))

    def remove(self, clock_id: Any = None) -> Any:
        """GM: remove the picked clock (the button asks once more first), or ``clock_id`` at once."""
        if clock_id is None:
            cid = getattr(getattr(self, "pick", None), "value", None)
            if cid is not None and self._confirm != cid:
                self._confirm = cid
                self._render_pick_row()
                return None
        else:
            cid = clock_id
        self._confirm = None
        return self._act(lambda: self.session.remove_clock(cid))

    # -- following and drawing -----------------------------------------------------------------
    def follow(self, events) -> None:
        """New events came: redraw when a clock changed."""
        if any(is_kind(e, *CLOCK_KINDS) for e in events):
            self.render()

    def relabel(self, loc: str) -> None:
        self.locale = loc
        if self.built:
            self.head.value = f"<h3>{esc(_t('new', loc))}</h3>"
            self.name.description = _t("name", loc)
            self.name.placeholder = _t("name_placeholder", loc)
            self.segments.description = _t("segments", loc)
            shows = self.shows.value or "open"
            self.shows.options = [(_t(v, loc), v) for v in VISIBILITIES]
            self.shows.value = shows
            self.shows.description = _t("shows", loc)
            self.add_button.description = _t("add", loc)
            self.up_button.description, self.up_button.tooltip = _t("tick_up", loc), _t("tick_up_tip", loc)
            self.down_button.description, self.down_button.tooltip = _t("tick_down", loc), _t("tick_down_tip", loc)
            self.pick.description = _t("pick", loc)
            self.pick_shows.description = _t("shows", loc)
            self.list_hint.value = f"<p>{esc(_t('none', loc))}</p>"
        self.render()

    def render(self) -> None:
        """Draw the clocks this seat may see (hidden while there are none), and the GM's picker."""
        loc, clocks = self.locale, self.session.clocks()
        if clocks:
            faces = "".join(clock_face(c, loc, gm=self.is_gm) for c in clocks)
            self.faces.value = (
                f'<div class="tt-clocks-all"><h2 class="tt-clocks-title">{esc(_t("title", loc))}</h2>'
                f'<div class="tt-clocks-list">{faces}</div></div>'
            )
        else:
            self.faces.value = ""
        if (self.faces.layout.display == "none") == bool(clocks):
            set_display(self.faces, None if clocks else "none")
        if self.built:
            self._render_pick_list(clocks)

    def _render_pick_list(self, clocks: list[dict[str, Any]]) -> None:
        loc = self.locale
        options = [
            (f"{c.get('name')} ({_t('fill', loc, filled=c.get('filled'), segments=c['segments'])})", c["id"])
            for c in clocks
        ]
        wanted = getattr(self, "_pick_next", None) or self.pick.value
        self._pick_next = None
        ids = [v for _, v in options]
        self._syncing = True
        try:
            self.pick.options = options
            self.pick.value = wanted if wanted in ids else (ids[0] if ids else None)
        finally:
            self._syncing = False
        set_display(self.list_hint, "none" if clocks else None)
        set_display(self.pick_row, None if clocks else "none")
        self._render_pick_row()

    def _render_pick_row(self) -> None:
        if not self.built:
            return
        loc, clock = self.locale, self._picked_clock()
        self._syncing = True
        try:
            self.pick_shows.options = [(_t(v, loc), v) for v in VISIBILITIES]
            if clock is not None:
                self.pick_shows.value = clock.get("visibility")
        finally:
            self._syncing = False
        # a full clock's +1 stays: the table says "full" (a refusal tells more than a grey button)
        self.up_button.disabled = self.down_button.disabled = clock is None
        asking = clock is not None and self._confirm == clock["id"]
        self.remove_button.description = _t("remove_confirm" if asking else "remove", loc)


__all__ = ["TEXTS", "TableClocks", "clock_face", "clock_svg"]
