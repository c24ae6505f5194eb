"""Saving and loading a :class:`~.sheet.CharacterSheet`'s character as JSON: the Save button
makes a download link (a ``data:`` URL), the Load button replaces the character with an uploaded
file, all or nothing (a bad file leaves the character and the sheet unchanged and says why).

:class:`SheetFile` is that part of the sheet.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.core.i18n import LOCALES, tr
from tabletop_widgets.core.problems import Problem, ValidationError

from .base import text_lookup
from .sheet_context import (
    SheetContext,
    button_widget,
    esc,
    fixed_layout,
    html_widget,
    problems_html,
    set_display,
    shared_style,
)

#: The largest character file the sheet accepts (bytes).
MAX_UPLOAD_BYTES = 1_000_000

#: User-facing text of saving and loading, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "save": {"en": "Save to a file", "ru": "Сохранить в файл"},
    "save_tip": {
        "en": "Prepare a download of this character as a JSON file",
        "ru": "Подготовить файл JSON с этим персонажем для скачивания",
    },
    "download": {"en": "Download {name}", "ru": "Скачать {name}"},
    #: shown by sheet.css (``.tt-load-<locale>``): the upload button's own text always ends in a
    #: file count, "(0)"; tests/widgets/test_sheet_file_words.py keeps the two the same
    "load": {"en": "Load from a file", "ru": "Загрузить из файла"},
    "load_tip": {
        "en": "Replace this character with one from a JSON file saved by the sheet",
        "ru": "Заменить персонажа данными из файла JSON, сохранённого листом",
    },
    "loaded": {"en": "Loaded {name}.", "ru": "Загружен файл {name}."},
    "load_failed": {
        "en": "Could not load {name}; the sheet is unchanged.",
        "ru": "Не удалось загрузить {name}; лист не изменён.",
    },
    "too_big": {"en": "the file is larger than {limit} bytes", "ru": "файл больше {limit} Б"},
    "not_json": {"en": "not a JSON file ({detail})", "ru": "это не файл JSON ({detail})"},
    "not_utf8": {"en": "the file is not UTF-8 text", "ru": "файл не в кодировке UTF-8"},
    "not_object": {
        "en": "expected a JSON object with the character's values",
        "ru": "ожидался объект JSON со значениями персонажа",
    },
    "not_allowed": {"en": "you may not do this", "ru": "вам нельзя это делать"},
}

_t = text_lookup(TEXTS)


def _load_class(locale: str) -> str:
    """The class sheet.css draws the upload button's words by (``.tt-load-en``, ``.tt-load-ru``)."""
    return f"tt-load-{locale if locale in LOCALES else 'en'}"


def slug_filename(name: str, system: str) -> str:
    """The file name a character saves under: ``<name>.<system slug>.json``."""
    base = re.sub(r"[^\w\-]+", "_", name.strip(), flags=re.UNICODE).strip("_") or "character"
    return f"{base}.{system}.json"


