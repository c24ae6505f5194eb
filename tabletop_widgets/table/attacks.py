"""Attacks at a shared table: who may attack whom, the odds before the roll, the defender's
choices, and the roll with the table's fair dice (no widgets).

Where an attack is resolved: in the GM's kernel, by the combat sync (:class:`~.attack_desk.AttackDesk` on
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

The GM attacks with anyone from the tracker the same way (:meth:`~.attack_desk.AttackDesk.attack`): at once
when nobody else chooses, else after the defender's seat answers.

Start/end-of-turn effects (``system.on_turn``: bleeding, burning, regeneration) also roll with the
fair dice: :meth:`~.attack_desk.AttackDesk.next_turn` runs the tracker's ``next_turn`` with the next roll
index's stream and records every ``on_turn`` call (the sheet before, the conditions, what it did)
in a ``turn`` event when dice were drawn; ``verify`` replays them in order.

What a seat sees: ``attack.ask``/``attack.offer``/``attack.declared`` go to the asking seat (and
the GM); a question to the defender's seat names a hidden attacker only as "someone unseen"; the
``attack`` event carries sheets, so it goes to the GM only unless both sides are table characters
every seat sees and neither is hidden; everyone else learns the result from the tracker's public
projection (:func:`~.audience.project_combat`), which drops any line naming a hidden combatant.
"""

from __future__ import annotations

import secrets
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..core.attacks import AttackOdds, AttackSpec
from ..core.i18n import T
from ..core.system import OptionSpec, option_problem
from .events import jsonable, norm, register_kind
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
