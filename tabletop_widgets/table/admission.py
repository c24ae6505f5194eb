"""Which page requests may make the server start a kernel: the forged-page rule and the kernel cap.

Voila starts a kernel for every page it is asked for, and a kernel lives until it is culled (300 s
without a page, checked every 60 s) at 57-67 MB each (measured: ``docs/deploy.md``). So anyone
who reaches the server could fill the machine with a loop of requests. Two rules, applied by the
project's kernel manager (:class:`~.kernels.PageKernelManager`) where Voila starts or takes a
kernel for a page, before the notebook runs:

* **The forged-page rule.** A notebook that needs a seat (a cell's metadata says
  ``{"tabletop": {"needs_seat": true}}``: ``notebooks/table.ipynb``) starts no kernel, and takes
  none from a pool, for a request whose seat token is not valid (:func:`seat_refusal`: the token's
  hash is looked up with ``Store.seat_by_token_hash``, nothing else of the table is read). The
  request gets the same "no seat at this table" words the table page says, as a plain page of the
  server (:func:`refusal_page`, HTTP 403).
* **The kernel cap.** At most ``max_kernels`` kernels run on the server, the pools' ready kernels
  included (:func:`default_max_kernels`: sized from the machine's memory unless set, e.g.
  ``tabletop-widgets play --max-kernels N``). The last ``seat_reserve`` of them are kept for the
  pages of real seats (:func:`default_seat_reserve`): a flood of pages anyone may open (the play
  pages, the lobby, the index) cannot keep a seat from opening. Past its share a page that needs a
  new kernel gets "this table's server is full, try again in a minute" (HTTP 503, ``Retry-After``);
  a page that takes a ready kernel from a pool starts none and still opens, and the pool makes its
  new kernel once there is room. Nothing already open is touched: every open page, the lobby's
  included, keeps its kernel.
* **Pages per seat.** One seat link may have at most ``pages_per_seat`` pages (kernels) open at
  once (a reload, a second tab): a player who loops requests of their own valid link cannot fill
  the seats' reserve for the others (HTTP 429, :data:`SEAT_BUSY`).

This module is plain Python (no Jupyter): the rules, the sizes and the pages; ``kernels.py`` wires
them into Voila.
"""

from __future__ import annotations

import asyncio
import html
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from ..core.i18n import LOCALES, T

#: a notebook cell's metadata key (under "tabletop") saying that the page needs a valid seat token
NEEDS_SEAT = "needs_seat"

#: memory a kernel is planned with: a fresh one measures 57-67 MB (RSS); a seat's grows with the
#: sheets it opens and the log it holds, and a PostgreSQL one carries the driver (about twice)
KERNEL_BYTES = 128 * 2**20
#: memory left for the Voila server itself (about 105 MB measured) and the rest of the machine
SERVER_BYTES = 256 * 2**20
#: the share of the machine's memory the kernels may take
MEMORY_SHARE = 0.75
#: the smallest cap the memory sizing gives (a lobby, two seats and a page to spare)
MIN_KERNELS = 4
#: the cap when the machine's memory cannot be read
FALLBACK_KERNELS = 40
#: seconds a "server is full" page asks the browser to wait (``Retry-After``)
RETRY_AFTER = 60

TEXTS: dict[str, dict[str, str]] = {
    "no_seat_title": T("No seat at this table", "Нет места за этим столом"),
    "no_token": T(
        "This page needs a seat link (…?table=<id>&seat=<token>). Ask your GM for yours.",
        "Для этой страницы нужна ссылка места (…?table=<id>&seat=<token>). Попросите её у того, кто ведёт игру.",
    ),
    "bad_token": T(
        "This seat link is not valid (wrong or expired token). Ask your GM for a new link.",
        "Ссылка места недействительна (неверный или устаревший токен). Попросите новую ссылку у того, кто ведёт игру.",
    ),
    "full_title": T("This table's server is full", "Сервер этого стола заполнен"),
    "full": T(
        "Too many pages are open on this server right now. Try again in a minute: the pages nobody "
        "uses any more are closed every few minutes.",
        "Сейчас на этом сервере открыто слишком много страниц. Попробуйте снова через минуту: "
        "страницы, которыми никто не пользуется, закрываются каждые несколько минут.",
    ),
    "seat_busy_title": T("Too many pages open with this link", "Слишком много страниц с этой ссылкой"),
    "seat_busy": T(
        "This seat link already has as many pages open on this server as one seat may have. Close one "
        "of them and open it again; a page closed without a goodbye (a lost connection) goes by "
        "itself within a few minutes.",
        "По этой ссылке места на сервере уже открыто столько страниц, сколько можно одному месту. "
        "Закройте одну из них и откройте снова; страница, закрытая без прощания (пропала связь), "
        "уйдёт сама через несколько минут.",
    ),
    "unreachable_title": T("The table cannot be reached", "Стол сейчас недоступен"),
    "unreachable": T(
        "The server cannot reach the tables' store right now, so it cannot check this seat link. "
        "Try again in a minute; if it goes on, tell whoever runs the server.",
        "Сервер сейчас не может обратиться к хранилищу столов и потому не может проверить эту ссылку "
        "места. Попробуйте снова через минуту; если не поможет, сообщите тому, кто запускает сервер.",
    ),
}