class SheetFile:
    """Save and Load of a sheet's character: the Save button (``save_button``), the Load button
    (``upload``), and, made when first needed, the download link (``download``) and the status
    line saying how a load or save went (``status``).

    Inputs: ``ctx`` (the character, its system and the language), ``can`` (the viewer's role
    check: ``"save"`` and ``"load"``), and where its widgets made later go: ``place_link(widget)``
    puts the download link by the buttons, ``place_status(widget)`` the status line under the
    sheet's header. ``tools`` are the buttons, for the header.

    ``load_error`` is the last refused file's ``ValidationError`` (None after a good one).
    """

    def __init__(
        self,
        ctx: SheetContext,
        *,
        can: Callable[[str], bool],
        place_link: Callable[[widgets.Widget], None],
        place_status: Callable[[widgets.Widget], None],
    ):
        self.ctx, self.character, self.can = ctx, ctx.character, can
        self.place_link, self.place_status = place_link, place_status
        self.load_error: ValidationError | None = None
        self._load_message: tuple[str, dict] | None = None
        self.save_button = button_widget(icon="download", layout=fixed_layout(width="auto"), classes=["tt-sheet-save"])
        self._download: widgets.HTML | None = None
        self.upload = widgets.FileUpload(
            accept=".json,application/json",
            multiple=False,
            layout=fixed_layout(width="auto"),
            style=shared_style(widgets.ButtonStyle),
            _dom_classes=("tt-sheet-load", _load_class(ctx.locale)),
        )
        self._status: widgets.HTML | None = None
        self.save_button.on_click(lambda _b: self.prepare_download())
        self.upload.observe(self._on_upload, names="value")
        self.tools: list[widgets.Widget] = [self.save_button, self.upload]

    @property
    def download(self) -> widgets.HTML:
        """The download link Save shows (``.tt-sheet-download``), after the Save button."""
        if self._download is None:
            self._download = html_widget(layout=fixed_layout(display="none"), classes=["tt-sheet-download"])
            self.place_link(self._download)
        return self._download

    @property
    def status(self) -> widgets.HTML:
        """The status line under the header (``.tt-sheet-status``): a load's or save's outcome."""
        if self._status is None:
            self._status = html_widget(layout=fixed_layout(display="none"), classes=["tt-sheet-status"])
            self.place_status(self._status)
        return self._status

    def relabel(self) -> None:
        """The buttons and the link in the sheet's language (the status line: :meth:`render_status`)."""
        loc = self.ctx.locale
        self.save_button.description = _t("save", loc)
        self.save_button.tooltip = _t("save_tip", loc)
        self.upload.description = _t("load", loc)  # read by screen readers; the eye reads sheet.css's
        self.upload.tooltip = _t("load_tip", loc)
        # one update, and none when the language is the one the button was made in
        classes = tuple(c for c in self.upload._dom_classes if not c.startswith("tt-load-")) + (_load_class(loc),)
        if classes != tuple(self.upload._dom_classes):
            self.upload._dom_classes = classes
        if self._download is not None and self._download.layout.display != "none":
            self.prepare_download(check=False)

    def to_json(self) -> str:
        """The character as the JSON text the sheet saves (``Character.to_dict``)."""
        return json.dumps(self.character.to_dict(), ensure_ascii=False, indent=2)

    def filename(self) -> str:
        return slug_filename(getattr(self.character, "name", "") or "", self.ctx.system.slug)

    def prepare_download(self, check: bool = True) -> bool:
        """Show a download link (a ``data:`` URL) holding the character's JSON."""
        if check and not self.can("save"):
            self._set_status("error", {"en": TEXTS["not_allowed"]["en"], "ru": TEXTS["not_allowed"]["ru"]})
            return False
        data = base64.b64encode(self.to_json().encode("utf-8")).decode("ascii")
        name = self.filename()
        value = (
            f'<a download="{esc(name)}" href="data:application/json;base64,{data}" '
            f'title="{esc(_t("download", self.ctx.locale, name=name))}">⬇ '
            f"{esc(_t('download', self.ctx.locale, name=name))}</a>"
        )
        if self._download is None:  # the first link: made shown, with its value (one message)
            self._download = html_widget(value, classes=["tt-sheet-download"])
            self.place_link(self._download)
        else:
            self._download.value = value
            set_display(self._download, None)
        return True

    def load_json(self, raw: bytes | str, filename: str = "character.json") -> bool:
        """Replace the character with the one in ``raw`` (JSON text), all or nothing. A bad file
        leaves the character and the sheet unchanged and shows why."""
        if not self.can("load"):
            self._set_status("error", {"en": TEXTS["not_allowed"]["en"], "ru": TEXTS["not_allowed"]["ru"]})
            return False
        try:
            if isinstance(raw, (bytes, bytearray, memoryview)):
                raw = bytes(raw)
                if len(raw) > MAX_UPLOAD_BYTES:
                    raise _LoadProblem("too_big", limit=MAX_UPLOAD_BYTES)
                try:
                    text = raw.decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise _LoadProblem("not_utf8") from None
            else:
                text = raw
                if len(text.encode("utf-8")) > MAX_UPLOAD_BYTES:
                    raise _LoadProblem("too_big", limit=MAX_UPLOAD_BYTES)
            try:
                data = json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                detail = (
                    f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
                    if isinstance(exc, json.JSONDecodeError)
                    else "too deeply nested"
                )
                raise _LoadProblem("not_json", detail=detail) from None
            if not isinstance(data, dict):
                raise _LoadProblem("not_object")
            self.character.load_dict(data)
        except _LoadProblem as exc:
            self.load_error = ValidationError([Problem(exc.code, exc.text)])
        except ValidationError as exc:
            self.load_error = exc
        else:
            self.load_error = None
            self._set_status("ok", {loc: _t("loaded", loc, name=filename) for loc in LOCALES})
            return True
        self._set_status("error", {loc: _t("load_failed", loc, name=filename) for loc in LOCALES})
        return False

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        f = files[0]
        try:
            self.load_json(f.get("content", b""), str(f.get("name", "character.json")))
        finally:
            # let the same file be uploaded again after a fix
            self.upload.unobserve(self._on_upload, names="value")
            try:
                self.upload.value = ()
            finally:
                self.upload.observe(self._on_upload, names="value")

    def _set_status(self, kind: str, message: dict) -> None:
        self._load_message = (kind, message)
        if kind == "ok":
            self.load_error = None
        self.render_status()

    def render_status(self) -> None:
        """The status line in the sheet's language (hidden while there is nothing to say)."""
        if self._load_message is None:
            if self._status is not None:
                set_display(self._status, "none")
                self._status.value = ""
            return
        kind, message = self._load_message
        loc = self.ctx.locale
        if kind == "ok":
            self.status.value = f'<div class="tt-ok" role="status">✓ {esc(tr(message, loc))}</div>'
        else:
            details = problems_html(self.load_error.problems, loc, labelled=True) if self.load_error else ""
            self.status.value = (
                f'<div class="tt-field-problem tt-load-error" role="alert">'
                f'<b class="tt-error">✖ {esc(tr(message, loc))}</b>{details}</div>'
            )
        set_display(self.status, None)


class _LoadProblem(Exception):
    def __init__(self, code: str, **fmt: Any):
        self.code = code
        self.text = {loc: _t(code, loc, **fmt) for loc in LOCALES}
        super().__init__(self.text["en"])


__all__ = ["MAX_UPLOAD_BYTES", "SheetFile", "slug_filename"]
