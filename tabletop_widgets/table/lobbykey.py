"""The lobby key: who may create tables on a server.

Anyone who reaches the server can open the lobby page, so creating a table asks for a key. It is
set when the server starts (``make play`` runs ``python -m tabletop_widgets.table lobby-key``,
which calls :func:`prepare_lobby_key`): generated when the store has none and printed once;
the store keeps only a salted PBKDF2 hash. Running without a key is possible, but only said
explicitly (``--no-lobby-key``; the store then records that choice); a store that has neither
a key nor that choice refuses to create tables from the lobby.

Wrong keys are rate-limited for the whole store (every kernel of every server sharing it): after
:data:`FREE_ATTEMPTS` wrong keys in a row each further attempt must wait, doubling up to
:data:`MAX_WAIT` seconds; the right key resets the count. An attempt is counted in the store
(atomically, ``Store.update_meta``) *before* its key is checked, so guesses started together are
counted one after another and only the first free ones are tried. The clock is injected (``now=``).

A page unlocked with the key keeps what :func:`check_lobby_key` returned, the key's *stamp* (a
hash of the stored setting: each setting has its own salt or time, so setting a key, even the same
text again, or the no-key mode makes a new stamp); before every privileged step the page calls
:func:`require_same_key`, so rotating the key locks the pages unlocked with the old one.

Who holds the database file bypasses all this (``python -m tabletop_widgets.table create``):
the key protects the lobby page, not the file.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from typing import Any

from .store import Store, open_store

META_KEY = "lobby_key"
META_FAILURES = "lobby_key_failures"
ITERATIONS = 120_000
FREE_ATTEMPTS = 5  # wrong keys allowed before waiting
FIRST_WAIT = 30.0  # seconds after the first wrong key past the free ones; doubles each time
MAX_WAIT = 900.0
FORGET_AFTER = 3600.0  # a failure streak older than this is forgotten
MAX_KEY_LENGTH = 200


class LobbyKeyError(PermissionError):
    """The lobby refused to create a table. ``code``: ``no_key`` (none typed), ``wrong_key``,
    ``rate_limited`` (``retry_after`` seconds), ``not_set`` (the server has no key and was not
    started with ``--no-lobby-key``), ``key_changed`` (the key a page was unlocked with was
    replaced since). ``message`` is bilingual."""

    def __init__(self, code: str, en: str, ru: str, retry_after: float = 0.0):
        super().__init__(en)
        self.code, self.retry_after = code, retry_after
        self.message = {"en": en, "ru": ru}


def new_key() -> str:
    return secrets.token_urlsafe(16)


def hash_key(key: str, *, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", key.encode("utf-8"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def key_matches(key: str, stored: str) -> bool:
    try:
        algo, iterations, salt, digest = stored.split("$")
        if algo != "pbkdf2_sha256":
            return False
        again = hashlib.pbkdf2_hmac("sha256", key.encode("utf-8"), bytes.fromhex(salt), int(iterations))
    except ValueError:
        return False
    return hmac.compare_digest(again.hex(), digest)


def lobby_mode(store: Store) -> str:
    """``"key"`` (a key is set), ``"open"`` (explicitly no key) or ``"unset"``."""
    raw = store.get_meta(META_KEY)
    if raw is None:
        return "unset"
    try:
        mode = json.loads(raw).get("mode")
    except (ValueError, AttributeError):
        return "unset"
    return mode if mode in ("key", "open") else "unset"


def set_lobby_key(store: Store, key: str) -> None:
    """Store ``key``'s hash (replacing any key or the no-key choice); resets the failures."""
    _check_key_text(key)
    value = json.dumps({"mode": "key", "hash": hash_key(key), "set": time.time()})
    store.update_meta(META_KEY, lambda _old: value)
    store.update_meta(META_FAILURES, lambda _old: None)


def disable_lobby_key(store: Store) -> None:
    """Record the explicit choice to run the lobby without a key."""
    value = json.dumps({"mode": "open", "set": time.time()})
    store.update_meta(META_KEY, lambda _old: value)


def prepare_lobby_key(
    store_url: Any, *, key: str | None = None, disabled: bool = False, renew: bool = False
) -> str | None:
    """What ``make play`` calls before serving. Returns the key to print once when it generated
    one, else ``None``:

    * ``disabled=True``: the lobby runs without a key (recorded as that explicit choice);
    * ``key="..."``: that key is set (its hash stored);
    * otherwise a key already set is kept (``renew=True`` replaces it), and a new one is
      generated when there is none, including after an earlier ``disabled`` run: the no-key
      mode lasts only while it is asked for."""
    if disabled and key is not None:
        raise ValueError("give a lobby key or --no-lobby-key, not both")
    store = store_url if isinstance(store_url, Store) else open_store(store_url)
    try:
        if disabled:
            disable_lobby_key(store)
            return None
        if key is not None:
            set_lobby_key(store, key)
            return None
        if lobby_mode(store) == "key" and not renew:
            return None
        generated = new_key()
        set_lobby_key(store, generated)
        return generated
    finally:
        if store is not store_url:
            store.close()


def _check_key_text(key: Any) -> None:
    if not isinstance(key, str) or not key.strip():
        raise ValueError("the lobby key must not be empty")
    if len(key) > MAX_KEY_LENGTH:
        raise ValueError(f"the lobby key has at most {MAX_KEY_LENGTH} characters")


