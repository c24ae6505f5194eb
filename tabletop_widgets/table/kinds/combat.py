"""The fight's kinds: the tracker's state (``combat.state``), initiative rolled with the fair dice
(``initiative``), an attack (``attack``) and a turn's start/end effects that drew dice (``turn``)."""

from __future__ import annotations

import copy
import html
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...core.combat.text import attack_dice, attack_score, attack_sentence
from ...core.i18n import LOCALES, T, tr
from ..events import jsonable, norm
from ..payload import Payload, optional
from ..store import AUDIENCE_ALL, AUDIENCE_GM
from .base import Kind, Line, both, sheets_secret
from .dice import Replayed, hidden_what, texts_of

#: Version of the combat payloads the table writes in ``combat.state`` events.
COMBAT_FORMAT = 1

WORDS = {
    "round": T("Round {n}", "Раунд {n}"),
    "fight": T("Fight", "Бой"),
    "initiative": T("Initiative", "Инициатива"),
    "attack": T("Attack", "Атака"),
    "turn": T("Turn effects", "Эффекты хода"),
}


def _w(key: str, loc: str, **fmt: Any) -> str:
    return tr(WORDS[key], loc).format(**fmt)


# --------------------------------------------------------------------------------------------
# combat.state
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class StatePayload(Payload):
    state: dict


#: the tracker's actions whose own event tells them (an ``attack``, an ``initiative``): the
#: fight's line leaves them out when that event came with it
TOLD_BY_THEIR_EVENT = {"attack": "attack", "initiative": "initiative"}


class NamedCombat:
    """What :func:`~tabletop_widgets.core.combat.text.describe` reads of a combat, from a line's
    context: the combatants' names as the reader knows them, the system's conditions."""

    def __init__(self, system, ctx):
        self.system = system
        self._ctx = ctx
        self._catalogue = {c.id: c for c in system.conditions()} if system is not None else {}

    def label(self, cid: Any) -> str:
        return self._ctx.combatant(cid) if cid is not None else "—"

    def condition_spec(self, condition: Any):
        return self._catalogue.get(condition)


class CombatState(Kind):
    """The combat tracker's state after an action: the GM's copy carries the Combat's event, the
    players' copy is the audience projection (:func:`~..audience.project_combat`). The fight's
    lines in the log: each action as the reader's copy tells it (a GM's view: the GM's events; any
    other: the players' projection's new lines)."""

    name = "combat.state"
    Payload = StatePayload
    action = "combat"

    def reduce(self, state, event, p: StatePayload) -> None:
        st = p.state or {}
        before = state.combat_public
        state.combat = copy.deepcopy(st)
        if event.audience == AUDIENCE_ALL:
            state.combat_public = copy.deepcopy(st)
        elif event.audience == AUDIENCE_GM and state.combat_events is not None and isinstance(st.get("event"), dict):
            if st.get("format") == COMBAT_FORMAT:
                state.combat_events.append(copy.deepcopy(st["event"]))
        self._log_fight(state, event, st, before)

    def _log_fight(self, state, event, st: Mapping[str, Any], before: Mapping[str, Any] | None) -> None:
        """The state's log entry of the actions this copy tells (see the class)."""
        names = state.extra.setdefault("combat_names", {})
        gm_view = state.view in ("gm", "")
        lines: list = []
        rnd = None
        if event.audience == AUDIENCE_GM:
            ev = st.get("event")
            if isinstance(ev, dict):
                if ev.get("type") in ("add", "rename") and ev.get("id") and ev.get("name"):
                    names[str(ev["id"])] = str(ev["name"])
                if gm_view:
                    lines, rnd = [ev], ev.get("round")
        elif event.audience == AUDIENCE_ALL:
            view = st.get("state") if isinstance(st.get("state"), Mapping) else {}
            for cid, d in (view.get("combatants") or {}).items():
                if isinstance(d, Mapping) and d.get("name"):
                    names[str(cid)] = str(d["name"])
            if not gm_view:
                seen = [e.get("seq") for e in (before or {}).get("events") or () if isinstance(e, Mapping)]
                last = max((s for s in seen if isinstance(s, int)), default=-1)
                lines = [e for e in st.get("events") or () if isinstance(e, Mapping) and (e.get("seq") or 0) > last]
                rnd = view.get("round")
        told = {
            TOLD_BY_THEIR_EVENT[x.get("kind")]
            for x in state.log[-3:]
            if x.get("kind") in TOLD_BY_THEIR_EVENT and x.get("version", 0) >= event.version - 2
        }
        lines = [dict(e) for e in lines if e.get("type") not in told]
        rnd = rnd if isinstance(rnd, int) and not isinstance(rnd, bool) else None
        new_round = rnd is not None and rnd > 0 and rnd != state.extra.get("combat_round")
        if rnd is not None:
            state.extra["combat_round"] = rnd
        if lines or new_round:  # a round the fight reaches is told, even when nothing this copy shows happened
            state.log_event(event, combat_events=lines, round=rnd)

    def line(self, entry, p: StatePayload, ctx) -> Line | None:
        from ...core.combat.text import describe

        events = [e for e in entry.get("combat_events") or () if isinstance(e, Mapping)]
        rnd = entry.get("round")
        if not events:  # only the round the fight reached: the transcript's heading
            return Line("round", round=rnd) if isinstance(rnd, int) and rnd > 0 else None
        combat = NamedCombat(ctx.system, ctx)
        text = {}
        for loc in LOCALES:
            said = []
            for e in events:
                try:
                    said.append(describe(combat, e, loc))
                except (KeyError, TypeError, ValueError, AttributeError):
                    continue
            text[loc] = "; ".join(s for s in said if s)
        what = {
            loc: _w("round", loc, n=rnd) if isinstance(rnd, int) and rnd > 0 else _w("fight", loc) for loc in LOCALES
        }
        attacks = [e for e in events if e.get("type") == "attack"]

        def dice(loc: str) -> str:  # the attacks' dice, opened on demand
            return "".join(f"<div>{html.escape(r)}</div>" for e in attacks for r in attack_dice(e, loc))

        return Line(
            "combat",
            ctx.who(entry.get("actor", "")),
            what,
            text,
            round=rnd if isinstance(rnd, int) else None,
            details=dice if any(attack_dice(e) for e in attacks) else None,
        )


