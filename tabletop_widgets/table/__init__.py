"""The shared table: an event log outside the kernels, seats and roles, fair dice.

Voila gives every page its own kernel, so the table lives in a store (:mod:`.store`; the
embedded default is one SQLite file, :mod:`.sqlite`). A seat joins with its secret token
(:class:`TableSession`), sees only the events addressed to it, writes outcomes (the dice that
came up, never the command), and follows the others' writes (:mod:`.follow`).

    from tabletop_widgets.table import open_store, create_table, SeatSpec, TableSession, check
    store = open_store()                       # $TABLETOP_DB or ~/.local/share/tabletop-widgets/table.db
    made = create_table(store, "ret", [SeatSpec("gm", "gm"), SeatSpec("bob", "player", "Bob", "c1")],
                        characters={"c1": sheet})
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    gm.roll("2d6+1", hidden=True)
    bob = TableSession.join(store, made.table_id, made.tokens["bob"])
    bob.roll(check("mind"))
"""

from .audience import Audience, project_combat, project_state
from .events import EventError, register_kind
from .fairdice import FairDice, commitment, rng_for
from .lobbykey import LobbyKeyError, check_lobby_key, lobby_mode, prepare_lobby_key
from .rules import PlayDenied, PlayError
from .seats import (
    ACTIONS,
    CreatedTable,
    PermissionDenied,
    SeatError,
    SeatSpec,
    TableSetupError,
    create_table,
    link,
    parse_query,
    register_action,
    reissue_token,
)
from .session import CheckRequest, TableSession, check, rebuild
from .state import TableState, reducer
from .store import (
    Event,
    Head,
    NewEvent,
    NotAStore,
    SeatRecord,
    Snapshot,
    Store,
    StoreError,
    TableClosed,
    TableExists,
    TableInfo,
    TableNotFound,
    VersionConflict,
    Watch,
    WriteTx,
    default_db_path,
    open_store,
)
from .verify import Report, verify_table

__all__ = [
    "ACTIONS",
    "Audience",
    "CheckRequest",
    "CreatedTable",
    "Event",
    "EventError",
    "FairDice",
    "Head",
    "LobbyKeyError",
    "NewEvent",
    "NotAStore",
    "PermissionDenied",
    "PlayDenied",
    "PlayError",
    "Report",
    "SeatError",
    "SeatRecord",
    "SeatSpec",
    "Snapshot",
    "TableSetupError",
    "check_lobby_key",
    "lobby_mode",
    "prepare_lobby_key",
    "project_combat",
    "project_state",
    "Store",
    "StoreError",
    "TableClosed",
    "TableExists",
    "TableInfo",
    "TableNotFound",
    "TableSession",
    "TableState",
    "VersionConflict",
    "Watch",
    "WriteTx",
    "check",
    "commitment",
    "create_table",
    "default_db_path",
    "link",
    "open_store",
    "parse_query",
    "rebuild",
    "reducer",
    "register_action",
    "register_kind",
    "reissue_token",
    "rng_for",
    "verify_table",
]
