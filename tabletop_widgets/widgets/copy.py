"""A copy button: an anywidget whose ES module ships in ``tabletop_widgets/front/copy.js``.

Python owns the text (``text``) and the words (``label``, ``tooltip``, ``copied``,
``select_hint``); a click in the browser copies the text with the clipboard API (a user gesture)
or, where the browser refuses it (plain http on a LAN, a denied permission), shows it in a
selected text field with a hint to press Ctrl+C. The browser sends nothing back: a forged
message can change none of these traits' meaning for the table.
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets as t

from tabletop_widgets.front import asset


class CopyButton(anywidget.AnyWidget):
    """A button that copies ``text`` (class ``tt-copy``)."""

    _esm = asset("copy.js")

    text = t.Unicode("", help="What the button copies").tag(sync=True)
    label = t.Unicode("Copy", help="The button's words").tag(sync=True)
    tooltip = t.Unicode("", help="What the button copies, in words (also its accessible label)").tag(sync=True)
    copied = t.Unicode("Copied", help="Said once the text is on the clipboard").tag(sync=True)
    select_hint = t.Unicode(
        "Selected: press Ctrl+C (⌘C on a Mac)", help="Said when only the selected field is left"
    ).tag(sync=True)

    def __init__(self, text: str = "", **kwargs: Any):
        super().__init__(text=text, **kwargs)
        self.add_class("tt-copy")


__all__ = ["CopyButton"]
