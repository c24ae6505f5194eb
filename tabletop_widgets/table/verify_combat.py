"""What :func:`.verify.verify_table` checks of the tracker's states: a ``combat.state`` written in
the transaction of a fair initiative or attack roll must show that roll's outcome (the GM's copy
carries the Combat's event; the players' projection shows the visible keys).
"""

from __future__ import annotations

from .events import norm


def combat_event(e, kind: str) -> dict | None:
    """The Combat event of type ``kind`` a GM's ``combat.state`` carries, if any."""
    st = e.payload.get("state") if isinstance(e.payload, dict) else None
    ev = st.get("event") if isinstance(st, dict) else None
    return ev if isinstance(ev, dict) and ev.get("type") == kind else None


def attack_matches(e, outcome: dict) -> list[str]:
    """Whether the GM's ``combat.state`` written with an attack roll applies that roll's outcome
    (hit, damage, text); the players' projection is not compared (it may leave the line out)."""
    ev = combat_event(e, "attack")
    if ev is None:
        return [] if e.audience != "gm" else ["the GM's tracker state in the attack's transaction holds no attack"]
    problems = []
    for part in ("hit", "damage", "text"):
        if norm(ev.get(part)) != outcome.get(part):
            problems.append(f"the tracker's attack {part} is {ev.get(part)!r}, the seed gives {outcome.get(part)!r}")
    return problems


def combat_matches(e, outcome: dict) -> list[str]:
    """Whether a ``combat.state`` written with an initiative roll shows that roll's outcome:
    the GM's copy carries the Combat event (keys, texts, tie-breaks of every combatant rolled);
    the players' projection shows the keys of the visible ones."""
    problems = []
    rolls = outcome.get("rolls") or {}
    st = e.payload.get("state") or {}
    ev = combat_event(e, "initiative")
    if ev is not None:
        got = ev.get("rolls") or {}
        if sorted(got) != sorted(rolls):
            problems.append(f"the tracker rolled {sorted(got)!r}, the fair dice {sorted(rolls)!r}")
        for cid in sorted(set(got) & set(rolls)):
            for part in ("key", "text"):
                if norm(got[cid].get(part)) != rolls[cid].get(part):
                    problems.append(
                        f"the tracker's initiative {part} of {cid!r} is "
                        f"{got[cid].get(part)!r}, the seed gives {rolls[cid].get(part)!r}"
                    )
        if norm(ev.get("tiebreaks") or []) != outcome.get("tiebreaks"):
            problems.append("the tracker's tie-breaks differ from the fair roll's")
        if set(ev.get("ids") or []) == set(ev.get("order") or []) and list(ev.get("order") or []) != outcome.get(
            "order"
        ):
            problems.append(
                f"the tracker's order {ev.get('order')!r} differs from the fair roll's {outcome.get('order')!r}"
            )
    elif e.audience != "gm":
        for cid, d in (st.get("state", {}).get("combatants") or {}).items():
            init = d.get("initiative") if isinstance(d, dict) else None
            if cid in rolls and isinstance(init, dict) and init.get("text") != "?":
                if norm(init.get("key")) != rolls[cid].get("key"):
                    problems.append(
                        f"the players' tracker shows initiative {init.get('key')!r} for "
                        f"{cid!r}, the seed gives {rolls[cid].get('key')!r}"
                    )
    return problems
