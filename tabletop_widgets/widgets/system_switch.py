"""A row of the installed game systems above one part of a page (the gallery's sheet, tray or
tracker): a click shows the part for that system instead.

:class:`SystemSwitch` takes ``build(slug, locale) -> widget``; it builds the part for the chosen
system only (the page holds one sheet, one tray, one tracker), and on a switch closes the old part
and builds the new one in the language the old one showed. Its labels follow the part's ``locale``
(the part's own EN/RU toggle). Classes: ``tt-system-switch`` (the whole), ``tt-system-choice``
(the buttons), ``tt-system-caption``, ``tt-system-part`` (the part's box).
"""

from __future__ import annotations

import html
from typing import Any, Callable, Sequence

import ipywidgets as widgets

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.registry import available_systems, system_title
from tabletop_widgets.front import stylesheet

from .base import close_tree, text_lookup, valid_locale

#: The built-in systems in the order the index lists them; others follow, by slug.
ORDER = ("ret", "seasons", "life_and_death", "threads_of_fate")

TEXTS = {
    "label": {"en": "Game system", "ru": "Игровая система"},
    "tip": {"en": "Show this part for {title}", "ru": "Показать это для «{title}»"},
}
_t = text_lookup(TEXTS)


def short_title(slug: str, locale: str) -> str:
    """A system's name without its subtitle: "R.E.T." for "R.E.T. — Mind, Emotions, Body",
    "Threads of Fate" for "Threads of Fate: Post-Apocalypse", "Нити судьбы" for "Нити судьбы.
    Постапокалипсис"."""
    title = tr(system_title(slug), locale)
    for cut in (" — ", ": ", ". "):
        title = title.split(cut, 1)[0]
    return title


def in_order(slugs: Sequence[str]) -> list[str]:
    """The built-in systems first, in the index's order (:data:`ORDER`), then the others by slug."""
    return sorted(slugs, key=lambda s: (ORDER.index(s) if s in ORDER else len(ORDER), s))


def _locale_owner(widget: Any):
    """The part's widget that carries a ``locale`` trait: the part itself or its first child
    that does (a tray above its log)."""
    if widget is not None and widget.has_trait("locale"):
        return widget
    for child in getattr(widget, "children", ()) or ():
        if child.has_trait("locale"):
            return child
    return None


class SystemSwitch(widgets.VBox):
    """The installed systems as buttons, and ``build(slug, locale)``'s part for the chosen one.

    Parameters
    ----------
    build : callable
        ``build(slug, locale) -> widget``: the part for one system, in one language.
    slug : str, optional
        The system shown first (default: the first installed one; an unknown slug too).
    locale : {"en", "ru"}
        The language of the first part and of the labels.
    caption : {"en": ..., "ru": ...}, optional
        One line under the buttons that says what the part shows.
    systems : sequence of str, optional
        The slugs to offer (default: every installed system, :func:`in_order`).

    Attributes
    ----------
    slug, locale, part
        The system shown, the labels' language, the part built for it.
    choice
        The buttons (``ToggleButtons``, class ``tt-system-choice``).
    """

    def __init__(
        self,
        build: Callable[[str, str], Any],
        slug: str | None = None,
        *,
        locale: str = "en",
        caption: dict[str, str] | None = None,
        systems: Sequence[str] | None = None,
        **kwargs: Any,
    ):
        self._build = build
        self.systems = list(systems) if systems is not None else in_order(available_systems())
        self.slug = slug if slug in self.systems else self.systems[0]
        self.locale = valid_locale(locale)
        self.caption_text = caption
        self._owner = None
        self._relabelling = False
        self.label = widgets.HTML(_dom_classes=("tt-system-label",))
        self.choice = widgets.ToggleButtons(
            options=self._options(), value=self.slug, style={"button_width": "auto"}, _dom_classes=("tt-system-choice",)
        )
        self.caption = widgets.HTML(_dom_classes=("tt-system-caption",))
        self.box = widgets.VBox(_dom_classes=("tt-system-part",))
        head = widgets.HBox([self.label, self.choice], _dom_classes=("tt-system-row",))
        style = widgets.HTML(stylesheet("gallery"), layout=widgets.Layout(display="none"), _dom_classes=("tt-style",))
        super().__init__([style, head, self.caption, self.box], **kwargs)
        self.add_class("tt-system-switch")
        self.part = None
        self._show(self.slug, self.locale)
        self.choice.observe(self._on_choice, names="value")

    # -- switching -----------------------------------------------------------------------------
    def select(self, slug: str) -> None:
        """Show the part for ``slug`` (the buttons do the same)."""
        if slug not in self.systems:
            raise KeyError(f"unknown system {slug!r}: expected one of {', '.join(self.systems)}")
        self.choice.value = slug

    def _on_choice(self, change) -> None:
        if self._relabelling:
            return
        if change["new"] not in self.systems:  # a forged value: put the shown one back
            self.choice.value = self.slug
            return
        if change["new"] != self.slug:
            self._show(change["new"], self.locale)

    def _show(self, slug: str, locale: str) -> None:
        old = self.part
        if self._owner is not None:
            self._owner.unobserve(self._on_part_locale, names="locale")
        self.slug = slug
        self.part = self._build(slug, locale)
        self._owner = _locale_owner(self.part)
        if self._owner is not None:
            self._owner.observe(self._on_part_locale, names="locale")
        self.box.children = (self.part,)
        if old is not None:
            close_tree(old)
        self._draw()

    # -- labels --------------------------------------------------------------------------------
    def _on_part_locale(self, change) -> None:
        self.locale = valid_locale(change["new"])
        self._draw()

    def _options(self) -> list[tuple[str, str]]:
        return [(short_title(s, self.locale), s) for s in self.systems]

    def _draw(self) -> None:
        loc = self.locale
        options = self._options()
        # the buttons' new words, their value and tips in one message, before the label: a
        # click on a button that reads the new words never meets the old buttons
        with self.choice.hold_sync():
            if list(self.choice.options) != options:  # relabelled: the value stays the shown system
                self._relabelling = True
                try:
                    self.choice.options = options
                    self.choice.value = self.slug
                finally:
                    self._relabelling = False
            self.choice.tooltips = [_t("tip", loc, title=short_title(s, loc)) for s in self.systems]
            self.choice.tooltip = _t("label", loc)
        self.label.value = html.escape(_t("label", loc))
        text = tr(self.caption_text, loc) if self.caption_text else ""
        self.caption.value = html.escape(text)
        self.caption.layout.display = None if text else "none"


__all__ = ["ORDER", "SystemSwitch", "in_order", "short_title"]
