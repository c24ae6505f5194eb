"""What the character sheet and the creation wizard share: each is a view of one character,
with its system, the viewer's role check (``can``), a :class:`~.sheet_context.SheetContext`
for its field views, and an EN/RU toggle of its own that follows the page's language unless the
widget was given one.

:class:`CharacterView` is their base class (beside ``widgets.VBox``): ``view_character`` is the
first step of their ``__init__``, ``follow_locale`` the start of their ``locale`` observer and
``stop_following`` the start of their ``close``.
"""

from __future__ import annotations

from typing import Any, Callable

import traitlets

from tabletop_widgets.core.i18n import check_locale
from tabletop_widgets.core.registry import get_system

from . import language
from .sheet_context import SheetContext


class CharacterView:
    """A view of one character (see the module's docs). After :meth:`view_character`:
    ``character``, ``system``, ``can`` and ``ctx``; the subclass makes ``locale_toggle``."""

    def view_character(
        self,
        character,
        system=None,
        *,
        locale: str | None = None,
        can: Callable[[str], bool] | None = None,
        perform: Callable[[Any, list], Any] | None = None,
    ) -> tuple[str | None, str]:
        """Bind the view to ``character`` (its system found from ``character.SYSTEM`` unless
        given; ``can`` allows everything unless given). Returns the ``locale`` given (None: follow
        the page's language) and the one to start in (checked)."""
        given, locale = locale, language.start_locale(locale)  # None: the page's language
        check_locale(locale)
        self.character = character
        self.system = system if system is not None else get_system(character.SYSTEM)
        self.can = can or (lambda action: True)
        self.ctx = SheetContext(character, self.system, locale=locale, can=self.can, perform=perform)
        return given, locale

    def follow_locale(self, locale: str) -> bool:
        """The view's ``locale`` changed: its field views and its toggle speak ``locale``.
        False while the view is not built yet (nothing to relabel)."""
        if not hasattr(self, "ctx") or not hasattr(self, "locale_toggle"):
            return False
        self.ctx.locale = locale
        if self.locale_toggle.value != locale:
            self.locale_toggle.value = locale
        return True

    def stop_following(self, handler: Callable[[Any], None]) -> None:
        """No longer call ``handler`` on the character's changes (a no-op when it was not)."""
        try:
            self.character.unobserve(handler, names=traitlets.All)
        except ValueError:
            pass


__all__ = ["CharacterView"]