@dataclass(frozen=True)
class Refusal:
    """Why a page gets no kernel: ``code`` (``no_token``, ``bad_token``, ``full``,
    ``unreachable``), the HTTP ``status`` and the page's bilingual ``title`` and ``message``."""

    code: str
    status: int
    title: Mapping[str, str]
    message: Mapping[str, str]

    @property
    def retry_after(self) -> int | None:
        return RETRY_AFTER if self.status in (429, 503) else None


def _refusal(code: str, status: int, title: str) -> Refusal:
    return Refusal(code, status, TEXTS[title], TEXTS[code])


SERVER_FULL = _refusal("full", 503, "full_title")
SEAT_BUSY = _refusal("seat_busy", 429, "seat_busy_title")
UNREACHABLE = _refusal("unreachable", 503, "unreachable_title")


# -- the forged-page rule ----------------------------------------------------------------------
def notebook_needs_seat(notebook: Mapping[str, Any]) -> bool:
    """Whether a notebook (its JSON) declares that its page needs a valid seat token."""
    for cell in notebook.get("cells") or []:
        meta = (cell.get("metadata") or {}).get("tabletop") or {}
        if isinstance(meta, Mapping) and meta.get(NEEDS_SEAT) is True:
            return True
    return False


def check_seat_link(store, query: str | None) -> tuple[Refusal | None, str | None]:
    """``(None, seat)`` when ``query`` (the page's query string) holds a valid seat link of
    ``store`` (``seat``: ``"<table id>/<seat id>"``), else ``(why not, None)``: the table page's
    own words, the same answer for an unknown table and a wrong token. Reads only the seat whose
    token hashes to the one given (``seat_by_token_hash``)."""
    from .seats import hash_token, parse_query

    table_id, token = parse_query(query or "")
    if not table_id or not token:
        return _refusal("no_token", 403, "no_seat_title"), None
    seat = store.seat_by_token_hash(str(table_id), hash_token(str(token)))
    if seat is None:
        return _refusal("bad_token", 403, "no_seat_title"), None
    return None, f"{seat.table_id}/{seat.seat}"


def seat_refusal(store, query: str | None) -> Refusal | None:
    """Why ``query`` holds no valid seat link of ``store`` (:func:`check_seat_link`), or ``None``."""
    return check_seat_link(store, query)[0]


