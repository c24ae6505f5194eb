"""The names a seat's table page keeps from before it was composed of parts.

:class:`~.table_view.TableView` is a composition root: its parts (``sheets_area``, ``log_area``,
``fight``, ``tray_area``, ``gm_desk``, ``sessions_tab``) hold their own widgets. The names tests,
notebooks and the browser tests reach on the screen (``view.roll_log``, ``view.notes_box``,
``view.session_end_button``...) stay the screen's: each is the part's (:data:`PART_NAMES`),
read through the part, never copied (a lazily built widget is built when it is asked for).
"""

from __future__ import annotations

from typing import Any

from .table_gm import GM_DESK_PARTS
from .table_sessions import SESSIONS_PARTS

#: A GM's widgets that are made with their tab (when it is first shown, or when one of them is
#: asked for): the widget's attribute -> the tab's key.
TAB_WIDGETS: dict[str, str] = {name: key for key, names in GM_DESK_PARTS.items() for name in names}
TAB_WIDGETS.update({name: "tab_sessions" for name in SESSIONS_PARTS})

_REQUIRED = object()

#: The screen's names that are its parts' (``view.roll_log`` is ``view.log_area.roll_log``), by
#: the part's attribute: each name -> the part's own name for it and, for a part some seats'
#: pages do not have, what the screen answers without it (a name without a default raises
#: AttributeError there, as it did before the screen was composed).
PART_NAMES: dict[str, dict[str, tuple[str, Any]]] = {
    "sheets_area": {
        name: (name, _REQUIRED)
        for name in ("models", "sheets", "sheet_area", "sheet_tabs", "creation_box", "sheet", "character_name")
    },
    "log_area": {
        "roll_log": ("roll_log", _REQUIRED),
        "chat": ("chat", _REQUIRED),
        "transcripts": ("transcripts", _REQUIRED),
        "log_column": ("box", _REQUIRED),
    },
    "fight": {
        "built_tracker": ("built_tracker", _REQUIRED),
        "idle_tracker": ("idle_tracker", _REQUIRED),
        "combat_column": ("column", _REQUIRED),
    },
    "tray_area": {
        "tray": ("tray", None),
        "built_tray": ("built_tray", None),
        "hidden_toggle": ("hidden_toggle", None),
        "roll_for": ("roll_for", None),
        "tray_box": ("tray_box", _REQUIRED),
        "tray_bar": ("tray_bar", _REQUIRED),
    },
    "gm_desk": {
        "notes_box": ("notes_box", None),
        "seats_box": ("seats_box", None),
        "combat_add": ("combat_add", None),
        "_new_link": ("_new_link", _REQUIRED),
        **{
            name: (name, _REQUIRED)
            for name in ("combat_pick", "combat_pick_hidden", "combat_add_button", *TAB_WIDGETS)
            if TAB_WIDGETS.get(name) != "tab_sessions"
        },
    },
    "sessions_tab": {
        "sessions_box": ("box", None),
        "sessions_built": ("built", False),
        **{name: (name, _REQUIRED) for name in SESSIONS_PARTS},
    },
}


class _PartName:
    """A name of the screen that is one of its parts' (see :data:`PART_NAMES`)."""

    def __init__(self, part: str, name: str, attr: str, default: Any):
        self.part, self.name, self.attr, self.default = part, name, attr, default

    def __get__(self, view, owner=None):
        if view is None:
            return self
        part = view.__dict__.get(self.part)
        if part is None:
            if self.default is _REQUIRED:
                raise AttributeError(f"{type(view).__name__!r} object has no attribute {self.name!r}")
            return self.default
        return getattr(part, self.attr)


def keep_part_names(cls: type) -> None:
    """Give ``cls`` (the screen) every name of :data:`PART_NAMES`."""
    for part, names in PART_NAMES.items():
        for name, (attr, default) in names.items():
            setattr(cls, name, _PartName(part, name, attr, default))


__all__ = ["PART_NAMES", "TAB_WIDGETS", "keep_part_names"]
