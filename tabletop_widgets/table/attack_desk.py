"""The GM's kernel at a shared table: :class:`AttackDesk` serves the players' asks (the attacks
offered and their odds), the defenders' questions and answers, and rolls every attack and every
start/end-of-turn effect with the table's fair dice; :func:`replay_attack` and
:func:`replay_turn_calls` are what ``verify`` rolls again. The protocol, the table's memory of it
and the checks of a seat's requests are in :mod:`.attacks`."""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, Sequence

from ..core.attacks import AttackOdds, AttackSpec
from ..core.combat.records import clone_character
from ..core.i18n import T, tr
from ..core.problems import RuleError
from ..core.system import term_of
from .attacks import (
    ATTACK_KINDS,
    DEFENDER_NOTE,
    answer_events,
    ask_events,
    book,
    declare_events,
    new_id,
    odds_from_json,
    odds_json,
    offer_for,
    option_from_json,
    option_json,
    outcome_json,
    pending,
    questions,
    spec_from_json,
    spec_json,
)
from .audience import attack_names_secret, secret_combatants
from .events import jsonable, norm
from .rules import PlayError
from .store import AUDIENCE_GM, SEAT_AUDIENCE_PREFIX


class RecordingSystem:
    """A system whose ``on_turn`` calls that draw dice are written down (the sheet before, when,
    the conditions, what it did), everything else the system's own: the tracker's ``next_turn`` runs with it so a
    turn's effects can be replayed by ``verify``."""

    def __init__(self, system, calls: list):
        self._system = system
        self.calls = calls

    def __getattr__(self, name: str) -> Any:
        return getattr(self._system, name)

    def on_turn(self, character, when: str, *, rng=None, conditions: Sequence[Mapping[str, Any]] = ()):
        before = jsonable(character.to_dict())
        conds = jsonable(list(conditions))
        was = bool(getattr(rng, "drawn", False))
        if rng is not None and hasattr(rng, "drawn"):
            rng.drawn = False
        out = self._system.on_turn(character, when, rng=rng, conditions=conditions)
        drew = bool(getattr(rng, "drawn", True))
        if rng is not None and hasattr(rng, "drawn"):
            rng.drawn = was or drew
        if drew:  # a call that drew nothing leaves the stream as it was: verify need not replay it
            self.calls.append({"when": when, "character": before, "conditions": conds, **turn_outcome(character, out)})
        return out


def turn_outcome(character, out) -> dict[str, Any]:
    return jsonable(
        {
            "after": character.to_dict(),
            "notes": list(getattr(out, "notes", None) or []),
            "state": getattr(out, "state", None),
        }
    )


def replay_turn_calls(system, calls: Sequence[Mapping[str, Any]], rng) -> list[str]:
    """``verify``: each recorded ``on_turn`` call made again, in order, with one stream; the
    problems (none when every call gives what was recorded)."""
    problems = []
    for i, call in enumerate(calls):
        ch = system.Character.from_dict(call["character"])
        out = system.on_turn(ch, call["when"], rng=rng, conditions=call.get("conditions") or [])
        got = norm(turn_outcome(ch, out))
        want = norm({k: call.get(k) for k in ("after", "notes", "state")})
        if got != want:
            problems.append(f"turn effect {i + 1} ({call['when']}) does not match the seed")
    return problems


def replay_attack(system, payload: Mapping[str, Any], rng) -> dict[str, Any]:
    """``verify``: the recorded attack rolled again with its stream, as JSON."""
    chars = payload["characters"]
    attacker = system.Character.from_dict(chars[payload["attacker"]])
    target = system.Character.from_dict(chars[payload["target"]])
    out = system.resolve_attack(attacker, target, payload["attack"], rng=rng, **payload["options"])
    return norm(outcome_json(out))


REFUSAL = (RuleError, PlayError, PermissionError)


def message_of(exc: BaseException) -> dict[str, str]:
    msg = getattr(exc, "message", None)
    if isinstance(msg, Mapping) and msg.get("en"):
        return {"en": str(msg.get("en")), "ru": str(msg.get("ru") or msg.get("en"))}
    return {"en": str(exc), "ru": str(exc)}


