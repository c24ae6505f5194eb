"""Views: the dice page, character sheet, dice tray, roll log, combat tracker, table and lobby.

Widgets are generic over a ``GameSystem``: they render what the system declares and call its
rules; none of them computes a rule itself.

Each name below is imported from its module on first use (``from tabletop_widgets.widgets
import show_sheet`` loads the sheet, not the table layer or the lobby): a page's kernel loads
only the views the page shows.
"""

from .._lazy import lazy_exports as _lazy_exports

#: public name -> the module (in this package) that defines it
_LAZY = {
    "CharacterSheet": "sheet",
    "CombatTracker": "tracker",
    "CreationWizard": "wizard",
    "DiceAnim": "dice_anim",
    "DiceTray": "tray",
    "Lobby": "lobby",
    "LogEntry": "log",
    "NewCharacter": "wizard",
    "PageLanguage": "language",
    "PageParts": "page_parts",
    "RollLog": "log",
    "RollerPage": "roller",
    "TableView": "table_view",
    "dice_page": "roller",
    "language_switch": "language",
    "page_language": "language",
    "show_combat": "tracker",
    "show_sheet": "sheet",
    "show_table": "table_view",
    "show_tray": "tray",
}


#: the modules of this package, reachable as attributes as before (``widgets.tray``)
_SUBMODULES = (
    "dice_anim",
    "language",
    "lobby",
    "log",
    "page_parts",
    "roller",
    "sheet",
    "sheet_fields",
    "table_view",
    "tracker",
    "tray",
    "wizard",
)


__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, _SUBMODULES)

__all__ = sorted(_LAZY)
