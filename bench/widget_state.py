"""Saved widget state: how many widget models, and how many bytes, a notebook holds for one
system's character sheet + dice tray + combat tracker.

Run: ``.venv/bin/python bench/widget_state.py`` (or ``make bench``).

When a notebook is saved with widget state, JupyterLab and Notebook 7 write every live widget
model of the kernel (each widget, its ``Layout`` and its style) into the notebook's metadata as
``application/vnd.jupyter.widget-state+json``, with default values dropped. This script builds,
for each system, ``show_sheet(hero)``, ``show_tray(hero)`` and ``show_combat(system,
characters=[hero, foe])`` outside any kernel (ipywidgets gives them a dummy comm), collects every
widget model created on the way, and prints the size of that saved state (compact JSON, as
``Widget.get_manager_state(drop_defaults=True)`` gives it), in total and per part. The last
columns show the peers measured in the same run: the same three widgets with every section of
the sheet opened (what the state grows to once a player has looked at every section).

No timing here: counts and bytes are deterministic.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ipywidgets as widgets  # noqa: E402
from ipywidgets.widgets import widget as widget_module  # noqa: E402

from tabletop_widgets import available_systems, get_system  # noqa: E402
from tabletop_widgets.widgets import show_combat, show_sheet, show_tray  # noqa: E402


def live_models() -> dict:
    """Every widget model alive now: what the front end's widget manager holds (and saves)."""
    return dict(widget_module._instances)


def state_of(models: dict) -> tuple[int, int]:
    """(models, bytes of the saved state) for these widget models."""
    state = widgets.Widget.get_manager_state(drop_defaults=True, widgets=list(models.values()))
    text = json.dumps(state, separators=(",", ":"), ensure_ascii=False)
    return len(models), len(text.encode("utf-8"))


def measure(slug: str, *, open_all: bool = False) -> dict[str, tuple[int, int]]:
    system = get_system(slug)
    out: dict[str, tuple[int, int]] = {}
    made = []
    hero = system.Character(name="Hero")
    foe = system.Character(name="Foe")
    for part, build in (
        ("sheet", lambda: show_sheet(hero)),
        ("tray", lambda: show_tray(hero)),
        ("tracker", lambda: show_combat(system, characters=[hero, foe])),
    ):
        before = set(live_models())
        w = build()
        if part == "sheet" and open_all:
            for section_id in list(getattr(w, "sections", {})):
                opener = getattr(w, "open_section", None)
                if opener is not None:
                    opener(section_id)
        now = live_models()
        out[part] = state_of({k: v for k, v in now.items() if k not in before})
        made.append(w)
    total_models = sum(c for c, _ in out.values())
    total_bytes = sum(b for _, b in out.values())
    out["total"] = (total_models, total_bytes)
    for w in made:
        w.close_all() if hasattr(w, "close_all") else None
    widgets.Widget.close_all()
    return out


def main() -> None:
    print("Saved widget state (application/vnd.jupyter.widget-state+json, defaults dropped)")
    print("of a sheet + tray + tracker; 'opened' = every sheet section opened, same run")
    head = f"{'system':<17}{'sheet':>16}{'tray':>16}{'tracker':>16}{'total':>18}{'opened total':>20}{'ratio':>8}"
    print(head)
    print("-" * len(head))

    def cell(v: tuple[int, int], width: int) -> str:
        return f"{v[0]:>5} / {v[1] / 1024:>6.1f} kB".rjust(width)

    for slug in available_systems():
        first = measure(slug)
        full = measure(slug, open_all=True)
        ratio = first["total"][1] / full["total"][1] if full["total"][1] else 1.0
        print(
            f"{slug:<17}{cell(first['sheet'], 16)}{cell(first['tray'], 16)}"
            f"{cell(first['tracker'], 16)}{cell(first['total'], 18)}{cell(full['total'], 20)}"
            f"{ratio:>8.2f}"
        )
    print("(cells: widget models / bytes of their saved state)")


if __name__ == "__main__":
    main()
