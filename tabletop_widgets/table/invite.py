"""A new table's first minutes, without widgets: a saved character brought to a seat, and the
message a GM pastes into the group's chat.

* :func:`read_character_file` reads what a sheet's *Save* produced (``Character.to_dict`` as
  JSON) for the table's system: size, encoding, JSON, the game it was made for, then every
  problem the system's model finds. A bad file raises :class:`CharacterFileError` whose
  bilingual ``message`` names the file and what is wrong with it, written for a player; nothing
  is created.
* :func:`invite_message` is the ready text of the seat links: one line per player (their name,
  their character, their link) and per observer, then a line about the dice commitment, in the
  GM's language. The GM's own link is never in it (it is the GM's key to the table).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Mapping, NoReturn, Sequence

from ..core.i18n import LOCALES, T, tr
from ..core.problems import ValidationError
from ..core.system import term_of
from ..core.wording import en_n, ru_n

#: A saved character is a few kilobytes; anything far larger is not one.
MAX_CHARACTER_BYTES = 256 * 1024


class CharacterFileError(ValueError):
    """A character file that cannot join the table. ``message`` is ``{"en": ..., "ru": ...}``;
    ``problems`` lists each thing wrong (bilingual too)."""

    def __init__(self, filename: str, problems: Sequence[Mapping[str, str]]):
        self.filename = filename
        self.problems = [dict(p) for p in problems]
        self.message = {loc: self._text(loc) for loc in LOCALES}
        super().__init__(self.message["en"])

    def _text(self, loc: str) -> str:
        head = (
            f"Файл «{self.filename}» не подходит: " if loc == "ru" else f"The file “{self.filename}” cannot be used: "
        )
        return head + "; ".join(tr(p, loc) for p in self.problems)

    def text(self, locale: str = "en") -> str:
        return tr(self.message, locale)


def _field_label(system: Any, name: str | None, loc: str) -> str | None:
    if not name:
        return None
    try:
        return tr(system.sheet.field(name).label, loc)
    except (KeyError, AttributeError, LookupError, ValueError):
        return name


def read_character_file(system: Any, raw: bytes | str, filename: str = "character.json") -> dict[str, Any]:
    """The character in ``raw`` (a saved sheet's JSON) for ``system``, as the table stores it
    (``Character.to_dict()``); or :class:`CharacterFileError` saying what is wrong."""
    filename = str(filename or "character.json")[:80]

    def fail(en: str, ru: str) -> NoReturn:
        raise CharacterFileError(filename, [T(en, ru)])

    data = _json_object(_file_text(raw, fail), fail)
    _check_made_for(system, data, fail)
    try:
        character = system.Character.from_dict(data)
    except ValidationError as exc:
        raise CharacterFileError(filename, _problem_lines(system, exc)) from None
    except (TypeError, ValueError) as exc:
        fail(f"the character does not load ({exc})", f"персонаж не загружается ({exc})")
    return character.to_dict()


def _file_text(raw: Any, fail: Callable[[str, str], NoReturn]) -> str:
    """The file's text: at most :data:`MAX_CHARACTER_BYTES`, UTF-8."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raw = bytes(raw)
        if len(raw) > MAX_CHARACTER_BYTES:
            fail(
                f"it is {len(raw) // 1024} KB, and a saved character is at most {MAX_CHARACTER_BYTES // 1024} KB",
                f"в нём {len(raw) // 1024} КБ, а сохранённый персонаж занимает не больше {MAX_CHARACTER_BYTES // 1024} КБ",
            )
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            fail(
                "it is not text (a saved character is a UTF-8 JSON file)",
                "это не текст (сохранённый персонаж — файл JSON в кодировке UTF-8)",
            )
    if not isinstance(raw, str):
        fail("no file content was received", "содержимое файла не получено")
    if len(raw.encode("utf-8")) > MAX_CHARACTER_BYTES:
        fail(
            f"a saved character is at most {MAX_CHARACTER_BYTES // 1024} KB",
            f"сохранённый персонаж занимает не больше {MAX_CHARACTER_BYTES // 1024} КБ",
        )
    return raw


def _json_object(text: str, fail: Callable[[str, str], NoReturn]) -> dict[str, Any]:
    """The one JSON object the text holds."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(
            f"it is not JSON (line {exc.lineno}, column {exc.colno}); save the character from its sheet",
            f"это не JSON (строка {exc.lineno}, столбец {exc.colno}); сохраните персонажа кнопкой листа",
        )
    except RecursionError:
        fail("it is nested too deeply to be a character", "вложенность слишком глубокая для персонажа")
    if not isinstance(data, dict):
        fail(
            "it holds no character (a saved character is one JSON object)",
            "в нём нет персонажа (сохранённый персонаж — один объект JSON)",
        )
    return data


def _check_made_for(system: Any, data: Mapping[str, Any], fail: Callable[[str, str], NoReturn]) -> None:
    """The character must be saved from a sheet of the table's game (else: which game it is for)."""
    made_for = data.get("system")
    if made_for == getattr(system, "slug", ""):
        return
    try:
        from .. import get_system

        other = tr(get_system(str(made_for)).title, "en"), tr(get_system(str(made_for)).title, "ru")
    except (KeyError, TypeError, ValueError):
        other = None
    here_en, here_ru = tr(system.title, "en"), tr(system.title, "ru")
    if other is None:
        fail(
            f"it is not a character saved from a {here_en} sheet",
            f"это не персонаж, сохранённый с листа игры «{here_ru}»",
        )
    fail(
        f"this character is for {other[0]}, and the table plays {here_en}",
        f"это персонаж игры «{other[1]}», а за столом играют в «{here_ru}»",
    )


def _problem_lines(system: Any, exc: ValidationError) -> list[dict[str, str]]:
    """The model's problems in the sheet's words (the first eight, then how many more)."""
    problems = []
    for p in exc.problems[:8]:
        text_en, text_ru = p.text("en"), p.text("ru")
        lab_en, lab_ru = _field_label(system, p.field, "en"), _field_label(system, p.field, "ru")
        if p.field and lab_ru and lab_ru != p.field:  # the sheet's word, not the trait id
            text_en = re.sub(rf"\b{re.escape(p.field)}\b", "it", text_en)
            text_ru = re.sub(rf"\b{re.escape(p.field)}\b", "значение", text_ru)
        problems.append(T(f"{lab_en}: {text_en}" if lab_en else text_en, f"{lab_ru}: {text_ru}" if lab_ru else text_ru))
    more = len(exc.problems) - len(problems)
    if more > 0:
        problems.append(
            T(
                f"and {en_n(more, 'more problem', 'more problems')}",
                f"и ещё {ru_n(more, 'проблема', 'проблемы', 'проблем')}",
            )
        )
    return problems


def invite_message(
    system: Any,
    title: str,
    seats: Sequence[Mapping[str, Any]],
    commitment: str,
    locale: str = "en",
) -> str:
    """The text a GM pastes into the group's chat, in ``locale``: a line naming the table, a
    line per player (``seat["name"]``, ``seat["character"]``, ``seat["link"]``) and per observer,
    then the dice commitment and what it is for. ``seats`` with role ``"gm"`` are left out."""
    ru = locale == "ru"
    gm = term_of(system, "gm", locale)
    game = tr(system.title, locale)
    name = title or ("стол" if ru else "the table")
    lines = [
        f"Ссылки на стол «{name}» ({game}). У каждого своя ссылка: не передавайте её другим."
        if ru
        else f"Links to “{name}” ({game}). Each link is its owner's own: do not pass it on."
    ]
    for seat in seats:
        role = seat.get("role")
        who = str(seat.get("name") or "")
        if role == "player":
            character = str(seat.get("character") or "")
            label = (
                (f"{who} (персонаж: {character})" if character else who)
                if ru
                else (f"{who} (plays {character})" if character else who)
            )
        elif role == "observer":
            label = f"{who} (зритель)" if ru else f"{who} (observer)"
        else:
            continue
        lines.append(f"{label}: {seat.get('link', '')}")
    lines.append(
        f"Печать кубиков: {commitment}. Это печать первой сессии. Сохраните её: когда {gm} закончит "
        "сессию, по ней можно проверить, что броски никто не подменял."
        if ru
        else f"Dice commitment: {commitment}. It is session 1's. Keep it: when the {gm} ends the session, "
        "it lets anyone check that nobody changed the rolls."
    )
    return "\n".join(lines)


__all__ = ["CharacterFileError", "MAX_CHARACTER_BYTES", "invite_message", "read_character_file"]
