"""Rolling at a table: a roll index, once its dice are drawn, is spent.

A roll that fails after drawing dice (``(1d20 - 100)d6``: the count came out negative) must not
give its roll index back: otherwise a player probes the next die with a failing roll, waits for
a good one, and rolls for real on the same index. So the session rolls with a
:class:`DrawWatch` (the same stream as :func:`~.fairdice.rng_for`, noting whether anything was
drawn):

* nothing drawn (bad notation, an unknown option, a rule refusing before the dice): the error is
  shown as it is and no index is used;
* dice drawn: a ``roll.failed`` event records the attempt under that index (``verify`` replays it
  and checks that it fails), and the seat gets :func:`failed_roll_error`, which never shows a
  drawn value.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from ..core.i18n import LOCALES, T
from ..core.wording import ru_n
from ..dice.errors import DiceLimitError
from ..dice.limits import MAX_DICE
from .events import MAX_PAYLOAD_BYTES, jsonable
from .fairdice import stream_key
from .records import is_big, pack_result, summary_text
from .rules import PlayError
from .store import dumps


class DrawWatch(random.Random):
    """``rng_for(seed, index)``'s stream that remembers whether anything was drawn from it."""

    def __init__(self, seed: bytes, index: int):
        self.drawn = False
        super().__init__(int.from_bytes(stream_key(seed, index), "big"))

    def random(self) -> float:
        self.drawn = True
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.drawn = True
        return super().getrandbits(k)


def failed_roll_error(index: int, error: BaseException | None = None) -> PlayError:
    """The error a seat sees for a roll that failed after its dice were drawn (no values). A
    roll that needed more dice than one roll may have (``100#101d6``, or explosions past the
    limit) says so."""
    if isinstance(error, DiceLimitError) and "dice" in str(error):
        n = f"{MAX_DICE:,}"
        # «больше 10 000 кубиков» (genitive after «больше»; the thousands split by a space)
        more_ru = ru_n(MAX_DICE, "кубика", "кубиков", "кубиков").replace(str(MAX_DICE), n.replace(",", "\u00a0"), 1)
        return PlayError(
            "roll_too_many_dice",
            T(
                f"This roll needs more than {n} dice (explosions, rerolls and repeats included): that "
                f"is the most one roll may have. Roll it in smaller parts. Its dice are spent: the "
                f"attempt is in the log as roll number {index}.",
                f"Этому броску нужно больше {more_ru} (с учётом взрывов, "
                f"перебросов и повторов), а это предел для одного броска. Бросьте его по частям. "
                f"Кубики потрачены: попытка записана в журнал как бросок номер {index}.",
            ),
            index=index,
        )
    return PlayError(
        "roll_failed",
        T(
            f"This roll could not be finished: a rolled value cannot be used where the expression "
            f"puts it (for example a negative number of dice). Its dice are spent: the attempt is in "
            f"the log as roll number {index}.",
            f"Бросок не удалось завершить: выпавшее значение нельзя использовать там, куда его ставит "
            f"выражение (например, отрицательное число кубиков). Кубики потрачены: попытка записана "
            f"в журнал как бросок номер {index}.",
        ),
        index=index,
    )


def too_big_error(expr: str) -> PlayError:
    """The error a seat sees when a roll's record would not fit in the table's log (a defence:
    within the notation's limits a packed roll always fits)."""
    return PlayError(
        "roll_too_big",
        T(
            f"This roll is too large to record at the table ({expr[:40]}). Roll it in smaller parts.",
            f"Этот бросок слишком велик, чтобы записать его за столом ({expr[:40]}). Бросьте его по частям.",
        ),
    )


def texts_of(roll) -> dict[str, str]:
    """A roll's breakdown in every language (``roll.text(locale)``), so that every reader of
    the log reads it in their own; ``{}`` when the roll has no texts."""
    text = getattr(roll, "text", None)
    if not callable(text):
        return {}
    try:
        return {loc: str(text(loc)) for loc in LOCALES}
    except (TypeError, ValueError):
        return {}


def roll_payload(
    index: int,
    expr: str,
    *,
    variables: Mapping[str, Any] | None,
    label: str | None,
    hidden: bool,
    result: Any,
    locale: str,
) -> dict:
    """The ``roll`` event's payload for ``result`` (a ``RollResult``), validated: a big roll (more
    than :data:`~.records.BIG_ROLL_DICE` dice) is stored packed with a bounded summary text
    (:func:`~.records.pack_result`); ``texts`` holds the breakdown (a big roll's summary) in every
    language, for every reader of the log. Raises :func:`too_big_error` rather than an engineer's size
    message when it still would not fit."""
    data = jsonable(pack_result(result.to_json()))  # packed first: jsonable walks a few keys, not every die
    big = is_big(data)
    text = summary_text(data, locale) if big else result.text(locale)
    texts = {loc: summary_text(data, loc) for loc in LOCALES} if big else texts_of(result)
    payload = {
        "index": index,
        "expr": expr,
        "variables": variables,
        "label": label,
        "hidden": hidden,
        "result": data,
        "text": text,
    }
    if texts:
        payload["texts"] = dict(texts)
    if len(dumps(payload).encode("utf-8")) > MAX_PAYLOAD_BYTES:
        raise too_big_error(expr)
    from .kinds import ROLL

    return ROLL.check(payload)


def roll_guarded(rng: DrawWatch, fn: Callable[[random.Random], Any]) -> tuple[Any, BaseException | None]:
    """``(fn(rng), None)``, or ``(None, error)`` when ``fn`` failed after drawing; an error
    raised before anything was drawn propagates (nothing was used)."""
    try:
        return fn(rng), None
    except (ValueError, KeyError, TypeError, ArithmeticError) as exc:
        if not rng.drawn:
            raise
        return None, exc


def failed_payload(index: int, *, what: str, hidden: bool, error: BaseException, **fields: Any) -> dict:
    """The ``roll.failed`` payload: what was rolled and the error's kind (never its text, which
    may quote a drawn value)."""
    return {"index": index, "what": what, "hidden": bool(hidden), "error": type(error).__name__, **fields}


def used_variables(expr: str, variables: Mapping[str, Any] | None) -> dict | None:
    """The ``variables`` that ``expr`` names (``@name``), no others: what a blind roll records, so
    that its reveal publishes only the numbers the roll used (not every trait of an NPC's sheet).
    None when it names none (or cannot be read: the roll then fails on its own)."""
    if not variables:
        return None
    from ..dice.diceast import Var
    from ..dice.parser import parse

    try:
        tree = parse(expr, variables)
    except (ValueError, TypeError):
        return dict(variables)
    names: set[str] = set()
    stack: list[Any] = [tree]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Var):
            names.add(node.name)
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, f, None) for f in node.__dataclass_fields__)
    used = {k: v for k, v in variables.items() if k in names}
    return used or None
