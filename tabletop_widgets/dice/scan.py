"""The one scanner for system words (``%roll`` words such as RET ``L5+3``, Seasons ``pool 7``).

A word's ``parse(text, start, end)`` reads ``text[start:end]``; :class:`Scanner` walks it. Every
position is absolute (an index into the whole ``text``), so an error's caret points into the
user's text, not into the slice::

    s = Scanner(text, start, end)
    s.expect(r"pool", T("the word pool", "слово pool"))
    size = s.number(T("the pool size", "размер пула"), maximum=100)
    if s.keyword("diff"):
        difficulty = s.number(T("a difficulty", "сложность"))
    if not s.at_end():
        raise s.error(T("unexpected text", "лишний текст"))

Regular expressions given as text match case-insensitively; compiled patterns are used as they
are. Whitespace is skipped before every match.
"""

from __future__ import annotations

import re
from typing import Mapping

from .errors import DiceError

_SPACE = re.compile(r"\s*")
_NUMBER = re.compile(r"\d+")
#: a bare word: letters (Latin or Cyrillic), digits and ``_``, starting with a letter or ``_``
_WORD = re.compile(r"[^\W\d][\w]*")
#: a name of several words in braces: ``{Мелкая моторика}``
_BRACED = re.compile(r"\{([^{}]*)\}")
_AFTER_WORD = re.compile(r"[\w]")


def _message(message: Mapping[str, str] | str) -> tuple[str, str | None]:
    if isinstance(message, Mapping):
        en = message.get("en") or next(iter(message.values()), "")
        return en, message.get("ru") or en
    return str(message), None


class Scanner:
    """Walks ``text[start:end]``; ``pos`` is the absolute position of the next character."""

    def __init__(self, text: str, start: int = 0, end: int | None = None):
        self.text = text
        self.start = start
        self.end = len(text) if end is None else min(end, len(text))
        self.pos = start

    def __repr__(self) -> str:
        return f"Scanner({self.text[self.pos : self.end]!r} at {self.pos})"

    # -- moving ------------------------------------------------------------------------------------
    def skip_space(self) -> None:
        """Move past whitespace."""
        self.pos = _SPACE.match(self.text, self.pos, self.end).end()

    def at_end(self) -> bool:
        """Whether only whitespace is left (it is skipped)."""
        self.skip_space()
        return self.pos >= self.end

    @staticmethod
    def _compile(regex: "str | re.Pattern[str]") -> re.Pattern[str]:
        return regex if isinstance(regex, re.Pattern) else re.compile(regex, re.IGNORECASE)

    def peek(self, regex: "str | re.Pattern[str]") -> re.Match[str] | None:
        """The match of ``regex`` at the next non-space character, without moving past it."""
        self.skip_space()
        return self._compile(regex).match(self.text, self.pos, self.end)

    def take(self, regex: "str | re.Pattern[str]") -> re.Match[str] | None:
        """Match ``regex`` at the next non-space character and move past it; None (not moving)
        when it does not match."""
        m = self.peek(regex)
        if m is not None:
            self.pos = m.end()
        return m

    def expect(self, regex: "str | re.Pattern[str]", what: Mapping[str, str] | str) -> re.Match[str]:
        """Like :meth:`take`, but a missing match raises ``DiceError`` "expected <what>"."""
        m = self.take(regex)
        if m is None:
            raise self.expected(what)
        return m

    def keyword(self, *words: str) -> str | None:
        """Take one of ``words`` (case-insensitive, a whole word: ``diff`` does not match
        ``difficulty``); returns the word as given, or None."""
        self.skip_space()
        for w in words:
            stop = self.pos + len(w)
            if stop <= self.end and self.text[self.pos : stop].casefold() == w.casefold():
                if stop == self.end or not _AFTER_WORD.match(self.text, stop) or not _AFTER_WORD.match(w[-1:]):
                    self.pos = stop
                    return w
        return None

    def peek_keyword(self, *words: str) -> str | None:
        """Whether one of ``words`` comes next (as :meth:`keyword`), without moving."""
        here = self.pos
        found = self.keyword(*words)
        self.pos = here
        return found

    # -- values ------------------------------------------------------------------------------------
    def number(self, what: Mapping[str, str] | str = "", *, maximum: int | None = None) -> int:
        """A whole number (digits); ``what`` names it in the error when it is missing or above
        ``maximum``."""
        what = what or {"en": "a whole number", "ru": "целое число"}
        m = self.take(_NUMBER)
        if m is None:
            raise self.expected(what)
        value = int(m.group())
        if maximum is not None and value > maximum:
            en, ru = _message(what)
            raise self.error(
                {
                    "en": f"{en}: {value} is too large (at most {maximum})",
                    "ru": f"{ru}: {value} — слишком много (не больше {maximum})",
                },
                m.start(),
            )
        return value

    def word(self, what: Mapping[str, str] | str = "") -> str:
        """A bare word (``stealth``, ``Скрытность``) or a name of several words in braces
        (``{Мелкая моторика}``, returned without the braces, spaces trimmed)."""
        what = what or {"en": "a name", "ru": "название"}
        self.skip_space()
        if self.pos < self.end and self.text[self.pos] == "{":
            m = _BRACED.match(self.text, self.pos, self.end)
            if m is None:
                raise self.error(
                    {
                        "en": "a name in braces needs its closing }",
                        "ru": "у названия в фигурных скобках нет закрывающей }",
                    }
                )
            name = " ".join(m.group(1).split())
            if not name:
                raise self.error({"en": "the braces hold no name", "ru": "в фигурных скобках нет названия"})
            self.pos = m.end()
            return name
        m = self.take(_WORD)
        if m is None:
            raise self.expected(what)
        return m.group()

    # -- errors ------------------------------------------------------------------------------------
    def error(self, message: Mapping[str, str] | str, pos: int | None = None) -> DiceError:
        """A ``DiceError`` at ``pos`` (default: here), an absolute position in the user's text;
        ``message`` is bilingual (``T(en, ru)``) or English text. Raise it."""
        en, ru = _message(message)
        return DiceError(en, self.pos if pos is None else pos, self.text, message_ru=ru)

    def expected(self, what: Mapping[str, str] | str) -> DiceError:
        """The error "expected <what>" here (saying what was found instead)."""
        en, ru = _message(what)
        self.skip_space()
        if self.pos >= self.end:
            found_en, found_ru = "the end of the roll", "конец броска"
        else:
            found_en = found_ru = repr(self.text[self.pos])
        return self.error({"en": f"expected {en}, found {found_en}", "ru": f"ожидалось: {ru or en}; здесь {found_ru}"})


__all__ = ["Scanner"]
