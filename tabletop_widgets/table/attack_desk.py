"""The table's side of attacks, where every sheet is held (a GM's kernel, or the resolver on the
server): :class:`AttackDesk` answers the seats' requests (the attacks offered and their odds, the
attacks made, the defenders' answers: :mod:`.requests`), makes the GM's own attacks, and rolls every
attack and every start/end-of-turn effect with the table's fair dice. The seat-side checks and the
JSON of specs and odds are in :mod:`.attacks`; the ``attack`` and ``turn`` events in
:mod:`.kinds.combat`."""

from __future__ import annotations

import json
import logging
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from ..core.attacks import AttackOdds, AttackSpec
from ..core.combat.records import clone_character
from ..core.i18n import T, tr
from ..core.problems import RuleError
from ..core.system import term_of
from .attacks import DEFENDER_NOTE, odds_json, option_json, spec_json
from .audience import attack_names_secret, secret_combatants
from .events import jsonable, norm
from .kinds import ATTACK, TURN
from .kinds.combat import attack_line, outcome_json, replay_turn_calls, turn_outcome
from .requests import (
    ANSWERED,
    ASKED,
    ATTACK as ATTACK_REQUEST,
    DEFENCE,
    ODDS,
    OPEN,
    REFUSED,
    WAITING,
    moved,
    new_request,
)
from .rules import PlayError
from .seats import table_option
from .store import AUDIENCE_GM, SEAT_AUDIENCE_PREFIX, Request, StoreError, VersionConflict, WriteTx


class RecordingSystem:
    """A system whose ``on_turn`` calls that draw dice are written down (the sheet before, when,
    the conditions, what it did), everything else the system's own: the tracker's ``next_turn``
    runs with it so a turn's effects can be replayed by ``verify``."""

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


log = logging.getLogger(__name__)

REFUSAL = (RuleError, PlayError, PermissionError)

#: what a seat is told of a request the server could not work out (its log says why)
GAVE_UP = T(
    "The table could not work this attack out (an error on its server): tell the GM.",
    "Стол не смог рассчитать эту атаку (ошибка на его сервере): скажите ведущему.",
)


def message_of(exc: BaseException) -> dict[str, str]:
    msg = getattr(exc, "message", None)
    if isinstance(msg, Mapping) and msg.get("en"):
        return {"en": str(msg.get("en")), "ru": str(msg.get("ru") or msg.get("en"))}
    return {"en": str(exc), "ru": str(exc)}


def _refusal(code: str, en: str, ru: str) -> PlayError:
    return PlayError(code, T(en, ru))


