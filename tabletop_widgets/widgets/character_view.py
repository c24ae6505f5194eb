"""What the character sheet and the creation wizard share: each is a view of one character,
with its system, the viewer's role check (``can``), a :class:`~.sheet_context.SheetContext`
for its field views, and an EN/RU toggle of its own that follows the page's language unless the
widget was given one.

:class:`CharacterBinding` is that binding as a part: the character, its system, and what the
viewer may do to it and how it is done (through a :class:`~tabletop_widgets.core.play.Play`
when one is given). The sheet builds one; the wizard's base class :class:`CharacterView` (beside
``widgets.VBox``) builds one in ``view_character``, the first step of its ``__init__``.
"""

from __future__ import annotations

from typing import Any, Callable

import traitlets

from tabletop_widgets.core.i18n import check_locale
from tabletop_widgets.core.registry import get_system

from . import language
from .sheet_context import SheetContext


def allow_all(action: str) -> bool:
    """The role check of a view given none: everything is allowed."""
    return True


class CharacterBinding:
    """One character bound to its system and to what its viewer does to it.

    Inputs: ``character`` (any system's ``Character``, edited in place), ``system`` (None:
    ``get_system(character.SYSTEM)``), the starting ``locale``, and the seams of the play
    interface. With a ``play`` (:mod:`tabletop_widgets.core.play`), each seam not given is the
    play's for ``character_id``: ``can(action)`` is ``play.can(action, character_id)``,
    ``perform(action, args)`` is ``play.sheet_action(...)``, ``advance(advance_id, **options)``
    and ``award(resource, amount)`` the play's. Without one, ``can`` allows everything and the
    others stay None (the rules run on the character here).

    Attributes: ``character``, ``system``, ``play``, ``character_id``, ``can``, ``perform``,
    ``advance``, ``award``, and ``ctx``, the :class:`SheetContext` the field views share.
    """

    def __init__(
        self,
        character,
        system=None,
        *,
        locale: str = "en",
        can: Callable[[str], bool] | None = None,
        perform: Callable[[Any, list], Any] | None = None,
        advance: Callable[..., Any] | None = None,
        award: Callable[..., Any] | None = None,
        play=None,
        character_id: str | None = None,
    ):
        self.character = character
        self.system = system if system is not None else get_system(character.SYSTEM)
        self.play, self.character_id = play, character_id
        if play is not None:
            can = can or (lambda action: play.can(action, character_id))
            perform = perform or (lambda action, args: play.sheet_action(character_id, character, action, args))
            advance = advance or (
                lambda advance_id, **options: play.advance(character_id, character, advance_id, **options)
            )
            award = award or (lambda resource, amount: play.award(character_id, character, resource, amount))
        self.can = can or allow_all
        self.perform, self.advance, self.award = perform, advance, award
        self.ctx = SheetContext(character, self.system, locale=locale, can=self.can, perform=perform)

    def observe(self, handler: Callable[[Any], None]) -> None:
        """Call ``handler`` on every change of the character's traits."""
        self.character.observe(handler, names=traitlets.All)

    def unobserve(self, handler: Callable[[Any], None]) -> None:
        """No longer call ``handler`` on the character's changes (a no-op when it was not)."""
        try:
            self.character.unobserve(handler, names=traitlets.All)
        except ValueError:
            pass


class CharacterView:
    """A view of one character (see the module's docs). After :meth:`view_character`:
    ``binding``, and its ``character``, ``system``, ``can`` and ``ctx``; the subclass makes
    ``locale_toggle``."""

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
        self.binding = CharacterBinding(character, system, locale=locale, can=can, perform=perform)
        self.character, self.system = self.binding.character, self.binding.system
        self.can, self.ctx = self.binding.can, self.binding.ctx
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
        self.binding.unobserve(handler)


__all__ = ["CharacterBinding", "CharacterView", "allow_all"]
