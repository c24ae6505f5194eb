"""The ``tabletop-widgets`` command (also ``python -m tabletop_widgets``).

    tabletop-widgets play [--host HOST] [--port PORT] [--db DB]
                          [--lobby-key KEY | --no-lobby-key | --new-lobby-key] [-- VOILA_ARGS ...]
    tabletop-widgets verify DB TABLE [--seed HEX]
    tabletop-widgets --version

``play`` serves the dashboards that ship inside the package (``tabletop_widgets.notebooks``) with
the project's Voila settings (the ``voila.json`` shipped beside them), whatever the current
directory: a ``voila.json`` in the directory you start it from does not change them. ``--db``
sets ``TABLETOP_DB`` for every page's kernel (a SQLite file, created with its folder, or a
``postgresql://`` URL). Arguments after ``--`` go to Voila unchanged (``-- --theme=dark``).

The lobby asks for a key before it creates a table. ``play`` makes sure the store has one: it
keeps a key already set, or generates one and prints it once (only its hash is stored);
``--lobby-key KEY`` (or ``TABLETOP_LOBBY_KEY``) sets a chosen one, ``--new-lobby-key`` replaces it,
and ``--no-lobby-key`` is the explicit mode where anyone who reaches the server creates tables.
``make play`` runs this command.

``verify`` is ``python -m tabletop_widgets.table verify``: the same arguments and exit status
(0 the log matches the revealed seed, 1 it does not, 2 usage or lookup error).

Messages follow the locale of the environment (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): Russian
when it starts with ``ru``, English otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import importlib
import os
import socket
import sys
from pathlib import Path
from typing import Mapping, Sequence

from . import __version__
from .core.i18n import DEFAULT_LOCALE, T, tr

PROG = "tabletop-widgets"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8866

#: The pages ``play`` announces: (path under /voila/render/, label).
START_PAGES = (
    ("index.ipynb", T("Start here:", "Начало:")),
    ("dice.ipynb", T("Dice page:", "Кубики:")),
    ("lobby.ipynb", T("New table:", "Новый стол:")),
)

TEXTS = {
    "description": T(
        "Character sheets, dice trays and combat trackers for tabletop games: serve the "
        "play pages, verify a table's dice.",
        "Листы персонажей, лотки для кубиков и трекеры боя для настольных игр: страницы "
        "для игры и проверка честности кубиков стола.",
    ),
    "play": T(
        "serve the play pages (the dashboards shipped in the package) with Voila",
        "открыть страницы для игры (панели из пакета) через Voila",
    ),
    "verify": T(
        "replay a table's log and check every roll against its revealed seed "
        "(same as python -m tabletop_widgets.table verify)",
        "воспроизвести журнал стола и проверить каждый бросок по раскрытому ключу кубиков "
        "(то же, что python -m tabletop_widgets.table verify)",
    ),
    "host": T(
        "address to listen on (default %(default)s; 0.0.0.0 for every network interface)",
        "адрес, на котором слушать (по умолчанию %(default)s; 0.0.0.0 — все сетевые интерфейсы)",
    ),
    "port": T("port to listen on (default %(default)s)", "порт (по умолчанию %(default)s)"),
    "db": T(
        "the table store: a SQLite file or a postgresql:// URL (default: $TABLETOP_DB, else "
        "~/.local/share/tabletop-widgets/table.db)",
        "хранилище столов: файл SQLite или адрес postgresql:// (по умолчанию $TABLETOP_DB, иначе "
        "~/.local/share/tabletop-widgets/table.db)",
    ),
    "no_preheat": T(
        "keep no kernels ready: each page starts its kernel when opened (slower pages, about 0.65 GB "
        "less memory; by default two kernels per play page and two for the table page wait ready)",
        "не держать готовых ядер: каждая страница запускает ядро при открытии (страницы медленнее, "
        "памяти примерно на 0,65 ГБ меньше; по умолчанию готово по два ядра на каждую страницу игры и "
        "два для страницы стола)",
    ),
    "max_kernels": T(
        "at most N kernels on this server (each open page has one, about 60-130 MB; default: sized "
        "from the machine's memory); past it a new page says the server is full, try again in a minute",
        "не больше N ядер на этом сервере (у каждой открытой страницы своё, около 60–130 МБ; по "
        "умолчанию — по памяти машины); сверх этого новая страница сообщит, что сервер заполнен, и "
        "попросит зайти через минуту",
    ),
    "bad_count": T(
        "the number of kernels must be a whole number from 1 up, not {value!r}",
        "число ядер — целое число от 1, а не {value!r}",
    ),
    "voila_args": T(
        "after --: more Voila options, passed on unchanged", "после --: другие параметры Voila, передаются как есть"
    ),
    "version": T("print the version and exit", "показать версию и выйти"),
    "bad_port": T(
        "the port must be a whole number from 1 to 65535, not {value!r}",
        "порт — целое число от 1 до 65535, а не {value!r}",
    ),
    "empty_db": T(
        "--db is empty: give a SQLite file path or a postgresql:// URL",
        "--db пуст: укажите путь к файлу SQLite или адрес postgresql://",
    ),
    "db_dir": T(
        "cannot create the folder {folder} for the table store: {reason}",
        "не удалось создать папку {folder} для хранилища столов: {reason}",
    ),
    "port_busy": T(
        "port {port} on {host} is already in use (another server?): choose another with --port",
        "порт {port} на {host} уже занят (другой сервер?): выберите другой через --port",
    ),
    "bad_host": T("cannot listen on {host}:{port}: {reason}", "не удалось слушать {host}:{port}: {reason}"),
    "no_voila": T(
        "serving the pages needs Voila: pip install 'tabletop-widgets[voila]'",
        "для страниц нужна Voila: pip install 'tabletop-widgets[voila]'",
    ),
    "no_pages": T(
        "the dashboards are missing from this installation ({folder}): reinstall tabletop-widgets",
        "в этой установке нет панелей ({folder}): переустановите tabletop-widgets",
    ),
    "all_pages": T("All pages:", "Все страницы:"),
    "store": T("(table store: {db}; stop with Ctrl-C)", "(хранилище столов: {db}; остановить — Ctrl-C)"),
    "error": T("error", "ошибка"),
    "lobby_key": T(
        "the lobby key to set (default: $TABLETOP_LOBBY_KEY, else keep the one set, or generate one and print it once)",
        "ключ лобби (по умолчанию $TABLETOP_LOBBY_KEY, иначе прежний, а если его нет — "
        "новый, он будет показан один раз)",
    ),
    "no_lobby_key": T(
        "let anyone who reaches the server create tables (no lobby key)",
        "разрешить создавать столы всем, кто откроет сервер (без ключа лобби)",
    ),
    "new_lobby_key": T(
        "replace the lobby key with a new one (printed once)", "заменить ключ лобби новым (он будет показан один раз)"
    ),
    "key_and_open": T(
        "give a lobby key or --no-lobby-key, not both", "укажите ключ лобби или --no-lobby-key, но не то и другое"
    ),
    "key_made": T(
        "Lobby key (shown once, stored only hashed; give it to whoever creates tables): {key}",
        "Ключ лобби (показан один раз, хранится только хеш; нужен тому, кто создаёт столы): {key}",
    ),
    "key_set": T("Lobby key: set as given (stored hashed).", "Ключ лобби: задан (хранится только хеш)."),
    "key_kept": T(
        "Lobby key: already set (stored hashed; --new-lobby-key replaces it).",
        "Ключ лобби: уже задан (хранится только хеш; --new-lobby-key заменит его).",
    ),
    "key_open": T(
        "Lobby: NO KEY (--no-lobby-key): anyone who reaches this server can create tables.",
        "Лобби БЕЗ КЛЮЧА (--no-lobby-key): любой, кто откроет сервер, может создавать столы.",
    ),
    "bad_key": T("the lobby key: {reason}", "ключ лобби: {reason}"),
    "store_error": T(
        "cannot open the table store {db}: {reason}", "не удалось открыть хранилище столов {db}: {reason}"
    ),
}


def locale_from_env(environ: Mapping[str, str] | None = None) -> str:
    """``"ru"`` when the first set of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` starts with ``ru``."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "ru" if value.lower().startswith("ru") else DEFAULT_LOCALE
    return DEFAULT_LOCALE


class CommandError(Exception):
    """A problem the user can fix; its message is already in the user's language."""


def notebooks_dir() -> Path:
    """The folder of the dashboards inside the installed package (the repository's
    ``notebooks/`` in an editable install)."""
    module = importlib.import_module("tabletop_widgets.notebooks")
    return Path(module.__file__).resolve().parent


@dataclasses.dataclass(frozen=True)
class PlaySettings:
    """What ``play`` was asked for. A new ``play`` option adds a field here, its argument in
    :func:`add_play_arguments` and, when the pages read it, a variable in :meth:`environment`."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    db: str | None = None
    voila_args: tuple[str, ...] = ()
    lobby_key: str | None = None
    no_lobby_key: bool = False
    new_lobby_key: bool = False
    no_preheat: bool = False
    max_kernels: int | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> PlaySettings:
        return cls(
            host=args.host,
            port=args.port,
            db=args.db,
            voila_args=tuple(args.voila_args),
            lobby_key=args.lobby_key,
            no_lobby_key=args.no_lobby_key,
            new_lobby_key=args.new_lobby_key,
            no_preheat=args.no_preheat,
            max_kernels=args.max_kernels,
        )

    def environment(self, environ: Mapping[str, str], locale: str = DEFAULT_LOCALE) -> dict[str, str]:
        """The variables the pages' kernels read, on top of ``environ`` (which is not changed)."""
        env = dict(environ)
        if self.db is not None:
            env["TABLETOP_DB"] = normalise_db(self.db, locale)
        # where a preheated table kernel asks Voila for its page's request (voila.utils'
        # wait_for_request; it assumes 127.0.0.1, which a server on another address does not hear)
        env["VOILA_APP_IP"] = local_address(self.host)
        # the pages' Voila template (templates_dir()): Jupyter's data path, ahead of the others
        env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(templates_dir()), environ.get("JUPYTER_PATH")) if p)
        return env

    def voila_argv(self, notebooks: Path) -> list[str]:
        return [
            str(notebooks),
            "--no-browser",
            f"--Voila.ip={self.host}",
            f"--port={self.port}",
            "--Voila.port_retries=0",
            f"--VoilaConfiguration.template={TEMPLATE}",
            *(["--VoilaConfiguration.preheat_kernel=False"] if self.no_preheat else []),
            *([f"--PageKernelManager.max_kernels={self.max_kernels}"] if self.max_kernels else []),
            *self.voila_args,
        ]


#: the pages' Voila template: Voila's "lab" without the stylesheets it fetches from a CDN
TEMPLATE = "tabletop"


def templates_dir() -> Path:
    """The Jupyter data folder inside the package that holds the ``tabletop`` Voila template
    (``voila/templates/tabletop``)."""
    module = importlib.import_module("tabletop_widgets.front")
    return Path(module.__file__).resolve().parent / "jupyter"


def local_address(host: str) -> str:
    """The address this machine reaches a server listening on ``host`` at (a URL's host part)."""
    host = host.strip().strip("[]")
    if host in ("", "0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def normalise_db(db: str, locale: str = DEFAULT_LOCALE) -> str:
    """A PostgreSQL URL as given; a SQLite path made absolute (the kernels run in the pages'
    folder, not in the directory ``play`` was started from)."""
    db = db.strip()
    if not db:
        raise CommandError(tr(TEXTS["empty_db"], locale))
    if is_postgres(db):
        return db
    if db.startswith("sqlite:///"):
        db = db[len("sqlite:///") :]
    return os.path.abspath(os.path.expanduser(db))


def prepare_store_folder(db: str, locale: str = DEFAULT_LOCALE) -> None:
    """Create the folder of a SQLite store, private (0700) like the store makes it (nothing to do
    for PostgreSQL)."""
    if is_postgres(db):
        return
    folder = Path(db).parent
    try:
        old = os.umask(0o077)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        finally:
            os.umask(old)
    except OSError as exc:
        raise CommandError(tr(TEXTS["db_dir"], locale).format(folder=folder, reason=exc.strerror or exc)) from exc


def prepare_lobby(settings: PlaySettings, db: str, environ: Mapping[str, str], locale: str = DEFAULT_LOCALE) -> str:
    """Make sure the store's lobby asks for a key (or is explicitly open); the line to print."""
    from .table.lobbykey import prepare_lobby_key
    from .table.store import StoreError

    key = settings.lobby_key if settings.lobby_key is not None else (environ.get("TABLETOP_LOBBY_KEY") or None)
    if settings.no_lobby_key and key is not None:
        raise CommandError(tr(TEXTS["key_and_open"], locale))
    try:
        made = prepare_lobby_key(db, key=key, disabled=settings.no_lobby_key, renew=settings.new_lobby_key)
    except StoreError as exc:
        raise CommandError(tr(TEXTS["store_error"], locale).format(db=db, reason=exc)) from exc
    except ValueError as exc:
        raise CommandError(tr(TEXTS["bad_key"], locale).format(reason=exc)) from exc
    if settings.no_lobby_key:
        return tr(TEXTS["key_open"], locale)
    if made:
        return tr(TEXTS["key_made"], locale).format(key=made)
    return tr(TEXTS["key_set" if key else "key_kept"], locale)


def check_port_free(host: str, port: int, locale: str = DEFAULT_LOCALE) -> None:
    """Fail with a clear message now rather than in Voila's log."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise CommandError(tr(TEXTS["bad_host"], locale).format(host=host, port=port, reason=exc.strerror)) from exc
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as exc:
            key = "port_busy" if exc.errno == errno.EADDRINUSE else "bad_host"
            raise CommandError(tr(TEXTS[key], locale).format(host=host, port=port, reason=exc.strerror or exc)) from exc


def banner(settings: PlaySettings, db: str, locale: str = DEFAULT_LOCALE) -> str:
    base = f"http://{settings.host}:{settings.port}"
    lines = [""]
    for page, label in START_PAGES:
        lines.append(f"  {tr(label, locale):14} {base}/voila/render/{page}")
    lines.append(f"  {tr(TEXTS['all_pages'], locale):14} {base}/")
    lines.append("  " + tr(TEXTS["store"], locale).format(db=db))
    lines.append("")
    return "\n".join(lines)


def announcement(settings: PlaySettings, db: str, lobby_line: str, locale: str = DEFAULT_LOCALE) -> str:
    """What ``play`` prints once the server is up: the pages, then the lobby's line (the key
    when one was made) last, framed."""
    bar = "  " + "=" * min(max(len(lobby_line) + 4, 40), 100)
    return "\n".join([banner(settings, db, locale), bar, f"    {lobby_line}", bar, ""])


#: seconds ``play`` waits for the kernels kept ready before it prints the pages and the key
ANNOUNCE_WAIT = 120.0


def announcing(voila_class, text: str, wait: float = ANNOUNCE_WAIT):
    """``voila_class`` that prints ``text`` once it listens and its pools of ready kernels are
    filled (at most ``wait`` seconds): after the server's start-up lines, so that the lobby key is
    the last thing on the screen, not lost among them."""
    import asyncio

    import tornado.ioloop

    class PlayVoila(voila_class):
        def start(self):
            tornado.ioloop.IOLoop.current().add_callback(self._announce)
            super().start()

        async def _announce(self):
            settled = getattr(self.kernel_manager, "settled", None)
            if settled is not None:
                await settled(wait)
            await asyncio.sleep(0.5)  # the last kernel's own start-up lines
            print(text, flush=True)

    return PlayVoila


def play(settings: PlaySettings, locale: str = DEFAULT_LOCALE) -> int:
    """Serve the packaged dashboards with Voila until Ctrl-C (or SIGTERM)."""
    from .table.store import default_db_path

    notebooks = notebooks_dir()
    if not (notebooks / "index.ipynb").is_file():
        raise CommandError(tr(TEXTS["no_pages"], locale).format(folder=notebooks))
    try:
        from jupyter_core.paths import jupyter_config_path
        from voila.app import Voila
    except ImportError as exc:
        raise CommandError(tr(TEXTS["no_voila"], locale)) from exc
    env = settings.environment(os.environ, locale)
    db = env.get("TABLETOP_DB") or str(default_db_path())
    prepare_store_folder(db, locale)
    check_port_free(settings.host, settings.port, locale)
    lobby_line = prepare_lobby(settings, db, env, locale)
    os.environ.update(env)  # Voila's kernels inherit this process's environment
    app = announcing(Voila, announcement(settings, db, lobby_line, locale))
    # The shipped voila.json first: the project's settings win over the user's Jupyter config,
    # and the current directory is not searched (Voila's default would read ./voila.json). Its
    # kernel manager starts the table's resolver beside the server (PageKernelManager.resolver):
    # the seats' requests are answered whether a GM's page is open or not.
    app.launch_instance(argv=settings.voila_argv(notebooks), config_file_paths=[str(notebooks), *jupyter_config_path()])
    return 0


def _port(locale: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if not 1 <= value <= 65535:
            raise argparse.ArgumentTypeError(tr(TEXTS["bad_port"], locale).format(value=text))
        return value

    return parse


def _count(locale: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(tr(TEXTS["bad_count"], locale).format(value=text))
        return value

    return parse


def add_play_arguments(parser: argparse.ArgumentParser, locale: str = DEFAULT_LOCALE) -> None:
    parser.add_argument("--host", default=DEFAULT_HOST, help=tr(TEXTS["host"], locale))
    parser.add_argument("--port", type=_port(locale), default=DEFAULT_PORT, help=tr(TEXTS["port"], locale))
    parser.add_argument("--db", default=None, help=tr(TEXTS["db"], locale))
    keys = parser.add_mutually_exclusive_group()
    keys.add_argument("--lobby-key", default=None, metavar="KEY", help=tr(TEXTS["lobby_key"], locale))
    keys.add_argument("--no-lobby-key", action="store_true", help=tr(TEXTS["no_lobby_key"], locale))
    keys.add_argument("--new-lobby-key", action="store_true", help=tr(TEXTS["new_lobby_key"], locale))
    parser.add_argument("--no-preheat", action="store_true", help=tr(TEXTS["no_preheat"], locale))
    parser.add_argument(
        "--max-kernels", type=_count(locale), default=None, metavar="N", help=tr(TEXTS["max_kernels"], locale)
    )
    parser.add_argument("voila_args", nargs="*", metavar="VOILA_ARG", help=tr(TEXTS["voila_args"], locale))


def build_parser(locale: str = DEFAULT_LOCALE) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=PROG, description=tr(TEXTS["description"], locale))
    ap.add_argument("--version", action="version", version=f"{PROG} {__version__}", help=tr(TEXTS["version"], locale))
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="{play,verify}")
    add_play_arguments(
        sub.add_parser("play", help=tr(TEXTS["play"], locale), description=tr(TEXTS["play"], locale)), locale
    )
    # listed for --help; main() hands its arguments to the table CLI untouched
    sub.add_parser("verify", help=tr(TEXTS["verify"], locale), add_help=False)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    locale = locale_from_env()
    if argv[:1] == ["verify"]:
        from .table.__main__ import main as table_main

        return table_main(["verify", *argv[1:]])
    args = build_parser(locale).parse_args(argv)
    try:
        if args.cmd == "play":
            return play(PlaySettings.from_args(args), locale)
    except CommandError as exc:
        from .table.__main__ import terminal_safe  # a store's or a file's words: no escapes

        print(terminal_safe(f"{PROG}: {tr(TEXTS['error'], locale)}: {exc}"), file=sys.stderr)
        return 2
    return 2  # pragma: no cover - argparse requires a known command


if __name__ == "__main__":
    sys.exit(main())
