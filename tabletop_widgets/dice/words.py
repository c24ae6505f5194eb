"""System roll words: how a rules system adds its own short notation to ``%roll``.

A word claims a whole expression whose text starts with its ``pattern`` (after an optional
``N#`` repetition prefix). Examples: RET ``L5+3 >= 8``, Seasons ``pool 7 diff 2``,
Life&Death ``ld 4``, Threads ``t20+2 adv``. The generic engine handles repetition, trailing
comments (``# ...``) and the result rendering; the word parses and rolls the rest.

    register_word(DiceWord(
        name="L", system="ret",
        pattern=re.compile(r"L\\d"),
        parse=parse_level_expression,          # (text, start, end) -> WordExpression
        help={"en": "RET level roll: L<level>[+mod] [luck N] [>= difficulty]", "ru": "..."},
        examples=("L5", "L5+3 >= 8", "L3 luck 2", "L4 vs L3"),
    ))

``parse(text, start, end)`` (or ``parse(text, start, end, variables=...)`` when it declares a
``variables`` parameter: then it receives the caller's ``@name`` mapping, or None) must parse ``text[start:end]`` (positions are absolute, so errors
point into the user's text) and return an object with

* ``roll(rng: random.Random) -> RollResult`` — build the result with ``word_result(...)``;
* ``distribution() -> Distribution`` — exact odds (``p_pass`` set for checks); raise
  ``DiceError`` saying so when the word has none.

On bad input ``parse`` raises ``DiceError(message, position)``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Protocol, Sequence

from .distribution import Distribution
from .errors import DiceError
from .results import Check, Die, RollResult, WordNode


class WordExpression(Protocol):
    def roll(self, rng) -> RollResult: ...

    def distribution(self) -> Distribution: ...


@dataclass(frozen=True)
class DiceWord:
    name: str
    pattern: re.Pattern
    parse: Callable[[str, int, int], WordExpression]
    system: str = ""
    help: Mapping[str, str] = field(default_factory=dict)
    examples: Sequence[str] = ()


#: The key under which ``variables`` carries the bound character itself (``%sheet hero`` in a
#: notebook, the tray's character), for words that roll a character's named checks such as RET's
#: ``%roll agility`` or ``%roll skill "Lockpicking" luck 1``. Words must not assume it is there.
CHARACTER_KEY = "__character__"

_WORDS: dict[str, DiceWord] = {}
_loaded_entry_points = False


def register_word(word: DiceWord) -> None:
    """Add (or replace, by name) a system word."""
    if not isinstance(word.pattern, re.Pattern):
        raise TypeError("DiceWord.pattern must be a compiled regular expression")
    _WORDS[word.name] = word
    _forget_parses()


def unregister_word(name: str) -> None:
    if _WORDS.pop(name, None) is not None:
        _forget_parses()


def _forget_parses() -> None:
    """Words change what text means: drop cached parses."""
    from .parser import _CACHE
    _CACHE.clear()


def _wants_variables(parse) -> bool:
    import inspect
    try:
        return "variables" in inspect.signature(parse).parameters
    except (TypeError, ValueError):
        return False


def _load_system_words() -> None:
    """Register the words of every installed system once (lazily, on first lookup)."""
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    _loaded_entry_points = True
    from ..core.registry import available_systems, get_system
    for slug in available_systems():
        try:
            system = get_system(slug)
        except Exception:  # a broken plugin must not break plain dice
            continue
        for w in system.dice_words():
            _WORDS.setdefault(w.name, w)
    _forget_parses()


def registered_words() -> list[DiceWord]:
    _load_system_words()
    return list(_WORDS.values())


def match_word(text: str, pos: int) -> DiceWord | None:
    """The word whose pattern matches at ``pos`` (longest match wins), or None."""
    _load_system_words()
    best, best_len = None, -1
    for w in _WORDS.values():
        m = w.pattern.match(text, pos)
        if m and m.end() - pos > best_len:
            best, best_len = w, m.end() - pos
    return best


def word_result(expression: str, word: str, total: int, dice: Sequence[Die],
                breakdown: Mapping[str, str], *, check: Check | None = None,
                successes: int | None = None, notes: Sequence[Mapping[str, str]] = (),
                details: Mapping[str, Any] | None = None, show_total: bool = True) -> RollResult:
    """Build the RollResult of a word roll. ``breakdown`` is the word's own bilingual one-line
    rendering of its dice (e.g. ``"L5: d10 [10!] → d12 [7] = 17"``); the engine appends the
    total, the check verdict and the notes. ``show_total=False`` when the total means nothing
    to a player (RET's fail: the breakdown says it all); ``total`` is still set for code."""
    node = WordNode(word=word, text=expression, rolled=list(dice), value=total,
                    breakdown=dict(breakdown), details=dict(details or {}))
    result = RollResult(expression, node, int(total), total, successes=successes, check=check,
                        notes=list(notes))
    if not show_total:
        result.show_total = False
    return result


def check_from(total: int, op: str, target: int) -> Check:
    """A :class:`Check` for ``total op target`` (margin = total - target)."""
    from .distribution import _OPS
    if op not in _OPS:
        raise DiceError(f"unknown comparison {op!r}")
    return Check(op=op, target=int(target), passed=bool(_OPS[op](total, target)),
                 margin=int(total) - int(target))


__all__ = ["CHARACTER_KEY", "DiceWord", "WordExpression", "register_word", "unregister_word", "registered_words",
           "match_word", "word_result", "check_from", "Distribution", "Fraction"]
