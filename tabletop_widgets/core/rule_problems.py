"""A rules module's shorthand for a :class:`~tabletop_widgets.core.problems.Problem` written in
both languages: ``problem("V12", "At most 2 Bonds.", "Не больше 2 Уз.", "bonds")``."""

from __future__ import annotations

from typing import Any

from .i18n import T
from .problems import Problem


def problem(code: str, en: str, ru: str, field: str | None = None, severity: str = "error", **data: Any) -> Problem:
    """A problem with the code ``code``, the message in English and Russian, the sheet field it
    points at, ``"error"`` or ``"warning"``, and the values a test or a view may read (``data``)."""
    return Problem(code, T(en, ru), field=field, severity=severity, data=data)
