"""Validation problems and the one error that carries them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .i18n import DEFAULT_LOCALE, tr


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a character (or with input meant for one).

    ``code`` is stable (tests and the UI key on it), ``field`` names the trait or data key at
    fault (``None`` for whole-character problems), ``message`` is bilingual, ``severity`` is
    ``"error"`` (illegal) or ``"warning"`` (legal but worth a look).
    """

    code: str
    message: Mapping[str, str]
    field: str | None = None
    severity: str = "error"
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def text(self, locale: str = DEFAULT_LOCALE) -> str:
        return tr(self.message, locale)

    def __str__(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{where}{self.text()}"


class ValidationError(ValueError):
    """Bad character data. Lists every problem found; the target was left unchanged."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: list[Problem] = list(problems)
        super().__init__(self.messages("en"))

    def messages(self, locale: str = DEFAULT_LOCALE) -> str:
        lines = []
        for p in self.problems:
            where = f"{p.field}: " if p.field else ""
            lines.append(f"- {where}{p.text(locale)}")
        head = "недопустимые данные персонажа" if locale == "ru" else "invalid character data"
        return head + ":\n" + "\n".join(lines)

    def __str__(self) -> str:
        return self.messages("en")


class RuleError(ValueError):
    """An illegal move by the rules (spending points you do not have, raising past a cap...).

    ``message`` is bilingual; ``str()`` is the English text.
    """

    def __init__(self, code: str, message: Mapping[str, str], **data: Any):
        self.code = code
        self.message = dict(message)
        self.data = data
        super().__init__(tr(self.message, "en"))

    def text(self, locale: str = DEFAULT_LOCALE) -> str:
        return tr(self.message, locale)
