"""The turn (spec §6.3-§6.4, §6.8-§6.9, §6.13): its economy, extra turns, what an act cancels and what
the active states allow."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from tabletop_widgets.core import DamageOutcome, Effect, RuleError, T
from tabletop_widgets.core.wording import ru_n
from tabletop_widgets.core.options import GmOptions

from . import data


def _state_word(cond_id: str, locale: str) -> str:
    """A condition's name from the catalogue, for messages (never its id)."""
    row = data.conditions().get(cond_id)
    return row.get(locale) or row.get("en") if row else ("состояние" if locale == "ru" else "a condition")


@dataclass
class TurnState:
    speed_left: int
    attack_available: bool = True
    action_available: bool = True
    social_available: bool = True
    extra_turns_taken: int = 0
    defence_refused: bool = False
    sanity_went_negative: bool = False
    failed_self_control: bool = False
    actions_left: int = 1
    #: a tense situation (L698): two slots, each an action, one of which may be the attack
    tense: bool = False

    @classmethod
    def start(cls, c, *, options: GmOptions, tense: bool = False) -> "TurnState":
        """A fresh turn: Speed steps, an attack, an action, a social gesture (L742). In a tense
        situation the turn has two actions, and the player may make one of them the attack
        instead (L698: «заменив по своему желанию одну атаку на действие»): attack + action or
        action + action, in any order; the GM may leave only one (L701, ``tense_actions``)."""
        st = cls(speed_left=effective_speed(c, options=options), tense=tense)
        if tense:
            st.actions_left = int(options.tense_actions)
        return st

    def use(self, slot: str) -> None:
        if slot == "attack":
            if not self.attack_available or (self.tense and self.actions_left <= 0):
                raise RuleError(
                    "no_attack", T("The attack of this turn is already used.", "Атака этого хода уже использована.")
                )
            self.attack_available = False
            if self.tense:  # the attack takes one of the two slots
                self.actions_left -= 1
                self.action_available = self.actions_left > 0
        elif slot == "action":
            if not self.action_available or self.actions_left <= 0:
                raise RuleError(
                    "no_action", T("The action of this turn is already used.", "Действие этого хода уже использовано.")
                )
            self.actions_left -= 1
            self.action_available = self.actions_left > 0
            if self.tense and self.actions_left <= 0:
                self.attack_available = False  # both slots spent on actions
        elif slot == "social":
            if not self.social_available:
                raise RuleError(
                    "no_social", T("The social gesture is already used.", "Социальное взаимодействие уже использовано.")
                )
            self.social_available = False
        else:
            raise ValueError(slot)

    def move(self, steps: int) -> None:
        if steps < 0 or steps > self.speed_left:
            raise RuleError(
                "no_speed",
                T(
                    f"Only {self.speed_left} steps of movement left.",
                    f"Движения осталось только на {ru_n(self.speed_left, 'шаг', 'шага', 'шагов')}.",
                ),
            )
        self.speed_left -= steps


