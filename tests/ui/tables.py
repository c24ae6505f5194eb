"""Tables the browser tests set up in the Voila server's store, as a GM in another tab would."""

from __future__ import annotations

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store
from tabletop_widgets.widgets.lobby import sample_character
from tabletop_widgets.widgets.table_view import TableView


def _in_play(character) -> dict:
    """A character's values as a table in mid-campaign holds them: finished, in play (a player
    whose character is still being made opens on the creation wizard instead)."""
    return {**character.to_dict(), "phase": "play"}


def fight_table(db, *, title: str, foe: str | None = None, players: int = 2):
    """A RET table in ``db`` with a GM (Gail) and two players, Pat (Aria, ``c1``) and Quinn
    (Boris, ``c2``) — or Pat alone with ``players=1`` — in a started fight: the characters brought
    in (and ``foe``, when named, added by the GM), initiative rolled, the first turn begun. Returns
    ``(store, made)``: the open store and :func:`create_table`'s answer (``made.links(url)``,
    ``made.tokens``)."""
    if players not in (1, 2):
        raise ValueError(f"fight_table seats one or two players, not {players}")
    system = get_system("ret")
    store = open_store(str(db))
    seats = [
        SeatSpec("gm", "gm", "Gail"),
        SeatSpec("p1", "player", "Pat", "c1"),
        SeatSpec("p2", "player", "Quinn", "c2"),
    ]
    chars = {"c1": _in_play(sample_character(system, "Aria")), "c2": _in_play(sample_character(system, "Boris"))}
    made = create_table(
        store,
        "ret",
        seats[: players + 1],
        characters={cid: chars[cid] for cid in list(chars)[:players]},
        title=title,
    )
    gm = TableView(TableSession.join(store, made.table_id, made.tokens["gm"]), follow=False, animate=False)
    for cid in list(chars)[:players]:
        gm.bring_into_combat(cid)
    if foe is not None:
        gm.tracker.add_combatant(name=foe)
    gm.tracker.roll_initiative()
    gm.tracker.next_turn()
    gm.close()
    return store, made