class AttackDesk:
    """The side of attacks that holds every sheet, on a :class:`~.combat_sync.CombatSync` (a GM's
    kernel, or the resolver's): the GM's own attacks (:meth:`attack`, :meth:`odds`), the seats'
    requests (:meth:`serve`), the GM's answers (:meth:`answer`), and turns rolled with the fair
    dice (:meth:`next_turn`)."""

    def __init__(self, sync):
        self.sync = sync
        self.session = sync.session
        #: requests answered (moved on, or removed) by the last :meth:`serve`
        self.answered = 0

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
            if info.get("role") == "player" and info.get("character_id") == cid and not info.get("retired"):
                return seat
        owner = st.owners.get(cid)
        if owner and (st.seats.get(owner) or {}).get("role") == "player" and not st.seats[owner].get("retired"):
            return owner
        return None

    def seat_name(self, seat: str) -> str:
        info = self.session.state.seats.get(seat) or {}
        return str(info.get("name") or seat)

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

    def _offer(self, asked: Mapping[str, Any], seat: str) -> dict[str, Any]:
        """The answer to an ``odds`` request: the attacks offered (without the options that are not
        the attacker's) and the odds of the one asked (or the first), or why there are none."""
        answer: dict[str, Any] = {"attacks": [], "attack": asked.get("attack"), "odds": None, "error": None}
        try:
            self._check_seat_attack(seat, asked.get("attacker"), asked.get("target"), declare=False)
            specs = self.offered(asked["attacker"], asked["target"])
            answer["attacks"] = [spec_json(s, without=[*s.defender_options, *gm_options(s)]) for s in specs]
            usable = [s for s in specs if not s.unavailable]
            chosen = asked.get("attack") or (usable[0].id if usable else None)
            if chosen is not None:
                a, t = self._pair(asked["attacker"], asked["target"])
                spec, opts = self._attacker_options(a, t, chosen, asked.get("options") or {})
                odds = self.system.attack_odds(a, t, spec.id, **opts)
                notes = list(odds.notes) + ([DEFENDER_NOTE] if spec.defender_options else [])
                odds = AttackOdds(odds.attack_id, odds.p_hit, odds.damage, odds.p_defeat, tuple(notes))
                answer["attack"] = spec.id
                answer["odds"] = odds_json(odds)
        except REFUSAL as exc:
            answer["error"] = message_of(exc)
        return jsonable(answer)

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

    def _check_seat_attack(self, seat: str, attacker: Any, target: Any, *, declare: bool) -> None:
        """A player seat's attack, checked where every sheet is (the seat's kernel checked it too,
        but the turn may have moved on, and nothing a page sends is trusted): their own character,
        in the fight and not hidden, a target they may see, on their turn, within the attacks the
        system gives a turn."""
        info = self.session.state.seats.get(seat) or {}
        if info.get("role") == "gm":
            return
        c = self.combat
        if info.get("role") != "player" or info.get("retired") or info.get("character_id") != attacker:
            raise _refusal(
                "not_your_character",
                "You attack with your own character only.",
                "Атаковать можно только своим персонажем.",
            )
        if attacker not in c or attacker in secret_combatants(c):
            raise _refusal("not_in_combat", "Your character is not in the fight.", "Вашего персонажа нет в бою.")
        if target not in c or target in secret_combatants(c) or target == attacker:
            raise _refusal("unknown_target", "There is no such target in the fight.", "Такой цели в бою нет.")
        if not declare:
            return
        if c.current != attacker:
            raise _refusal(
                "not_your_turn",
                "You attack on your own turn: wait until it comes.",
                "Атаковать можно только в свой ход: дождитесь его.",
            )
        if c.is_defeated(attacker):
            raise _refusal("attacker_out", "Your character is out of the fight.", "Ваш персонаж выбыл из боя.")
        limit = self.system.attacks_per_turn(c.character(attacker), c.round)
        if limit is not None and c.attacks_this_turn(attacker) >= limit:
            raise _refusal(
                "attacks_spent",
                "Your character has made every attack this turn gives: wait for the next turn.",
                "Ваш персонаж уже сделал все атаки этого хода: дождитесь следующего.",
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
            asked = {"attacker": attacker, "target": target, "attack": spec.id, "options": mine}
            req = new_request(ATTACK_REQUEST, self.session.table_id, self.session.seat, AUDIENCE_GM, asked)

            def make(tx: WriteTx):
                self._ask_defence(tx, req, spec, defender)
                return []

            self.session.write_requests(make)
            return None
        return self._roll(None, attacker, target, spec.id, opts)

    def answer(self, request: str, options: Mapping[str, Any] | None = None) -> dict | None:
        """The GM answers a defender's question (for an absent player, or for an NPC) and the
        attack is rolled at once. Returns the Combat's event (None when it was refused)."""
        answered = self.session.answer_attack(request, dict(options or {}))
        return self.serve().get(answered.parent)

    # -- serving the seats -------------------------------------------------------------------
    def serve(self) -> dict[str, dict | None]:
        """Answer every request that can be answered now, once: odds asked, attacks made
        (the defender asked, or the attack rolled), defences answered (the attack rolled).
        Returns ``{attack request: Combat event or None (refused)}`` for the attacks finished
        now; :attr:`answered` counts every request moved on. Safe to call again and from two
        places at once: each step re-checks its request under the table's lock."""
        self.answered = 0
        if self.session.role != "gm" or not self.session.can("combat"):
            return {}
        finished: dict[str, dict | None] = {}
        pending = self.session.store.requests(self.session.table_id, states=[OPEN, ANSWERED])
        for req in pending:
            try:
                self._serve_one(req, finished)
            except (StoreError, VersionConflict):
                raise  # the store's trouble: the resolver tries again
            except Exception:  # one request the rules cannot work out never stalls the others
                log.exception("table %s: request %s (%s) could not be worked out", req.table_id, req.id, req.kind)
                self._give_up(req, finished)
        return finished

    def _serve_one(self, req: Request, finished: dict) -> None:
        if req.kind == ODDS and req.state == OPEN:
            self._answer_odds(req)
        elif req.kind == ATTACK_REQUEST and req.state == OPEN:
            self._serve_attack(req, finished, lambda r=req: self._declared(r))
        elif req.kind == DEFENCE and req.state == ANSWERED:
            parent = self._parent_of(req)
            if parent is not None:
                self._serve_attack(parent, finished, lambda p=parent, d=req: self._answered(p, d))

    def _parent_of(self, req: Request) -> Request | None:
        return next((r for r in self.session.store.requests(self.session.table_id) if r.id == req.parent), None)

    def _give_up(self, req: Request, finished: dict) -> None:
        """A request that raised what no rule says: the asking seat is told the table could not
        work it out (the server's log has why), and the next request is served."""
        why = RuleError("server_error", GAVE_UP)
        if req.kind == ODDS:
            answer = {"attacks": [], "attack": req.payload.get("attack"), "odds": None, "error": dict(GAVE_UP)}

            def make(tx: WriteTx):
                now = self._still(tx, req, OPEN)
                if now is not None:
                    tx.put_request(moved(now, ANSWERED, answer=answer))
                    self.answered += 1
                return []

            with self.session.acting_for(req.seat):
                self.session.write_requests(make)
            return
        target = self._parent_of(req) if req.kind == DEFENCE else req
        if target is not None and self._refuse(target, why):
            finished[target.id] = None

    def _serve_attack(self, req: Request, finished: dict, step: Callable[[], Any]) -> None:
        try:
            got = step()
        except REFUSAL as exc:
            if self._refuse(req, exc):
                finished[req.id] = None
            return
        if got is not None:
            finished[req.id] = got

    def _still(self, tx: WriteTx, req: Request, *states: str) -> Request | None:
        """``req`` as it is in this transaction, when it is still in one of ``states``."""
        found = tx.requests(ids=[req.id])
        return found[0] if found and found[0].state in states else None

    def _answer_odds(self, req: Request) -> None:
        with self.session.acting_for(req.seat):
            answer = self._offer(req.payload, req.seat)

            def make(tx: WriteTx):
                now = self._still(tx, req, OPEN)
                if now is not None:
                    tx.put_request(moved(now, ANSWERED, answer=answer))
                    self.answered += 1
                return []

            self.session.write_requests(make)

    def _refuse(self, req: Request, exc: BaseException) -> bool:
        """Tell the asking seat why its attack is refused (the request stays, refused, until its
        seat has read it); its defence question goes. Returns whether it was still to refuse."""
        message = message_of(exc)
        done = []

        def make(tx: WriteTx):
            now = self._still(tx, req, OPEN, WAITING)
            if now is None:
                return []
            for q in tx.requests(states=[ASKED, ANSWERED]):
                if q.parent == req.id:
                    tx.delete_request(q.id)
            tx.put_request(moved(now, REFUSED, answer={"message": message}))
            self.answered += 1
            done.append(True)
            return []

        with self.session.acting_for(req.seat):
            self.session.write_requests(make)
        return bool(done)

    def _declared(self, req: Request) -> dict | None:
        p = req.payload
        seat, attacker, target = req.seat, p.get("attacker"), p.get("target")
        self._check_seat_attack(seat, attacker, target, declare=True)
        a, t = self._pair(attacker, target)
        if (self.session.state.seats.get(seat) or {}).get("role") == "player":
            spec, opts = self._attacker_options(a, t, p.get("attack"), p.get("options") or {})
        else:
            spec, opts = self.system.attack_spec(a, t, p.get("attack"), p.get("options") or {})
        if spec.defender_options:
            defender = self.owner_seat(target)
            if defender is not None or not table_option(self.session, "npcs_defend_by_default"):

                def make(tx: WriteTx):
                    now = self._still(tx, req, OPEN)
                    if now is not None:
                        self._ask_defence(tx, now, spec, defender)
                        self.answered += 1
                    return []

                with self.session.acting_for(seat):
                    self.session.write_requests(make)
                return None
        return self._roll(req, attacker, target, spec.id, opts, states=(OPEN,))

    def _ask_defence(self, tx: WriteTx, req: Request, spec: AttackSpec, defender: str | None) -> None:
        """The attack waits (``waiting``: for whom) and its ``defence`` question is asked of the
        defender's seat (``None``: an NPC's, the GM's)."""
        p = req.payload
        target = p["target"]
        chances, idle = self._chances(p, spec)
        question = {
            "attacker_name": self.name_for_players(p["attacker"]),
            "target": target,
            "target_name": self.combat.name(target),
            "label": dict(spec.label),
            "options": [
                option_json(o)
                for o in spec.options
                if o.name in spec.defender_options and o.name not in idle and not (o.gm_only and defender is not None)
            ],
        }
        if defender is not None and attack_names_secret(self.combat, {**question, "attacker_name": {}}):
            question["label"] = T("An attack", "Атака")  # the weapon's name would give a hidden attacker away
        if defender is not None:
            question["seat_name"] = self.seat_name(defender)
        question["chances"] = chances
        audience = AUDIENCE_GM if defender is None else SEAT_AUDIENCE_PREFIX + defender
        q = new_request(
            DEFENCE, req.table_id, defender or "gm", audience, jsonable(question), state=ASKED, parent=req.id
        )
        waiting = {
            "for": "gm" if defender is None else "seat",
            "seat": defender,
            "target_name": self.combat.name(target),
        }
        if defender is not None:
            waiting["name"] = self.seat_name(defender)
        tx.put_request(moved(req, WAITING, waiting=waiting))
        tx.put_request(q)

    def _chances(self, asked: Mapping[str, Any], spec: AttackSpec) -> tuple[dict[str, list], set[str]]:
        """The attacker's exact chance to hit against each of the defender's choices (each
        choice alone, the others at their defaults): what the defender weighs before answering;
        and the choices that change nothing in this attack (every value the same odds: how the
        target notices an attacker who does not hide), which the question leaves out."""
        a, t = self._pair(asked["attacker"], asked["target"])
        mine = {k: v for k, v in (asked.get("options") or {}).items() if k not in spec.defender_options}
        out: dict[str, list] = {}
        idle: set[str] = set()
        for o in spec.options:
            if o.name not in spec.defender_options:
                continue
            values = [v for v, _label in o.choices] if o.kind == "choice" else [False, True] if o.kind == "bool" else []
            rows, seen = [], []
            for value in values:
                try:
                    _spec, opts = self.system.attack_spec(a, t, spec.id, {**mine, o.name: value})
                    odds = self.system.attack_odds(a, t, spec.id, **opts)
                except REFUSAL + (NotImplementedError,):
                    continue
                p_hit = Fraction(odds.p_hit)
                rows.append([value, f"{p_hit.numerator}/{p_hit.denominator}"])
                seen.append((p_hit, odds.damage, odds.p_defeat))
            if seen and all(x == seen[0] for x in seen):  # one way, or every way the same
                idle.add(o.name)
            elif rows:
                out[o.name] = rows
        return out, idle

    def _answered(self, req: Request, defence: Request) -> dict | None:
        p = req.payload
        attacker, target = p.get("attacker"), p.get("target")
        a, t = self._pair(attacker, target)
        spec, _ = self.system.attack_spec(a, t, p.get("attack"), {})
        answer = dict((defence.answer or {}).get("options") or {})
        by = (defence.answer or {}).get("by")
        by_role = (self.session.state.seats.get(by) or {}).get("role")
        if by_role != "gm" and by != defence.seat:
            raise _refusal(
                "not_your_question",
                "Only the defender's seat (or the GM) answers this question.",
                "На этот вопрос отвечает место защищающегося (или ведущий).",
            )
        stray = [k for k in answer if k not in spec.defender_options or (by_role != "gm" and k in gm_options(spec))]
        if stray:
            raise PlayError(
                "unknown_option",
                T(f"The defender has no choice {stray[0]!r} here.", f"У защищающегося здесь нет выбора {stray[0]!r}."),
            )
        if req.seat != "gm" and (self.session.state.seats.get(req.seat) or {}).get("role") == "player":
            self._check_seat_attack(req.seat, attacker, target, declare=False)
        mine = {k: v for k, v in (p.get("options") or {}).items() if k not in spec.defender_options}
        _spec, opts = self.system.attack_spec(a, t, spec.id, {**mine, **answer})
        return self._roll(req, attacker, target, spec.id, opts, states=(WAITING,), defence=defence)

    # -- rolling -----------------------------------------------------------------------------
    def _secret_ids(self) -> list[str]:
        return sorted(secret_combatants(self.combat))

    def _roll(
        self,
        req: Request | None,
        attacker: str,
        target: str,
        attack: str,
        opts: dict,
        *,
        states: Sequence[str] = (),
        defence: Request | None = None,
    ) -> dict | None:
        """Roll the attack with the next roll index's stream: the ``attack`` event and the
        Combat's event in ``combat.state``, and the requests it answers removed, in one
        transaction (nothing when another kernel answered them meanwhile)."""
        sync, combat, system = self.sync, self.combat, self.system
        chars = {
            attacker: jsonable(combat.character(attacker).to_dict()),
            target: jsonable(combat.character(target).to_dict()),
        }
        audience = ATTACK.audience_for(self.session.state, [attacker, target], self._secret_ids())
        rid = req.id if req else None
        rolled: dict[str, Any] = {}

        def take(tx: WriteTx) -> bool:
            if req is None:
                return True
            if self._still(tx, req, *states) is None:
                return False  # answered elsewhere meanwhile
            if defence is not None and self._still(tx, defence, ANSWERED) is None:
                return False
            for q in tx.requests(states=[ASKED, ANSWERED]):
                if q.parent == req.id:
                    tx.delete_request(q.id)
            tx.delete_request(req.id)
            self.answered += 1 + (defence is not None)
            return True

        def roll(stream: Callable[[], Any], index: int):
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
                "hidden": audience == AUDIENCE_GM,
                "secret": bool({attacker, target} & set(self._secret_ids())),
                "result": result,
                "text": texts[sync.locale if sync.locale in texts else "en"],
                "texts": texts,
            }
            public = rolled["public"] = sync.public_view()
            changed = not _same(public, sync.last_public)
            return payload, audience, {"format": 1, "event": event}, public, changed

        try:
            with self.session.acting_for(req.seat if req is not None else None):
                self.session.roll_attack(roll, kind=ATTACK, in_tx=take)
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

    def _calls_secret_ids(self, calls: Sequence[Mapping[str, Any]], sheets: Mapping[str, Any]) -> list[str] | None:
        """The combatants whose sheets a ``turn`` event's calls carry (None: a sheet that matches
        nobody's, as after an earlier hook of the same turn, which counts as secret)."""
        ids: list[str] = []
        for call in calls:
            whose = [cid for cid, sheet in sheets.items() if sheet == norm(call["character"])]
            if not whose:
                return None
            ids += whose
        return ids

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
            payload, audience = None, AUDIENCE_GM
            if rng.drawn:
                problems = replay_turn_calls(system, calls, stream())
                if problems:
                    raise RuntimeError("the turn's effects differ from the table's fair roll: " + "; ".join(problems))
                ids = self._calls_secret_ids(calls, sheets)
                audience = TURN.audience_for(self.session.state, ids, self._secret_ids())
                payload = {"index": index, "system": system.slug, "calls": calls, "hidden": audience == AUDIENCE_GM}
            public = sync.public_view()
            rolled["public"] = public
            changed = not _same(public, sync.last_public)
            return payload, audience, {"format": 1, "event": event}, public, changed

        try:
            self.session.roll_attack(roll, kind=TURN)
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


__all__ = ["AttackDesk", "RecordingSystem", "check_tracker_attack", "gm_options", "message_of"]
