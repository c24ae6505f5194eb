"""Views: widgets that render dice, sheets and tables (the dice page for now)."""
from .roller import RollerPage, dice_page

__all__ = ["RollerPage", "dice_page"]
