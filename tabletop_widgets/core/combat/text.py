"""A combat's events in words, for the log (en and ru): what an event did, with what the system's
hooks did. Reads the combat through its public methods only (``label``, ``condition_spec``,
``system``)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..i18n import DEFAULT_LOCALE, tr
from ..system import term_of


def describe(combat, event: Mapping, locale: str = DEFAULT_LOCALE, *, skip: Iterable[str] = ()) -> str:
    """One line for the log saying what an event did (names as they are now), with what the
    system's hooks did (turn effects, conditions, initiative costs); ids in ``skip``
    (hidden from this reader) are left out of lists."""
    skip = set(skip)
    line = event_text(combat, event, locale, skip)
    parts = []
    for x in event.get("effects") or ():
        if not isinstance(x, Mapping) or x.get("id") in skip:
            continue
        same = (
            x.get("hook") == "condition_changed"
            and x.get("id") == event.get("id")
            and event.get("type") in ("add_condition", "remove_condition")
        )
        if same:  # "Oleg: + Depression" says the rest already
            change = changes_text(combat.system, x, locale)
            line += f" ({change})" if change else ""
            continue
        parts.append(describe_effect(combat, x, locale))
    return line + "".join(f"; {p}" for p in parts if p)


def trait_text(system, trait: str, old: Any, new: Any, locale: str) -> str:
    """A trait change in words, or "" when a reader has no word for it: only traits the
    sheet names are shown (flags and internal bookkeeping the condition already says)."""
    try:
        field_ = system.sheet.field(trait)
    except (KeyError, AttributeError, LookupError):
        return ""
    if isinstance(old, (bool, list, dict)) or isinstance(new, (bool, list, dict)):
        return ""
    choices = {str(v): lab for v, lab in (getattr(field_, "choices", ()) or ())}

    def value(v: Any) -> str:
        if v is None or v == "":
            return "—"
        if str(v) in choices:
            return tr(choices[str(v)], locale)
        if isinstance(v, str):
            return ""  # an internal code without a word for it
        return str(v)

    a, b = value(old), value(new)
    if not b:
        return ""
    return f"{tr(field_.label, locale)} {a}→{b}" if a else f"{tr(field_.label, locale)}: {b}"


def changes_text(system, entry: Mapping, locale: str) -> str:
    health = entry.get("health")
    if health and health[0] != health[1]:
        return f"{health[0][0]}→{health[1][0]} / {health[1][1]}"
    parts = (trait_text(system, t, a, b, locale) for t, (a, b) in (entry.get("changes") or {}).items())
    return ", ".join(p for p in parts if p)


def health_traits(combat, cid: Any, traits: Iterable[str]) -> set[str]:
    """Which of ``traits`` make up combatant ``cid``'s health bar (the system's ``health``):
    each is tried on a scratch twin of the character (Р.Э.Т.'s Health, Seasons' damage taken,
    a Hit Point count), so the bar is not told twice. Empty when the character is gone."""
    from .records import clone_character

    try:
        twin = clone_character(combat.character(cid))
        health = combat.system.health
        bar = health(twin)
    except Exception:  # a combatant since removed, a system without a health bar
        return set()
    found = set()
    for trait in traits:
        try:
            value = getattr(twin, trait)
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            setattr(twin, trait, value + 1 if value < 1 else value - 1)
            if health(twin) != bar:
                found.add(trait)
            setattr(twin, trait, value)
        except Exception:  # a value the trait refuses: not the bar's
            continue
    return found


def attack_changes_text(system, entry: Mapping, locale: str, bar_traits: Iterable[str] = ()) -> str:
    """What an attack did to one side, all of it: the health bar, every other trait the sheet
    names (an epic die or a Luck point spent) and the rules' notes (a wound): ``"10→5 / 10, Epic
    dice 1→0, limb severed"``. The traits in ``bar_traits`` (:func:`health_traits`) are told
    once, by the bar."""
    parts, bar = [], None
    skip = set(bar_traits)
    health = entry.get("health")
    if health and health[0] != health[1]:
        parts.append(f"{health[0][0]}→{health[1][0]} / {health[1][1]}")
        bar = (health[0][0], health[1][0])
    for trait, change in (entry.get("changes") or {}).items():
        if not isinstance(change, (list, tuple)) or len(change) != 2 or tuple(change) == bar or trait in skip:
            continue
        text = trait_text(system, trait, change[0], change[1], locale)
        if text:
            parts.append(text)
    parts += [tr(n, locale) for n in entry.get("notes") or () if isinstance(n, (Mapping, str)) and n]
    return ", ".join(p for p in parts if p)


def describe_effect(combat, entry: Mapping, locale: str = DEFAULT_LOCALE) -> str:
    """One recorded hook outcome (an ``effects`` entry) in words."""
    ru = locale == "ru"
    cid = entry.get("id")
    who = combat.label(cid)
    hook = entry.get("hook")
    if hook == "on_turn":
        what = (
            ("начало хода" if ru else "start of turn")
            if entry.get("when") == "start"
            else ("конец хода" if ru else "end of turn")
        )
    elif hook == "condition_changed":
        spec = combat.condition_spec(entry.get("condition"))
        label = tr(spec.label, locale) if spec else ("состояние" if ru else "condition")
        if entry.get("expired"):
            # "закончилось: Паника": the verb never has to agree with the condition's gender
            what = f"закончилось: {label}" if ru else f"{label} ends"
        else:
            what = f"{'+' if entry.get('active') else '−'} {label}"
    elif hook == "initiative":
        what = "инициатива" if ru else "initiative"
    elif hook == "attack":  # part of the attack's sentence: "…: 3 damage after armour; Brann: 6→3 / 6"
        bar = health_traits(combat, cid, (entry.get("changes") or {}).keys()) if entry.get("health") else ()
        change = attack_changes_text(combat.system, entry, locale, bar)
        return f"{who}: {change}" if change else ""
    else:
        what = "правила" if ru else "rules"
    change = changes_text(combat.system, entry, locale)
    return f"{who} ({what})" + (f": {change}" if change else "")


def event_text(combat, event: Mapping, locale: str, skip: set) -> str:
    """What ``event`` did, in words (without what its hooks did)."""
    ru = locale == "ru"

    def nm(cid):
        if cid is None:
            return "—"
        return combat.label(cid)

    k = event.get("type")
    who = nm(event.get("id"))
    if k == "add":
        return f"{event['name']} вступает в бой" if ru else f"{event['name']} joins the combat"
    if k == "remove":
        return f"{who} — убрать из боя" if ru else f"{who} leaves the combat"
    if k == "rename":
        return f"новое имя: {event['name']}" if ru else f"renamed: {event['name']}"
    if k == "move":
        return f"{who} → место {event['to'] + 1}" if ru else f"{who} → place {event['to'] + 1}"
    if k == "initiative":
        names = ", ".join(nm(c) for c in event["order"] if c not in skip)
        return f"инициатива: {names}" if ru else f"initiative: {names}"
    if k in ("next", "prev", "act_now"):
        turn = term_of(combat.system, "turn", locale).lower()  # Threads: «очередь» (L441)
        return f"{turn}: {nm(event.get('to', event.get('id')))}"
    if k == "delay":
        return f"{who} откладывает ход; ходит {nm(event['to'])}" if ru else f"{who} delays; {nm(event['to'])} acts"
    if k == "end":
        return "бой окончен" if ru else "combat ended"
    if k in ("damage", "heal"):
        verb = ("урон" if k == "damage" else "лечение") if ru else k.replace("heal", "healing")
        changes = changes_text(combat.system, event, locale)
        return f"{who}: {verb} {event['amount']}" + (f" ({changes})" if changes else "")
    if k == "add_condition":
        spec = combat.condition_spec(event["condition"])
        label = tr(spec.label, locale) if spec else ("состояние" if ru else "condition")
        return f"{who}: + {label}"
    if k == "remove_condition":
        return f"{who}: − {'состояние' if ru else 'condition'}"
    if k == "set_defeated":
        if event["value"] is None:
            return f"{who}: {'по правилам' if ru else 'by the rules'}"
        # no verb that would have to agree with the character's gender ("Аня: выбыл")
        return f"{who} — {('выбывает из боя' if ru else 'defeated') if event['value'] else ('снова в бою' if ru else 'back in')}"
    if k == "set_hidden":
        return f"{who}: {('скрыто от игроков' if ru else 'hidden') if event['value'] else ('видно игрокам' if ru else 'shown')}"
    if k == "attack":  # the dice stay in the event ("dice", "text"): shown on demand
        return attack_sentence(
            who, nm(event.get("target")), event.get("label"), bool(event.get("hit")), event.get("damage"), locale
        )
    if k == "undo":
        return f"отмена действия №{event['undoes']}" if ru else f"undo #{event['undoes']}"
    return "действие" if ru else "action"


#: the details an attack outcome of a built-in system records its two totals under (attacker's,
#: defender's) and the word after them: the sentence's "12 against 9"
_SCORES = (
    ("attack_total", "defence_total", None),
    ("total", "defense_total", None),
    ("attacker_successes", "defender_successes", ("successes", "успехов")),
)


def attack_score(details: Any, locale: str = DEFAULT_LOCALE) -> str:
    """How the attack's roll stood against the defence, from an outcome's ``details``:
    ``"12 against 9"``, ``"3 successes against 1"``; "" when the details hold no such pair."""
    if not isinstance(details, Mapping):
        return ""
    ru = locale == "ru"
    for mine, theirs, unit in _SCORES:
        a, b = details.get(mine), details.get(theirs)
        if isinstance(a, int) and not isinstance(a, bool):
            word = f" {unit[1] if ru else unit[0]}" if unit else ""
            if isinstance(b, int) and not isinstance(b, bool):
                return f"{a}{word} {'против' if ru else 'against'} {b}"
            return f"{'выпало' if ru else 'rolled'} {a}{word}"
    return ""


def attack_sentence(
    attacker: str, target: str, label: Any, hit: bool, damage: Any, locale: str = DEFAULT_LOCALE, score: str = ""
) -> str:
    """An attack the way a GM says it: who attacked whom with what, hit or miss, how the roll
    stood against the defence (``score``, when known), the damage after armour.
    ``"Aria hits the Goblin with Sword, 12 against 9: 3 damage after armour"``; in Russian
    without declining a name: ``"Ария → Гоблин, Меч: попадание, 12 против 9; урон 3 после брони"``."""
    what = tr(label, locale) if isinstance(label, Mapping) and label else ""
    dmg = damage if isinstance(damage, int) and not isinstance(damage, bool) else 0
    by = f", {score}" if score else ""
    if locale == "ru":
        head = f"{attacker} → {target}" + (f", {what}" if what else "")
        if not hit:
            return f"{head}: промах{by}"
        return f"{head}: попадание{by}; " + (f"урон {dmg} после брони" if dmg else "урон не прошёл")
    with_ = f" with {what}" if what else ""
    if not hit:
        return f"{attacker} misses {target}{with_}{by}"
    if dmg:
        return f"{attacker} hits {target}{with_}{by}: {dmg} damage after armour"
    return f"{attacker} hits {target}{with_}{by}, but no damage gets through"


def attack_dice(event: Mapping, locale: str = DEFAULT_LOCALE) -> list[str]:
    """An attack event's dice as the system told them (its own line, then each roll): what a
    reader opens under the attack's sentence."""
    said = event.get("text") if isinstance(event.get("text"), Mapping) else {}
    dice = event.get("dice") if isinstance(event.get("dice"), Mapping) else {}
    rows = [tr(said, locale)] if said else []
    rows += [str(x) for x in dice.get(locale) or () if isinstance(x, str)]
    return [r for r in rows if r]
