"""Animated dice: an anywidget whose ES module and CSS ship in ``tabletop_widgets/front``.

Python owns every result: ``show(result)`` puts the rolled faces into the ``dice`` trait and
bumps ``roll_id``; the browser tumbles the dice and settles them on those faces (at once when
the reader prefers reduced motion). ``announcement`` feeds an ARIA live region (role=status,
aria-live=polite) that screen readers speak.
"""

from __future__ import annotations

from typing import Any, Iterable

import anywidget
import traitlets as t

from tabletop_widgets.front import asset

#: At most this many dice are drawn (a 200-die pool is summarised by the breakdown instead).
MAX_DRAWN = 60


def die_state(die: Any, locale: str = "en") -> dict[str, Any]:
    """One ``tabletop_widgets.dice.Die`` as the JSON the front end draws."""
    faces = getattr(die, "faces", "")
    sides = faces if isinstance(faces, int) else 0
    classes = []
    if not getattr(die, "counted", True):
        classes.append("dropped")
    for flag in ("success", "failure", "exploded"):
        if getattr(die, flag, False):
            classes.append(flag)
    crit = getattr(die, "crit", None)
    if crit:
        classes.append(f"crit-{crit}")
    value = getattr(die, "value", "")
    return {"faces": "" if faces is None else str(faces), "sides": sides, "value": str(value), "classes": classes}


class DiceAnim(anywidget.AnyWidget):
    """The dice of the latest roll, tumbling then settling (class ``tt-dice-anim``)."""

    _esm = asset("dice.js")
    _css = asset("dice.css")

    dice = t.List(t.Dict(), help="The dice to draw: faces, sides, value, classes").tag(sync=True)
    roll_id = t.Int(0, help="Bumped on every roll so that equal faces still animate").tag(sync=True)
    announcement = t.Unicode("", help="The result as text for the live region").tag(sync=True)
    label = t.Unicode("", help="Accessible label of the dice row").tag(sync=True)
    animate = t.Bool(True, help="Tumble before settling (reduced motion always settles at once)").tag(sync=True)

    @t.validate("dice")
    def _validate_dice(self, proposal):
        dice = list(proposal["value"])[:MAX_DRAWN]
        out = []
        for d in dice:
            if not isinstance(d, dict):
                raise t.TraitError("each die is a dict")
            out.append(
                {
                    "faces": str(d.get("faces", "")),
                    "sides": int(d.get("sides", 0) or 0),
                    "value": str(d.get("value", "")),
                    "classes": [str(c) for c in d.get("classes", ())],
                }
            )
        return out

    def show(self, dice: Iterable[Any], announcement: str = "", label: str = "") -> None:
        """Draw ``dice`` (``Die`` objects or ready dicts) and announce ``announcement``."""
        states = [d if isinstance(d, dict) else die_state(d) for d in dice]
        with self.hold_sync():
            self.dice = states
            self.announcement = announcement
            self.label = label
            self.roll_id += 1

    def clear(self) -> None:
        with self.hold_sync():
            self.dice = []
            self.announcement = ""
            self.label = ""


__all__ = ["DiceAnim", "die_state", "MAX_DRAWN"]
