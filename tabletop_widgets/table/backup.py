"""Backup and restore of a campaign as one file (issue 18, data safety).

The file is JSON lines: the first line is the *manifest*, every next line one event of the
table's log, in order (``Event.to_json()`` without the store's own ``seq``). The manifest holds
the table's row, its seats (token hashes: the links keep working after a restore), its sessions
(their seeds: an open session goes on rolling after a restore) and the hashes that make the file
checkable: the SHA-256 of every event line, of all of them together, the chain's head, and the
SHA-256 of the manifest itself (computed with that field empty).

:func:`restore_campaign` refuses, with a message that says what is wrong and writes nothing, a
file whose manifest or any event line does not match its hashes, whose events do not chain from
the table's dice commitment, or whose table row, seats or sessions are not exactly the ones its
log records (:mod:`.backup_log`: whoever edits the file recomputes the manifest's hash, but not
the log's chain). A table that exists in the store is never written into, unless the restore is
told to *replace* it (``replace=True``, the CLI's ``--replace``): then the table's rows (its row,
seats, sessions, events and snapshots) become the backup's in one transaction, provided the file
is a backup of that very log, earlier or later (:func:`.backup_log.check_replace`); a seat that
is in both keeps the store's token (the links that work now go on working, and a file cannot hand
a seat to a link of its own). Stop the table's pages before replacing it. A seat the log retired
gets a token nobody holds. It restores into SQLite or PostgreSQL alike (``open_store(...)``).

The file holds the campaign's secrets (the open session's seed, the seats' token hashes): it is
written private to its owner (0600), and should be kept like the store itself.

    python -m tabletop_widgets.table backup DB TABLE FILE
    python -m tabletop_widgets.table restore DB FILE [--replace]
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import chain
from .backup_log import LogFacts, LogMismatch, check_replace, check_rows, log_facts
from .store import Event, Store, StoreError, TableExists, TableNotFound, dumps

FORMAT = "tabletop-widgets/campaign-backup/v1"


class BackupError(StoreError):
    """A backup file that cannot be restored as it is (damaged, edited, or not a backup)."""


@dataclass(frozen=True)
class BackupInfo:
    """What a backup holds, as its manifest says."""

    table_id: str
    title: str
    system: str
    events: int
    sessions: int
    head: str
    replaced: bool = False  # the restore replaced a table of the store (``replace=True``)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _event_line(e: Event) -> str:
    data = e.to_json()
    data.pop("seq", None)  # the store's own order, not the table's
    return dumps(data)


def backup_campaign(store: Store, table_id: str, path: str | os.PathLike) -> BackupInfo:
    """Write campaign ``table_id`` of ``store`` to ``path`` (0600, replaced atomically if it
    exists: :func:`write_private`). Returns what the file holds."""
    rows = store.export_rows(table_id)
    lines = [_event_line(e) for e in rows["events"]]
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "table": rows["table"],
        "seats": rows["seats"],
        "sessions": rows["sessions"],
        "events": len(lines),
        "event_sha256": [_sha(x) for x in lines],
        "events_sha256": _sha("\n".join(lines)),
        "head": rows["events"][-1].hash if rows["events"] else "",
        "manifest_sha256": "",
    }
    manifest["manifest_sha256"] = _sha(dumps(manifest))
    write_private(Path(path), [dumps(manifest), *lines])
    return _info(manifest)


def write_private(path: Path, lines: list[str]) -> None:
    """Write ``lines`` to ``path`` atomically and private to its owner: a temporary file of a
    unique name made exclusively in the same folder (``mkstemp``: ``O_CREAT | O_EXCL``, 0600,
    never a file or link someone planted there), written, fsynced, then renamed over ``path``
    (a link at ``path`` is replaced, its target untouched) and the folder fsynced. Nothing is
    left behind when a step fails."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename on disk too (not every filesystem allows it)
        dirfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)


def _info(manifest: dict[str, Any]) -> BackupInfo:
    t = manifest["table"]
    return BackupInfo(
        t["table_id"], t["title"], t["system"], manifest["events"], len(manifest["sessions"]), manifest["head"]
    )


def read_backup(path: str | os.PathLike) -> dict[str, Any]:
    """Read and check a backup file; returns the rows to restore. Raises :class:`BackupError`
    saying what is wrong."""
    return _checked(path)[0]


