"""Attacks at a shared table: who may attack whom, the odds before the roll, the defender's
choices, and the roll with the table's fair dice (no widgets).

Where an attack is resolved: in the GM's kernel, by the combat sync (:class:`AttackDesk` on
:class:`~.combat_sync.CombatSync`). A player's kernel never holds an NPC's sheet (the audience
projection forbids it), and the attacks offered, their odds and their roll all need both sheets,
so a player's page only *asks*, through the log:

* ``attack.ask`` (the player's seat): "what can my character do to this target, and with these
  options, what are the odds?" The GM's kernel answers with ``attack.offer`` to that seat: the
  attacks offered (without the defender's options, which are not the attacker's to set) and the
  exact odds, the defender's choices taken at their defaults.
* ``attack.declared`` (the player's seat, on their own turn, their own character): the GM's
  kernel checks it again (whose character, whose turn, a target the seat may see, an attack
  offered, options the attack declares with values it allows, none of the defender's) and then
  either asks the defender or resolves it.
* ``attack.question`` (the GM's kernel) to the seat whose character is attacked when the attack
  has defender options (RET dodge/parry/block, L&D defence check; an NPC's defence is the GM's to
  choose, so the GM's page gets that question); ``attack.answer`` from that seat, or from the GM
  answering for an absent player.
* ``attack`` (the GM's kernel): the outcome rolled with the fair-dice stream of the next roll
  index, with both sheets as rolled (``verify`` rolls ``system.resolve_attack`` again with that
  stream and compares), and in the same transaction the tracker's ``combat.state`` (the Combat's
  ``attack`` event) and ``attack.done`` to the seats involved.

The GM attacks with anyone from the tracker the same way (:meth:`AttackDesk.attack`): at once
when nobody else chooses, else after the defender's seat answers.

Start/end-of-turn effects (``system.on_turn``: bleeding, burning, regeneration) also roll with the
fair dice: :meth:`AttackDesk.next_turn` runs the tracker's ``next_turn`` with the next roll
index's stream and records every ``on_turn`` call (the sheet before, the conditions, what it did)
in a ``turn`` event when dice were drawn; ``verify`` replays them in order.

What a seat sees: ``attack.ask``/``attack.offer``/``attack.declared`` go to the asking seat (and
the GM); a question to the defender's seat names a hidden attacker only as "someone unseen"; the
``attack`` event carries sheets, so it goes to the GM only unless both sides are table characters
every seat sees and neither is hidden; everyone else learns the result from the tracker's public
projection (:func:`~.audience.project_combat`), which drops any line naming a hidden combatant.
"""

from __future__ import annotations

import json
import secrets
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from ..core.attacks import AttackOdds, AttackSpec
from ..core.combat.records import clone_character
from ..core.i18n import T, tr
from ..core.problems import RuleError
from ..core.system import OptionSpec, option_problem, term_of
from .audience import attack_names_secret, secret_combatants
from .events import jsonable, register_kind
from .rules import PlayDenied, PlayError
from .seats import register_action
from .state import TableState, reducer
from .store import AUDIENCE_GM, SEAT_AUDIENCE_PREFIX

register_action("attack", ["gm", "player"])

#: what the table remembers per seat view (older asks and results are dropped)
KEEP_ASKS = 24
KEEP_RESULTS = 12
MAX_OPTIONS = 24
MAX_ID = 100

_S, _D, _L, _N, _B, _I = (str,), (dict,), (list,), (type(None),), (bool,), (int,)