def combat_event(payload: Mapping[str, Any], kind: str) -> dict | None:
    """The Combat event of type ``kind`` a GM's ``combat.state`` payload carries, if any."""
    st = payload.get("state") if isinstance(payload, Mapping) else None
    ev = st.get("event") if isinstance(st, Mapping) else None
    return ev if isinstance(ev, dict) and ev.get("type") == kind else None


# --------------------------------------------------------------------------------------------
# initiative
# --------------------------------------------------------------------------------------------
def initiative_json(result) -> dict[str, Any]:
    """A system's ``InitiativeOrder`` as JSON (deterministic: ``verify`` re-rolls and compares):
    the system's order, each combatant's key, text, roll, rounds sat out and effects, and the
    tie-break notes."""
    rolls = {}
    for cid, r in result.rolls.items():
        rolls[str(cid)] = {
            "key": jsonable(r.key),
            "text": jsonable(dict(r.text) if isinstance(r.text, Mapping) else r.text),
            "roll": jsonable(r.roll),
            "skip_rounds": int(getattr(r, "skip_rounds", 0) or 0),
            "effects": [
                {"trait": e.trait, "delta": e.delta, "reason": jsonable(getattr(e, "reason", None))}
                for e in (getattr(r, "effects", ()) or ())
            ],
        }
    return jsonable({"order": [str(c) for c in result.order], "rolls": rolls, "tiebreaks": list(result.tiebreaks)})


def initiative_text(outcome: Mapping[str, Any], names: Mapping[str, str] | None = None, locale: str = "en") -> str:
    """One line for the log: ``Initiative: Aria 14, Goblin 9``."""
    names = names or {}
    parts = []
    for cid in outcome.get("order", []):
        r = (outcome.get("rolls") or {}).get(cid) or {}
        text = r.get("text")
        if isinstance(text, Mapping):
            text = text.get(locale) or text.get("en") or ""
        parts.append(f"{names.get(cid, cid)} {text}".strip())
    return f"{_w('initiative', locale)}: " + ", ".join(parts)


@dataclass(frozen=True, kw_only=True)
class InitiativePayload(Payload):
    index: int
    system: str
    ids: list
    characters: dict
    options: dict
    hidden: bool
    result: dict
    text: str
    texts: dict | None = optional()