class AttackDesk:
    """The GM's side of attacks at the table, on a :class:`~.combat_sync.CombatSync`: the GM's
    own attacks (:meth:`attack`, :meth:`odds`), the players' asks and declarations and the
    defenders' answers (:meth:`serve`, which the GM's page calls when such events arrive), and
    turns rolled with the fair dice (:meth:`next_turn`)."""

    def __init__(self, sync):
        self.sync = sync
        self.session = sync.session

    @property
    def combat(self):
        return self.sync.combat

    @property
    def system(self):
        return self.sync.combat.system

    # -- who is who ------------------------------------------------------------------------------
    def owner_seat(self, cid: str) -> str | None:
        """The player seat whose character ``cid`` is (None: an NPC, the GM's)."""
        st = self.session.state
        for seat, info in st.seats.items():
            if info.get("role") == "player" and info.get("character_id") == cid:
                return seat
        owner = st.owners.get(cid)
        if owner and (st.seats.get(owner) or {}).get("role") == "player":
            return owner
        return None

    def shown_to_players(self, cid: str) -> bool:
        """Whether every seat may see ``cid``'s sheet (a table character visible to all, not
        hidden in the combat)."""
        return cid in self.sync.shared_ids() and cid not in secret_combatants(self.combat)

    def name_for_players(self, cid: str) -> dict[str, str]:
        if cid in secret_combatants(self.combat):
            return T("Someone unseen", "Кто-то невидимый")
        name = self.combat.name(cid)
        return {"en": name, "ru": name}

    # -- odds --------------------------------------------------------------------------------
    def _pair(self, attacker: str, target: str):
        c = self.combat
        for cid in (attacker, target):
            if cid not in c:
                raise RuleError("unknown_combatant", T(f"No combatant {cid!r}.", f"Нет участника {cid!r}."))
        return clone_character(c.character(attacker)), clone_character(c.character(target))

    def offered(self, attacker: str, target: str) -> list[AttackSpec]:
        a, t = self._pair(attacker, target)
        return list(self.system.attacks(a, t))

    def odds(self, attacker: str, target: str, attack: str, options: Mapping[str, Any] | None = None) -> AttackOdds:
        """The exact odds of an attack (the GM's tracker: every option, the defender's included)."""
        a, t = self._pair(attacker, target)
        _spec, opts = self.system.attack_spec(a, t, attack, dict(options or {}))
        return self.system.attack_odds(a, t, attack, **opts)

    def _offer(self, ask: Mapping[str, Any], seat: str) -> dict[str, Any]:
        payload = {k: ask[k] for k in ("ask", "attacker", "target", "attack", "options")}
        payload.update(attacks=[], odds=None, error=None)
        try:
            self._check_seat_attack(seat, ask["attacker"], ask["target"], declare=False)
            specs = self.offered(ask["attacker"], ask["target"])
            payload["attacks"] = [spec_json(s, without=[*s.defender_options, *gm_options(s)]) for s in specs]
            chosen = ask.get("attack") or (specs[0].id if specs else None)
            if chosen is not None:
                a, t = self._pair(ask["attacker"], ask["target"])
                spec, opts = self._attacker_options(a, t, chosen, ask.get("options") or {})
                odds = self.system.attack_odds(a, t, spec.id, **opts)
                notes = list(odds.notes) + ([DEFENDER_NOTE] if spec.defender_options else [])
                odds = AttackOdds(odds.attack_id, odds.p_hit, odds.damage, odds.p_defeat, tuple(notes))
                payload["attack"] = spec.id
                payload["odds"] = odds_json(odds)
        except REFUSAL as exc:
            payload["error"] = message_of(exc)
        return payload

    def _attacker_options(self, a, t, attack: str, options: Mapping[str, Any]):
        """A player's options: none of the defender's, none the GM sets (checked, with defaults)."""
        spec, _ = self.system.attack_spec(a, t, attack, {})
        gm_set = [k for k in options if k in gm_options(spec)]
        if gm_set:
            o = spec.option(gm_set[0])
            gm_en, gm_ru = term_of(self.system, "gm", "en"), term_of(self.system, "gm", "ru")
            raise PlayError(
                "gm_option",
                T(
                    f"{tr(o.label)}: only the {gm_en} sets this option.",
                    f"{tr(o.label, 'ru')}: этот параметр задаёт только {gm_ru}.",
                ),
            )
        theirs = [k for k in options if k in spec.defender_options]
        if theirs:
            raise PlayError(
                "defender_option",
                T(
                    f"The defender chooses {', '.join(tr(spec.option(k).label) for k in theirs)}, not you.",
                    f"Это выбирает защищающийся: {', '.join(tr(spec.option(k).label, 'ru') for k in theirs)}.",
                ),
            )
        return self.system.attack_spec(a, t, attack, dict(options))

    def _check_seat_attack(self, seat: str, attacker: str, target: str, *, declare: bool) -> None:
        """A player seat's attack, checked in the GM's kernel (the seat's kernel checked it too,
        but the turn may have moved on, and nothing a page sends is trusted)."""
        info = self.session.state.seats.get(seat) or {}
        if info.get("role") == "gm":
            return
        c = self.combat
        if info.get("role") != "player" or info.get("character_id") != attacker:
            raise PlayError(
                "not_your_character",
                T("You attack with your own character only.", "Атаковать можно только своим персонажем."),
            )
        if attacker not in c or attacker in secret_combatants(c):
            raise PlayError("not_in_combat", T("Your character is not in the fight.", "Вашего персонажа нет в бою."))
        if target not in c or target in secret_combatants(c) or target == attacker:
            raise PlayError("unknown_target", T("There is no such target in the fight.", "Такой цели в бою нет."))
        if declare and c.current != attacker:
            raise PlayError(
                "not_your_turn",
                T(
                    "You attack on your own turn: wait until it comes.",
                    "Атаковать можно только в свой ход: дождитесь его.",
                ),
            )

    # -- the GM's own attacks ----------------------------------------------------------------
    def attack(self, attacker: str, target: str, attack: str, options: Mapping[str, Any] | None = None) -> dict | None:
        """The GM makes an attack from the tracker (any attacker, any target, any option). When
        the target is a player's character and the attack has defender options, that seat is
        asked (the GM may answer for them: :meth:`answer`) and None is returned; otherwise it is
        rolled now and the Combat's ``attack`` event returned."""
        self.session.require("combat")
        a, t = self._pair(attacker, target)
        spec, opts = self.system.attack_spec(a, t, attack, dict(options or {}))
        defender = self.owner_seat(target)
        if spec.defender_options and defender is not None:
            mine = {k: v for k, v in opts.items() if k not in spec.defender_options}
            rid = new_id("a")
            declared = {"request": rid, "attacker": attacker, "target": target, "attack": spec.id, "options": mine}
            self.session.write_attack_events(
                lambda: [("attack.declared", declared, AUDIENCE_GM), self._question(declared, spec, defender)]
            )
            return None
        return self._roll(None, attacker, target, spec.id, opts, seats=())

    def answer(self, request: str, options: Mapping[str, Any] | None = None) -> dict | None:
        """The GM answers a defender's question (for an absent player, or for an NPC) and the
        attack is rolled. Returns the Combat's event (None when it was refused)."""
        self.session.answer_attack(request, dict(options or {}))
        return self.serve().get(request)

    def _question(self, declared: Mapping[str, Any], spec: AttackSpec, seat: str | None) -> tuple[str, dict, str]:
        target = declared["target"]
        payload = {
            "request": declared["request"],
            "seat": seat or "gm",
            "attacker_name": self.name_for_players(declared["attacker"]),
            "target": target,
            "target_name": self.combat.name(target),
            "label": dict(spec.label),
            "options": [
                option_json(o)
                for o in spec.options
                if o.name in spec.defender_options and not (o.gm_only and seat is not None)
            ],
        }
        if seat is not None and attack_names_secret(self.combat, {**payload, "attacker_name": {}}):
            payload["label"] = T("An attack", "Атака")  # the weapon's name would give a hidden attacker away
        return ("attack.question", payload, AUDIENCE_GM if seat is None else SEAT_AUDIENCE_PREFIX + seat)

    # -- serving the seats -------------------------------------------------------------------
    def serve(self) -> dict[str, dict | None]:
        """Answer every open ask and move every open request on (ask the defender, or roll).
        Returns ``{request: Combat event or None}`` for the requests finished now. Called by the
        GM's page whenever ``attack.*`` events arrive; safe to call again (a request another GM
        window already moved on is left alone: each step re-checks under the table's lock)."""
        if self.session.role != "gm" or not self.session.can("combat"):
            return {}
        finished: dict[str, dict | None] = {}
        b = book(self.session.state)
        for ask in [dict(a) for a in b["asks"].values() if a.get("offer") is None]:
            seat = ask.get("seat") or ""
            if (self.session.state.seats.get(seat) or {}).get("role") != "player":
                continue
            offer = self._offer(ask, seat)

            def make(ask=ask, offer=offer, seat=seat):
                entry = book(self.session.state)["asks"].get(ask["ask"])
                if entry is None or entry.get("offer") is not None:
                    return []
                return [("attack.offer", offer, SEAT_AUDIENCE_PREFIX + seat)]

            self.session.write_attack_events(make)
        for rid, req in [(k, dict(v)) for k, v in b["requests"].items()]:
            try:
                if req.get("status") == "declared":
                    got = self._declared(req)
                elif req.get("status") == "answered":
                    got = self._answered(req)
                else:
                    continue
            except REFUSAL as exc:
                self._refuse(req, exc)
                finished[rid] = None
                continue
            if got is not None:
                finished[rid] = got
        return finished

    def _seats_of(self, req: Mapping[str, Any]) -> list[str]:
        """The player seats to tell that ``req`` is over: the attacker's and the defender's."""
        out = []
        seat = req.get("seat")
        if seat and (self.session.state.seats.get(seat) or {}).get("role") == "player":
            out.append(seat)
        q = req.get("question") or {}
        if q.get("seat") and q.get("seat") != "gm" and q["seat"] not in out:
            out.append(q["seat"])
        return out

    def _refuse(self, req: Mapping[str, Any], exc: BaseException) -> None:
        rid = req["request"]
        msg = message_of(exc)
        seats = self._seats_of(req)

        def make():
            if rid not in pending(self.session.state):
                return []
            payload = {"request": rid, "status": "refused", "message": msg, "text": None}
            out = [("attack.done", payload, SEAT_AUDIENCE_PREFIX + s) for s in seats]
            return out or [("attack.done", payload, AUDIENCE_GM)]

        self.session.write_attack_events(make)

    def _declared(self, req: Mapping[str, Any]) -> dict | None:
        seat = req.get("seat") or ""
        attacker, target = req["attacker"], req["target"]
        self._check_seat_attack(seat, attacker, target, declare=True)
        a, t = self._pair(attacker, target)
        if (self.session.state.seats.get(seat) or {}).get("role") == "player":
            spec, opts = self._attacker_options(a, t, req["attack"], req.get("options") or {})
        else:
            spec, opts = self.system.attack_spec(a, t, req["attack"], req.get("options") or {})
        if spec.defender_options:
            defender = self.owner_seat(target)
            question = self._question(req, spec, defender)
            rid = req["request"]

            def make():
                now = pending(self.session.state).get(rid)
                return [question] if now is not None and now.get("status") == "declared" else []

            self.session.write_attack_events(make)
            return None
        return self._roll(req, attacker, target, spec.id, opts, seats=self._seats_of(req))

    def _answered(self, req: Mapping[str, Any]) -> dict | None:
        attacker, target = req["attacker"], req["target"]
        a, t = self._pair(attacker, target)
        spec, _ = self.system.attack_spec(a, t, req["attack"], {})
        answer = dict(req.get("answer") or {})
        q = req.get("question") or {}
        by = req.get("answered_by")
        by_role = (self.session.state.seats.get(by) or {}).get("role")
        if by_role != "gm" and by != q.get("seat"):
            raise PlayError(
                "not_your_question",
                T(
                    "Only the defender's seat (or the GM) answers this question.",
                    "На этот вопрос отвечает место защищающегося (или ведущий).",
                ),
            )
        stray = [k for k in answer if k not in spec.defender_options or (by_role != "gm" and k in gm_options(spec))]
        if stray:
            raise PlayError(
                "unknown_option",
                T(f"The defender has no choice {stray[0]!r} here.", f"У защищающегося здесь нет выбора {stray[0]!r}."),
            )
        mine = {k: v for k, v in (req.get("options") or {}).items() if k not in spec.defender_options}
        _spec, opts = self.system.attack_spec(a, t, spec.id, {**mine, **answer})
        return self._roll(req, attacker, target, spec.id, opts, seats=self._seats_of(req))

    # -- rolling -----------------------------------------------------------------------------
    def _calls_secret(self, calls: Sequence[Mapping[str, Any]], sheets: Mapping[str, Any]) -> bool:
        """Whether a ``turn`` event's calls carry a sheet players may not see: each call's sheet
        must be one every seat sees, and no secret combatant's (a sheet matching nobody's, as
        after an earlier hook of the same turn, counts as secret)."""
        for call in calls:
            whose = [cid for cid, sheet in sheets.items() if sheet == norm(call["character"])]
            if not whose or self._secret(whose):
                return True
        return False

    def _secret(self, ids: Sequence[str]) -> bool:
        return any(not self.shown_to_players(cid) for cid in ids if cid)

    def _roll(
        self,
        req: Mapping[str, Any] | None,
        attacker: str,
        target: str,
        attack: str,
        opts: dict,
        *,
        seats: Sequence[str],
    ) -> dict:
        """Roll the attack with the next roll index's stream: the ``attack`` event, the Combat's
        event in ``combat.state`` and ``attack.done`` to ``seats``, in one transaction."""
        sync, combat, system = self.sync, self.combat, self.system
        chars = {
            attacker: jsonable(combat.character(attacker).to_dict()),
            target: jsonable(combat.character(target).to_dict()),
        }
        hidden = self._secret([attacker, target])
        rid = req["request"] if req else None
        rolled: dict[str, Any] = {}

        def roll(stream: Callable[[], Any], index: int):
            if rid is not None:
                now = pending(self.session.state).get(rid)
                if now is None or now.get("status") not in ("declared", "answered"):
                    return None  # another GM window moved it on
            models = {cid: system.Character.from_dict(v) for cid, v in chars.items()}
            outcome = system.resolve_attack(models[attacker], models[target], attack, rng=stream(), **opts)
            result = outcome_json(outcome)
            event = rolled["event"] = self._tracker_attack(stream(), attacker, target, attack, opts)
            check_tracker_attack(event, result)
            names = {cid: combat.name(cid) for cid in (attacker, target)}
            texts = {loc: attack_line(names, attacker, target, outcome.label, result, loc) for loc in ("en", "ru")}
            payload = {
                "index": index,
                "system": system.slug,
                "request": rid,
                "attacker": attacker,
                "target": target,
                "attack": attack,
                "options": jsonable(opts),
                "characters": chars,
                "hidden": hidden,
                "result": result,
                "text": texts[sync.locale if sync.locale in texts else "en"],
                "texts": texts,
            }
            public = rolled["public"] = sync.public_view()
            changed = not _same(public, sync.last_public)
            more = self._done_events(rid, texts, seats)
            return payload, hidden, {"format": 1, "event": event}, public, changed, more

        try:
            self.session.roll_attack(roll)
        except Exception:
            if "event" in rolled:  # the Combat moved but nothing was written: back to the log
                sync.reload()
            raise
        if "event" not in rolled:
            return None
        sync.last_public = rolled.get("public")
        sync.pull_characters(reason={"combat": "attack"})
        return rolled["event"]

    def _tracker_attack(self, rng, attacker: str, target: str, attack: str, opts: dict) -> dict:
        """The tracker's Combat makes the attack with the same stream (the tracker's own
        listener does not write it: the desk does); returns the Combat's event."""
        self.sync.writing = True
        try:
            return self.combat.attack_with(rng, attacker, target, attack, **opts)
        finally:
            self.sync.writing = False

    def _done_events(self, rid: str | None, texts: Mapping[str, str], seats: Sequence[str]) -> list[tuple]:
        """``attack.done`` for the seats that asked (the GM when none did), for a request."""
        if rid is None:
            return []
        done = {"request": rid, "status": "resolved", "message": None, "text": texts}
        if attack_names_secret(self.combat, done):
            done["text"] = None  # a seat is not told the name of a hidden attacker
        more: list[tuple] = [("attack.done", done, SEAT_AUDIENCE_PREFIX + s) for s in seats]
        if not seats:
            more.append(("attack.done", done, AUDIENCE_GM))
        return more

    def next_turn(self, action: str = "next", *args: Any) -> dict:
        """The tracker's next turn (or ``"delay"``, ``"act_now", cid``: every action that starts
        or ends a turn) with the fair dice: ``system.on_turn`` (bleeding, burning, regeneration)
        rolls with the next roll index's stream; a ``turn`` event records each call that drew
        dice (when none did, no roll index is used)."""
        sync, combat, system = self.sync, self.combat, self.combat.system
        rolled: dict[str, Any] = {}

        def roll(stream: Callable[[], Any], index: int):
            calls: list = []
            rng = stream()
            sheets = {cid: norm(combat.character(cid).to_dict()) for cid in combat.ids}
            sync.writing = True
            saved = combat.system, combat.rng
            combat.system, combat.rng = RecordingSystem(system, calls), rng
            try:
                event = combat.turn_plain(action, *args)
            finally:
                combat.system, combat.rng = saved
                sync.writing = False
            rolled["event"] = event
            payload = None
            if rng.drawn:
                problems = replay_turn_calls(system, calls, stream())
                if problems:
                    raise RuntimeError("the turn's effects differ from the table's fair roll: " + "; ".join(problems))
                payload = {
                    "index": index,
                    "system": system.slug,
                    "calls": calls,
                    "hidden": self._calls_secret(calls, sheets),
                }
            public = sync.public_view()
            rolled["public"] = public
            changed = not _same(public, sync.last_public)
            return payload, bool(payload and payload["hidden"]), {"format": 1, "event": event}, public, changed, []

        try:
            self.session.roll_attack(roll, kind="turn")
        except Exception:
            if "event" in rolled:
                sync.reload()
            raise
        sync.last_public = rolled.get("public")
        sync.pull_characters(reason={"combat": action})
        return rolled["event"]


