"""System roll words: how a rules system adds its own short notation to ``%roll``.

A word claims a whole expression whose text starts with its ``pattern`` (after an optional
``N#`` repetition prefix) and that plain notation does not read: plain notation is parsed first,
so a word never changes what ``2d6`` means and plain dice never load a system. Systems are loaded
only for text that starts with a prefix they declare in the entry-point group
``tabletop_widgets.dice_words`` (name: the prefix, value: the system's slug; read from package
metadata, nothing imported) or for the bound character's own system; the registry registers a
system's words whenever it loads or registers one (``register_system_words``). Examples: RET ``L5+3 >= 8``, Seasons ``pool 7 diff 2``,
Life&Death ``ld 4``, Threads ``t20+2 adv``. The generic engine handles repetition, trailing
comments (``# ...``) and the result rendering; the word parses and rolls the rest.

    register_word(DiceWord(
        name="L", system="ret",
        pattern=re.compile(r"L\\d"),
        parse=parse_level_expression,          # (text, start, end) -> WordExpression
        help={"en": "RET level roll: L<level>[+mod] [luck N] [>= difficulty]", "ru": "..."},
        examples=("L5", "L5+3 >= 8", "L3 luck 2", "L4 vs L3"),
    ))

``parse(text, start, end)`` must parse ``text[start:end]`` (positions are absolute, so errors
point into the user's text; :class:`tabletop_widgets.dice.scan.Scanner` walks it). A word that
needs the bound character or the ``@name`` values declares a ``context`` parameter:
``parse(text, start, end, context=...)`` then receives a :class:`WordContext` (``.variables``,
``.character``; always given, empty when nothing is bound). (A ``variables`` parameter, the older
form, receives the caller's ``@name`` mapping or None.) ``parse`` returns an object with

* ``roll(rng: random.Random) -> RollResult`` — build the result with ``word_result(...)``;
* ``distribution() -> Distribution`` — exact odds (``p_pass`` set for checks); raise
  ``DiceError`` saying so when the word has none.

On bad input ``parse`` raises ``DiceError(message, position)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
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


#: The key under which a :class:`WordContext` read as a mapping still shows the bound character
#: (the older way words found it; kept readable for one release). New words take ``context``.
CHARACTER_KEY = "__character__"


class WordContext(Mapping[str, Any]):
    """What a word may know about the roll's caller: the ``@name`` values (``variables``) and the
    bound character (``character``: ``%sheet hero`` in a notebook, the tray's character; None
    when nothing is bound), for words that roll a character's named checks such as RET's
    ``%roll agility``.

    ``%roll`` and the dice tray pass one as the roll's ``variables``: read as a mapping it is the
    ``@name`` values (and, for one release, the character under :data:`CHARACTER_KEY`)."""

    __slots__ = ("variables", "character")

    def __init__(self, variables: Mapping[str, int] | None = None, character: Any | None = None):
        values = dict(variables or {})
        if character is None:
            character = values.get(CHARACTER_KEY)
        values.pop(CHARACTER_KEY, None)
        object.__setattr__(self, "variables", MappingProxyType(values))
        object.__setattr__(self, "character", character)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a WordContext is read-only")

    def __getitem__(self, name: str) -> Any:
        if name == CHARACTER_KEY and self.character is not None:
            return self.character
        return self.variables[name]

    def __iter__(self):
        yield from self.variables
        if self.character is not None:
            yield CHARACTER_KEY

    def __len__(self) -> int:
        return len(self.variables) + (self.character is not None)

    def __repr__(self) -> str:
        return f"WordContext({dict(self.variables)!r}, character={self.character!r})"


def word_context(variables: Mapping[str, Any] | None) -> WordContext:
    """``variables`` as a :class:`WordContext` (a plain mapping's :data:`CHARACTER_KEY` entry,
    the older form, becomes its character)."""
    if isinstance(variables, WordContext):
        return variables
    return WordContext(variables if isinstance(variables, Mapping) else None)


_WORDS: dict[str, DiceWord] = {}
#: The words each system contributed (by slug), so that a system unregistered at run time takes
#: its words with it and one registered again replaces them.
_SYSTEM_WORDS: dict[str, list[str]] = {}

#: Entry-point group where a system declares the word prefixes it claims, without being imported:
#: the name is a prefix (matched case-insensitively at the start of the expression), the value the
#: system's slug in the ``tabletop_widgets.systems`` group, e.g. ``L = "ret"``.
PREFIX_GROUP = "tabletop_widgets.dice_words"
SYSTEMS_GROUP = "tabletop_widgets.systems"

#: ``loader(slug)`` loads a system and registers its words (the registry installs its
#: ``get_system``; without one, the entry point is loaded here and its ``dice_words()`` taken).
_system_loader: Callable[[str], Any] | None = None
_prefixes: list[tuple[str, str]] | None = None  # (casefolded prefix, slug), longest first
_tried: set[str] = set()  # slugs whose loading was attempted


def register_word(word: DiceWord) -> None:
    """Add (or replace, by name) a system word."""
    if not isinstance(word.pattern, re.Pattern):
        raise TypeError("DiceWord.pattern must be a compiled regular expression")
    _WORDS[word.name] = word
    _forget_parses()


def unregister_word(name: str) -> None:
    if _WORDS.pop(name, None) is not None:
        _forget_parses()


def register_system_words(slug: str, words: Sequence[DiceWord]) -> None:
    """Register the words of the system ``slug`` (the registry calls this when it loads or
    registers a system). Replaces the words that slug contributed before; a word registered by
    name through :func:`register_word` and not by this system is left alone."""
    words = list(words)
    for w in words:
        if not isinstance(w, DiceWord) or not isinstance(w.pattern, re.Pattern):
            raise TypeError(
                f"system {slug!r}: dice_words() must return DiceWord objects with a compiled pattern, got {w!r}"
            )
    unregister_system_words(slug)
    names = []
    for w in words:
        if w.name not in _WORDS:
            _WORDS[w.name] = w
            names.append(w.name)
    _SYSTEM_WORDS[slug] = names
    _tried.add(slug)
    _forget_parses()


def system_words_registered(slug: str) -> bool:
    """Whether the words of the system ``slug`` are registered."""
    return slug in _SYSTEM_WORDS


def unregister_system_words(slug: str) -> None:
    """Remove the words the system ``slug`` contributed."""
    for name in _SYSTEM_WORDS.pop(slug, ()):
        _WORDS.pop(name, None)
    _tried.discard(slug)
    _forget_parses()


def set_system_loader(loader: Callable[[str], Any] | None) -> None:
    """Install ``loader(slug)``: called (at most once per slug) when an expression needs the
    words of a system that is not loaded yet. It must load the system and register its words
    (:func:`register_system_words`)."""
    global _system_loader
    _system_loader = loader


def _forget_parses() -> None:
    """Words change what text means: drop cached parses."""
    from .parser import _CACHE

    _CACHE.clear()


def _wants(parse, name: str) -> bool:
    import inspect

    try:
        return name in inspect.signature(parse).parameters
    except (TypeError, ValueError):
        return False


def _wants_variables(parse) -> bool:
    return _wants(parse, "variables")


def parse_word(word: DiceWord, text: str, start: int, end: int, variables: Mapping[str, Any] | None = None):
    """Call ``word.parse`` on ``text[start:end]`` the way it asks: with ``context=`` (a
    :class:`WordContext`) when it declares ``context``, with ``variables=`` when it declares that,
    else with the text alone."""
    if _wants(word.parse, "context"):
        return word.parse(text, start, end, context=word_context(variables))
    if _wants(word.parse, "variables"):
        return word.parse(text, start, end, variables=variables)
    return word.parse(text, start, end)


def _entry_points(group: str):
    from importlib.metadata import entry_points

    return entry_points(group=group)


def declared_prefixes() -> list[tuple[str, str]]:
    """``(prefix, slug)`` pairs that installed systems declare in their package metadata
    (read once, nothing imported), longest prefix first."""
    global _prefixes
    if _prefixes is None:
        pairs = {(ep.name.strip().casefold(), ep.value.strip()) for ep in _entry_points(PREFIX_GROUP)}
        _prefixes = sorted((p for p in pairs if p[0]), key=lambda p: (-len(p[0]), p))
    return _prefixes


def _load_system(slug: str) -> None:
    """Load the system ``slug`` once, so that it registers its words; a broken or missing
    plugin must not break plain dice, so failures are swallowed here (the expression then
    reports its own error)."""
    if slug in _tried:
        return
    _tried.add(slug)
    try:
        if _system_loader is not None:
            _system_loader(slug)
            return
        for ep in _entry_points(SYSTEMS_GROUP):
            if ep.name == slug:
                system = ep.load()
                register_system_words(slug, list(system.dice_words()))
                return
    except Exception:  # noqa: BLE001 - a broken plugin must not break plain dice
        return


def _system_of_character(character) -> str | None:
    """The slug of the installed system whose package defines ``character``'s class."""
    module = getattr(type(character), "__module__", "") or ""
    for ep in _entry_points(SYSTEMS_GROUP):
        home = ep.value.split(":", 1)[0].strip()
        if module == home or module.startswith(home + "."):
            return ep.name
    return None


