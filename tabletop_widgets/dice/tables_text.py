"""Roll tables as text: reading a Markdown or CSV table, and drawing one (plain text and HTML)
with each row's exact chance. See :mod:`.tables`."""

from __future__ import annotations

import csv
import html
import io
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import DiceError
from .render import pct
from .tables import MAX_ROWS, parse_key

if TYPE_CHECKING:  # pragma: no cover
    from .tables import RollTable

#: the most characters of text a table is read from
MAX_TEXT = 200_000
_SEPARATOR = re.compile(r"^:?-{3,}:?$")

_WORDS = {
    "roll": {"en": "Roll", "ru": "Бросок"},
    "entry": {"en": "Entry", "ru": "Запись"},
    "chance": {"en": "Chance", "ru": "Шанс"},
    "table": {"en": "table", "ru": "таблица"},
}


def _w(word: str, locale: str) -> str:
    return _WORDS[word].get(locale) or _WORDS[word]["en"]


def _err(en: str, ru: str) -> DiceError:
    return DiceError(en, message_ru=ru)


@dataclass
class Read:
    """What a text gave: the dice of its header (or None), its title, its rows (key -> text)."""

    dice: str | None
    title: str | None
    entries: dict[str, str]


def _check_text(text: Any, what: str, what_ru: str) -> str:
    if not isinstance(text, str):
        raise _err(
            f"{what} must be text, not {type(text).__name__}",
            f"{what_ru}: нужен текст, а не {type(text).__name__}",
        )
    if len(text) > MAX_TEXT:
        raise _err(
            f"{what} is too long ({len(text):,} characters; at most {MAX_TEXT:,})",
            f"{what_ru}: слишком длинный текст ({len(text)} символов; не больше {MAX_TEXT})",
        )
    return text


def _header_dice(cell: str) -> str | None:
    """The dice a header's first cell names (``d6``, ``1d6``, ``2d6+1``), or None (``Roll``)."""
    cell = cell.strip()
    return cell if cell and re.search(r"\dd|^d\d|^d%|dF", cell, re.IGNORECASE) else None


def _add_row(entries: dict[str, str], key: str, value: str, where: str) -> None:
    key, value = key.strip(), value.strip()
    try:
        parse_key(key)
    except DiceError as exc:
        raise DiceError(
            f"{where}: {exc.message}", message_ru=f"{where.replace('line', 'строка')}: {exc.text('ru')}"
        ) from None
    if key in entries:
        raise _err(
            f"{where}: the row {key} is written twice",
            f"{where.replace('line', 'строка')}: строка {key} записана дважды",
        )
    if len(entries) >= MAX_ROWS:
        raise _err(f"a roll table has at most {MAX_ROWS} rows", f"в таблице бросков не больше {MAX_ROWS} строк")
    entries[key] = value


