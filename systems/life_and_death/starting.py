"""What the book gives a new character of the resources the GM awards in play (spec §7.3-§7.5):
experience, level-up improvements, skill experience and epic dice. While the character is created
they are bounded by the book; more is the GM's award, in play (the table keeps a player's seat from
changing them then)."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import Problem
from tabletop_widgets.core.rule_problems import problem
from tabletop_widgets.core.wording import ru_n

#: L359: every 20 XP make a level; L376: a character starting at level n records 20 x (n - 1)
XP_PER_LEVEL = 20


def start_xp(start_level: int) -> int:
    """The XP of a character starting at ``start_level`` (L376: 20 x (level - 1); level 1: 0)."""
    return XP_PER_LEVEL * (start_level - 1)


def check_start_level(value: Any) -> None:
    """The GM option ``start_level`` is a whole number from 1 (a bad one raises ``ValueError``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(
            f"life_and_death: start_level must be a whole number of 1 or more (got {value!r}) / "
            f"start_level: целое число не меньше 1 (указано {value!r})"
        )


def starting_problems(c, *, options: Mapping[str, Any]) -> list[Problem]:
    """A character being created holds no more than the book gives a new one (all errors):

    * experience 0 at level 1, or exactly 20 x (level - 1) for a start at a higher level the GM
      allows (OPTION ``start_level``, L373-L376);
    * no level-up improvement nor surprise owed: they come with levels gained in play (L359-L371;
      a higher start gives parameter and skill points instead, L377-L378);
    * no skill experience: the GM gives it at the end of a session (L355);
    * no epic dice: "На старте количество эпик-дайсов у персонажа равно 0" (L349)."""
    out = _xp_problems(c, options=options)
    if c.pending_improvements or c.surprises_pending:
        out.append(
            problem(
                "E_START_IMPROVEMENTS",
                "A new character has no level-up improvement or surprise to take: they come with the "
                "levels gained in play (a higher start gives parameter and skill points instead).",
                "У нового персонажа нет улучшений за уровень и сюрпризов: они приходят с уровнями, "
                "полученными в игре (при старте с более высокого уровня даются очки параметров и навыков).",
                "pending_improvements",
            )
        )
    given = {k: v for k, v in c.skill_xp.items() if v}
    if given:
        out.append(
            problem(
                "E_START_SKILL_XP",
                "A new character has no skill experience yet: the GM gives it at the end of a session, "
                "one point to a skill used.",
                "У нового персонажа ещё нет опыта навыков: его даёт Мастер в конце сессии, по очку "
                "за использованный навык.",
                "skill_xp",
                skills=sorted(given),
            )
        )
    if c.uses_reputation and c.epic_dice:
        out.append(
            problem(
                "E_START_EPIC_DICE",
                "A new character starts with 0 epic dice: the GM gives one for a heroic deed in play.",
                "На старте у персонажа 0 эпик-дайсов: Мастер даёт их за героические поступки в игре.",
                "epic_dice",
            )
        )
    return out


def _xp_problems(c, *, options: Mapping[str, Any]) -> list[Problem]:
    top = options.start_level
    most = start_xp(top)
    if c.xp <= most and c.xp % XP_PER_LEVEL == 0:
        return []
    if top == 1:
        en = f"A new character starts at level 1 with 0 XP ({c.xp} entered): experience is the GM's award, in play."
        ru = f"Новый персонаж начинает на 1-м уровне с 0 опыта (указано {c.xp}): опыт даёт Мастер — наградой в игре."
    else:
        en = (
            f"A new character starts at most at level {top} (the GM's choice for this campaign), with "
            f"20 XP per level above the first: 0, 20 ... {most} ({c.xp} entered). More is the GM's "
            "award, in play."
        )
        ru = (
            f"Новый персонаж начинает не выше {top}-го уровня (так решил Мастер для этой кампании), с "
            f"20 опыта за каждый уровень после первого: 0, 20 ... {ru_n(most, 'очко', 'очка', 'очков')} "
            f"(указано {c.xp}). Больше даёт только Мастер — наградой в игре."
        )
    return [problem("E_START_XP", en, ru, "xp", entered=c.xp, most=most)]