def _load_words_for(text: str, pos: int, variables=None) -> None:
    """Load the systems that may claim ``text[pos:]``: those declaring a prefix it starts with,
    and the system of the bound character (its named checks, such as RET's ``agility``)."""
    head = text[pos : pos + 64].casefold()
    # longest prefix first; a shorter one ("l", RET) is consulted only when the systems of the
    # longer ones ("ld", Life&Death) have no word for the text, so a page loads one system
    longest = 0
    for prefix, slug in declared_prefixes():
        if head.startswith(prefix):
            if len(prefix) < longest and any(w.pattern.match(text, pos) for w in _WORDS.values()):
                break
            longest = max(longest, len(prefix))
            _load_system(slug)
    character = word_context(variables).character
    if character is not None:
        slug = _system_of_character(character)
        if slug is not None:
            _load_system(slug)


def _load_all_systems() -> None:
    for ep in _entry_points(SYSTEMS_GROUP):
        _load_system(ep.name)


def registered_words() -> list[DiceWord]:
    """Every word: the registered ones and those of every installed system (loads them all)."""
    _load_all_systems()
    return list(_WORDS.values())


def match_word(text: str, pos: int, variables=None) -> DiceWord | None:
    """The word whose pattern matches at ``pos`` (longest match wins), or None. Systems are
    loaded only for text that starts with a prefix one of them declares (or for the bound
    character's own system)."""
    _load_words_for(text, pos, variables)
    best, best_len = None, -1
    for w in _WORDS.values():
        m = w.pattern.match(text, pos)
        if m and m.end() - pos > best_len:
            best, best_len = w, m.end() - pos
    return best