def buy_extra_turn(c, state: TurnState, round_no: int, *, options: GmOptions) -> list[Effect]:
    """Up to two extra turns (L757-771): the first costs 3 Sanity (may go below 0, L762; a
    self-control roll then follows at the end of that extra turn), the second costs refusing all
    defence and needs a stabilised (or non-negative) Sanity. Speed is not refreshed (L760). None
    in a tense situation unless the GM allows them (L700, ``tense_extra_turns``)."""
    effects: list[Effect] = []
    if state.tense and not options.tense_extra_turns:  # L700: «обычно ... недоступны»
        raise RuleError(
            "tense_no_extra_turns",
            T(
                "No extra turns in a tense situation (the GM may allow them).",
                "В острой ситуации дополнительных ходов нет (мастер может их разрешить).",
            ),
        )
    mode = options.extra_turns
    if mode == "forbidden" or (mode == "not_round_1" and round_no <= 1):
        raise RuleError(
            "extra_turns_off",
            T(
                "The GM does not allow extra turns in this fight."
                if mode == "forbidden"
                else "No extra turns in round 1 of this fight.",
                "Мастер не разрешает доп. ходы в этом бою."
                if mode == "forbidden"
                else "В 1-м раунде этого боя доп. ходов нет.",
            ),
        )
    blocked = [x.get("id") for x in c.conditions if x.get("id") in ("rage", "panic", "doom", "unconscious", "coma")]
    if blocked and not (blocked == ["stunned"]):
        raise RuleError(
            "no_extra_turns",
            T(
                f"No extra turns while {_state_word(blocked[0], 'en')}.",
                f"Дополнительные ходы запрещены: {_state_word(blocked[0], 'ru')}.",
            ),
        )
    if state.extra_turns_taken == 0:
        if round_no < int(options.sanity_extra_turn_from_round):
            raise RuleError(
                "extra_turn_round",
                T(
                    f"Extra turns for Sanity are allowed from round {options.sanity_extra_turn_from_round}.",
                    f"Доп. ходы за Рассудок разрешены с {options.sanity_extra_turn_from_round}-го раунда.",
                ),
            )
        if options.extra_turn_requires_sanity_ge_3 and c.sanity < 3:
            raise RuleError(
                "extra_turn_sanity", T("You need 3 Sanity for an extra turn.", "Для доп. хода нужно 3 Рассудка.")
            )
        effects.append(Effect("sanity", -3, T("extra turn", "дополнительный ход")))
        state.sanity_went_negative = c.sanity - 3 < 0
    elif state.extra_turns_taken == 1:
        if round_no < int(options.refusal_extra_turn_from_round):
            raise RuleError(
                "refusal_round",
                T(
                    f"Refusing defence for an extra turn is allowed from round {options.refusal_extra_turn_from_round}.",
                    f"Отказ от защиты ради доп. хода разрешён с {options.refusal_extra_turn_from_round}-го раунда.",
                ),
            )
        if state.failed_self_control:
            raise RuleError(
                "self_control_failed", T("Self-control failed; your turn ends.", "Самоконтроль провален — ход окончен.")
            )
        state.defence_refused = True
    else:
        raise RuleError(
            "extra_turn_limit", T("At most two extra turns per turn.", "Не больше двух дополнительных ходов за ход.")
        )
    state.extra_turns_taken += 1
    state.attack_available = state.action_available = state.social_available = True
    state.actions_left = 1
    return effects


def effective_speed(c, *, options: GmOptions) -> int:
    """Speed = Agility (L387); a leg injury halves it, floor (L1600, A33: once, or per leg). The
    armour's penalty is on the Agility branch's rolls (L1383, L1409), not on Speed, unless the GM
    reads it so (A52, ``armour_penalty_speed``)."""
    legs = sum(1 for x in c.conditions if x.get("id") == "injury_leg")
    speed = c.speed
    if options.armour_penalty_speed:
        speed = max(0, speed + min((int(p.get("penalty", 0)) for p in c.armour if p.get("worn", True)), default=0))
    if legs:
        times = legs if options.leg_injury_speed == "per_leg" else 1
        for _ in range(times):
            speed //= 2
    return speed


ACTS = ("move", "attack", "action", "noise", "heal", "defence")


def after_act(c, act: str, *, leaves_cover: bool | None = None, reveals: bool | None = None) -> DamageOutcome:
    """Bookkeeping after the character ``act``\\ s (one of :data:`ACTS`):

    * cover (L994-995): a move or an attack cancels the cover declaration and its bonus; healing
      and other actions inside the cover do not (``leaves_cover`` overrides the GM's call);
    * hidden (L1129, L1654): an attack or noise reveals the position (``reveals`` overrides);
    * aim (L939): any non-defensive action other than the aimed attack loses the aim bonus;
    * movement block (L1014): a later attack cancels it.

    Returns the trait changes and ``details["remove_conditions"]`` for the tracker's own list."""
    if act not in ACTS:
        raise RuleError("bad_act", T(f"act is one of {', '.join(ACTS)}", f"действие: {', '.join(ACTS)}"))
    out = DamageOutcome()
    removed = []
    cover_off = leaves_cover if leaves_cover is not None else act in ("move", "attack")
    if cover_off and (c.cover_bonus or c.has_condition("in_cover")):
        if c.cover_bonus:
            out.changes["cover_bonus"] = (c.cover_bonus, 0)
            c.cover_bonus, c.cover_shield_only = 0, False
        removed.append("in_cover")
    hide_off = reveals if reveals is not None else act in ("attack", "noise")
    if hide_off and c.has_condition("hidden"):
        removed.append("hidden")
    if act == "action" and c.aim_bonus:
        out.changes["aim_bonus"] = (c.aim_bonus, 0)
        c.aim_bonus = 0
    if act == "attack" and c.has_condition("movement_block"):
        removed.append("movement_block")
    if removed:
        old = [dict(x) for x in c.conditions]
        new = [x for x in old if x.get("id") not in removed]
        if new != old:
            out.changes["conditions"] = (old, new)
            c.conditions = new
    out.details["remove_conditions"] = removed
    for r in removed:
        out.notes.append(
            {
                "in_cover": T("leaves cover", "выходит из укрытия"),
                "hidden": T("reveals the position", "раскрывает позицию"),
                "movement_block": T("movement block cancelled", "блок передвижения отменён"),
            }[r]
        )
    return out


