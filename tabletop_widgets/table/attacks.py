"""Attacks at a shared table: who may attack whom, the odds before the roll, the defender's
choices, and what a seat asks (no widgets).

A player's kernel never holds an NPC's sheet (the audience projection forbids it), and the attacks
offered, their odds and their roll all need both sheets, so a player's page *asks*: its requests
wait in the store's request table (:mod:`.requests`, never in the log) and are answered on the
server by the resolver (:mod:`.resolver`), which holds every sheet:

* an ``odds`` request (:func:`ask_request`): "what can my character do to this target, and with
  these options, what are the odds?" Its answer: the attacks offered (without the defender's
  options, which are not the attacker's to set) and the exact odds, the defender's choices taken
  at their defaults (:func:`offer_for` finds it).
* an ``attack`` request (:func:`declare_request`; the player's own character, on its turn): the
  resolver checks it again (whose character, whose turn, the system's attacks a turn, a target
  the seat may see, an attack offered, options the attack declares with values it allows, none of
  the defender's) and either asks the defender or rolls it.
* a ``defence`` request (the resolver's) to the seat whose character is attacked, when the attack
  has defender options (RET dodge/parry/block, L&D defence check); an NPC's defence is the GM's to
  choose unless the GM lets NPCs defend by their default choice. :func:`answer_request` is the
  defender's (or the GM's, for an absent player) answer.
* the outcome is an ``attack`` *event* in the log (:mod:`.kinds.combat`), rolled with the
  fair-dice stream of the next roll index, with both sheets as rolled (``verify`` rolls it again),
  and in the same transaction the tracker's ``combat.state`` and the requests removed.

What a seat sees: its own requests and the questions asked of it (the request table's audience
filter, as for events); a question names a hidden attacker only as "someone unseen"; the ``attack``
event carries sheets, so it goes to the GM only unless both sides are table characters every seat
knows as they are (:meth:`.kinds.combat.Attack.audience_for`).
"""

from __future__ import annotations

import secrets
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..core.attacks import AttackOdds, AttackSpec
from ..core.i18n import T
from ..core.system import OptionSpec, option_problem
from .events import jsonable, norm
from .requests import ANSWERED, ASKED, ATTACK, DEFENCE, ODDS, REFUSED, new_request
from .rules import PlayDenied, PlayError
from .seats import register_action
from .store import AUDIENCE_GM, SEAT_AUDIENCE_PREFIX, Request

register_action("attack", ["gm", "player"])

MAX_OPTIONS = 24
MAX_ID = 100
#: odds requests a seat keeps at most (its oldest go first)
KEEP_ASKS = 24


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


DEFENDER_NOTE = T(
    "The odds take the defender's choices at their defaults: the defender chooses when you attack.",
    "Шансы посчитаны для выбора защищающегося по умолчанию: он выбирает, когда вы атакуете.",
)


# --------------------------------------------------------------------------------------------
# what a seat has asked, and what it is asked
# --------------------------------------------------------------------------------------------
def _filled(offer: Mapping[str, Any], attack: str, options: Mapping[str, Any]) -> Any:
    spec = next((s for s in offer.get("attacks") or () if s.get("id") == attack), None)
    defaults = {o["name"]: o.get("default") for o in (spec or {}).get("options") or ()}
    return norm({**defaults, **dict(options)})


