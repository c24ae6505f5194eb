"""One switch, one language: the page's language and its one EN/RU control.

A page (a notebook, a Voila dashboard: one kernel each) has one :class:`PageLanguage`,
:func:`page_language`. Every widget made without an explicit ``locale=`` follows it: its
``locale`` starts at the page's and changes with it. :func:`language_switch` returns the
page's one EN/RU control (the same widget every time it is called); while it exists the
widgets following the page hide their own toggles, and the page's prose written in blocks per
language (``<div class="tt-lang tt-lang-en" lang="en">`` … ``</div>`` in a markdown cell)
shows only the blocks of the chosen language, in Voila and in JupyterLab alike (the switch
carries the style that hides the others). A widget shown alone in a notebook keeps its own
toggle, and clicking it switches the page (and so every widget following it).

A widget given ``locale=`` explicitly keeps its own language (a table view sets its parts'
languages itself).
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import LOCALES

from .base import locale_validator

#: Names of the languages in themselves (the switch's tooltips).
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}
#: The switch's accessible label, in each language.
SWITCH_LABEL = {"en": "Language", "ru": "Язык"}


class PageLanguage(traitlets.HasTraits):
    """The language of one page. ``locale`` is the language every following widget shows;
    ``has_switch`` says whether the page shows its one switch (:func:`language_switch`)."""

    locale = traitlets.Unicode("en", help="The page's language: 'en' or 'ru'")
    has_switch = traitlets.Bool(False, help="Whether the page's one EN/RU switch exists")

    def __init__(self, locale: str = "en", **kwargs: Any):
        super().__init__(**kwargs)
        self.locale = locale
        self._switch: widgets.Box | None = None

    _valid = locale_validator()

    # -- following --------------------------------------------------------------------------
    def follow(self, widget: Any, toggle: widgets.Widget | None = None) -> None:
        """``widget.locale`` follows this page from now on; its own ``toggle`` (if any) is
        hidden while the page has a switch. Held weakly: a closed widget is let go."""
        ref = weakref.ref(widget)
        toggle_ref = weakref.ref(toggle) if toggle is not None else None
        widget._tt_page_language = self

        def on_locale(change, ref=ref):
            w = ref()
            if w is None:
                self.unobserve(on_locale, names="locale")
                return
            if getattr(w, "locale", None) != change["new"]:
                w.locale = change["new"]

        def on_switch(change, toggle_ref=toggle_ref):
            t = toggle_ref() if toggle_ref is not None else None
            if t is None:
                if toggle_ref is not None:
                    self.unobserve(on_switch, names="has_switch")
                return
            t.layout.display = "none" if change["new"] else None

        self.observe(on_locale, names="locale")
        if toggle_ref is not None:
            self.observe(on_switch, names="has_switch")
            on_switch({"new": self.has_switch})

    # -- the one control --------------------------------------------------------------------
    def switch(self) -> widgets.Box:
        """The page's one EN/RU control (made once): the toggle, and the style that shows the
        prose blocks of the chosen language only."""
        if self._switch is not None:
            return self._switch
        toggle = widgets.ToggleButtons(
            options=[("EN", "en"), ("RU", "ru")],
            value=self.locale,
            tooltips=[LANGUAGE_NAMES["en"], LANGUAGE_NAMES["ru"]],
            style={"button_width": "46px"},
        )
        toggle.add_class("tt-locale")
        toggle.add_class("tt-page-locale")
        style = widgets.HTML(layout=widgets.Layout(display="none"))
        style.add_class("tt-lang-style")
        box = widgets.HBox([toggle, style])
        box.add_class("tt-language-switch")
        box.toggle, box.style_block = toggle, style

        def draw(_change=None):
            loc = self.locale
            if toggle.value != loc:
                toggle.value = loc
            toggle.tooltip = SWITCH_LABEL[loc]
            style.value = prose_style(loc)

        def on_toggle(change):
            if change["new"] in LOCALES:  # a forged value is put back by draw()
                self.locale = change["new"]
            draw()

        toggle.observe(on_toggle, names="value")
        self.observe(draw, names="locale")
        draw()
        self._switch = box
        self.has_switch = True
        return box


def prose_style(locale: str) -> str:
    """The ``<style>`` that hides the prose blocks not in ``locale`` (``.tt-lang-xx``)."""
    hidden = ", ".join(f".tt-lang-{other}" for other in LOCALES if other != locale)
    # the prose names buttons with their signs ("Next ▶", "↶ Undo"): the bundled symbols first
    font = "font-family: 'TT Symbols', var(--jp-content-font-family, system-ui, sans-serif);"
    return f'<style class="tt-lang-rules">{hidden} {{ display: none !important; }} .tt-lang {{ {font} }}</style>'


_PAGE: PageLanguage | None = None


def page_language() -> PageLanguage:
    """This page's language (one per kernel: a Voila page or a notebook)."""
    global _PAGE
    if _PAGE is None:
        _PAGE = PageLanguage()
    return _PAGE


def reset_page_language() -> PageLanguage:
    """A fresh page language (the old switch, if any, no longer drives anything new)."""
    global _PAGE
    _PAGE = PageLanguage()
    return _PAGE


def language_switch(locale: str | None = None) -> widgets.Box:
    """The page's one EN/RU control (class ``tt-language-switch``); ``locale`` sets the
    page's language first. Every widget made without ``locale=`` follows it, and the prose
    blocks of the other language are hidden."""
    page = page_language()
    if locale is not None:
        page.locale = locale
    return page.switch()


def start_locale(locale: str | None) -> str:
    """For a widget's ``__init__``: the language it starts in (``None``: the page's; a given
    one as it is: the widget's own ``locale`` trait says what it accepts)."""
    return page_language().locale if locale is None else locale


def adopt(widget: Any, locale: str | None, toggle: widgets.Widget | None = None) -> None:
    """For the end of a widget's ``__init__``: with ``locale=None`` (none given) the widget
    follows the page from now on (:meth:`PageLanguage.follow`, its own ``toggle`` hidden while
    the page has a switch); with a ``locale`` it keeps a language of its own."""
    if locale is None:
        page_language().follow(widget, toggle)


def follows_page(widget: Any) -> bool:
    """Whether ``widget`` follows the page's language."""
    return getattr(widget, "_tt_page_language", None) is not None


def toggled(widget: Any, value: Any, fallback: Callable[[str], None] | None = None) -> None:
    """A widget's own EN/RU toggle was clicked: a widget following the page switches the page
    (every widget on it follows); one with a language of its own switches itself."""
    if value not in LOCALES:
        return
    page = getattr(widget, "_tt_page_language", None)
    if page is not None:
        page.locale = value
    if getattr(widget, "locale", None) != value:
        (fallback or (lambda v: setattr(widget, "locale", v)))(value)


__all__ = [
    "LANGUAGE_NAMES",
    "PageLanguage",
    "adopt",
    "follows_page",
    "language_switch",
    "page_language",
    "prose_style",
    "reset_page_language",
    "start_locale",
    "toggled",
]