register_kind(
    "attack.ask",
    action="attack",
    fields={
        "ask": (_S, True),
        "attacker": (_S, True),
        "target": (_S, True),
        "attack": (_S + _N, True),
        "options": (_D, True),
    },
    doc="A seat asks the GM's kernel which attacks its character can make on a target and their odds.",
)
register_kind(
    "attack.offer",
    action="combat",
    fields={
        "ask": (_S, True),
        "attacker": (_S, True),
        "target": (_S, True),
        "attacks": (_L, True),
        "attack": (_S + _N, True),
        "options": (_D, True),
        "odds": (_D + _N, True),
        "error": (_D + _N, True),
    },
    doc="The GM's kernel answers an attack.ask: the attacks offered and the exact odds (to the asking seat).",
)
register_kind(
    "attack.declared",
    action="attack",
    fields={
        "request": (_S, True),
        "attacker": (_S, True),
        "target": (_S, True),
        "attack": (_S, True),
        "options": (_D, True),
    },
    doc="A seat makes an attack (checked again and resolved by the GM's kernel).",
)
register_kind(
    "attack.question",
    action="combat",
    fields={
        "request": (_S, True),
        "seat": (_S, True),
        "attacker_name": (_D, True),
        "target": (_S, True),
        "target_name": (_S, True),
        "label": (_D, True),
        "options": (_L, True),
    },
    doc="The defender's choices of an attack, asked of the seat whose character is attacked (or the GM).",
)
register_kind(
    "attack.answer",
    action="attack",
    fields={"request": (_S, True), "options": (_D, True)},
    doc="The defender's choices (from the defender's seat, or the GM answering for them).",
)
register_kind(
    "attack.done",
    action="combat",
    fields={"request": (_S, True), "status": (_S, True), "message": (_D + _N, True), "text": (_D + _N, True)},
    doc="An attack request is over: resolved (its line) or refused (why), told to each seat involved.",
)
register_kind(
    "attack",
    action="combat",
    fields={
        "index": (_I, True),
        "system": (_S, True),
        "request": (_S + _N, True),
        "attacker": (_S, True),
        "target": (_S, True),
        "attack": (_S, True),
        "options": (_D, True),
        "characters": (_D, True),
        "hidden": (_B, True),
        "result": (_D, True),
        "text": (_S, True),
        "texts": (_D, False),
    },
    doc="An attack rolled with the fair-dice stream of roll number `index`: both sheets as rolled, "
    "the options, the outcome (verify rolls it again).",
)
register_kind(
    "turn",
    action="combat",
    fields={"index": (_I, True), "system": (_S, True), "calls": (_L, True), "hidden": (_B, True)},
    doc="A turn's start/end effects (system.on_turn) that drew dice, rolled with the fair-dice "
    "stream of roll number `index`: each call's sheet before, conditions and outcome, in order.",
)

#: event kinds only this module's session methods write
ATTACK_KINDS = frozenset(
    {
        "attack.ask",
        "attack.offer",
        "attack.declared",
        "attack.question",
        "attack.answer",
        "attack.done",
        "attack",
        "turn",
    }
)


# --------------------------------------------------------------------------------------------
# JSON of specs and odds
# --------------------------------------------------------------------------------------------
def option_json(o: OptionSpec) -> dict[str, Any]:
    return jsonable(
        {
            "name": o.name,
            "label": dict(o.label),
            "kind": o.kind,
            "default": o.default,
            "min": o.min,
            "max": o.max,
            "choices": [[v, dict(label)] for v, label in o.choices],
            "help": dict(o.help) if o.help else None,
            "gm_only": bool(o.gm_only),
        }
    )


def option_from_json(d: Mapping[str, Any]) -> OptionSpec:
    return OptionSpec(
        str(d["name"]),
        dict(d.get("label") or {}),
        kind=str(d.get("kind") or "int"),
        default=d.get("default"),
        min=d.get("min"),
        max=d.get("max"),
        choices=tuple((v, dict(label)) for v, label in d.get("choices") or ()),
        help=dict(d["help"]) if d.get("help") else None,
        gm_only=bool(d.get("gm_only")),
    )


def spec_json(spec: AttackSpec, *, without: Sequence[str] = ()) -> dict[str, Any]:
    """``spec`` as JSON; options named in ``without`` left out (the defender's, for the attacker)."""
    return jsonable(
        {
            "id": spec.id,
            "label": dict(spec.label),
            "kind": spec.kind,
            "options": [option_json(o) for o in spec.options if o.name not in without],
            "defender_options": list(spec.defender_options),
            "help": dict(spec.help) if spec.help else None,
        }
    )


def spec_from_json(d: Mapping[str, Any]) -> AttackSpec:
    return AttackSpec(
        str(d["id"]),
        dict(d.get("label") or {}),
        kind=str(d.get("kind") or "melee"),
        options=tuple(option_from_json(o) for o in d.get("options") or ()),
        defender_options=tuple(d.get("defender_options") or ()),
        help=dict(d["help"]) if d.get("help") else None,
    )


def _frac(p: Any) -> str:
    p = Fraction(p)
    return f"{p.numerator}/{p.denominator}"


def odds_json(odds: AttackOdds) -> dict[str, Any]:
    return jsonable(
        {
            "attack_id": odds.attack_id,
            "p_hit": _frac(odds.p_hit),
            "damage": [[int(k), _frac(p)] for k, p in sorted(odds.damage.items())],
            "p_defeat": None if odds.p_defeat is None else _frac(odds.p_defeat),
            "notes": [dict(n) for n in odds.notes],
        }
    )


