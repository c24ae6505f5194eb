"""The tracker's fight forecast, for the GM only: a folded "Forecast" / «Прогноз боя» part whose
small table says, for each combatant, how likely it is to be out of the fight within 1, 2 and 3
rounds, with the fight's expected length and whether the figures are exact or simulated (and
their error). The numbers are :func:`tabletop_widgets.core.combat.forecast.forecast`'s; this
module only shows them.

GM only: a tracker whose ``audience`` is not ``"gm"`` gets an empty box and never computes a
forecast, so no figure (nor anything of a hidden combatant) reaches a player's widget state. The
table is made when the part is first opened and redrawn on every change of the fight (a turn, an
attack, damage, undo) and of the language while it is open; folded, it waits until opened again.
A sheet edit outside the fight (no event) is taken in at the next change or opening.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from tabletop_widgets.core.combat.forecast import Forecast, forecast
from tabletop_widgets.core.combat.forecast import forecast_html as core_forecast_html
from tabletop_widgets.front import compact, css

from .base import text_lookup
from .tracker_parts import html_view

#: the rounds shown as columns (the forecast itself looks further, for the expected length)
SHOWN_ROUNDS = 3

TEXTS = {
    "section": {"en": "Forecast", "ru": "Прогноз боя"},
    "nobody": {"en": "Nobody is in the fight.", "ru": "В бою никого нет."},
    "failed": {"en": "No forecast: {why}", "ru": "Прогноза нет: {why}"},
}

_CSS = "<style>" + compact(css("forecast")) + "</style>"

_t = text_lookup(TEXTS)


def forecast_html(f: Forecast, locale: str) -> str:
    """The forecast's table with its length and how it was computed, in ``locale`` (drawn by
    :func:`tabletop_widgets.core.combat.forecast.forecast_html`, as a notebook's is)."""
    return core_forecast_html(f, locale, SHOWN_ROUNDS)


class ForecastPart:
    """The folded forecast of a :class:`~.tracker.CombatTracker`: ``box`` is what the tracker
    shows (empty for a player's tracker); ``fold`` (the Accordion, GM only) and ``view`` (the
    table, made when first opened) are its widgets; ``last`` is the forecast shown."""

    def __init__(self, tracker, **options: Any):
        self.tracker = tracker
        self.options = options  # given to forecast() (rounds, samples, seed...)
        self.fold: widgets.Accordion | None = self._make_fold() if tracker.audience == "gm" else None
        # made with its fold and the fold's title: no update after the models (the page's budget)
        self.box = widgets.VBox([self.fold] if self.fold is not None else [], _dom_classes=("tt-forecast-box",))
        self.view: widgets.HTML | None = None
        self.last: Forecast | None = None
        self._stale = True
        tracker.combat.observe(self._changed)
        # a sheet edit (no event): worked out again at the next step of the fight or opening
        tracker.combat.observe_characters(self._character_changed)
        tracker.observe(self._on_tracker, names=["locale", "audience"])
        self._follow_audience()

    # -- who may have it -------------------------------------------------------------------------
    def _follow_audience(self) -> None:
        """The fold for the GM; nothing (and no figure kept) for anyone else."""
        if self.tracker.audience != "gm":
            if self.fold is not None:
                for pane in self.fold.children:
                    pane.close()
                self.fold.close()
            if self.view is not None:
                self.view.close()
            self.fold = self.view = self.last = None
            self.box.children = ()
            return
        if self.fold is None:
            self.fold = self._make_fold()
            self.box.children = (self.fold,)
        title = _t("section", self.tracker.locale)
        if self.fold.get_title(0) != title:
            self.fold.set_title(0, title)

    def _make_fold(self) -> widgets.Accordion:
        fold = widgets.Accordion(
            [widgets.VBox()],
            titles=(_t("section", self.tracker.locale),),
            selected_index=None,
            _dom_classes=("tt-forecast-fold",),
        )
        fold.observe(self._on_fold, names="selected_index")
        return fold

    def _on_tracker(self, change) -> None:
        if change["name"] == "audience":
            self._follow_audience()
            self._stale = True
        elif self.fold is not None and self.fold.get_title(0) != _t("section", self.tracker.locale):
            self.fold.set_title(0, _t("section", self.tracker.locale))
        self.render()

    # -- when to work it out -----------------------------------------------------------------------
    @property
    def is_open(self) -> bool:
        return self.fold is not None and self.fold.selected_index == 0

    def _on_fold(self, change) -> None:
        if change["new"] == 0:
            self.render()

    def _changed(self, _event: Any) -> None:
        self._stale = True
        if self.is_open:
            self.render()

    def _character_changed(self, _cid: str) -> None:
        self._stale = True

    def render(self) -> None:
        """Work the forecast out again (when the fight changed since) and draw it, while open."""
        if not self.is_open or self.tracker.audience != "gm":
            return
        if self.view is None:
            self.view = html_view("tt-forecast-view")
            self.fold.children[0].children = [self.view]
        loc = self.tracker.locale
        combat = self.tracker.combat
        if not combat.order:
            self.view.value = f'{_CSS}<div class="tt-forecast-none">{html.escape(_t("nobody", loc))}</div>'
            return
        if self._stale or self.last is None:
            try:
                self.last = forecast(combat, sides=self._sides(), **self.options)
            except Exception as exc:  # a system's hook that fails: said, never a broken tracker
                self.last = None
                why = html.escape(str(exc) or type(exc).__name__)
                self.view.value = (
                    f'{_CSS}<div class="tt-forecast-none">{html.escape(_t("failed", loc, why=""))}{why}</div>'
                )
                return
            self._stale = False
        self.view.value = _CSS + forecast_html(self.last, loc)

    def _sides(self) -> dict[str, Any]:
        """The play's sides (at a table: the players' characters against the GM's)."""
        t = self.tracker
        return {cid: t.play.side(t.combat, cid) for cid in t.combat.order}