def _checked(path: str | os.PathLike) -> tuple[dict[str, Any], LogFacts]:
    """The rows of backup ``path`` and what its log records, once every check has passed."""
    manifest, body = _manifest_and_lines(path)
    table = manifest["table"]
    events = []
    for n, line in enumerate(body, start=1):
        d = json.loads(line)
        if d.get("table_id") != table.get("table_id"):
            raise BackupError(f"{path}: event {n} belongs to another table")
        events.append(Event(seq=n, **{k: d[k] for k in d if k != "seq"}))
    prev = chain.genesis(table["table_id"], table["seed_hash"])
    for e in events:
        if chain.hash_of(prev, e) != e.hash:
            raise BackupError(
                f"{path}: event {e.version} ({e.kind}) does not chain from the one before it: the log was "
                "edited before the backup was made, or the file was forged"
            )
        prev = e.hash
    if events and manifest.get("head") != events[-1].hash:
        raise BackupError(f"{path}: the manifest's head is not the last event's")
    try:
        facts = log_facts(str(table["table_id"]), events)
        check_rows(facts, table, manifest["seats"], manifest["sessions"])
    except LogMismatch as exc:
        raise BackupError(f"{path}: {exc}: the file was edited or forged, nothing was restored") from None
    rows = {"table": table, "seats": manifest["seats"], "sessions": manifest["sessions"], "events": events}
    return rows, facts


def _manifest_and_lines(path: str | os.PathLike) -> tuple[dict[str, Any], list[str]]:
    """The manifest and the event lines of backup ``path``, checked against the manifest's hashes."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BackupError(f"{path}: the backup cannot be read: {exc}") from exc
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    try:
        manifest = json.loads(lines[0]) if lines else None
    except ValueError:
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{path} is not a tabletop-widgets campaign backup (its first line is not a manifest)")
    claimed = manifest.get("manifest_sha256")
    if _sha(dumps({**manifest, "manifest_sha256": ""})) != claimed:
        raise BackupError(f"{path}: the manifest was changed after the backup was made (its hash does not match)")
    body = lines[1:]
    if len(body) != manifest.get("events") or len(body) != len(manifest.get("event_sha256") or []):
        raise BackupError(
            f"{path}: the manifest names {manifest.get('events')} events, the file holds {len(body)}: "
            "events were added or removed"
        )
    for n, (line, want) in enumerate(zip(body, manifest["event_sha256"]), start=1):
        if _sha(line) != want:
            raise BackupError(f"{path}: event {n} was changed after the backup was made (its hash does not match)")
    if _sha("\n".join(body)) != manifest.get("events_sha256"):
        raise BackupError(f"{path}: the events do not match the manifest's hash of them all")
    return manifest, body


def restore_campaign(store: Store, path: str | os.PathLike, *, replace: bool = False) -> BackupInfo:
    """Restore the campaign in backup file ``path`` into ``store`` (SQLite or PostgreSQL), in
    one transaction. Raises :class:`BackupError` for a file that fails its checks, and
    :class:`~.store.TableExists` when the store has that table already, unless ``replace``
    (see the module: what replacing does and when it is refused); nothing is written then."""
    rows, facts = _checked(path)
    tid = rows["table"]["table_id"]
    try:
        existing = store.export_rows(tid)
    except TableNotFound:
        existing = None
    head = None
    if existing is not None:
        if not replace:
            raise TableExists(
                f"table {tid!r} already exists in this store: nothing was restored. To put the backup in "
                "its place, restore it with replace (the CLI's --replace); stop the table's pages first"
            )
        rows, head = _replacing(path, existing, rows, facts)
    rows = _retired_locked(rows, facts)
    store.restore_rows(rows, replace_head=head)
    t = rows["table"]
    return BackupInfo(
        t["table_id"],
        t["title"],
        t["system"],
        len(rows["events"]),
        len(rows["sessions"]),
        rows["events"][-1].hash if rows["events"] else "",
        replaced=existing is not None,
    )


def _replacing(path, existing: dict[str, Any], rows: dict[str, Any], facts: LogFacts) -> tuple[dict[str, Any], str]:
    """The rows that replace table ``existing`` (checked: the same log, no revealed session opened
    again), seats in both keeping the store's token; and the store's head they replace."""
    try:
        check_replace(existing["events"], log_facts(facts.table_id, existing["events"]), rows["events"], facts)
    except LogMismatch as exc:
        raise BackupError(f"{path}: {exc}: nothing was restored") from None
    tokens = {s["seat"]: s["token_hash"] for s in existing["seats"]}
    seats = [{**s, "token_hash": tokens.get(s["seat"], s["token_hash"])} for s in rows["seats"]]
    head = existing["events"][-1].hash if existing["events"] else ""
    return {**rows, "seats": seats}, head


def _retired_locked(rows: dict[str, Any], facts: LogFacts) -> dict[str, Any]:
    """The seats the log retired get a token nobody holds (whatever hash the file gives them)."""
    from .seats import hash_token, new_token

    seats = [
        {**s, "token_hash": hash_token("retired:" + new_token())} if s["seat"] in facts.retired else s
        for s in rows["seats"]
    ]
    return {**rows, "seats": seats}


__all__ = ["BackupError", "BackupInfo", "backup_campaign", "read_backup", "restore_campaign"]
