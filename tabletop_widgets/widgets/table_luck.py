"""The Luck part of a seat's Sessions tab: :class:`LuckPart`. After a session ends (its dice key
revealed), each of the seat's rolls of it with its total and its percentile as a bar, and the
evening's line ("luckier than 78% of evenings"); the GM sees every seat's; a player has a
**Share** button that tells the table their summary. The reports shared with the table are listed
under it. The table layer computes everything (:meth:`TableSession.luck_report`,
:meth:`~tabletop_widgets.table.TableSession.share_luck`); this draws."""

from __future__ import annotations

import logging
from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.core.i18n import T, tr
from tabletop_widgets.front import compact, css
from tabletop_widgets.table import LUCK_SHARED, EventError, PlayError, is_kind, luck_sentence

from .base import text_lookup
from .table_texts import TEXTS as TABLE_TEXTS, esc, gm_words

log = logging.getLogger(__name__)

TEXTS = {
    "luck": T("Luck", "Удача"),
    "luck_session": T("How lucky was session {n}", "Насколько везло в сессии {n}"),
    "luck_wait": T(
        "Your luck report comes once the {gm} ends the session and its dice key is revealed.",
        "Отчёт об удаче появится, когда {gm} закончит сессию и ключ кубиков будет раскрыт.",
    ),
    "luck_what": T("Roll", "Бросок"),
    "luck_total": T("Total", "Итог"),
    "luck_pct": T("Percentile", "Процентиль"),
    "luck_hidden": T("hidden", "скрыто"),
    "luck_flag": T(
        "does not match the seed: the seed's total is counted", "не совпадает с ключом: учтён итог по ключу"
    ),
    "luck_skipped": T("Not counted: {what}", "Не учтены: {what}"),
    "luck_share": T("Share with the table", "Поделиться со столом"),
    "luck_share_tip": T(
        "Tell every seat your evening's numbers (not your rolls)",
        "Сообщить всем за столом итоги вечера (без самих бросков)",
    ),
    "luck_shared_done": T("Shared with the table.", "Отправлено всем за столом."),
    "luck_shared_title": T("Shared with the table", "Поделились со столом"),
    "luck_none": T("No roll of yours was counted.", "Ни один ваш бросок не учтён."),
    "luck_cannot": T("The luck report cannot be made: {why}", "Отчёт об удаче не составить: {why}"),
}

_t = text_lookup(TEXTS)


