"""What the widgets share: their text lookup, their locale check, their EN/RU toggle and closing a
tree of widgets.

Each widget module keeps its own ``TEXTS`` table (``key -> {"en": ..., "ru": ...}``) and makes
its lookup from it; each widget class with a ``locale`` trait takes the one validator::

    TEXTS = {"roll": {"en": "Roll", "ru": "Бросить"}, ...}
    _t = text_lookup(TEXTS)                  # _t("roll", "ru") == "Бросить"

    class DiceTray(widgets.VBox):
        locale = traitlets.Unicode("en").tag(sync=True)
        _check_locale = locale_validator()   # an unknown locale (a forged message too) is refused
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import ipywidgets as widgets
import traitlets

from tabletop_widgets.i18n import DEFAULT_LOCALE, LOCALES


def text_lookup(texts: Mapping[str, Mapping[str, str]]) -> Callable[..., str]:
    """The lookup of a widget module's ``texts``: ``lookup(key, locale, **fmt)`` is
    ``texts[key]`` in ``locale`` (English when that variant is missing or empty), formatted with
    ``fmt`` when any is given. A missing ``key`` raises ``KeyError`` (a programming error)."""

    def lookup(key: str, locale: str, **fmt: Any) -> str:
        entry = texts[key]
        text = entry.get(locale) or entry[DEFAULT_LOCALE]
        return text.format(**fmt) if fmt else text

    return lookup


def valid_locale(value: Any) -> str:
    """``value`` when it is one of :data:`LOCALES`; otherwise a ``TraitError`` naming them."""
    if value not in LOCALES:
        raise traitlets.TraitError(f"unknown locale {value!r}: expected one of {', '.join(LOCALES)}")
    return value


def locale_validator() -> Any:
    """A validator for a widget's ``locale`` trait (assign it in the class body): the trait takes
    only a known locale, whoever sets it (code, a link, a forged front-end message)."""

    def check(self: Any, proposal: Mapping[str, Any]) -> str:
        return valid_locale(proposal["value"])

    return traitlets.validate("locale")(check)


def locale_toggle(locale: str, button_width: str = "44px") -> widgets.ToggleButtons:
    """A widget's own EN/RU toggle (class ``tt-locale``) showing ``locale``; the widget observes
    it (``language.toggled``) and hands it to ``language.adopt``."""
    return widgets.ToggleButtons(
        options=[("EN", "en"), ("RU", "ru")],
        value=locale,
        style={"button_width": button_width},
        _dom_classes=("tt-locale",),  # made with its class: one message, not two
    )


def close_tree(widget: Any) -> None:
    """Close ``widget`` and every widget below it (its ``children``, recursively), so that no
    model is left alive in the kernel or the front end."""
    for child in getattr(widget, "children", ()) or ():
        close_tree(child)
    widget.close()


__all__ = ["close_tree", "locale_toggle", "locale_validator", "text_lookup", "valid_locale"]