def odds_from_json(d: Mapping[str, Any]) -> AttackOdds:
    from ..dice import Distribution

    return AttackOdds(
        str(d["attack_id"]),
        Fraction(d["p_hit"]),
        Distribution({int(k): Fraction(p) for k, p in d["damage"]}),
        None if d.get("p_defeat") is None else Fraction(d["p_defeat"]),
        tuple(dict(n) for n in d.get("notes") or ()),
    )


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


def norm(value: Any) -> Any:
    return json.loads(json.dumps(jsonable(value), sort_keys=True))


DEFENDER_NOTE = T(
    "The odds take the defender's choices at their defaults: the defender chooses when you attack.",
    "Шансы посчитаны для выбора защищающегося по умолчанию: он выбирает, когда вы атакуете.",
)


# --------------------------------------------------------------------------------------------
# the state: pending asks, requests and questions, per seat view
# --------------------------------------------------------------------------------------------
def book(state: TableState) -> dict[str, Any]:
    """The attack part of a seat's folded state: ``{"asks": {ask: {...}}, "requests": {request:
    {...}}, "results": [...]}``, built only from the events this seat reads."""
    got = state.extra.get("attacks")
    if not isinstance(got, dict):
        got = state.extra["attacks"] = {"asks": {}, "requests": {}, "results": []}
    return got


def _trim(mapping: dict, keep: int) -> None:
    while len(mapping) > keep:
        mapping.pop(next(iter(mapping)))


@reducer("attack.ask")
def _ask(state: TableState, e) -> None:
    p = e.payload
    asks = book(state)["asks"]
    asks[p["ask"]] = {**p, "seat": e.actor, "offer": None}
    _trim(asks, KEEP_ASKS)


@reducer("attack.offer")
def _offer(state: TableState, e) -> None:
    p = e.payload
    asks = book(state)["asks"]
    entry = asks.setdefault(p["ask"], {k: p[k] for k in ("ask", "attacker", "target", "attack", "options")})
    entry["offer"] = dict(p)
    _trim(asks, KEEP_ASKS)


@reducer("attack.declared")
def _declared(state: TableState, e) -> None:
    p = e.payload
    book(state)["requests"][p["request"]] = {**p, "seat": e.actor, "status": "declared", "question": None}


@reducer("attack.question")
def _question(state: TableState, e) -> None:
    p = e.payload
    req = book(state)["requests"].setdefault(p["request"], {"request": p["request"], "target": p["target"]})
    req.update(status="asked", question=dict(p))


@reducer("attack.answer")
def _answer(state: TableState, e) -> None:
    p = e.payload
    req = book(state)["requests"].get(p["request"])
    if req is not None:
        req.update(status="answered", answer=dict(p["options"]), answered_by=e.actor)


@reducer("attack.done")
def _done(state: TableState, e) -> None:
    p = e.payload
    b = book(state)
    req = b["requests"].pop(p["request"], None) or {}
    defender = (req.get("question") or {}).get("seat")
    b["results"].append(
        {**dict(p), "attacker": req.get("attacker"), "seat": req.get("seat"), "defender": defender, "seq": e.seq}
    )
    del b["results"][:-KEEP_RESULTS]


@reducer("attack")
def _attack(state: TableState, e) -> None:
    p = e.payload
    state.rolls += 1
    state.log_event(
        e,
        index=p["index"],
        attack=p["attack"],
        character_id=p["attacker"],
        target=p["target"],
        hidden=p["hidden"],
        success=p["result"].get("hit"),
        total=p["result"].get("damage"),
        text=p["text"],
        texts=p.get("texts"),
    )


@reducer("turn")
def _turn(state: TableState, e) -> None:
    p = e.payload
    state.rolls += 1
    state.log_event(e, index=p["index"], hidden=p["hidden"], text="")


def pending(state: TableState) -> dict[str, dict]:
    return book(state)["requests"]


def questions(session) -> list[dict[str, Any]]:
    """The defender's questions this seat may answer now (a GM: every open one, its own and those
    of players who may be away)."""
    out = []
    for req in book(session.state)["requests"].values():
        q = req.get("question")
        if req.get("status") != "asked" or not q:
            continue
        if session.role == "gm" or q.get("seat") == session.seat:
            out.append(q)
    return out


