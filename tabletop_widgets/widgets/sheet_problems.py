"""Where a :class:`~.sheet.CharacterSheet` shows its problems: ``SYSTEM.validate`` and the edits
just refused, each next to the field it is about (or the field that shows that value too), and
the sheet check on top listing them all.

:class:`SheetCheck` is that part of the sheet; the section cards mark the cards holding some
(:meth:`~.sheet_sections.SectionCards.mark_problems`, with :meth:`SheetCheck.homes`).
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop_widgets.core.i18n import T, tr
from tabletop_widgets.core.problems import Problem

from .base import text_lookup
from .sheet_context import SheetContext, esc, html_widget
from .sheet_index import SheetIndex
from .sheet_views import FieldView

#: User-facing text of the sheet check, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "problems": {"en": "Sheet check", "ru": "Проверка листа"},
    "all_good": {"en": "No problems found.", "ru": "Проблем не найдено."},
}

_t = text_lookup(TEXTS)


class SheetCheck:
    """The sheet check: the character's problems, each on the view of the field it shows next
    to, and the summary (``widget``, ``.tt-sheet-problems``) listing every problem shown.

    Inputs: ``ctx`` (the character, its system and the language), ``index`` (where each problem
    shows: :class:`SheetIndex`) and ``views``, the built field views ``{trait name: FieldView}``
    (filled as the sheet's sections are built; the views of sections not built yet get their
    problems when built, from :meth:`by_home`).

    ``problems`` is the latest ``SYSTEM.validate(character)`` list (empty until
    :meth:`revalidate`).
    """

    def __init__(self, ctx: SheetContext, index: SheetIndex, views: Mapping[str, FieldView]):
        self.ctx, self.index, self.views = ctx, index, views
        self.problems: list[Problem] = []
        self.revalidating = False  # while the views get the new problems: nothing to recount yet
        self.widget = html_widget(classes=["tt-sheet-problems"])

    def revalidate(self) -> list[Problem]:
        """Run ``SYSTEM.validate`` and put each problem on the view of its field (the rest only
        in the summary, which the caller renders: :meth:`render`)."""
        try:
            problems = list(self.ctx.system.validate(self.ctx.character))
        except Exception as exc:  # a rules bug must not break the sheet; show it
            problems = [
                Problem("validate_failed", T(f"checking the sheet failed: {exc}", f"проверка листа не удалась: {exc}"))
            ]
        self.problems = problems
        by_home = self.by_home()
        self.revalidating = True
        try:
            for name, view in self.views.items():  # folded, unbuilt sections: when built
                view.set_problems(by_home.get(name, []))
        finally:
            self.revalidating = False
        return problems

    def by_home(self) -> dict[str | None, list[Problem]]:
        """The latest problems by the field each shows next to (None: the whole character's)."""
        return self.index.by_home(self.problems)

    def shown(self) -> list[tuple[str | None, Problem]]:
        """Every problem the sheet shows, with the field it shows next to (None: the whole
        character's): the rules check (``SYSTEM.validate``) and the edits just refused. The
        sheet check at the top lists exactly these."""
        out: list[tuple[str | None, Problem]] = []
        seen: set[tuple] = set()
        for name, view in self.views.items():
            if view.edit_error is not None:
                for p in view.edit_error.problems:
                    key = (name, p.code, p.field, tr(p.message, "en"))
                    if key not in seen:
                        seen.add(key)
                        out.append((name, p))
        for p in self.problems:
            home = self.index.home_of(p.field)
            key = (home, p.code, p.field, tr(p.message, "en"))
            if key not in seen:
                seen.add(key)
                out.append((home, p))
        return out

    def homes(self) -> set[str]:
        """The fields next to which a problem shows."""
        return {home for home, _p in self.shown() if home is not None}

    def render(self) -> None:
        """The summary, in the sheet's language."""
        loc = self.ctx.locale
        shown = self.shown()
        if not shown:
            self.widget.value = f'<div class="tt-summary tt-clean" role="status">✓ {esc(_t("all_good", loc))}</div>'
            return
        errors = sum(p.severity == "error" for _home, p in shown)
        warnings = len(shown) - errors
        counts = []
        if errors:
            counts.append(f"✖ {errors}")
        if warnings:
            counts.append(f"⚠ {warnings}")
        lines = []
        for home, p in shown:
            where = ""
            field = self.index.field(home)
            if p.label:
                where = f"<b>{esc(tr(p.label, loc))}:</b> "
            elif field is not None:
                where = f"<b>{esc(tr(field.label, loc))}:</b> "
            lines.append(
                f'<li class="tt-{"error" if p.severity == "error" else "warning"}" data-field="{esc(home or "")}">'
                f"{where}{esc(p.text(loc))}</li>"
            )
        self.widget.value = (
            f'<details class="tt-summary" role="status"><summary>{esc(_t("problems", loc))}: '
            f'{" · ".join(counts)}</summary><ul class="tt-problem-list">{"".join(lines)}</ul>'
            f"</details>"
        )


__all__ = ["SheetCheck"]