def _wait_after(count: int) -> float:
    if count < FREE_ATTEMPTS:
        return 0.0
    return min(FIRST_WAIT * 2 ** (count - FREE_ATTEMPTS), MAX_WAIT)


def key_stamp(raw: str | None) -> str:
    """The stamp of a stored lobby-key setting (its raw value; ``""`` for none)."""
    return hashlib.sha256(raw.encode("utf-8")).hexdigest() if raw else ""


def require_same_key(store: Store, stamp: str) -> None:
    """Raise :class:`LobbyKeyError` (``key_changed``) unless the store's lobby key is still the one
    whose ``stamp`` a page was unlocked with (:func:`check_lobby_key` returned it)."""
    if not stamp or not hmac.compare_digest(key_stamp(store.get_meta(META_KEY)), stamp):
        raise LobbyKeyError(
            "key_changed",
            "The lobby key was changed since this page was unlocked: type the new key to go on.",
            "Ключ лобби сменился с тех пор, как эта страница была открыта: введите новый ключ, чтобы продолжить.",
        )


def check_lobby_key(store: Store, key: Any, *, now: float | None = None) -> str:
    """Raise :class:`LobbyKeyError` unless ``key`` opens this store's lobby (or the lobby was
    explicitly opened). Every attempt is counted in the store before its key is checked (the
    right key then clears the count); while a wait is due every attempt is refused, the right
    key included, without checking it. Returns the key's stamp (see :func:`require_same_key`)."""
    now = time.time() if now is None else now
    raw = store.get_meta(META_KEY)
    info: dict = {}
    if raw is not None:
        try:
            info = json.loads(raw)
        except ValueError:
            info = {}
    mode = info.get("mode")
    if mode == "open":
        return key_stamp(raw)
    if mode != "key" or not isinstance(info.get("hash"), str):
        raise LobbyKeyError(
            "not_set",
            "This server has no lobby key yet, so no table can be created here. "
            "Whoever runs the server starts it with `make play`, which sets one.",
            "У этого сервера ещё нет ключа лобби, поэтому столы здесь создавать "
            "нельзя. Тот, кто запускает сервер, запускает его командой `make play`, "
            "которая задаёт ключ.",
        )
    if not isinstance(key, str) or not key.strip():
        raise LobbyKeyError(
            "no_key",
            "Type the lobby key to create a table (whoever runs the server has it).",
            "Введите ключ лобби, чтобы создать стол (он есть у того, кто запускает сервер).",
        )
    claim = _claim_attempt(store, now)
    if claim is None:
        raise _rate_limited(_failures(store.get_meta(META_FAILURES), now)["until"] - now)
    if len(key) <= MAX_KEY_LENGTH and key_matches(key.strip(), info["hash"]):
        store.update_meta(META_FAILURES, lambda _old: None)  # the right key: the count starts afresh
        return key_stamp(raw)
    wait = claim["until"] - now
    en = "That lobby key is wrong: no table was created."
    ru = "Неверный ключ лобби: стол не создан."
    if wait > 0:
        en += f" Too many wrong keys: try again in {_seconds(wait)} s."
        ru += f" Слишком много неверных ключей: попробуйте снова через {_seconds(wait)} с."
    raise LobbyKeyError("wrong_key", en, ru, retry_after=max(wait, 0.0))


def _claim_attempt(store: Store, now: float) -> dict | None:
    """Count one attempt in the store, atomically (``update_meta``), before its key is checked:
    as a wrong key, so that guesses started together (one per lobby page, or per process) are
    counted one after another and those past :data:`FREE_ATTEMPTS` are refused unchecked; the
    right key clears the count afterwards. ``None`` while a wait is due (nothing counted); else
    the count with this attempt in it."""
    claimed: list[dict] = []

    def bump(old: str | None) -> str | None:
        claimed.clear()
        f = _failures(old, now)
        if f["until"] > now:
            return old  # waiting: refused without a check, the wait not lengthened
        f["count"] += 1
        f["last"] = now
        wait = _wait_after(f["count"])
        if wait:  # (no wait yet: another page's clock, a millisecond behind, is not made to wait)
            f["until"] = now + wait
        claimed.append(f)
        return json.dumps(f)

    store.update_meta(META_FAILURES, bump)
    return claimed[0] if claimed else None


def _failures(raw: str | None, now: float) -> dict:
    try:
        f = json.loads(raw) if raw else {}
        f = {"count": int(f.get("count", 0)), "last": float(f.get("last", 0.0)), "until": float(f.get("until", 0.0))}
    except (ValueError, TypeError, AttributeError):
        f = {"count": 0, "last": 0.0, "until": 0.0}
    if f["count"] and now - f["last"] > FORGET_AFTER and now >= f["until"]:
        f = {"count": 0, "last": 0.0, "until": 0.0}
    return f


def _seconds(wait: float) -> int:
    return max(1, int(wait + 0.999))


def _rate_limited(wait: float) -> LobbyKeyError:
    return LobbyKeyError(
        "rate_limited",
        f"Too many wrong lobby keys: try again in {_seconds(wait)} s.",
        f"Слишком много неверных ключей лобби: попробуйте снова через {_seconds(wait)} с.",
        retry_after=wait,
    )
