"""Roll tables: a dice expression whose results pick an entry (issue 35).

``RollTable("1d6", {1: "Wolves", 2: "Rain", (3, 5): "Nothing", 6: "A stranger"})`` is checked
against the exact distribution of its dice when it is made: every result the dice can give has
exactly one row, and every row is reached by at least one result. Keys are whole numbers or
inclusive ranges ``(lo, hi)`` (``"3-5"`` strings too, as a Markdown or CSV table writes them).

* :meth:`RollTable.chances` is ``{entry: Fraction}``: an entry's chance is the sum over the
  results of its rows, so two rows with equal entries (``1: "Wolves"`` and ``6: "Wolves"``) give
  one entry with both rows' chance; :meth:`RollTable.rows` keeps the rows apart.
* An entry is a text or another :class:`RollTable` (a nested table): rolling the outer table
  rolls the nested one at once, with the same random stream, and :class:`TableRoll.chain` holds
  every step. ``chances(flat=True)`` gives the chance of each final text through the nesting.
* :meth:`RollTable.from_markdown` and :meth:`RollTable.from_csv` read a two-column table (the
  header's first cell may name the dice: ``| d6 | Result |``); :mod:`.tables_text` does that
  and draws the table (``_repr_html_``, ``str``) with each row's exact chance.
* :meth:`RollTable.to_dict` / :meth:`RollTable.from_dict` store it as plain JSON.

Every refusal is a :class:`~.errors.DiceError` with an English and a Russian message, raised
before anything is made.
"""

from __future__ import annotations

import bisect
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from .errors import DiceError

#: rows of one table, nesting of tables in tables, characters of one entry and of a title
MAX_ROWS = 1000
MAX_DEPTH = 8
MAX_ENTRY = 2000
MAX_TITLE = 200
#: the layout of :meth:`RollTable.to_dict`
FORMAT = 1

_KEY_RE = re.compile(r"^\s*([-−]?\d{1,18})\s*(?:(?:[-–—]|\.\.)\s*([-−]?\d{1,18})\s*)?$")


def _err(en: str, ru: str) -> DiceError:
    return DiceError(en, message_ru=ru)


# --------------------------------------------------------------------------------------------
# keys
# --------------------------------------------------------------------------------------------
def parse_key(key: Any) -> tuple[int, int]:
    """A row's key as an inclusive range ``(lo, hi)``: ``4``, ``(3, 5)``, ``"3-5"``, ``"4"``."""
    if isinstance(key, bool):
        raise _bad_key(key)
    if isinstance(key, int):
        return key, key
    if isinstance(key, (tuple, list)) and len(key) == 2 and all(_is_int(k) for k in key):
        lo, hi = int(key[0]), int(key[1])
    elif isinstance(key, str):
        m = _KEY_RE.match(key)
        if not m:
            raise _bad_key(key)
        lo = int(m.group(1).replace("−", "-"))
        hi = int(m.group(2).replace("−", "-")) if m.group(2) else lo
    else:
        raise _bad_key(key)
    if lo > hi:
        raise _err(
            f"the range {lo}-{hi} runs backwards: write the lower number first ({hi}-{lo})",
            f"диапазон {lo}-{hi} идёт в обратную сторону: сначала меньшее число ({hi}-{lo})",
        )
    return lo, hi


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _bad_key(key: Any) -> DiceError:
    shown = repr(key)[:40]
    return _err(
        f"a row's key must be a number (4), a range (3, 5) or a text like 3-5, not {shown}",
        f"ключ строки должен быть числом (4), диапазоном (3, 5) или текстом вида 3-5, а не {shown}",
    )


def key_text(lo: int, hi: int) -> str:
    """How a row's key is written: ``4`` or ``3–5``."""
    return str(lo) if lo == hi else f"{lo}–{hi}"


