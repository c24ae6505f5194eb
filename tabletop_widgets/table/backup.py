"""Backup and restore of a campaign as one file (issue 18, data safety).

The file is JSON lines: the first line is the *manifest*, every next line one event of the
table's log, in order (``Event.to_json()`` without the store's own ``seq``). The manifest holds
the table's row, its seats (token hashes: the links keep working after a restore), its sessions
(their seeds: an open session goes on rolling after a restore) and the hashes that make the file
checkable: the SHA-256 of every event line, of all of them together, the chain's head, and the
SHA-256 of the manifest itself (computed with that field empty).

:func:`restore_campaign` refuses, with a message that says what is wrong and writes nothing, a
file whose manifest or any event line does not match its hashes, whose events do not chain from
the table's dice commitment, or whose table already exists in the store. It restores into SQLite
or PostgreSQL alike (``open_store(...)``), in one transaction.

The file holds the campaign's secrets (the open session's seed, the seats' token hashes): it is
written private to its owner (0600), and should be kept like the store itself.

    python -m tabletop_widgets.table backup DB TABLE FILE
    python -m tabletop_widgets.table restore DB FILE
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import chain
from .store import Event, Store, StoreError, dumps

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


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _event_line(e: Event) -> str:
    data = e.to_json()
    data.pop("seq", None)  # the store's own order, not the table's
    return dumps(data)


def backup_campaign(store: Store, table_id: str, path: str | os.PathLike) -> BackupInfo:
    """Write campaign ``table_id`` of ``store`` to ``path`` (created 0600; replaced atomically
    if it exists). Returns what the file holds."""
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
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(dumps(manifest) + "\n")
        for line in lines:
            f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return _info(manifest)


def _info(manifest: dict[str, Any]) -> BackupInfo:
    t = manifest["table"]
    return BackupInfo(
        t["table_id"], t["title"], t["system"], manifest["events"], len(manifest["sessions"]), manifest["head"]
    )


def read_backup(path: str | os.PathLike) -> dict[str, Any]:
    """Read and check a backup file; returns the rows to restore. Raises :class:`BackupError`
    saying what is wrong."""
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
    return {"table": table, "seats": manifest["seats"], "sessions": manifest["sessions"], "events": events}


def restore_campaign(store: Store, path: str | os.PathLike) -> BackupInfo:
    """Restore the campaign in backup file ``path`` into ``store`` (SQLite or PostgreSQL), in
    one transaction. Raises :class:`BackupError` for a file that fails its checks, and
    :class:`~.store.TableExists` when the store has that table already; nothing is written then."""
    rows = read_backup(path)
    store.restore_rows(rows)
    t = rows["table"]
    return BackupInfo(
        t["table_id"],
        t["title"],
        t["system"],
        len(rows["events"]),
        len(rows["sessions"]),
        rows["events"][-1].hash if rows["events"] else "",
    )


__all__ = ["BackupError", "BackupInfo", "backup_campaign", "read_backup", "restore_campaign"]