class Initiative(Kind):
    """Initiative rolled by the system with the fair-dice stream of roll number ``index``: the
    combatants' sheets as rolled, the options, the outcome (order, keys, texts, tie-breaks)."""

    name = "initiative"
    Payload = InitiativePayload
    action = "combat"
    rolls = True
    logged = True
    log_drop = ("characters",)
    #: what ``verify`` compares the tracker states of its transaction with
    tracker = "initiative"

    def audience_for(self, state, ids: Sequence[str], hidden: bool) -> str:
        """The GM's when a combatant is hidden, or a sheet rolled is one not every seat knows."""
        return AUDIENCE_GM if hidden or sheets_secret(state, ids) else AUDIENCE_ALL

    def line(self, entry, p: InitiativePayload, ctx) -> Line:
        return Line(
            "initiative",
            ctx.who(entry.get("actor", "")),
            hidden_what(both(WORDS["initiative"]), bool(p.hidden)),
            texts_of(p),
            hidden=bool(p.hidden),
        )

    def replay(self, p: InitiativePayload, rng, ctx) -> Any:
        system = ctx.system
        chars = p.characters or {}
        if list(p.ids or []) != list(chars):
            ctx.problem(f"ids {p.ids!r} differ from the characters rolled {list(chars)!r}")
        models = {cid: system.Character.from_dict(v) for cid, v in chars.items()}
        return norm(initiative_json(system.roll_initiative(models, rng=rng, **(p.options or {}))))


# --------------------------------------------------------------------------------------------
# attack
# --------------------------------------------------------------------------------------------
def outcome_json(outcome) -> dict[str, Any]:
    """An ``AttackOutcome`` as JSON (deterministic: ``verify`` recomputes and compares it)."""

    def effects(items) -> list:
        return [{"trait": e.trait, "delta": e.delta, "reason": jsonable(getattr(e, "reason", None))} for e in items]

    return jsonable(
        {
            "attack_id": outcome.attack_id,
            "hit": bool(outcome.hit),
            "damage": int(outcome.damage),
            "label": dict(outcome.label),
            "text": dict(outcome.text),
            "rolled": {loc: outcome.dice_text(loc) for loc in ("en", "ru")},  # "dice" would read as packed
            "attacker_effects": effects(outcome.attacker_effects),
            "target_effects": effects(outcome.target_effects),
            "damage_options": dict(outcome.damage_options),
            "conditions": [
                {"condition": c.condition, "on": c.on, "duration": c.duration, "data": dict(c.data)}
                for c in outcome.conditions
            ],
            "notes": [dict(n) for n in outcome.notes],
            "details": outcome.details,
        }
    )


def attack_line(
    names: Mapping[str, str], attacker: str, target: str, label, result: Mapping[str, Any], loc: str
) -> str:
    """One line for the log, the way a GM says it: ``Aria hits Goblin with Strike, 12 against 9:
    3 damage after armour`` (the dice are the line's details, shown on demand)."""
    return attack_sentence(
        names.get(attacker, attacker),
        names.get(target, target),
        label,
        bool(result.get("hit")),
        result.get("damage"),
        loc,
        attack_score(result.get("details"), loc),
    )


def attack_dice_html(result: Mapping[str, Any], loc: str) -> str:
    """An attack's dice as the system told them, for the log's dice fold."""
    rows = attack_dice({"text": result.get("text"), "dice": result.get("rolled")}, loc)
    return "".join(f"<div>{html.escape(r)}</div>" for r in rows)


@dataclass(frozen=True, kw_only=True)
class AttackPayload(Payload):
    index: int
    system: str
    request: str | None = optional(omit_none=False)
    attacker: str
    target: str
    attack: str
    options: dict
    characters: dict
    hidden: bool
    #: the attacker or the target was hidden in the fight, so the players were told nothing of
    #: it (``hidden`` alone: they saw the fight's public line without the sheets); None in logs
    #: written before it was recorded
    secret: bool | None = optional()
    result: dict
    text: str
    texts: dict | None = optional()


class Attack(Kind):
    """An attack rolled with the fair-dice stream of roll number ``index``: both sheets as rolled,
    the options, the outcome (``verify`` rolls it again)."""

    name = "attack"
    Payload = AttackPayload
    action = "combat"
    rolls = True
    logged = True
    log_drop = ("characters",)
    tracker = "attack"

    def audience_for(self, state, ids: Sequence[str], secret_combatants: Sequence[str] = ()) -> str:
        """An attack carries both sheets: every seat's only when both are table characters every
        seat knows as they are (no hidden change: a hidden Luck spend stays hidden) and neither
        is hidden in the fight."""
        if set(ids) & set(secret_combatants) or sheets_secret(state, ids):
            return AUDIENCE_GM
        return AUDIENCE_ALL

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        out = super().log_entry(payload)
        r = payload.get("result") if isinstance(payload.get("result"), Mapping) else {}
        out.update(success=r.get("hit"), total=r.get("damage"))
        return out

    def line(self, entry, p: AttackPayload, ctx) -> Line:
        """Told by the attacker's name (not the seat that pressed the button); marked hidden
        only when the players heard nothing of it; the dice in the fold."""
        r = p.result or {}
        hidden = bool(p.hidden if p.secret is None else p.secret)
        sheet = (p.characters or {}).get(p.attacker)
        who = ctx.combatant(p.attacker) if p.attacker else "?"
        if who == "?":
            who = str(sheet.get("name") or "") if isinstance(sheet, Mapping) else ""
        return Line(
            "attack",
            who or ctx.who(entry.get("actor", "")),
            hidden_what(both(WORDS["attack"]), hidden),
            texts_of(p),
            success=r.get("hit") if isinstance(r.get("hit"), bool) else None,
            hidden=hidden,
            details=(lambda loc: attack_dice_html(r, loc)) if r.get("text") or r.get("rolled") else None,
        )

    def replay(self, p: AttackPayload, rng, ctx) -> Any:
        system = ctx.system
        chars = p.characters or {}
        attacker = system.Character.from_dict(chars[p.attacker])
        target = system.Character.from_dict(chars[p.target])
        out = system.resolve_attack(attacker, target, p.attack, rng=rng, **(p.options or {}))
        return norm(outcome_json(out))


