"""The fight on a player's or an observer's table page before the table's first fight:
:class:`IdleTracker`, the combat tracker's empty face.

A player's tracker before any fight shows only its title, *Not started* and a line saying that the
GM brings the combatants in; the tracker itself is about sixty widget models (its toolbar, panel
and forms exist, hidden by the page's style, for when a fight runs). The page shows this face
instead, with the tracker's own texts, classes and style, and builds the tracker when the first
fight comes (:class:`~.table_view.TableView`). It holds no combat and has no control: nothing on
it acts.
"""

from __future__ import annotations

import html

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.system import term_of
from tabletop_widgets.front import stylesheet

from .base import close_tree, text_lookup
from .sheet_context import hbox, html_widget, vbox
from .tracker_text import TEXTS as TRACKER_TEXTS

_t = text_lookup(TRACKER_TEXTS)

_CSS = stylesheet("tracker")  # the tracker's own style: the face looks as the tracker does


class IdleTracker:
    """A combat tracker's face with no fight, as a player's tracker draws it: ``box`` (classes
    ``tt-tracker tt-table-tracker tt-player-tracker tt-idle-tracker``) holds the title (``title``),
    the round line (``round_label``), the note (``empty_note``) and the tracker's empty list,
    status and log. :meth:`relabel` draws it in a language."""

    def __init__(self, system, locale: str):
        self.system = system
        self.title = html_widget(classes=("tt-tracker-title",))
        self.round_label = html_widget(classes=("tt-round",))
        self.empty_note = html_widget(classes=("tt-empty",))
        self.box = vbox(
            [
                html_widget(_CSS, classes=("tt-style",)),
                hbox([self.title, self.round_label], classes=("tt-tracker-header",)),
                self.empty_note,
                vbox(classes=("tt-combatants",)),
                html_widget(classes=("tt-tracker-status", "tt-live")),
                html_widget(classes=("tt-tracker-log",)),
            ],
            classes=("tt-tracker", "tt-player-tracker", "tt-table-tracker", "tt-idle-tracker"),
        )
        self.relabel(locale)

    def relabel(self, loc: str) -> None:
        """The face in ``loc``, worded as the tracker words it for a seat that watches."""
        system = self.system
        self.title.value = (
            f'<h2>{_t("title", loc)} <span class="tt-system">· {html.escape(tr(system.title, loc))}</span></h2>'
        )
        self.round_label.value = f'<span class="tt-round-box tt-idle">{_t("not_started", loc)}</span>'
        text = _t("empty_watch", loc).replace("{gm}", term_of(system, "gm", loc))
        self.empty_note.value = f"<i>{html.escape(text)}</i>"

    def close(self) -> None:
        close_tree(self.box)


__all__ = ["IdleTracker"]