def offer_for(state: TableState, attacker: str, target: str, attack: str | None, options: Mapping[str, Any]):
    """The latest answered offer for this attack with these options (options left out count at
    their defaults), or None. ``attack`` None: any offer for the pair (its list of attacks)."""
    for entry in reversed(list(book(state)["asks"].values())):
        offer = entry.get("offer")
        if offer is None or entry.get("attacker") != attacker or entry.get("target") != target:
            continue
        if attack is None:
            if entry.get("attack") is None and not entry.get("options"):
                return offer
            continue
        if offer.get("attack") != attack and entry.get("attack") != attack:
            continue
        if _filled(offer, attack, entry.get("options") or {}) == _filled(offer, attack, options or {}):
            return offer
    return None


def _filled(offer: Mapping[str, Any], attack: str, options: Mapping[str, Any]) -> Any:
    spec = next((s for s in offer.get("attacks") or () if s.get("id") == attack), None)
    defaults = {o["name"]: o.get("default") for o in (spec or {}).get("options") or ()}
    return norm({**defaults, **dict(options)})


def asked(state: TableState, attacker: str, target: str, attack: str | None, options: Mapping[str, Any]) -> bool:
    """Whether this seat has asked for exactly this (answered or not)."""
    want = norm(options or {})
    return any(
        e.get("attacker") == attacker
        and e.get("target") == target
        and e.get("attack") == attack
        and norm(e.get("options") or {}) == want
        for e in book(state)["asks"].values()
    )


# --------------------------------------------------------------------------------------------
# checks a seat's kernel makes before writing (the GM's kernel checks everything again)
# --------------------------------------------------------------------------------------------
def _deny(code: str, session, en: str, ru: str, **data: Any) -> PlayDenied:
    return PlayDenied(code, "attack", session.role, T(en, ru), **data)