# -- the kernel cap ----------------------------------------------------------------------------
def _number(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def machine_memory(root: Path = Path("/")) -> int | None:
    """The memory the server's kernels may live in, in bytes: the machine's (``/proc/meminfo``),
    or its container's limit when lower (cgroup v2 ``memory.max``, v1 ``memory.limit_in_bytes``);
    ``None`` when neither can be read."""
    found = []
    try:
        for line in (root / "proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    for limit in ("sys/fs/cgroup/memory.max", "sys/fs/cgroup/memory/memory.limit_in_bytes"):
        value = _number(root / limit)
        if value is not None and value < 2**60:  # v1 says "no limit" with a huge number
            found.append(value)
    return min(found) if found else None


def default_max_kernels(memory: int | None) -> int:
    """The cap for a machine with ``memory`` bytes: :data:`MEMORY_SHARE` of it, less
    :data:`SERVER_BYTES`, in kernels of :data:`KERNEL_BYTES` (at least :data:`MIN_KERNELS`;
    :data:`FALLBACK_KERNELS` when unknown). 2 GB: 10 kernels; 8 GB: 46; 24 GB: 142."""
    if not memory:
        return FALLBACK_KERNELS
    return max(MIN_KERNELS, int(memory * MEMORY_SHARE - SERVER_BYTES) // KERNEL_BYTES)


def default_seat_reserve(max_kernels: int) -> int:
    """The kernels kept for real seats out of ``max_kernels``: a quarter, at least one, and
    always one left for the other pages."""
    return max(0, min(max(1, max_kernels // 4), max_kernels - 1))


class KernelBudget:
    """The cap's count: the kernels running (``running()``: their ids, those still starting
    included) plus the starts under way that are not among them yet. A start is admitted and
    counted in the same step, with no wait between (:meth:`has_room`, then :meth:`reserve` or
    :meth:`hold`), so starts made at the same moment cannot pass the cap together.

    * ``kind`` is ``"seat"`` for the page of a valid seat (up to ``limit``), ``"public"`` for
      any other start, a pool's included (up to ``limit - reserve``);
    * :meth:`reserve` counts a start whose kernel id is known, :meth:`release` ends that count
      once the kernel is running (or failed to start);
    * :meth:`hold` counts a pool's start before its kernel id exists (the pool first prepares
      the notebook), :meth:`unhold` ends it;
    * :meth:`wait_for_room` waits, for a pool's start, until a kernel goes or a count ends."""

    def __init__(self, limit: int, reserve: int, running: Callable[[], set[str]]):
        self.limit, self.reserve_for_seats = limit, max(0, min(reserve, limit - 1))
        self._running = running
        self._reserved: set[str] = set()
        self._holds = 0
        self._waiters: list[asyncio.Future] = []

    def count(self) -> int:
        return len(set(self._running()) | self._reserved) + self._holds

    def allowed(self, kind: str) -> int:
        return self.limit if kind == "seat" else self.limit - self.reserve_for_seats

    def has_room(self, kind: str) -> bool:
        return self.count() < self.allowed(kind)

    def reserve(self, kernel_id: str) -> None:
        self._reserved.add(kernel_id)

    def reserved(self) -> set[str]:
        """The kernels being started (counted, not running yet)."""
        return set(self._reserved)

    def release(self, kernel_id: str) -> None:
        self._reserved.discard(kernel_id)
        self.changed()

    def hold(self) -> None:
        self._holds += 1

    def unhold(self) -> None:
        self._holds = max(0, self._holds - 1)
        self.changed()

    def changed(self) -> None:
        """A kernel went or a count ended (or the server stops): the waiters look again."""
        waiters, self._waiters = self._waiters, []
        for w in waiters:
            if not w.done():
                w.set_result(None)

    async def wait_for_room(self, kind: Callable[[], str], stopping: Callable[[], bool], poll: float = 5.0) -> bool:
        """Wait until there is room for a start of ``kind()`` (asked again at every look: a page
        may take the kernel meanwhile); False if ``stopping()`` first. Returns with no wait
        between the last look and the caller's :meth:`hold`."""
        while not stopping():
            if self.has_room(kind()):
                return True
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, poll)
            except asyncio.TimeoutError:
                pass
        return False


# -- the pages ---------------------------------------------------------------------------------
_STYLE = (
    "body{margin:0;background:#f7f4ee;color:#2b2118;font-family:'DejaVu Sans',system-ui,sans-serif}"
    "main{max-width:640px;margin:48px auto;padding:18px 24px;border:1px solid #e3c9a8;border-radius:12px;"
    "background:#fffaf3}h1{margin:0 0 8px;font-size:1.5em}p{font-size:1.1em;line-height:1.4}"
    "p[lang]{color:#6b5a48;font-size:1em}"
)


def refusal_page(refusal: Refusal, locale: str | None = None) -> str:
    """The whole HTML page of ``refusal``: its words in ``locale`` first, then in the other
    language; no script, no request to anywhere (class ``tt-server-page``; ``tt-seat-error`` for
    a seat link refused, as the table page says it; ``tt-server-full`` when full)."""
    first = locale if locale in LOCALES else "en"
    second = next(x for x in LOCALES if x != first)
    kind = "tt-seat-error" if refusal.status == 403 else "tt-server-" + refusal.code.replace("_", "-")
    title = html.escape(refusal.title[first])
    return (
        f'<!DOCTYPE html>\n<html lang="{first}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:;base64,=">'
        f"<title>{title}</title><style>{_STYLE}</style></head>"
        f'<body><main class="tt-server-page {kind}" role="alert">'
        f"<h1>{title}</h1><p>{html.escape(refusal.message[first])}</p>"
        f'<p lang="{second}"><b>{html.escape(refusal.title[second])}.</b> '
        f"{html.escape(refusal.message[second])}</p></main></body></html>\n"
    )


def page_locale(query: str | None) -> str | None:
    """The ``locale`` a page's query asks for (``en`` or ``ru``), if any."""
    from urllib.parse import parse_qs

    value = (parse_qs((query or "").lstrip("?")).get("locale") or [None])[0]
    return value if value in LOCALES else None


def notebook_of_request(script_name: str, root_dir: str, single: str | None = None) -> str | None:
    """The notebook (relative to ``root_dir``) a Voila page request is for: ``SCRIPT_NAME``'s
    path after ``/voila/render/``, or the one notebook Voila serves (``single``)."""
    from urllib.parse import unquote

    if single:
        return os.path.relpath(single, root_dir)
    marker = "/voila/render/"
    if marker not in script_name:
        return None
    # "/voila/render//table.ipynb" is Voila's table.ipynb too: never an absolute path here
    return unquote(script_name.split(marker, 1)[1]).lstrip("/")


__all__ = [
    "KERNEL_BYTES",
    "KernelBudget",
    "NEEDS_SEAT",
    "SEAT_BUSY",
    "SERVER_FULL",
    "UNREACHABLE",
    "Refusal",
    "check_seat_link",
    "default_max_kernels",
    "default_seat_reserve",
    "machine_memory",
    "notebook_needs_seat",
    "notebook_of_request",
    "page_locale",
    "refusal_page",
    "seat_refusal",
]
