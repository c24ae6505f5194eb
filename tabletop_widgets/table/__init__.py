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

from .._lazy import lazy_exports as _lazy_exports

#: public name -> the module (in this package) that defines it, imported on first use: a page
#: that needs one part of the table layer (the tracker needs the audience rules) does not load
#: the stores, the session and the verifier with it
_LAZY = {
    "ACTIONS": "seats",
    "Audience": "audience",
    "backup_campaign": "backup",
    "BackupError": "backup",
    "restore_campaign": "backup",
    "check": "session",
    "check_lobby_key": "lobbykey",
    "CheckRequest": "session",
    "commitment": "fairdice",
    "create_table": "seats",
    "CreatedTable": "seats",
    "default_db_path": "store",
    "Event": "store",
    "EventError": "events",
    "FairDice": "fairdice",
    "Head": "store",
    "link": "seats",
    "lobby_mode": "lobbykey",
    "LobbyKeyError": "lobbykey",
    "NewEvent": "store",
    "NotAStore": "store",
    "open_store": "store",
    "parse_query": "seats",
    "PermissionDenied": "seats",
    "PlayDenied": "rules",
    "PlayError": "rules",
    "prepare_lobby_key": "lobbykey",
    "project_combat": "audience",
    "project_state": "audience",
    "rebuild": "session",
    "reducer": "state",
    "register_action": "seats",
    "register_kind": "events",
    "reissue_token": "seats",
    "Report": "verify",
    "rng_for": "fairdice",
    "SeatError": "seats",
    "SeatRecord": "store",
    "SeatSpec": "seats",
    "session_transcript": "transcript",
    "SessionEnded": "store",
    "SessionInfo": "store",
    "Snapshot": "store",
    "Store": "store",
    "StoreError": "store",
    "TableClosed": "store",
    "TableExists": "store",
    "TableInfo": "store",
    "TableNotFound": "store",
    "TableSession": "session",
    "TableSetupError": "seats",
    "TableState": "state",
    "verify_table": "verify",
    "VersionConflict": "store",
    "Watch": "store",
    "WriteTx": "store",
}


# any module of the package is an attribute too (``table.sqlite``)
__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, None)

__all__ = [
    "ACTIONS",
    "Audience",
    "BackupError",
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
    "SessionEnded",
    "SessionInfo",
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
    "backup_campaign",
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
    "restore_campaign",
    "session_transcript",
    "rng_for",
    "verify_table",
]