def word_result(
    expression: str,
    word: str,
    total: int,
    dice: Sequence[Die],
    breakdown: Mapping[str, str],
    *,
    check: Check | None = None,
    successes: int | None = None,
    notes: Sequence[Mapping[str, str]] = (),
    details: Mapping[str, Any] | None = None,
    show_total: bool = True,
) -> RollResult:
    """Build the RollResult of a word roll. ``breakdown`` is the word's own bilingual one-line
    rendering of its dice (e.g. ``"L5: d10 [10!] → d12 [7] = 17"``); the engine appends the
    total, the check verdict and the notes. ``show_total=False`` when the total means nothing
    to a player (RET's fail: the breakdown says it all); ``total`` is still set for code."""
    node = WordNode(
        word=word,
        text=expression,
        rolled=list(dice),
        value=total,
        breakdown=dict(breakdown),
        details=dict(details or {}),
    )
    result = RollResult(expression, node, int(total), total, successes=successes, check=check, notes=list(notes))
    if not show_total:
        result.show_total = False
    return result


def check_from(total: int, op: str, target: int) -> Check:
    """A :class:`Check` for ``total op target`` (margin = total - target)."""
    from .distribution import _OPS

    if op not in _OPS:
        raise DiceError(f"unknown comparison {op!r}")
    return Check(op=op, target=int(target), passed=bool(_OPS[op](total, target)), margin=int(total) - int(target))


__all__ = [
    "CHARACTER_KEY",
    "DiceWord",
    "WordContext",
    "word_context",
    "parse_word",
    "WordExpression",
    "register_word",
    "unregister_word",
    "registered_words",
    "match_word",
    "register_system_words",
    "unregister_system_words",
    "set_system_loader",
    "declared_prefixes",
    "system_words_registered",
    "word_result",
    "check_from",
    "Distribution",
    "Fraction",
]