class LuckPart:
    """The Luck part (``box``): built on :meth:`render` (the report is computed then, and again
    when the table's sessions change: ``recompute``). ``say`` and ``refused`` are the screen's
    status line."""

    def __init__(
        self,
        session: Any,
        locale: str,
        *,
        say: Callable[[str | None, Any], Any],
        refused: Callable[[BaseException], Any],
    ):
        self.session = session
        self.locale = locale
        self.say, self.refused = say, refused
        self.is_gm = session.role == "gm"
        self._report: Any = None  # the computed report, a PlayError (not revealed yet), or None
        self._computed = False
        self.view = widgets.HTML()
        self.view.add_class("tt-luck-view")
        self.share_button = widgets.Button(button_style="info", layout=widgets.Layout(width="auto", display="none"))
        self.share_button.add_class("tt-luck-share")
        self.share_button.on_click(lambda _b: self.share())
        self.box = widgets.VBox([self.view, self.share_button])
        self.box.add_class("tt-luck-part")
        self._unsubscribe = session.on_events(self._on_events)

    def _on_events(self, events) -> None:
        if any(is_kind(e, LUCK_SHARED) for e in events):
            try:
                self.render()
            except Exception:  # never let a drawing bug stop the follower
                log.exception("luck part: redraw failed")

    def report(self):
        """This seat's luck report of the last ended session (computed once per change)."""
        if not self._computed:
            self._computed = True
            try:
                self._report = self.session.luck_report()
            except PlayError as exc:
                self._report = exc
            except Exception as exc:  # the part must not take the page down
                log.exception("luck report failed")
                self._report = exc
        return self._report

    def render(self, *, recompute: bool = False) -> None:
        if recompute:
            self._computed = False
        loc = self.locale
        report = self.report()
        parts = [f"<style>{compact(css('luck'))}</style>", f"<h3>{esc(_t('luck', loc))}</h3>"]
        show_share = False
        if isinstance(report, PlayError) and getattr(report, "code", "") == "luck_not_revealed":
            parts.append(
                f'<p class="tt-luck-hint">{esc(_t("luck_wait", loc, **gm_words(self.session.system, loc)))}</p>'
            )
        elif isinstance(report, BaseException):
            why = tr(getattr(report, "message", None) or {"en": str(report)}, loc)
            parts.append(f'<p class="tt-luck-hint">{esc(_t("luck_cannot", loc, why=why))}</p>')
        elif report is not None:
            parts.append(f"<h4>{esc(_t('luck_session', loc, n=report.session))}</h4>")
            seats = list(report.seats.items()) if self.is_gm else [(report.seat, report.own)]
            for seat, mine in seats:
                parts.append(self._seat_html(seat, mine, report.session, loc))
            shared = self.session.shared_luck(report.session)
            show_share = not self.is_gm and self.session.can("luck.share") and self.session.seat not in shared
            parts.append(self._shared_html(shared, loc))
        self.view.value = f'<div class="tt-luck">{"".join(parts)}</div>'
        self.share_button.description = _t("luck_share", loc)
        self.share_button.tooltip = _t("luck_share_tip", loc)
        self.share_button.layout.display = None if show_share else "none"

    def _seat_html(self, seat: str, mine, n: int, loc: str) -> str:
        """One seat's rolls (a table of bars) and its evening line."""
        out = []
        if self.is_gm:
            out.append(f"<h4>{esc(self._who(seat))}</h4>")
        summary = LUCK_SHARED.read({"session": n, **mine.summary()})
        out.append(f'<p class="tt-luck-evening" role="status">{esc(luck_sentence(summary, loc))}</p>')
        if not mine.rolls and not self.is_gm:
            out.append(f'<p class="tt-luck-hint">{esc(_t("luck_none", loc))}</p>')
        if mine.rolls:
            head = "".join(
                f'<th class="{cls}">{esc(_t(key, loc))}</th>'
                for key, cls in (("luck_what", ""), ("luck_total", "tt-luck-total"), ("luck_pct", "tt-luck-pct"))
            )
            rows = "".join(self._roll_row(r, loc) for r in mine.rolls)
            out.append(f'<table class="tt-luck-rolls"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>')
        if mine.skipped:
            what = "; ".join(sorted({tr(s.why, loc) for s in mine.skipped}))
            out.append(
                f'<p class="tt-luck-skipped">{esc(_t("luck_skipped", loc, what=f"{len(mine.skipped)} ({what})"))}</p>'
            )
        return "".join(out)

    def _roll_row(self, r, loc: str) -> str:
        pct = float(r.percentile) * 100
        band = "tt-luck-lo" if pct < 25 else "tt-luck-hi" if pct > 75 else "tt-luck-mid"
        what = esc(tr(r.what, loc))
        if r.hidden:
            what += f" <em>({esc(_t('luck_hidden', loc))})</em>"
        if not r.matches:
            what += f' <span class="tt-luck-flag">⚠ {esc(_t("luck_flag", loc))}</span>'
        bar = (
            f'<div class="tt-luck-bar {band}" role="img" aria-label="{pct:.0f}%">'
            f'<span style="width:{pct:.1f}%"></span><b>{pct:.0f}%</b></div>'
        )
        return (
            f'<tr class="tt-luck-roll" data-index="{r.index}"><td>{what}</td>'
            f'<td class="tt-luck-total">{r.total}</td><td class="tt-luck-pct">{bar}</td></tr>'
        )

    def _shared_html(self, shared: dict, loc: str) -> str:
        if not shared:
            return ""
        items = "".join(
            f"<li><b>{esc(self._who(seat))}</b>: {esc(luck_sentence(LUCK_SHARED.read(summary), loc))}</li>"
            for seat, summary in sorted(shared.items())
        )
        return f'<h4>{esc(_t("luck_shared_title", loc))}</h4><ul class="tt-luck-shared">{items}</ul>'

    def _who(self, seat: str) -> str:
        info = self.session.state.seats.get(seat) or {}
        return str(info.get("name") or seat)

    def share(self):
        """Player: the Share button (the table checks the seat and computes the summary again).
        Returns the event, or None."""
        if self.is_gm or not self.session.can("luck.share"):
            self.say("error", TABLE_TEXTS["not_allowed"])
            return None
        try:
            event = self.session.share_luck()
        except (PermissionError, EventError) as exc:
            self.refused(exc)
            return None
        self.say("info", TEXTS["luck_shared_done"])
        self.render()
        return event

    def relabel(self, loc: str) -> None:
        self.locale = loc
        self.render()

    def close(self) -> None:
        self._unsubscribe()


__all__ = ["LuckPart", "TEXTS"]