def _ident(value: Any, what_en: str, what_ru: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_ID:
        raise PlayError("bad_" + what_en.replace(" ", "_"), T(f"Choose {what_en}.", f"Выберите {what_ru}."))
    return value


def plain_options(options: Any) -> dict[str, Any]:
    """``options`` as a plain mapping of names to JSON scalars (what a widget may send), or a
    :class:`PlayError`; their values are checked against the attack's specs by the GM's kernel."""
    if options is None:
        return {}
    if not isinstance(options, Mapping) or len(options) > MAX_OPTIONS:
        raise PlayError("bad_options", T("The attack's options are not readable.", "Параметры атаки не читаются."))
    out = {}
    for k, v in options.items():
        if not isinstance(k, str) or len(k) > MAX_ID:
            raise PlayError("bad_options", T("The attack's options are not readable.", "Параметры атаки не читаются."))
        if v is not None and not isinstance(v, (bool, int, str)) or (isinstance(v, str) and len(v) > 200):
            raise PlayError(
                "bad_option",
                T(f"The option {k!r} has a value that is not allowed.", f"У параметра {k!r} недопустимое значение."),
                option=k,
            )
        out[k] = v
    return out


def public_combat(state: TableState) -> dict[str, Any]:
    """The combat as this seat's state shows it (a player's: the public projection)."""
    combat = state.combat or {}
    return combat.get("state") if isinstance(combat.get("state"), Mapping) else {}


def check_player_attack(session, attacker: Any, target: Any, *, declare: bool) -> tuple[str, str]:
    """A player's attack (or ask) as far as their own kernel can tell: their own character, in
    the combat, on their turn (for a declaration), a target their seat sees. Returns the ids."""
    attacker = _ident(attacker, "the attacker", "атакующего")
    target = _ident(target, "a target", "цель")
    if session.role == "gm":
        return attacker, target
    if attacker != session.character_id:
        raise _deny(
            "not_your_character",
            session,
            "You attack with your own character only.",
            "Атаковать можно только своим персонажем.",
        )
    view = public_combat(session.state)
    combatants = view.get("combatants") or {}
    if attacker not in combatants:
        raise PlayError("not_in_combat", T("Your character is not in the fight.", "Вашего персонажа нет в бою."))
    if target == attacker:
        raise PlayError("self_attack", T("A combatant cannot attack themselves.", "Нельзя атаковать самого себя."))
    if target not in combatants or combatants[target].get("hidden"):
        raise PlayError(
            "unknown_target",
            T("There is no such target in the fight.", "Такой цели в бою нет."),
        )
    if declare and view.get("current") != attacker:
        raise _deny(
            "not_your_turn",
            session,
            "You attack on your own turn: wait until it comes.",
            "Атаковать можно только в свой ход: дождитесь его.",
        )
    if declare and combatants[attacker].get("defeated"):
        raise PlayError("attacker_out", T("Your character is out of the fight.", "Ваш персонаж выбыл из боя."))
    return attacker, target


def ask_events(session, attacker: Any, target: Any, attack: Any, options: Any) -> list[tuple[str, dict, str]]:
    attacker, target = check_player_attack(session, attacker, target, declare=False)
    if attack is not None:
        attack = _ident(attack, "an attack", "атаку")
    payload = {
        "ask": new_id("k"),
        "attacker": attacker,
        "target": target,
        "attack": attack,
        "options": plain_options(options),
    }
    return [("attack.ask", payload, seat_audience(session))]


def declare_events(session, attacker: Any, target: Any, attack: Any, options: Any) -> list[tuple[str, dict, str]]:
    attacker, target = check_player_attack(session, attacker, target, declare=True)
    attack = _ident(attack, "an attack", "атаку")
    if session.role != "gm":
        for req in pending(session.state).values():
            if req.get("seat") == session.seat:
                raise PlayError(
                    "attack_pending",
                    T(
                        "Your last attack is still being resolved: wait for it.",
                        "Ваша прошлая атака ещё не разрешена: дождитесь её.",
                    ),
                )
    payload = {
        "request": new_id("a"),
        "attacker": attacker,
        "target": target,
        "attack": attack,
        "options": plain_options(options),
    }
    return [("attack.declared", payload, seat_audience(session))]


def answer_events(session, request: Any, options: Any) -> list[tuple[str, dict, str]]:
    """The defender's answer: only from the seat asked (or the GM), only the options asked, with
    values those options allow."""
    req = pending(session.state).get(request) if isinstance(request, str) else None
    q = (req or {}).get("question")
    if not q or req.get("status") != "asked":
        raise PlayError(
            "no_question",
            T(
                "That question is not open for you: it was answered already, or it was not asked of your seat.",
                "Этот вопрос для вас не открыт: на него уже ответили, или он задан не вашему месту.",
            ),
        )
    if session.role != "gm" and q.get("seat") != session.seat:
        raise _deny(
            "not_your_question",
            session,
            "Only the defender's seat (or the GM) answers this question.",
            "На этот вопрос отвечает место защищающегося (или ведущий).",
        )
    opts = plain_options(options)
    specs = {o["name"]: option_from_json(o) for o in q.get("options") or ()}
    for name, value in opts.items():
        if name not in specs:
            raise PlayError(
                "unknown_option",
                T(f"The defender has no choice {name!r} here.", f"У защищающегося здесь нет выбора {name!r}."),
                option=name,
            )
        problem = option_problem(specs[name], value, text_limit=200)
        if problem is not None:
            raise PlayError("bad_option", problem, option=name)
    audience = AUDIENCE_GM if session.role == "gm" else SEAT_AUDIENCE_PREFIX + session.seat
    return [("attack.answer", {"request": request, "options": opts}, audience)]


def seat_audience(session) -> str:
    return AUDIENCE_GM if session.role == "gm" else SEAT_AUDIENCE_PREFIX + session.seat


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(6)


# --------------------------------------------------------------------------------------------
# the GM's kernel: serving asks, questions and rolls
# --------------------------------------------------------------------------------------------
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
            sync.writing = True
            try:
                event = combat.attack_with(stream(), attacker, target, attack, **opts)
            finally:
                sync.writing = False
            rolled["event"] = event
            if (bool(event.get("hit")), int(event.get("damage", -1))) != (result["hit"], result["damage"]) or norm(
                event.get("text")
            ) != norm(result["text"]):
                raise RuntimeError(
                    "the tracker's attack differs from the table's fair roll "
                    "(the system's resolve_attack is not deterministic given its rng)"
                )
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
            public = sync.public_view()
            rolled["public"] = public
            changed = not _same(public, sync.last_public)
            more = []
            if rid is not None:
                done = {"request": rid, "status": "resolved", "message": None, "text": texts}
                if attack_names_secret(combat, done):
                    done["text"] = None  # a seat is not told the name of a hidden attacker
                more += [("attack.done", done, SEAT_AUDIENCE_PREFIX + s) for s in seats]
                if not seats:
                    more.append(("attack.done", done, AUDIENCE_GM))
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