def check_tracker_attack(event: Mapping[str, Any], result: Mapping[str, Any]) -> None:
    """The tracker's attack must come out as the table's fair roll did (``result``), or the
    write is aborted."""
    if (bool(event.get("hit")), int(event.get("damage", -1))) != (result["hit"], result["damage"]) or norm(
        event.get("text")
    ) != norm(result["text"]):
        raise RuntimeError(
            "the tracker's attack differs from the table's fair roll "
            "(the system's resolve_attack is not deterministic given its rng)"
        )


def gm_options(spec: AttackSpec) -> list[str]:
    """The options of ``spec`` only the GM sets (a player's page never offers or sends them)."""
    return [o.name for o in spec.options if o.gm_only]


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def attack_line(
    names: Mapping[str, str], attacker: str, target: str, label, result: Mapping[str, Any], loc: str
) -> str:
    """One line for the log: ``Aria → Goblin, Strike: hit, 3 damage (2d6 [4, 5] = 9, needs 8)``."""
    what = tr(label, loc) if label else ""
    if result.get("hit"):
        dmg = int(result.get("damage") or 0)
        verdict = (
            (f"попадание, урон {dmg}" if dmg else "попадание без урона")
            if loc == "ru"
            else (f"hit, {dmg} damage" if dmg else "hit, no damage")
        )
    else:
        verdict = "промах" if loc == "ru" else "miss"
    head = f"{names.get(attacker, attacker)} → {names.get(target, target)}"
    return f"{head}, {what}: {verdict}" if what else f"{head}: {verdict}"


__all__ = [
    "ATTACK_KINDS",
    "AttackDesk",
    "DEFENDER_NOTE",
    "RecordingSystem",
    "answer_events",
    "ask_events",
    "book",
    "declare_events",
    "odds_from_json",
    "odds_json",
    "offer_for",
    "option_from_json",
    "option_json",
    "outcome_json",
    "pending",
    "questions",
    "replay_attack",
    "replay_turn_calls",
    "spec_from_json",
    "spec_json",
]
