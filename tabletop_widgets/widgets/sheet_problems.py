"""Where a :class:`~.sheet.CharacterSheet` shows its problems: ``SYSTEM.validate`` and the edits
just refused, each next to the field it is about (or the field that shows that value too), the
sections that hold some marked, and the sheet check on top listing them all.

:class:`SheetProblems` is that part of the sheet (a base class of ``CharacterSheet``, beside
:class:`~.sheet_sections.SheetSections`, whose ``section_of`` and ``sheet_field`` it reads).
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletop_widgets.core.i18n import T, tr
from tabletop_widgets.core.problems import Problem

from .base import text_lookup
from .sheet_context import esc

#: User-facing text of the sheet check, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "problems": {"en": "Sheet check", "ru": "Проверка листа"},
    "all_good": {"en": "No problems found.", "ru": "Проблем не найдено."},
}

_t = text_lookup(TEXTS)


class SheetProblems:
    """The sheet's problems (its base class: ``self`` is the sheet). ``problems`` is the latest
    ``SYSTEM.validate(character)`` list; ``summary`` the sheet check's widget."""

    def revalidate(self) -> list[Problem]:
        """Run ``SYSTEM.validate`` and show each problem next to its field (the rest on top)."""
        try:
            problems = list(self.system.validate(self.character))
        except Exception as exc:  # a rules bug must not break the sheet; show it
            problems = [
                Problem("validate_failed", T(f"checking the sheet failed: {exc}", f"проверка листа не удалась: {exc}"))
            ]
        self.problems = problems
        by_home = self.by_home(problems)
        self._revalidating = True
        try:
            for name, view in self.views.built.items():  # folded, unbuilt sections: when built
                view.set_problems(by_home.get(name, []))
        finally:
            self._revalidating = False
        self.on_field_problems()
        return problems

    # -- where each problem shows ------------------------------------------------------------
    def home_of(self, field: str | None) -> str | None:
        """The sheet field that shows a problem about ``field``: the field itself when it is
        on the sheet, else the field whose view shows that value too (a resource's maximum, a
        budget), else None (a problem of the whole character, shown only in the sheet check)."""
        if field is None:
            return None
        if field in self.section_of:
            return field
        for section in self.system.sheet.sections:
            for f in section.fields:
                if field in (f.max_trait, f.budget, f.row_total):
                    return f.name
        return None

    def by_home(self, problems: Iterable[Problem]) -> dict[str | None, list[Problem]]:
        out: dict[str | None, list[Problem]] = {}
        for p in problems:
            out.setdefault(self.home_of(p.field), []).append(p)
        return out

    def shown_problems(self) -> list[tuple[str | None, Problem]]:
        """Every problem the sheet shows, with the field it shows next to (None: the whole
        character's): the rules check (``SYSTEM.validate``) and the edits just refused. The
        sheet check at the top lists exactly these."""
        out: list[tuple[str | None, Problem]] = []
        seen: set[tuple] = set()
        for name, view in self.views.built.items():
            if view.edit_error is not None:
                for p in view.edit_error.problems:
                    key = (name, p.code, p.field, tr(p.message, "en"))
                    if key not in seen:
                        seen.add(key)
                        out.append((name, p))
        for p in self.problems:
            home = self.home_of(p.field)
            key = (home, p.code, p.field, tr(p.message, "en"))
            if key not in seen:
                seen.add(key)
                out.append((home, p))
        return out

    def on_field_problems(self) -> None:
        """A field's problems changed (a refused edit, or the rules check): the sections that
        have some say so, and the sheet check counts them."""
        if getattr(self, "_revalidating", False) or not hasattr(self, "summary"):
            return
        homes = {home for home, _p in self.shown_problems() if home is not None}
        for section_id, box in self.sections.items():  # a folded section says it has some
            if any(self.section_of.get(name) == section_id for name in homes):
                box.add_class("tt-section-has-problem")
            else:
                box.remove_class("tt-section-has-problem")
        self.render_summary()

    def render_summary(self) -> None:
        loc = self.locale
        shown = self.shown_problems()
        if not shown:
            self.summary.value = f'<div class="tt-summary tt-clean" role="status">✓ {esc(_t("all_good", loc))}</div>'
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
            field = self.sheet_field(home)
            if p.label:
                where = f"<b>{esc(tr(p.label, loc))}:</b> "
            elif field is not None:
                where = f"<b>{esc(tr(field.label, loc))}:</b> "
            lines.append(
                f'<li class="tt-{"error" if p.severity == "error" else "warning"}" data-field="{esc(home or "")}">'
                f"{where}{esc(p.text(loc))}</li>"
            )
        self.summary.value = (
            f'<details class="tt-summary" role="status"><summary>{esc(_t("problems", loc))}: '
            f'{" · ".join(counts)}</summary><ul class="tt-problem-list">{"".join(lines)}</ul>'
            f"</details>"
        )


__all__ = ["SheetProblems"]
