"""Kinds only old logs have: the requests of an attack that the log used to carry between kernels
(asked, offered, declared, questioned, answered, done). Requests now wait in the store's request
table (:mod:`..requests`) and never enter the log; a log written before keeps these events (the
hash chain covers them), so they are declared here to be read, and :func:`open_requests` is what the
store's upgrade to schema 4 makes of them: the requests still open when the log stopped."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..payload import Payload
from ..store import AUDIENCE_GM, SEAT_AUDIENCE_PREFIX
from .base import Kind


@dataclass(frozen=True, kw_only=True)
class LegacyPayload(Payload):
    """Read as nothing: their payloads are only read by :func:`open_requests`."""


def _legacy(kind_name: str, doc: str) -> Kind:
    cls = type(kind_name.replace(".", "_"), (Kind,), {"name": kind_name, "Payload": LegacyPayload, "legacy": True})
    cls.__doc__ = doc
    return cls()


ASK, OFFER, DECLARED, QUESTION, ANSWER, DONE = (
    "attack.ask",
    "attack.offer",
    "attack.declared",
    "attack.question",
    "attack.answer",
    "attack.done",
)

KINDS = (
    _legacy(ASK, "A seat asked the GM's kernel for its attacks on a target and their odds (before schema 4)."),
    _legacy(OFFER, "The GM's kernel answered an attack.ask (before schema 4)."),
    _legacy(DECLARED, "A seat made an attack, for the GM's kernel to resolve (before schema 4)."),
    _legacy(QUESTION, "The defender's choices, asked of the defender's seat (before schema 4)."),
    _legacy(ANSWER, "The defender's choices given (before schema 4)."),
    _legacy(DONE, "An attack request was over (before schema 4)."),
)


def open_requests(events: Iterable[Any]) -> list[dict[str, Any]]:
    """The requests the old request events of one table's log leave open (in ``seq`` order), as
    rows of the request table: ``{"id", "kind", "seat", "audience", "state", "payload", "answer",
    "parent", "created"}``. An ask already offered, and a request done, are not open."""
    asks: dict[str, dict[str, Any]] = {}
    attacks: dict[str, dict[str, Any]] = {}
    questions: dict[str, dict[str, Any]] = {}
    for e in events:
        p: Mapping[str, Any] = e.payload if isinstance(e.payload, Mapping) else {}
        if e.kind == ASK and isinstance(p.get("ask"), str):
            asks[p["ask"]] = _row(p["ask"], "odds", e, _asked(p), state="open")
        elif e.kind == OFFER:
            asks.pop(p.get("ask"), None)
        elif e.kind == DECLARED and isinstance(p.get("request"), str):
            attacks[p["request"]] = _row(p["request"], "attack", e, _asked(p), state="open")
        elif e.kind == QUESTION and isinstance(p.get("request"), str):
            rid = p["request"]
            seat = str(p.get("seat") or "gm")
            audience = AUDIENCE_GM if seat == "gm" else SEAT_AUDIENCE_PREFIX + seat
            question = {k: p.get(k) for k in ("attacker_name", "target", "target_name", "label", "options")}
            row = _row("q" + rid, "defence", e, question, state="asked", seat=seat, audience=audience)
            row["parent"] = rid
            questions[rid] = row
            if rid in attacks:
                attacks[rid]["state"] = "waiting"
        elif e.kind == ANSWER and p.get("request") in questions:
            questions[p["request"]].update(
                state="answered", answer={"options": dict(p.get("options") or {}), "by": e.actor}
            )
        elif e.kind == DONE:
            attacks.pop(p.get("request"), None)
            questions.pop(p.get("request"), None)
    rows = [*asks.values(), *attacks.values(), *(q for rid, q in questions.items() if rid in attacks)]
    return sorted(rows, key=lambda r: r["created"])


def _asked(p: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "attacker": p.get("attacker"),
        "target": p.get("target"),
        "attack": p.get("attack"),
        "options": dict(p.get("options") or {}),
    }


def _row(rid: str, kind: str, e: Any, payload: dict, *, state: str, seat: str | None = None, audience=None) -> dict:
    seat = seat if seat is not None else str(e.actor)
    return {
        "id": rid,
        "kind": kind,
        "seat": seat,
        "audience": audience if audience is not None else e.audience,
        "state": state,
        "payload": payload,
        "answer": None,
        "parent": None,
        "created": float(e.created),
    }


__all__ = ["KINDS", "open_requests"]