def offer_for(
    requests: Sequence[Request], attacker: str, target: str, attack: str | None, options: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The latest answered ``odds`` request for this attack with these options (options left out
    count at their defaults), its answer (the offer), or None. ``attack`` None: any offer for the
    pair (its list of attacks)."""
    for r in reversed(list(requests)):
        if r.kind != ODDS or r.state != ANSWERED or not r.answer:
            continue
        asked_, offer = r.payload, dict(r.answer)
        if asked_.get("attacker") != attacker or asked_.get("target") != target:
            continue
        if attack is None:
            if asked_.get("attack") is None and not asked_.get("options"):
                return offer
            continue
        if offer.get("attack") != attack and asked_.get("attack") != attack:
            continue
        if _filled(offer, attack, asked_.get("options") or {}) == _filled(offer, attack, options or {}):
            return offer
    return None


def asked(
    requests: Sequence[Request], attacker: str, target: str, attack: str | None, options: Mapping[str, Any]
) -> bool:
    """Whether this seat has asked for exactly this (answered or not)."""
    want = norm(options or {})
    return any(
        r.kind == ODDS
        and r.payload.get("attacker") == attacker
        and r.payload.get("target") == target
        and r.payload.get("attack") == attack
        and norm(r.payload.get("options") or {}) == want
        for r in requests
    )


def questions(requests: Sequence[Request], role: str, seat: str) -> list[dict[str, Any]]:
    """The defender's questions a seat may answer now, each a dict with its ``"request"`` (what
    :func:`answer_request` takes), ``"seat"`` (who is asked: a seat, or ``"gm"``) and the
    question (the attacker's name as the defender may know it, the target, the attack's label,
    the ``options`` to choose): a GM every open one (its own, and those of players who may be
    away), a player those asked of their seat."""
    out = []
    for r in requests:
        if r.kind != DEFENCE or r.state != ASKED:
            continue
        if role == "gm" or r.seat == seat:
            out.append({**dict(r.payload), "request": r.id, "seat": r.seat, "attack_request": r.parent})
    return out


def my_attack(requests: Sequence[Request], seat: str) -> Request | None:
    """The seat's attack still in the works (sent, waiting for a defence, or refused and not yet
    read), or None."""
    mine = [r for r in requests if r.kind == ATTACK and r.seat == seat]
    return mine[-1] if mine else None


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


def public_combat(state) -> dict[str, Any]:
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


def ask_request(session, attacker: Any, target: Any, attack: Any, options: Any) -> Request:
    """A seat's ``odds`` request (checked as far as its own kernel can tell)."""
    attacker, target = check_player_attack(session, attacker, target, declare=False)
    if attack is not None:
        attack = _ident(attack, "an attack", "атаку")
    payload = {"attacker": attacker, "target": target, "attack": attack, "options": plain_options(options)}
    return new_request(ODDS, session.table_id, session.seat, seat_audience(session), payload)


def declare_request(session, attacker: Any, target: Any, attack: Any, options: Any) -> Request:
    """A seat's ``attack`` request: its own character, on its turn, one attack in the works at a
    time (pressing Attack twice sends one)."""
    attacker, target = check_player_attack(session, attacker, target, declare=True)
    attack = _ident(attack, "an attack", "атаку")
    mine = my_attack(session.requests, session.seat)
    if mine is not None and mine.state != REFUSED:
        raise PlayError(
            "attack_pending",
            T(
                "Your last attack is still being resolved: wait for it.",
                "Ваша прошлая атака ещё не разрешена: дождитесь её.",
            ),
        )
    payload = {"attacker": attacker, "target": target, "attack": attack, "options": plain_options(options)}
    return new_request(ATTACK, session.table_id, session.seat, seat_audience(session), payload)


def answer_request(session, request: Request | None, options: Any) -> Request:
    """The defender's answer to ``request`` (a ``defence`` request this seat reads): only from the
    seat asked (or the GM), only the options asked, with values those options allow; the request,
    answered."""
    from .requests import moved

    if request is None or request.kind != DEFENCE or request.state != ASKED:
        raise PlayError(
            "no_question",
            T(
                "That question is not open for you: it was answered already, or it was not asked of your seat.",
                "Этот вопрос для вас не открыт: на него уже ответили, или он задан не вашему месту.",
            ),
        )
    if session.role != "gm" and request.seat != session.seat:
        raise _deny(
            "not_your_question",
            session,
            "Only the defender's seat (or the GM) answers this question.",
            "На этот вопрос отвечает место защищающегося (или ведущий).",
        )
    opts = plain_options(options)
    specs = {o["name"]: option_from_json(o) for o in request.payload.get("options") or ()}
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
    return moved(request, ANSWERED, answer={"options": opts, "by": session.seat})


def seat_audience(session) -> str:
    return AUDIENCE_GM if session.role == "gm" else SEAT_AUDIENCE_PREFIX + session.seat


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(6)


__all__ = [
    "DEFENDER_NOTE",
    "answer_request",
    "ask_request",
    "asked",
    "check_player_attack",
    "declare_request",
    "my_attack",
    "odds_from_json",
    "odds_json",
    "offer_for",
    "option_from_json",
    "option_json",
    "plain_options",
    "questions",
    "seat_audience",
    "spec_from_json",
    "spec_json",
]
