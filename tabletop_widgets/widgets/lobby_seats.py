"""The lobby's seat rows: :class:`SeatRows`, the part of :class:`~.lobby.Lobby` with a row per
player seat (the player's name, their character's name, and a saved character file the row may
take), and the sample character a row gets without a file (:func:`sample_character`).

A file is read for the chosen game by :func:`tabletop_widgets.table.invite.read_character_file`;
a bad file, or one made for another game, says why, and the lobby creates no table while it is
attached."""

from __future__ import annotations

import html
import json
from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.core.i18n import LOCALES, T, tr
from tabletop_widgets.core.problems import ValidationError
from tabletop_widgets.core.registry import get_system
from tabletop_widgets.table import CharacterFileError, read_character_file

from .base import text_lookup

MAX_PLAYERS = 8
SAMPLE_NAMES = ["Aria", "Boris", "Chen", "Dana", "Emil", "Fay", "Gleb", "Hana"]
#: the sample characters' names a Russian lobby offers (any name may be typed over them)
SAMPLE_NAMES_RU = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Егор", "Женя", "Зоя"]

TEXTS: dict[str, dict[str, str]] = {
    "player_name": T("Player {n}", "Игрок {n}"),
    "character_name": T("Character", "Персонаж"),
    "character_file": T("From a file", "Из файла"),
    "character_file_tip": T(
        "A character saved from a sheet (its Save button): this player plays it",
        "Персонаж, сохранённый с листа (кнопкой сохранения): игрок будет играть им",
    ),
    "imported": T("Loaded: {file}", "Загружен: {file}"),
}

_t = text_lookup(TEXTS)


def sample_character(system, name: str = ""):
    """A mid-range character of ``system`` built only from what its sheet declares (inputs on a
    rules' scale, at most 20 wide, at the middle of the range a player may enter), named
    ``name``; no system-specific code."""
    values: dict[str, Any] = {}
    model = system.Character
    defaults = model().to_dict()
    for field in system.sheet.fields():
        if field.kind == "input" and field.min is not None and field.max is not None:
            lo, hi = (
                model.input_range(field.name, defaults) if hasattr(model, "input_range") else (field.min, field.max)
            )
            if lo is not None and hi is not None and hi - lo <= 20:
                values[field.name] = lo + (hi - lo) // 2
    extra = {"name": name} if name and "name" in system.Character.class_trait_names() else {}
    try:
        return system.Character(**extra, **values)
    except (ValidationError, ValueError):
        return system.Character(**extra)


def _sample_name(i: int, locale: str) -> str:
    names = SAMPLE_NAMES_RU if locale == "ru" else SAMPLE_NAMES
    return names[i % len(names)]


