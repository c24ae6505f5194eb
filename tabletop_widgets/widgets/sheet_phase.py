"""The phase of a sheet's character, and the one step from creation into play: the badge
(being created / in play) and, while the character is created, the **Finish character** action
(``GameSystem.start_play`` through the sheet's ``perform``; a refusal lists what is left).
"""

from __future__ import annotations

from tabletop_widgets.core.phases import FINISH_ACTION, phase_words

from .base import text_lookup
from .sheet_context import SheetContext, esc, hbox, html_widget, set_display
from .sheet_fields import ActionBar

#: User-facing text of the phase badge, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "phase_tip": {
        "en": "Being created: the creation rules apply. In play: only what always holds.",
        "ru": "Создаётся: действуют правила создания. В игре: только то, что верно всегда.",
    },
}

_t = text_lookup(TEXTS)


def phase_of(character) -> str:
    """The character's phase (``"creation"`` for a model without one)."""
    return getattr(character, "phase", "creation")


class PhaseBar:
    """The phase bar of a sheet (``widget``, ``.tt-sheet-phase-bar``): the phase badge
    (``badge``) and, while the character is created, the Finish character action (``finish``).

    Input: ``ctx``, the :class:`SheetContext` of the sheet's views (the character, the language,
    the role check and the ``perform`` the action runs through).
    """

    def __init__(self, ctx: SheetContext):
        self.ctx = ctx
        self.badge = html_widget(classes=["tt-sheet-phase"])
        self._finish: ActionBar | None = None  # made while the character is created (finish)
        if phase_of(ctx.character) == "creation":  # made with the bar: one message
            self._finish = ActionBar(ctx, FINISH_ACTION, classes=["tt-sheet-finish"])
        parts = [self.badge] + ([self._finish.widget] if self._finish is not None else [])
        self.widget = hbox(parts, classes=["tt-sheet-phase-bar"])

    @property
    def finish(self) -> ActionBar:
        """The Finish character action (``.tt-sheet-finish``), after the phase badge: shown
        only while the character is created, made when first needed."""
        if self._finish is None:
            self._finish = ActionBar(self.ctx, FINISH_ACTION, classes=["tt-sheet-finish"])
            if phase_of(self.ctx.character) != "creation":
                set_display(self._finish.widget, "none")
            self.widget.children = (*self.widget.children, self._finish.widget)
        return self._finish

    def finish_character(self) -> bool:
        """The Finish character action (as its button does): the character enters play, or the
        refusal's problems show under the button. Returns whether it entered play."""
        return self.finish.run()

    def relabel(self) -> None:
        """The Finish action's words in the sheet's language (when it was made)."""
        if self._finish is not None:
            self._finish.relabel()

    def render(self) -> None:
        """The phase badge; the Finish character action only while the character is created."""
        loc = self.ctx.locale
        phase = phase_of(self.ctx.character)
        self.badge.value = (
            f'<span class="tt-phase tt-phase-{esc(phase)}" title="{esc(_t("phase_tip", loc))}">'
            f"{esc(phase_words(phase, loc))}</span>"
        )
        if phase == "creation":
            set_display(self.finish.widget, None)
        elif self._finish is not None:
            set_display(self._finish.widget, "none")


__all__ = ["PhaseBar", "phase_of"]