def _cells(line: str) -> list[str]:
    """A Markdown row's cells (``| a | b |`` or ``a | b``; ``\\|`` is a bar inside a cell)."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.replace("\\|", "|").strip() for c in re.split(r"(?<!\\)\|", body)]


def read_markdown(text: str) -> Read:
    """A two-column Markdown table (see :meth:`~.tables.RollTable.from_markdown`)."""
    text = _check_text(text, "the Markdown table", "таблица Markdown")
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("|")), None)
    if start is None:
        raise _err(
            "no Markdown table found: write rows like | d6 | Result |, then | --- | --- |, then | 1 | Wolves |",
            "таблица Markdown не найдена: напишите строки | d6 | Результат |, затем | --- | --- |, затем | 1 | Волки |",
        )
    heading = next(
        (ln.strip().lstrip("#").strip() for ln in reversed(lines[:start]) if ln.strip().startswith("#")), None
    )
    end = start
    while end < len(lines) and lines[end].strip().startswith("|"):
        end += 1
    block = lines[start:end]
    rest = [ln for ln in lines[end:] if ln.strip()]
    if any(ln.strip().startswith("|") for ln in rest):
        raise _err(
            "the text holds more than one Markdown table: give one table at a time",
            "в тексте больше одной таблицы Markdown: давайте по одной",
        )
    if len(block) < 2 or not all(_SEPARATOR.match(c.replace(" ", "")) for c in _cells(block[1])):
        raise _err(
            f"line {start + 2}: a Markdown table's second line must be its separator | --- | --- |",
            f"строка {start + 2}: вторая строка таблицы Markdown должна быть разделителем | --- | --- |",
        )
    header = _cells(block[0])
    if len(header) != 2:
        raise _err(
            f"line {start + 1}: a roll table has two columns (the roll and the entry), the header has {len(header)}",
            f"строка {start + 1}: в таблице бросков два столбца (бросок и запись), а в заголовке {len(header)}",
        )
    entries: dict[str, str] = {}
    for n, line in enumerate(block[2:], start=start + 3):
        cells = _cells(line)
        if len(cells) != 2:
            raise _err(
                f"line {n}: a roll table has two columns (the roll and the entry), this row has {len(cells)}",
                f"строка {n}: в таблице бросков два столбца (бросок и запись), а в этой строке {len(cells)}",
            )
        _add_row(entries, cells[0], cells[1], f"line {n}")
    if not entries:
        raise _err("the Markdown table has no rows under its header", "в таблице Markdown нет строк под заголовком")
    return Read(_header_dice(header[0]), heading or None, entries)


def read_csv(text: str) -> Read:
    """Two-column CSV (see :meth:`~.tables.RollTable.from_csv`)."""
    text = _check_text(text, "the CSV table", "таблица CSV")
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = [r for r in csv.reader(io.StringIO(text), dialect) if any(c.strip() for c in r)]
    except csv.Error as exc:
        raise _err(f"the CSV table cannot be read: {exc}", f"таблицу CSV не прочесть: {exc}") from None
    if not rows:
        raise _err("the CSV table is empty", "таблица CSV пуста")
    dice = None
    first = rows[0]
    try:
        parse_key(first[0])
    except DiceError:  # not a key: a header
        dice = _header_dice(first[0])
        rows = rows[1:]
        start = 2
    else:
        start = 1
    entries: dict[str, str] = {}
    for n, row in enumerate(rows, start=start):
        if len(row) != 2:
            raise _err(
                f"line {n}: a roll table has two columns (the roll and the entry), this row has {len(row)}",
                f"строка {n}: в таблице бросков два столбца (бросок и запись), а в этой строке {len(row)}",
            )
        _add_row(entries, row[0], row[1], f"line {n}")
    if not entries:
        raise _err("the CSV table has no rows under its header", "в таблице CSV нет строк под заголовком")
    return Read(dice, None, entries)


# --------------------------------------------------------------------------------------------
# drawing
# --------------------------------------------------------------------------------------------
def _entry_name(entry: Any, locale: str) -> str:
    from .tables import RollTable

    if isinstance(entry, RollTable):
        return (
            f"→ {entry.name} ({_w('table', locale)} {entry.expr})"
            if entry.title
            else f"→ {_w('table', locale)} {entry.expr}"
        )
    return str(entry)


def table_text(table: "RollTable", locale: str = "en") -> str:
    """The table as plain text: a heading, then ``key  entry  chance`` per row."""
    rows = table.rows()
    head = f"{table.title} ({table.expr})" if table.title else table.expr
    names = [_entry_name(r.entry, locale) for r in rows]
    width, wide = max(len(r.key) for r in rows), max(map(len, names))
    lines = [head]
    for r, name in zip(rows, names):
        lines.append(f"{r.key.rjust(width)}  {name.ljust(wide)}  {pct(r.chance).rjust(7)}")
    return "\n".join(lines)


def table_html(table: "RollTable", locale: str = "en") -> str:
    """The table as HTML: no colours of its own (the notebook's text colour and, in
    JupyterLab, its border colour variable), so it reads in the light and the dark theme."""
    esc = html.escape
    border = "1px solid var(--jp-border-color2, currentColor)"
    cell = f'style="border-bottom:{border};padding:2px 8px;text-align:left"'
    num = f'style="border-bottom:{border};padding:2px 8px;text-align:right;font-variant-numeric:tabular-nums"'
    head = f"{esc(table.title)} ({esc(table.expr)})" if table.title else esc(table.expr)
    body = "".join(
        f"<tr><td {num}>{esc(r.key)}</td><td {cell}>{esc(_entry_name(r.entry, locale))}</td>"
        f'<td {num} title="{esc(str(r.chance))}">{esc(pct(r.chance))}</td></tr>'
        for r in table.rows()
    )
    return (
        '<table class="tt-rolltable" style="border-collapse:collapse;color:inherit;background:transparent">'
        f'<caption style="text-align:left;font-weight:bold;padding:2px 0">{head}</caption>'
        f"<thead><tr><th {num}>{_w('roll', locale)}</th><th {cell}>{_w('entry', locale)}</th>"
        f"<th {num}>{_w('chance', locale)}</th></tr></thead><tbody>{body}</tbody></table>"
    )


def roll_html(rolled, locale: str = "en") -> str:
    """A :class:`~.tables.TableRoll` as HTML: its line in bold, each step's dice below it."""
    esc = html.escape
    dice = "".join(f"<div>{esc(step.roll.text(locale))}</div>" for step in rolled.chain)
    return (
        f'<div class="tt-rolltable-roll"><b>{esc(rolled.text(locale))}</b><div style="opacity:.75">{dice}</div></div>'
    )


__all__ = ["Read", "read_csv", "read_markdown", "roll_html", "table_html", "table_text"]