# --------------------------------------------------------------------------------------------
# turn
# --------------------------------------------------------------------------------------------
def turn_outcome(character, out) -> dict[str, Any]:
    """What one ``on_turn`` call did, as a ``turn`` event records it."""
    return jsonable(
        {
            "after": character.to_dict(),
            "notes": list(getattr(out, "notes", None) or []),
            "state": getattr(out, "state", None),
        }
    )


def replay_turn_calls(system, calls: Sequence[Mapping[str, Any]], rng) -> list[str]:
    """Each recorded ``on_turn`` call made again, in order, with one stream; the problems (none
    when every call gives what was recorded)."""
    problems = []
    for i, call in enumerate(calls):
        ch = system.Character.from_dict(call["character"])
        out = system.on_turn(ch, call["when"], rng=rng, conditions=call.get("conditions") or [])
        got = norm(turn_outcome(ch, out))
        want = norm({k: call.get(k) for k in ("after", "notes", "state")})
        if got != want:
            problems.append(f"turn effect {i + 1} ({call['when']}) does not match the seed")
    return problems


@dataclass(frozen=True, kw_only=True)
class TurnPayload(Payload):
    index: int
    system: str
    calls: list
    hidden: bool


class Turn(Kind):
    """A turn's start/end effects (``system.on_turn``) that drew dice, rolled with the fair-dice
    stream of roll number ``index``: each call's sheet before, conditions and outcome, in order."""

    name = "turn"
    Payload = TurnPayload
    action = "combat"
    rolls = True
    logged = True
    log_drop = ("calls",)
    tracker = "turn"

    def audience_for(self, state, ids: Sequence[str] | None, secret_combatants: Sequence[str] = ()) -> str:
        """The calls carry the sheets of ``ids`` (None: a sheet that matches no combatant's, as
        after an earlier hook of the same turn): every seat's only when each is every seat's."""
        if ids is None or set(ids) & set(secret_combatants) or sheets_secret(state, ids):
            return AUDIENCE_GM
        return AUDIENCE_ALL

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        out = super().log_entry(payload)
        calls = payload.get("calls") if isinstance(payload.get("calls"), list) else []
        out["effects"] = [
            {"name": (c.get("character") or {}).get("name"), "when": c.get("when"), "notes": c.get("notes")}
            for c in calls
            if isinstance(c, Mapping)
        ]
        return out

    def line(self, entry, p: TurnPayload, ctx) -> Line:
        said = {loc: [] for loc in LOCALES}
        for call in entry.get("effects") or [
            {"name": (c.get("character") or {}).get("name"), "notes": c.get("notes")}
            for c in p.calls or ()
            if isinstance(c, Mapping)
        ]:
            notes = [n for n in call.get("notes") or () if isinstance(n, Mapping)]
            for loc in LOCALES:
                text = "; ".join(tr(n, loc) for n in notes)
                if text:
                    said[loc].append(f"{call.get('name') or ''}: {text}".strip(": "))
        return Line(
            "turn",
            ctx.who(entry.get("actor", "")),
            hidden_what(both(WORDS["turn"]), bool(p.hidden)),
            {loc: "; ".join(said[loc]) for loc in LOCALES},
            hidden=bool(p.hidden),
        )

    def replay(self, p: TurnPayload, rng, ctx) -> Replayed:
        return Replayed(replay_turn_calls(ctx.system, p.calls or [], rng))


KINDS = (CombatState(), Initiative(), Attack(), Turn())

__all__ = [
    "COMBAT_FORMAT",
    "KINDS",
    "attack_line",
    "combat_event",
    "initiative_json",
    "initiative_text",
    "outcome_json",
    "replay_turn_calls",
    "turn_outcome",
]
