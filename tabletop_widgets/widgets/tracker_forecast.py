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
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.front import compact, css

from .tracker_parts import html_view

#: the rounds shown as columns (the forecast itself looks further, for the expected length)
SHOWN_ROUNDS = 3

TEXTS = {
    "section": {"en": "Forecast", "ru": "Прогноз боя"},
    "combatant": {"en": "Combatant", "ru": "Участник"},
    "out_within": {"en": "Out within", "ru": "Выбудет за"},
    "round_1": {"en": "1 round", "ru": "1 раунд"},
    "round_2": {"en": "2 rounds", "ru": "2 раунда"},
    "round_3": {"en": "3 rounds", "ru": "3 раунда"},
    "out_now": {"en": "out", "ru": "выбыл"},
    "hidden": {"en": "hidden", "ru": "скрыт"},
    "length": {
        "en": "Expected length: {length} rounds",
        "ru": "Ожидаемая длина боя: {length} раунда",
    },
    "beyond": {
        "en": "({beyond} chance it lasts beyond {rounds})",
        "ru": "(с вероятностью {beyond} дольше {rounds})",
    },
    "over": {
        "en": "The fight is over: at most one side is still in it.",
        "ru": "Бой окончен: в нём осталось не больше одной стороны.",
    },
    "exact": {"en": "exact", "ru": "точно"},
    "simulated": {"en": "simulated: ±{error}", "ru": "моделирование: ±{error}"},
    "simulated_tip": {
        "en": "{samples} simulated fights (seed {seed}); ± is the 95% margin of the least certain figure",
        "ru": "{samples} смоделированных боёв (зерно {seed}); ± — 95% погрешность наименее точного числа",
    },
    "assumes": {
        "en": "Everyone attacks the first foe in turn order still standing, with the first attack offered and its"
        " default options; no resources spent. Only you see this.",
        "ru": "Каждый атакует первого в порядке ходов противника, который ещё в бою, первой предложенной атакой"
        " с настройками по умолчанию, не тратя ресурсов. Это видите только вы.",
    },
    "nobody": {"en": "Nobody is in the fight.", "ru": "В бою никого нет."},
    "failed": {"en": "No forecast: {why}", "ru": "Прогноза нет: {why}"},
}

_CSS = "<style>" + compact(css("forecast")) + "</style>"


def _t(key: str, locale: str, **kw: Any) -> str:
    text = TEXTS[key].get(locale) or TEXTS[key]["en"]
    return text.format(**kw) if kw else text


def _num(x: float, locale: str) -> str:
    """A number with one decimal, with a decimal comma in Russian."""
    text = f"{x:.1f}"
    return text.replace(".", ",") if locale == "ru" else text


def _pct(p: float) -> str:
    """A chance as a whole percent, with "<1%" and ">99%" for the ones that round away."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{p:.0%}"


def forecast_html(f: Forecast, locale: str) -> str:
    """The forecast as a small table with its length and how it was computed, in ``locale``."""
    shown = min(SHOWN_ROUNDS, f.rounds)
    heads = "".join(f"<th>{html.escape(_t(f'round_{r}', locale))}</th>" for r in range(1, shown + 1))
    rows = []
    for row in f.rows:
        name = html.escape(row.name)
        if row.hidden:
            name += f' <span class="tt-forecast-hidden">{html.escape(_t("hidden", locale))}</span>'
        if row.p_out_now:
            cells = f'<td colspan="{shown}" class="tt-forecast-out">{html.escape(_t("out_now", locale))}</td>'
        else:
            cells = "".join(f'<td class="{_band(p)}">{html.escape(_pct(p))}</td>' for p in row.p_out[:shown])
        rows.append(f'<tr><th scope="row">{name}</th>{cells}</tr>')
    table = (
        '<table class="tt-forecast-table"><thead>'
        f'<tr><th rowspan="2">{html.escape(_t("combatant", locale))}</th>'
        f'<th colspan="{shown}">{html.escape(_t("out_within", locale))}</th></tr>'
        f"<tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return f'<div class="tt-forecast">{table}{_summary(f, locale)}</div>'


def _band(p: float) -> str:
    return "tt-forecast-hi" if p >= 0.67 else "tt-forecast-mid" if p >= 0.33 else "tt-forecast-lo"


def _summary(f: Forecast, locale: str) -> str:
    if f.expected_length == 0 and f.beyond == 0:
        length = html.escape(_t("over", locale))
    else:
        length = html.escape(_t("length", locale, length=_num(f.expected_length, locale)))
        if f.beyond >= 0.005:
            length += " " + html.escape(_t("beyond", locale, beyond=_pct(f.beyond), rounds=f.rounds))
    if f.exact:
        how = f'<span class="tt-forecast-how">{html.escape(_t("exact", locale))}</span>'
    else:
        tip = html.escape(_t("simulated_tip", locale, samples=f.samples, seed=f.seed))
        error = _num(f.error * 100, locale) + "%"
        how = f'<span class="tt-forecast-how" title="{tip}">{html.escape(_t("simulated", locale, error=error))}</span>'
    notes = "".join(f"<li>{html.escape(tr(n, locale))}</li>" for n in f.notes)
    notes = f'<ul class="tt-forecast-notes">{notes}</ul>' if notes else ""
    assumes = f'<div class="tt-forecast-assumes">{html.escape(_t("assumes", locale))}</div>'
    return f'<div class="tt-forecast-summary">{length} · {how}</div>{notes}{assumes}'


class ForecastPart:
    """The folded forecast of a :class:`~.tracker.CombatTracker`: ``box`` is what the tracker
    shows (empty for a player's tracker); ``fold`` (the Accordion, GM only) and ``view`` (the
    table, made when first opened) are its widgets; ``last`` is the forecast shown."""

    def __init__(self, tracker, **options: Any):
        self.tracker = tracker
        self.options = options  # given to forecast() (rounds, samples, seed...)
        self.box = widgets.VBox(_dom_classes=("tt-forecast-box",))
        self.fold: widgets.Accordion | None = None
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
            self.fold = widgets.Accordion([widgets.VBox()], selected_index=None, _dom_classes=("tt-forecast-fold",))
            self.fold.observe(self._on_fold, names="selected_index")
            self.box.children = (self.fold,)
        self.fold.set_title(0, _t("section", self.tracker.locale))

    def _on_tracker(self, change) -> None:
        if change["name"] == "audience":
            self._follow_audience()
            self._stale = True
        elif self.fold is not None:
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