class SeatRows:
    """The seat rows of a :class:`~.lobby.Lobby` (``seats_box``): ``seat_rows`` (the player's
    and the character's name fields) and ``seat_files`` (the upload and its note), one per
    player the ``players`` field asks for."""

    def build_seat_rows(self) -> None:
        """The seat rows' box (:meth:`sync_rows` fills it), and what the rows hold."""
        self.seat_rows: list[tuple[widgets.Text, widgets.Text]] = []
        #: per seat row: the saved-character upload and what it says about the file
        self.seat_files: list[tuple[widgets.FileUpload, widgets.HTML]] = []
        self._upload_handlers: list[Callable[[Any], None]] = []
        #: row index -> (file name, the file's bytes) of a character file that read well
        self._imported: dict[int, tuple[str, bytes]] = {}
        self._file_notes: dict[int, tuple[str, dict[str, str]]] = {}
        self.seats_box = widgets.VBox()
        self.seats_box.add_class("tt-lobby-seats")

    def seat_character(self, system, row: int, name: str) -> dict:
        """Row ``row``'s character: the saved file attached to it (read again for the game
        chosen now, named as the form says), else a sample character of that game."""
        if row not in self._imported:
            return sample_character(system, name).to_dict()
        filename, raw = self._imported[row]
        data = read_character_file(system, raw, filename)
        if name and "name" in data and data["name"] != name:
            data = read_character_file(system, json.dumps({**data, "name": name}, ensure_ascii=False), filename)
        return data

    def attach_character(self, row: int, raw: bytes | str, filename: str = "character.json") -> bool:
        """Attach a saved character file to seat row ``row`` (what the row's upload does): read
        for the chosen game; a bad file is refused with its reason and attaches nothing."""
        if not self.can("create") or not 0 <= row < len(self.seat_rows):
            return False
        filename = str(filename or "character.json")[:80]
        data = self._read_file(row, get_system(self.system.value), raw, filename)
        if data is None:
            self._imported.pop(row, None)
        else:
            self._imported[row] = (filename, bytes(raw, "utf-8") if isinstance(raw, str) else bytes(raw))
            if data.get("name"):
                self.seat_rows[row][1].value = str(data["name"])
        self.render_files()
        return data is not None

    def _read_file(self, row: int, system, raw: bytes | str, filename: str) -> dict | None:
        """Row ``row``'s file read for ``system``, the row's note saying how it read; None
        when it is bad or made for another game."""
        try:
            data = read_character_file(system, raw, filename)
        except CharacterFileError as exc:
            self._file_notes[row] = ("bad", dict(exc.message))
            return None
        self._file_notes[row] = ("ok", {loc: _t("imported", loc, file=filename) for loc in LOCALES})
        return data

    def _on_upload(self, row: int, change) -> None:
        """Row ``row``'s upload chose a file: attach it, and empty the upload again."""
        files = change["new"]
        if not files:
            return
        upload = self.seat_files[row][0] if row < len(self.seat_files) else None
        try:
            f = files[0] if isinstance(files, (list, tuple)) else None
            if isinstance(f, dict):
                self.attach_character(row, f.get("content", b"") or b"", str(f.get("name", "character.json")))
        finally:
            if upload is not None:  # the same file may be chosen again after a fix
                handler = self._upload_handlers[row]
                upload.unobserve(handler, names="value")
                try:
                    upload.value = ()
                finally:
                    upload.observe(handler, names="value")

    def recheck_files(self) -> None:
        """Attached files read again for the game picked now: one made for another game says
        so at once (and the table is not created while it is attached)."""
        system = get_system(self.system.value)
        for row, (filename, raw) in self._imported.items():
            self._read_file(row, system, raw, filename)

    def sync_rows(self) -> None:
        """As many rows as ``players`` asks for (rows beyond it closed, with their files)."""
        # a forged message may raise the widget's max: never build more rows than the lobby offers
        n = max(0, min(int(self.players.value), MAX_PLAYERS))
        while len(self.seat_rows) < n:
            i = len(self.seat_rows)
            p = widgets.Text(value=_t("player_name", self.locale, n=i + 1), style={"description_width": "initial"})
            p.add_class("tt-lobby-player-name")
            c = widgets.Text(value=_sample_name(i, self.locale), style={"description_width": "initial"})
            c.add_class("tt-lobby-character-name")
            self.seat_rows.append((p, c))
            upload = widgets.FileUpload(accept=".json,application/json", multiple=False)
            upload.add_class("tt-lobby-character-file")
            handler = lambda ch, r=i: self._on_upload(r, ch)  # noqa: E731 - kept to unobserve it
            upload.observe(handler, names="value")
            self._upload_handlers.append(handler)
            note = widgets.HTML()
            note.add_class("tt-lobby-character-status")
            self.seat_files.append((upload, note))
        for p, c in self.seat_rows[n:]:
            p.close()
            c.close()
        for upload, note in self.seat_files[n:]:
            upload.close()
            note.close()
        del self.seat_rows[n:]
        del self.seat_files[n:]
        del self._upload_handlers[n:]
        for i in [i for i in self._imported if i >= n]:
            del self._imported[i]
        for i in [i for i in self._file_notes if i >= n]:
            del self._file_notes[i]
        rows = []
        for (p, c), (upload, note) in zip(self.seat_rows, self.seat_files):
            row = widgets.HBox([p, c, upload, note])
            row.add_class("tt-lobby-seat")
            rows.append(row)
        self.seats_box.children = rows
        self.label_rows()

    def label_rows(self) -> None:
        """The rows' labels in the lobby's language."""
        loc = self.locale
        for i, (p, c) in enumerate(self.seat_rows, 1):
            p.description = _t("player_name", loc, n=i)
            p.tooltip = p.description
            c.description = _t("character_name", loc)
            c.tooltip = c.description

    def render_files(self) -> None:
        """Each row's upload label and what its file said."""
        loc = self.locale
        for i, (upload, note) in enumerate(self.seat_files):
            upload.description = _t("character_file", loc)
            upload.tooltip = _t("character_file_tip", loc)
            kind, text = self._file_notes.get(i, (None, None))
            if text is None:
                note.value = ""
            elif kind == "ok":
                note.value = f'<span class="tt-ok" role="status">✓ {html.escape(tr(text, loc))}</span>'
            else:
                note.value = f'<span class="tt-bad" role="alert">✖ {html.escape(tr(text, loc))}</span>'

    def sample_row_defaults(self, loc: str) -> None:
        """Rows still holding a sample value take the sample of ``loc`` (what someone typed
        stays as it is)."""
        for i, (p, c) in enumerate(self.seat_rows):
            if p.value in {_t("player_name", x, n=i + 1) for x in LOCALES}:
                p.value = _t("player_name", loc, n=i + 1)
            if c.value in {_sample_name(i, x) for x in LOCALES}:
                c.value = _sample_name(i, loc)


__all__ = ["MAX_PLAYERS", "SAMPLE_NAMES", "SAMPLE_NAMES_RU", "SeatRows", "sample_character"]