def extra_turn(c, state: TurnState, round_no: int, *, options: GmOptions) -> dict:
    """Buy the next extra turn (spec §6.4) and say what the tracker must do: ``effects`` (3
    Sanity for the first, applied through ``apply_effects``), ``add_conditions`` (the second
    refuses defence: ``defence_refused`` until the start of the next turn, A22, visible to all),
    ``self_control_at_end`` (Sanity went below 0: a self-control roll at the end of this extra
    turn, L762). Refused purchases raise before anything changes."""
    snapshot = copy.copy(state)
    try:
        effects = buy_extra_turn(c, state, round_no, options=options)
    except RuleError:
        state.__dict__.update(snapshot.__dict__)
        raise
    add = ["defence_refused"] if state.extra_turns_taken == 2 else []
    duration = None if options.defence_refusal_duration != "until_next_turn" else 1
    return {
        "number": state.extra_turns_taken,
        "effects": effects,
        "add_conditions": add,
        "condition_duration": duration if add else None,
        "self_control_at_end": state.extra_turns_taken == 1 and state.sanity_went_negative,
        "speed_left": state.speed_left,
        "note": T(
            f"extra turn {state.extra_turns_taken}" + (": 3 Sanity" if not add else ": defence refused"),
            f"доп. ход {state.extra_turns_taken}" + (": 3 Рассудка" if not add else ": отказ от защиты"),
        ),
    }


def end_extra_turn(state: TurnState, self_control_passed: bool | None) -> bool:
    """Record the self-control roll made at the end of the 3-Sanity extra turn (L762). Returns
    whether a second extra turn (defence refusal) may still be declared."""
    if self_control_passed is False:
        state.failed_self_control = True
    return state.extra_turns_taken == 1 and not state.failed_self_control


_LIMITS = {
    # state: (turn, move, attack, action, social, extra_turns, defence)
    "dead": (False, False, False, False, False, False, "none"),
    "coma": (False, False, False, False, False, False, "none"),  # L1512-1520
    "unconscious": (False, False, False, False, False, False, "none"),  # L1522-1530
    "doom": (True, False, False, False, True, False, "none"),  # L1532-1540: beg / bargain
    "panic": (True, True, False, False, True, False, "dodge_only"),  # L1542-1550: flee
    "rage": (True, True, True, False, True, False, "any"),  # L1552-1561
}
_DEF_RANK = {"any": 3, "limited": 2, "dodge_only": 1, "none": 0}


def turn_limits(c) -> dict:
    """What the character may do on its turn given its states: ``turn`` (has one at all),
    ``move``/``attack``/``action``/``social``, ``extra_turns``, ``defence`` (``any``,
    ``limited``, ``dodge_only`` or ``none``), ``psych_resist`` (unconscious: immune to
    psychological influence, so nothing to resist) and the bilingual ``reasons``. A state's
    resistance roll on the bearer's own turn is always allowed (it spends the action on a
    success, L1497); ``stunned`` retries may use extra turns (L1570)."""
    out = {
        "turn": True,
        "move": True,
        "attack": True,
        "action": True,
        "social": True,
        "extra_turns": True,
        "defence": "any",
        "psych_resist": True,
        "reasons": [],
    }
    cat = data.conditions()
    ids = [x.get("id") for x in c.conditions] + (["dead"] if c.dead else [])
    for cid in dict.fromkeys(ids):
        lim = _LIMITS.get(cid)
        spec = cat.get(cid, {})
        if lim is None:
            d = spec.get("defence")
            if d in _DEF_RANK and _DEF_RANK[d] < _DEF_RANK[out["defence"]]:
                out["defence"] = d
                ru = {"none": "нет", "dodge_only": "только уклонение", "limited": "ограничена"}[d]
                out["reasons"].append(T(f"{spec['en']}: defence {d.replace('_', ' ')}", f"{spec['ru']}: защита — {ru}"))
            continue
        for k, allowed in zip(("turn", "move", "attack", "action", "social", "extra_turns"), lim[:6]):
            out[k] = out[k] and allowed
        if _DEF_RANK[lim[6]] < _DEF_RANK[out["defence"]]:
            out["defence"] = lim[6]
        if cid == "unconscious":
            out["psych_resist"] = False
        label = spec or {"en": cid, "ru": cid, "effect_en": "", "effect_ru": ""}
        out["reasons"].append(
            T(f"{label['en']}: {label.get('effect_en', '')}", f"{label['ru']}: {label.get('effect_ru', '')}")
        )
    if not out["turn"]:
        out.update(move=False, attack=False, action=False, social=False, extra_turns=False)
    return out
