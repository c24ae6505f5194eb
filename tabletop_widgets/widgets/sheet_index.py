"""Where things sit on a character sheet's layout: the section of every field, and the field a
problem shows next to. Plain Python over a system's declared ``sheet`` (no widgets): the sheet's
sections and its sheet check both look things up here.
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletop_widgets.core.problems import Problem


class SheetIndex:
    """The places of a sheet layout (:class:`~tabletop_widgets.core.sheet.Sheet`, a system's
    ``sheet``), its one input.

    Attributes: ``section_specs`` (``{section id: Section}``, in the layout's order) and
    ``section_of`` (``{trait name: section id}`` of every field on the sheet).
    """

    def __init__(self, layout):
        self.layout = layout
        self.section_specs = {s.id: s for s in layout.sections}
        self.section_of: dict[str, str] = {}
        for s in layout.sections:
            for f in s.fields:
                self.section_of.setdefault(f.name, s.id)

    def field(self, name: str | None):
        """The sheet's field ``name``, or None."""
        section_id = self.section_of.get(name) if name else None
        if section_id is None:
            return None
        return next(f for f in self.section_specs[section_id].fields if f.name == name)

    def home_of(self, field: str | None) -> str | None:
        """The sheet field that shows a problem about ``field``: the field itself when it is
        on the sheet, else the field whose view shows that value too (a resource's maximum, a
        budget), else None (a problem of the whole character, shown only in the sheet check)."""
        if field is None:
            return None
        if field in self.section_of:
            return field
        for section in self.layout.sections:
            for f in section.fields:
                if field in (f.max_trait, f.budget, f.row_total):
                    return f.name
        return None

    def by_home(self, problems: Iterable[Problem]) -> dict[str | None, list[Problem]]:
        """``problems`` grouped by the field each shows next to (None: the whole character's)."""
        out: dict[str | None, list[Problem]] = {}
        for p in problems:
            out.setdefault(self.home_of(p.field), []).append(p)
        return out


__all__ = ["SheetIndex"]