# --------------------------------------------------------------------------------------------
# the table
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One row: results ``lo`` to ``hi`` (inclusive) give ``entry``, with exact ``chance``."""

    lo: int
    hi: int
    entry: Any
    chance: Fraction

    @property
    def key(self) -> str:
        return key_text(self.lo, self.hi)


class RollTable:
    """A dice expression and its entries (see the module). ``title`` names it (optional)."""

    def __init__(self, expr: str, entries: Mapping[Any, Any], *, title: str | None = None):
        self.expr = _check_expr(expr)
        self.title = _check_title(title)
        if not isinstance(entries, Mapping) or not entries:
            raise _err(
                "a roll table needs its rows: a mapping such as {1: 'Wolves', (2, 6): 'Nothing'}",
                "таблице бросков нужны строки: словарь вида {1: 'Волки', (2, 6): 'Ничего'}",
            )
        if len(entries) > MAX_ROWS:
            raise _err(
                f"a roll table has at most {MAX_ROWS} rows, not {len(entries)}",
                f"в таблице бросков не больше {MAX_ROWS} строк, а не {len(entries)}",
            )
        keyed = sorted(((*parse_key(k), _check_entry(v)) for k, v in entries.items()), key=lambda r: r[:2])
        _refuse_overlaps(keyed)
        dist = _distribution(self.expr)
        self._rows = tuple(Row(lo, hi, entry, chance) for (lo, hi, entry), chance in _cover(self.expr, keyed, dist))
        self._starts = [r.lo for r in self._rows]

    # -- reading ------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The title, else the dice: how a log line names the table."""
        return self.title or self.expr

    def rows(self) -> list[Row]:
        """The rows in order of their keys, each with its exact chance."""
        return list(self._rows)

    def chances(self, *, flat: bool = False) -> dict[Any, Fraction]:
        """``{entry: Fraction}``: each entry's exact chance (rows with equal entries summed).
        ``flat``: the chance of each final text, a nested table's entries weighted by its own."""
        out: dict[Any, Fraction] = {}
        for row in self._rows:
            if flat and isinstance(row.entry, RollTable):
                for inner, p in row.entry.chances(flat=True).items():
                    out[inner] = out.get(inner, Fraction(0)) + row.chance * p
            else:
                out[row.entry] = out.get(row.entry, Fraction(0)) + row.chance
        return out

    def entry_for(self, total: int) -> Any:
        """The entry the result ``total`` picks; DiceError when no row holds it."""
        row = self.row_for(total)
        return row.entry

    def row_for(self, total: int) -> Row:
        row = self._find(total)
        if row is None:
            raise _err(
                f"{self.name}: no row for the result {total}",
                f"{self.name}: нет строки для результата {total}",
            )
        return row

    def _find(self, total: int) -> Row | None:
        i = bisect.bisect_right(self._starts, total) - 1
        return None if i < 0 or self._rows[i].hi < total else self._rows[i]

    def depth(self) -> int:
        """1 for a table of texts; one more for each level of nested tables."""
        return 1 + max((r.entry.depth() for r in self._rows if isinstance(r.entry, RollTable)), default=0)

    # -- rolling ------------------------------------------------------------------------------
    def roll(
        self, rng: random.Random | None = None, *, seed=None, locale: str = "en", strict: bool = True
    ) -> "TableRoll":
        """Roll the dice (``rng``, a ``random.Random``, or ``seed`` make it reproducible) and
        read the entry; a nested table is rolled at once with the same stream.

        The exact odds follow a reroll to the end (``1d20r<20`` is always 20), while ``roll()``
        stops after 100 rerolls of one die: then the total may have no row. ``strict`` (the
        default) raises DiceError then; otherwise the roll comes back with ``row`` None (the
        table records such a roll as it came out, its dice spent)."""
        from . import roll as dice_roll

        if rng is None:
            rng = random.Random(seed)
        result = dice_roll(self.expr, rng=rng, locale=locale)
        row = self.row_for(result.total) if strict else self._find(result.total)
        entry = row.entry if row is not None else None
        nested = entry.roll(rng, locale=locale, strict=strict) if isinstance(entry, RollTable) else None
        return TableRoll(self, result, row, nested)

    # -- storage ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: ``{"format", "title", "expr", "rows": [{"from", "to", "entry"}]}``; a
        nested table's entry is its own dict."""
        return {
            "format": FORMAT,
            "title": self.title,
            "expr": self.expr,
            "rows": [
                {"from": r.lo, "to": r.hi, "entry": r.entry.to_dict() if isinstance(r.entry, RollTable) else r.entry}
                for r in self._rows
            ],
        }

    @classmethod
    def from_dict(cls, data: Any, *, _depth: int = 1) -> "RollTable":
        """The table :meth:`to_dict` gave (checked again, as if typed anew)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("rows"), list):
            raise _err(
                "a stored roll table must be a mapping with its expr and rows",
                "сохранённая таблица бросков должна быть словарём с полями expr и rows",
            )
        if data.get("format", FORMAT) != FORMAT:
            raise _err(
                f"a stored roll table of format {data.get('format')!r}: this version reads format {FORMAT}",
                f"сохранённая таблица бросков формата {data.get('format')!r}: эта версия читает формат {FORMAT}",
            )
        if _depth > MAX_DEPTH:
            raise _too_deep()
        entries: dict[tuple[int, int], Any] = {}
        for row in data["rows"]:
            if not isinstance(row, Mapping) or not _is_int(row.get("from")) or not _is_int(row.get("to")):
                raise _err(
                    "a stored roll table's row needs whole numbers from and to",
                    "строке сохранённой таблицы бросков нужны целые from и to",
                )
            entry = row.get("entry")
            if isinstance(entry, Mapping):
                entry = cls.from_dict(entry, _depth=_depth + 1)
            key = (row["from"], row["to"])
            if key in entries:
                raise _overlap(key, key)
            entries[key] = entry
        return cls(data.get("expr"), entries, title=data.get("title"))

    @classmethod
    def from_markdown(cls, text: str, expr: str | None = None, *, title: str | None = None) -> "RollTable":
        """Read a two-column Markdown table (``| d6 | Result |``, a separator row, then rows
        such as ``| 3-5 | Nothing |``). The header's first cell may give the dice; ``expr``
        overrides it. A ``# heading`` above the table is its title unless ``title`` is given."""
        from .tables_text import read_markdown

        return cls._from_read(read_markdown(text), expr, title)

    @classmethod
    def from_csv(cls, text: str, expr: str | None = None, *, title: str | None = None) -> "RollTable":
        """Read two-column CSV (``,``, ``;`` or tab): a header row whose first cell may give the
        dice (``d6,Result``), or rows only (then ``expr`` is needed)."""
        from .tables_text import read_csv

        return cls._from_read(read_csv(text), expr, title)

    @classmethod
    def _from_read(cls, read, expr: str | None, title: str | None) -> "RollTable":
        dice = expr if expr is not None else read.dice
        if dice is None:
            raise _err(
                "which dice does this table roll? Put them in the header's first cell (| d6 | Result |) "
                "or pass expr='1d6'",
                "какие кубики бросает эта таблица? Укажите их в первой ячейке заголовка (| d6 | Результат |) "
                "или передайте expr='1d6'",
            )
        return cls(dice, read.entries, title=title if title is not None else read.title)

    # -- showing ------------------------------------------------------------------------------
    def text(self, locale: str = "en") -> str:
        from .tables_text import table_text

        return table_text(self, locale)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<RollTable {self.name!r}: {self.expr}, {len(self._rows)} rows>"

    def html(self, locale: str = "en") -> str:
        from .tables_text import table_html

        return table_html(self, locale)

    def _repr_html_(self) -> str:
        return self.html()


