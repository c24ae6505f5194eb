"""The play interface at a shared table: :class:`TablePlay`, what a seat's widgets act through
(the notebook's own is :class:`~tabletop_widgets.core.play.LocalPlay`; the interface is
:class:`~tabletop_widgets.core.play.Play`).

Everything goes through the seat's session, which checks it in Python whatever the browser sends:
rolls and checks with the table's fair dice (the outcome recorded, the effects applied in the same
write), a sheet's edits recorded or put back (:meth:`TablePlay.follow_model`), finishing a
character, advances and awards; the GM's tracker actions on the table's combat (its dice actions
rolled with the fair dice: :class:`~.combat_sync.TableCombat`). A player's attack is a request
(:mod:`.requests`): the attacks offered and their odds come from the table (a player's kernel holds
no NPC sheet), and the attack is rolled by the resolver on the server; what it waits for, and
what became of it, is :meth:`TablePlay.attack_news`.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping

from ..core.i18n import T, tr
from ..core.play import COMBAT_ACTIONS, AttackNews, Play, check_attack_request
from ..core.problems import RuleError
from ..core.system import term_of
from .after_roll import may_amend
from .attacks import asked, offer_for, odds_from_json, spec_from_json
from .combat_sync import character_changes, record_sheet
from .events import EventError, jsonable
from .records import FaceDownRoll, StoredCheck, StoredRoll, check_changes
from .requests import ATTACK, REFUSED, status_text
from .seats import PermissionDenied
from .session_dice import check as check_request

log = logging.getLogger(__name__)

WORDS = {
    "asking": T(
        "Asking the table which attacks you have on this target…",
        "Спрашиваем у стола, какие у вас атаки против этой цели…",
    ),
    "asking_odds": T("asking the table for the odds…", "спрашиваем шансы у стола…"),
    "not_yours": T(
        "You attack with your own character only, on its turn.", "Атаковать можно только своим персонажем и в его ход."
    ),
    "no_target": T("There is no such target in the fight.", "Такой цели в бою нет."),
    "not_offered": T(
        "That attack is not one offered to you on this target.", "Такой атаки против этой цели вам не предлагали."
    ),
    "not_your_option": T("The option {option!r} is not yours to choose.", "Параметр {option!r} выбираете не вы."),
    "answered": T("Your answer is sent: the table rolls the attack.", "Ответ отправлен: стол бросит атаку."),
    "waiting_defender": T(
        "{target} chooses how to defend; the attack rolls when they answer.",
        "{target} выбирает защиту; атака будет брошена после ответа.",
    ),
    "rolled": T("Your attack: {line}", "Ваша атака: {line}"),
}


def _w(key: str, **fmt: Any) -> dict[str, str]:
    return {loc: tr(WORDS[key], loc).format(**fmt) for loc in ("en", "ru")}


class TablePlay(Play):
    """A seat's play at a shared table (see the module). ``sync``: the GM's
    :class:`~.combat_sync.CombatSync` (a GM's page); ``hidden()``: whether the GM's next roll is
    hidden (the Dice tab's toggle); ``blind()``: whether the seat's next roll is blind, and
    ``hide_notation()`` whether a GM's blind roll hides what it rolls (the Dice tab's toggles)."""

    def __init__(
        self,
        session,
        *,
        sync=None,
        hidden: Callable[[], bool] | None = None,
        blind: Callable[[], bool] | None = None,
        hide_notation: Callable[[], bool] | None = None,
    ):
        self.session = session
        self.system = session.system
        self.audience = "gm" if session.role == "gm" else "player"
        self.sync = sync
        self.hidden = hidden or (lambda: False)
        self.blind = blind or (lambda: False)
        self.hide_notation = hide_notation or (lambda: False)
        #: the roll index of each character's latest check rolled through this page
        self.check_index: dict[str, int] = {}
        self._syncing = 0  # > 0 while the table's values are pushed into a model
        self._sent: dict[str, Any] | None = None  # this page's latest attack: its request and attacker

    # -- permissions ---------------------------------------------------------------------------
    def can(self, action: str, character_id: str | None = None) -> bool:
        s = self.session
        if action in ("roll_check", "roll_notation") and not s.state.closed and not s.session_open:
            return True  # between sessions: the session refuses, and says why
        roll = "roll.hidden" if self.hidden() else "roll"
        if action == "roll_check":
            return character_id is not None and s.can("check", character_id) and s.can(roll)
        if action == "roll_notation":
            return s.can(roll)
        if action == "gm_options":
            return s.role == "gm"
        if action == "set_option":
            return s.can("roll")
        if action == "after_roll":
            index = self.check_index.get(character_id) if character_id is not None else None
            return index is not None and may_amend(s, index)
        if action in ("edit", "load", "act"):
            return character_id is not None and s.can("character.edit", character_id)
        if action == "edit_gm":
            return s.role == "gm" and character_id is not None and s.can("character.edit", character_id)
        if action == "save":
            return s.can("read")
        if action == "attack":
            return s.role == "gm" and s.can("combat") or self.my_turn()
        if action in COMBAT_ACTIONS:
            return s.role == "gm" and s.can("combat")
        return False

    def my_turn(self) -> bool:
        """A player's character's turn, in the fight the table shows."""
        s = self.session
        me = s.character_id
        if s.role == "gm" or me is None or not s.can("attack"):
            return False
        view = (s.state.combat or {}).get("state") or {}
        combatants = view.get("combatants") or {}
        return view.get("current") == me and me in combatants and not combatants[me].get("defeated")

    # -- dice ------------------------------------------------------------------------------------
    def roll(self, text: str, *, variables: Any = None, hidden: bool | None = None, locale: str = "en"):
        # only the numbers go into the log (a tray also passes the character, for system words
        # that roll its named checks; the session records plain JSON)
        numbers = {k: v for k, v in dict(variables or {}).items() if isinstance(v, int) and not isinstance(v, bool)}
        hide = self.hidden() if hidden is None else bool(hidden)
        if self.blind():  # the roller's tray shows the die face down (its page never holds the dice)
            veil = bool(self.hide_notation()) and self.session.role == "gm"
            event = self.session.roll(
                text, hidden=hide, blind=True, hide_notation=veil, variables=numbers, locale=locale
            )
            return FaceDownRoll(text, event.seq, {loc: term_of(self.system, "gm", loc) for loc in ("en", "ru")})
        event = self.session.roll(text, hidden=hide, variables=numbers, locale=locale)
        p = event.payload
        return StoredRoll(p["result"], p.get("texts") or {locale: p.get("text", "")})

    def check(self, character, character_id, check_id: str, options: Mapping[str, Any], *, hidden=None, locale="en"):
        hide = self.hidden() if hidden is None else bool(hidden)
        request = check_request(check_id, character_id, **dict(options))
        event = self.session.roll(request, hidden=hide, blind=bool(self.blind()), locale=locale)
        self.check_index[character_id] = event.payload["index"]
        result = StoredCheck(event.payload)
        after = self.session.state.characters.get(character_id, {})
        self.push(character_id, character)
        return result, check_changes(result, after), None

    def after_roll(self, character, character_id, previous, options: Mapping[str, Any], *, locale: str = "en"):
        index = self.check_index.get(character_id)
        if index is None:
            raise RuleError("no_after_roll", T("Roll a check first.", "Сначала бросьте проверку."))
        before = dict(self.session.state.characters.get(character_id) or {})
        event = self.session.after_roll(index, locale=locale, **dict(options))
        result = StoredCheck(dict(event.payload, character=before))
        after = self.session.state.characters.get(character_id, {})
        self.push(character_id, character)
        return result, check_changes(result, after), None

    def may_after_roll(self, character_id) -> bool:
        return self.can("after_roll", character_id)

    # -- the sheet ---------------------------------------------------------------------------
    def sheet_action(self, character_id, character, action, args: list) -> Any:
        """Finish character is the table's own seat action; any other runs on the model and is
        recorded as its changes (:meth:`follow_model`)."""
        if action.method_name == "start_play":
            return self.session.finish_character(character_id)
        return action.bound(self.system)(*args)

    def advance(self, character_id, character, advance_id: str, **options: Any) -> Any:
        return self.session.advance(character_id, advance_id, **options)

    def award(self, character_id, character, resource: str, amount: int) -> Any:
        return self.session.award(character_id, resource, amount)

    def follow_model(self, character_id: str, model, *, refused: Callable[[BaseException], None] | None = None) -> None:
        """Every change of ``model`` (a sheet edit, a rules action) is the seat's character edit:
        recorded (role, GM fields, phases, limits checked by the session), or put back with the
        refusal told (``refused(error)``)."""

        def changed(_change) -> None:
            if self._syncing:
                return
            stored = self.session.state.characters.get(character_id, {})
            if not character_changes(stored, model.to_dict()):
                return
            try:
                if not self.session.can("character.edit", character_id):
                    raise PermissionDenied("character.edit", self.session.role, "not this seat's to change")
                record_sheet(self.session, character_id, model.to_dict(), reason="sheet")
            except (PermissionError, EventError, ValueError) as exc:
                if refused is not None:
                    refused(exc)
                self.push(character_id, model)

        import traitlets

        model.observe(changed, names=traitlets.All)

    def push(self, character_id: str, model) -> None:
        """Put the table's values of ``character_id`` into ``model`` (recording nothing)."""
        data = self.session.state.characters.get(character_id)
        if data is None or model is None:
            return
        self._syncing += 1
        try:
            if jsonable(model.to_dict()) != data:
                model.load_dict(data)
        except ValueError:
            log.exception("character %s does not load", character_id)
        finally:
            self._syncing -= 1

    # -- the fight ---------------------------------------------------------------------------
    def act(self, combat, action: str, *args: Any, **kwargs: Any) -> dict | None:
        """The GM's tracker actions on the table's combat (its dice actions rolled with the fair
        dice); a player's seat has none (its attacks are :meth:`attack`)."""
        if action not in COMBAT_ACTIONS:
            raise ValueError(f"no tracker action {action!r} (known: {', '.join(COMBAT_ACTIONS)})")
        self.session.require("combat")
        return getattr(combat, COMBAT_ACTIONS[action])(*args, **kwargs)

    def _player_of(self, cid: str) -> str | None:
        """The player seat whose character ``cid`` is (None: the GM's)."""
        st = self.session.state
        for seat, info in st.seats.items():
            if info.get("role") == "player" and not info.get("retired") and info.get("character_id") == cid:
                return seat
        owner = st.owners.get(cid)
        info = st.seats.get(owner) or {}
        return owner if info.get("role") == "player" and not info.get("retired") else None

    def side(self, combat, cid: str) -> str | None:
        return "party" if self._player_of(cid) else "other"

    def target_label(self, combat, cid: str, locale: str) -> str:
        """``Boris · Quinn`` for a player's character, ``Goblin · GM`` for the GM's."""
        seat = self._player_of(cid)
        if seat is not None:
            who = str((self.session.state.seats.get(seat) or {}).get("name") or seat)
        else:
            who = term_of(self.system, "gm", locale)
        return f"{combat.name(cid)} · {who}"

    def attack_option_specs(self, combat, spec, attacker_id: str, target_id: str) -> list:
        """The options the seat chooses: never the defender's when a player's seat defends (the
        GM chooses an NPC's defence in the panel), and a player never the defender's."""
        if self.audience == "gm" and self.sync is not None and self.sync.attacks.owner_seat(target_id) is None:
            return list(spec.options)
        return [o for o in spec.options if o.name not in spec.defender_options]

    def _offer(self, attacker: str, target: str, attack: str | None, options: Mapping[str, Any]):
        """The table's answer for this, or None after asking for it (once)."""
        s = self.session
        offer = offer_for(s.requests, attacker, target, attack, options)
        if offer is None and not asked(s.requests, attacker, target, attack, dict(options)):
            s.ask_attack(attacker, target, attack, dict(options))
        return offer

    def attacks_on(self, combat, attacker_id: str, target_id: str) -> list:
        if self.audience == "gm":
            return super().attacks_on(combat, attacker_id, target_id)
        offer = self._offer(attacker_id, target_id, None, {})
        if offer is None:
            raise RuleError("attacks_pending", _w("asking"))
        return [spec_from_json(s) for s in offer.get("attacks") or ()]

    def attack_odds(self, combat, attacker_id: str, target_id: str, attack_id: str, options: Mapping[str, Any]):
        if self.audience == "gm":
            if self.sync is not None:
                return self.sync.attacks.odds(attacker_id, target_id, attack_id, dict(options))
            return super().attack_odds(combat, attacker_id, target_id, attack_id, options)
        offer = self._offer(attacker_id, target_id, attack_id, options)
        if offer is None:
            raise RuleError("odds_pending", _w("asking_odds"))
        if offer.get("error"):
            raise RuleError("no_odds", dict(offer["error"]))
        return odds_from_json(offer["odds"])

    def check_attack(self, combat, attacker_id, target_id, attack_id, options) -> tuple:
        """A player's request, checked as if the browser were hostile (the table checks it again
        against the sheets): their character, on its turn, a target they see, an attack offered
        to them, only options offered."""
        if self.audience == "gm":
            offered = lambda spec, a, t: self.attack_option_specs(combat, spec, a, t)  # noqa: E731
            return check_attack_request(combat, "gm", offered, attacker_id, target_id, attack_id, options)
        if attacker_id != self.session.character_id or not self.my_turn():
            raise RuleError("not_yours", _w("not_yours"))
        if not isinstance(target_id, str) or target_id not in self.attack_targets(combat, attacker_id):
            raise RuleError("unknown_target", _w("no_target"))
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise RuleError("bad_options", _w("not_offered"))
        offer = offer_for(self.session.requests, attacker_id, target_id, None, {})
        specs = {s["id"]: spec_from_json(s) for s in (offer or {}).get("attacks") or ()}
        if attack_id not in specs or specs[attack_id].unavailable:
            raise RuleError(
                "not_offered",
                dict(specs[attack_id].unavailable)
                if attack_id in specs and specs[attack_id].unavailable
                else _w("not_offered"),
            )
        offered_names = {o.name for o in specs[attack_id].options}
        for name in options:
            if name not in offered_names:
                raise RuleError("not_your_option", _w("not_your_option", option=name))
        return attacker_id, target_id, attack_id, dict(options)

    def attack(
        self, combat, attacker_id: str, target_id: str, attack_id: str, options: Mapping[str, Any]
    ) -> AttackNews:
        """The GM's attack rolls now (or waits for the defender's seat); a player's is sent to the
        table (one at a time: a second press while it is in the works is refused)."""
        a, t, aid, opts = self.check_attack(combat, attacker_id, target_id, attack_id, options)
        if self.audience == "gm":
            if self.sync is None:
                raise PermissionDenied("attack", self.session.role, "the GM's page has no combat")
            event = self.sync.attacks.attack(a, t, aid, opts)
            if event is None:
                return AttackNews(_w("waiting_defender", target=combat.name(t)), pending=True)
            return AttackNews({loc: combat.describe(event, loc) for loc in ("en", "ru")}, event=event)
        request = self.session.declare_attack(a, t, aid, opts)
        self._sent = {"request": request.id, "attacker": a, "seen": _attack_count(combat, a)}
        return self.attack_news(combat) or AttackNews(status_text(request), pending=True)

    def attack_news(self, combat=None) -> AttackNews | None:
        """What this seat's attack waits for (sent; waiting for a defender or the GM; refused),
        or what it did once rolled (the fight's line)."""
        s = self.session
        mine = [r for r in s.requests if r.kind == ATTACK and r.seat == s.seat]
        if mine:
            r = mine[-1]
            gm = {loc: term_of(self.system, "gm", loc) for loc in ("en", "ru")}
            text = status_text(r, gm=gm)
            return AttackNews(text, error=r.state == REFUSED, pending=r.state != REFUSED, key=(r.id, r.state))
        sent = self._sent
        if sent is None or combat is None:
            return None
        line = _latest_attack(combat, sent["attacker"], sent["seen"])
        if line is None:
            return None
        return AttackNews(
            {loc: tr(WORDS["rolled"], loc).format(line=line[loc]) for loc in ("en", "ru")}, key=sent["request"]
        )

    def seen(self, news: AttackNews) -> None:
        """The page has shown ``news``: a refusal's request goes (its seat has read it)."""
        if news.error and isinstance(news.key, tuple):
            try:
                self.session.dismiss(news.key[0])
            except (PermissionError, EventError):
                log.exception("could not dismiss a refused attack")

    def questions(self) -> list[dict[str, Any]]:
        return self.session.questions()

    def answer(self, request: str, options: Mapping[str, Any]) -> AttackNews | None:
        """The defender's (or, for an absent player or an NPC, the GM's) answer: a GM's page rolls
        the attack at once; a player's answer goes to the table, which rolls it."""
        if self.audience == "gm" and self.sync is not None:
            event = self.sync.attacks.answer(request, dict(options))
            if event is None:
                return None
            return AttackNews({loc: self.sync.combat.describe(event, loc) for loc in ("en", "ru")}, event=event)
        self.session.answer_attack(request, dict(options))
        return AttackNews(_w("answered"))

    def watch(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self.session.on_requests(lambda _requests: callback())

    def ask_for_targets(self, combat) -> None:
        """A player's turn came: ask the table for the attacks on every target they see now, so
        the Attack part has them when it opens."""
        me = self.session.character_id
        if me is None or not self.my_turn():
            return
        for target in self.attack_targets(combat, me):
            try:
                self._offer(me, target, None, {})
            except Exception:  # noqa: BLE001 - the panel asks again when it opens
                log.exception("asking for attacks failed")


def _attack_count(combat, attacker: str) -> int:
    """The number (``seq``) of ``attacker``'s latest attack in the fight's log (-1: none)."""
    return max(
        (e.get("seq", -1) for e in combat.events if e.get("type") == "attack" and e.get("id") == attacker), default=-1
    )


def _latest_attack(combat, attacker: str, seen: int) -> dict[str, str] | None:
    """The fight's line of ``attacker``'s latest attack after number ``seen``, if any."""
    theirs = [
        e for e in combat.events if e.get("type") == "attack" and e.get("id") == attacker and e.get("seq", -1) > seen
    ]
    if not theirs:
        return None
    return {loc: combat.describe(theirs[-1], loc) for loc in ("en", "ru")}


__all__ = ["TablePlay"]
