"""Views: the dice page, character sheet, dice tray, roll log, combat tracker, table and lobby.

Widgets are generic over a ``GameSystem``: they render what the system declares and call its
rules; none of them computes a rule itself.
"""

from .dice_anim import DiceAnim
from .language import PageLanguage, language_switch, page_language
from .lobby import Lobby
from .log import LogEntry, RollLog
from .roller import RollerPage, dice_page
from .sheet import CharacterSheet, show_sheet
from .table_view import TableView, show_table
from .tracker import CombatTracker, show_combat
from .tray import DiceTray, show_tray

__all__ = [
    "CharacterSheet",
    "CombatTracker",
    "DiceAnim",
    "DiceTray",
    "Lobby",
    "LogEntry",
    "PageLanguage",
    "RollLog",
    "RollerPage",
    "TableView",
    "dice_page",
    "language_switch",
    "page_language",
    "show_combat",
    "show_sheet",
    "show_table",
    "show_tray",
]