@dataclass(frozen=True)
class TableRoll:
    """One roll on a table: the dice (``roll``, a ``RollResult``), its ``total``, the ``row``
    and ``entry`` it picked (a text or a nested table) and, for a nested table, its own roll
    (``nested``). ``chain`` is every step, this one first; ``final`` the last text."""

    table: RollTable
    roll: Any
    row: Row | None
    nested: "TableRoll | None" = None

    @property
    def total(self) -> int:
        return self.roll.total

    @property
    def entry(self) -> Any:
        """The entry this table's dice picked (None: no row, see :meth:`RollTable.roll`)."""
        return self.row.entry if self.row is not None else None

    @property
    def chain(self) -> list["TableRoll"]:
        out, step = [], self
        while step is not None:
            out.append(step)
            step = step.nested
        return out

    @property
    def final(self) -> str | None:
        """The last text of the chain (None when a total had no row)."""
        return self.chain[-1].entry

    def text(self, locale: str = "en") -> str:
        """``Random encounter (1d6): 4 — Nothing``; a nested step follows in brackets."""
        head = f"{self.table.title} ({self.table.expr})" if self.table.title else self.table.expr
        if self.row is None:
            return f"{head}: {self.total} — {'нет строки' if locale == 'ru' else 'no row'}"
        if self.nested is None:
            return f"{head}: {self.total} — {self.entry}"
        return f"{head}: {self.total} → {self.nested.text(locale)}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<TableRoll {self.text()!r}>"

    def html(self, locale: str = "en") -> str:
        """The roll as HTML: the line, and under it each step's dice (no colours of its own)."""
        from .tables_text import roll_html

        return roll_html(self, locale)

    def _repr_html_(self) -> str:
        return self.html()

    def to_json(self) -> dict[str, Any]:
        """The steps as JSON: ``{"steps": [{"table", "expr", "total", "from", "to", "entry",
        "roll"}], "entry": final text}`` (deterministic: ``verify`` compares it)."""
        steps = [
            {
                "table": s.table.title,
                "expr": s.table.expr,
                "total": s.total,
                "from": s.row.lo if s.row is not None else None,
                "to": s.row.hi if s.row is not None else None,
                "entry": s.entry if s.nested is None else None,
                "roll": s.roll.to_json(),
            }
            for s in self.chain
        ]
        return {"steps": steps, "entry": self.final}


# --------------------------------------------------------------------------------------------
# checks
# --------------------------------------------------------------------------------------------
def _check_expr(expr: Any) -> str:
    if not isinstance(expr, str) or not expr.strip():
        raise _err(
            f"a roll table's dice must be a dice expression such as '1d6', not {expr!r}"[:200],
            f"кубики таблицы бросков должны быть выражением вида '1d6', а не {expr!r}"[:200],
        )
    return expr.strip()


