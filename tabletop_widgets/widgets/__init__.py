"""Views: the dice page, character sheet, dice tray, roll log and combat tracker.

Widgets are generic over a ``GameSystem``: they render what the system declares and call its
rules; none of them computes a rule itself.
"""
from .dice_anim import DiceAnim
from .log import LogEntry, RollLog
from .roller import RollerPage, dice_page
from .sheet import CharacterSheet, show_sheet
from .tracker import CombatTracker, show_combat
from .tray import DiceTray, show_tray

__all__ = ["CharacterSheet", "CombatTracker", "DiceAnim", "DiceTray", "LogEntry", "RollLog", "RollerPage", "dice_page", "show_combat", "show_sheet", "show_tray"]
