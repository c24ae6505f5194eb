"""Counting what building a view costs a page: the widget models it makes and the updates it
sends after them (each one a message the kernel sends and the browser handles)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import ipywidgets as widgets
from ipywidgets.widgets import widget as widget_module


def counted(make: Callable[[], Any], monkeypatch) -> tuple[Any, list, Counter]:
    """Call ``make()``; return what it made, the models it made and the updates (by trait name)
    sent meanwhile."""
    updates: Counter = Counter()
    original = widgets.Widget.send_state

    def counting(self, key=None):
        keys = key if isinstance(key, (list, tuple, set)) else [key]
        for k in keys:
            updates[k] += 1
        return original(self, key)

    before = set(widget_module._instances)
    monkeypatch.setattr(widgets.Widget, "send_state", counting)
    try:
        made = make()
    finally:
        monkeypatch.setattr(widgets.Widget, "send_state", original)
    models = [w for k, w in widget_module._instances.items() if k not in before]
    return made, models, updates