def _check_title(title: Any) -> str | None:
    if title is None:
        return None
    if not isinstance(title, str):
        raise _err(
            f"a title must be text, not {type(title).__name__}",
            f"название должно быть текстом, а не {type(title).__name__}",
        )
    title = " ".join(title.split())
    if len(title) > MAX_TITLE:
        raise _err(
            f"a title has at most {MAX_TITLE} characters, not {len(title)}",
            f"в названии не больше {MAX_TITLE} символов, а не {len(title)}",
        )
    return title or None


def _check_entry(entry: Any) -> Any:
    if isinstance(entry, RollTable):
        if entry.depth() >= MAX_DEPTH:
            raise _too_deep()
        return entry
    if not isinstance(entry, str):
        raise _err(
            f"an entry must be a text or another RollTable, not {type(entry).__name__} ({entry!r})"[:200],
            f"запись должна быть текстом или другой RollTable, а не {type(entry).__name__} ({entry!r})"[:200],
        )
    text = entry.strip()
    if not text:
        raise _err("an entry is empty: write what the row gives", "запись пуста: напишите, что даёт строка")
    if len(text) > MAX_ENTRY:
        raise _err(
            f"an entry has at most {MAX_ENTRY} characters, not {len(text)}",
            f"в записи не больше {MAX_ENTRY} символов, а не {len(text)}",
        )
    return text


def _too_deep() -> DiceError:
    return _err(
        f"tables nest at most {MAX_DEPTH} deep",
        f"таблицы вкладываются друг в друга не глубже {MAX_DEPTH} уровней",
    )


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> DiceError:
    if a == b:
        return _err(f"the row {key_text(*a)} is written twice", f"строка {key_text(*a)} записана дважды")
    return _err(
        f"the rows {key_text(*a)} and {key_text(*b)} overlap: a result may have one row only",
        f"строки {key_text(*a)} и {key_text(*b)} пересекаются: у результата может быть только одна строка",
    )


def _refuse_overlaps(keyed: list[tuple[int, int, Any]]) -> None:
    for (lo1, hi1, _), (lo2, hi2, _) in zip(keyed, keyed[1:]):
        if lo2 <= hi1:
            raise _overlap((lo1, hi1), (lo2, hi2))


def _distribution(expr: str):
    """The exact distribution of ``expr``, refused when it is not one finite total."""
    from . import distribution
    from .parser import parse

    try:
        parsed = parse(expr)
        dist = distribution(expr)
    except DiceError as exc:
        raise DiceError(
            f"the table's dice {expr!r}: {exc.message}",
            exc.position,
            exc.expression,
            message_ru=f"кубики таблицы {expr!r}: {exc.text('ru')}",
        ) from exc
    if parsed.repeat != 1 or parsed.check_op is not None or dist.special:
        raise _err(
            f"the table's dice {expr!r} must give one number (no check, no repetition with #)",
            f"кубики таблицы {expr!r} должны давать одно число (без проверки и без повторов через #)",
        )
    if dist.truncated_mass:
        raise _err(
            f"the table's dice {expr!r} can give results without end (an explosion without a limit): "
            "give the explosion a limit (1d6xo explodes once) so every result can have a row",
            f"кубики таблицы {expr!r} дают бесконечно много результатов (взрыв без предела): "
            "ограничьте взрыв (1d6xo взрывается один раз), чтобы у каждого результата была строка",
        )
    return dist


def _cover(expr: str, keyed, dist) -> list[tuple[tuple[int, int, Any], Fraction]]:
    """Each row with its chance; refused when a result has no row or a row no result."""
    starts = [lo for lo, _, _ in keyed]
    chances = [Fraction(0)] * len(keyed)
    missing: list[int] = []
    for total, p in dist.items():
        i = bisect.bisect_right(starts, total) - 1
        if i < 0 or keyed[i][1] < total:
            missing.append(total)
        else:
            chances[i] += p
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
        raise _err(
            f"{expr} can roll {shown}, which no row holds: every result needs a row",
            f"{expr} может выбросить {shown}, а строки для этого нет: у каждого результата должна быть строка",
        )
    dead = [key_text(lo, hi) for (lo, hi, _), p in zip(keyed, chances) if not p]
    if dead:
        shown = ", ".join(dead[:10]) + (" ..." if len(dead) > 10 else "")
        raise _err(
            f"{expr} never rolls the row(s) {shown}: every row must be reachable "
            f"(the results run from {dist.min} to {dist.max})",
            f"{expr} никогда не даёт строк(и) {shown}: каждая строка должна выпадать "
            f"(результаты от {dist.min} до {dist.max})",
        )
    return list(zip(keyed, chances))


__all__ = ["FORMAT", "MAX_DEPTH", "MAX_ROWS", "RollTable", "Row", "TableRoll", "key_text", "parse_key"]
