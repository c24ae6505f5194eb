"""The GM's combat at a shared table, kept in step with the log (no widgets).

The combat tracker is shared as ``combat.state`` events the GM writes, one action at a time:
the GM's copy carries the Combat event itself (a GM kernel rebuilds the tracker by replaying
them: :meth:`CombatSync.replay`), the players' copy is the audience projection of the Combat
after it (:func:`~tabletop_widgets.table.audience.project_combat`), written only when it shows
something new (a hidden combatant's turn sends players nothing, so not even the event count
tells them something happened).

Initiative is dice, so it uses the table's fair dice: the GM's Combat is a :class:`TableCombat`
whose ``roll_initiative`` goes through :meth:`CombatSync.roll_initiative`. In one write
transaction the session takes the next roll index, records an ``initiative`` outcome event
(``verify`` re-rolls it from the seed), and the Combat rolls with the same index's stream,
checked to give the same outcome; its ``combat.state`` events go out in that transaction.

Characters: table characters in the combat take their values from the table
(:func:`push_characters`: sheet edits reach the tracker), and values the combat changed
(damage, healing, undo) are recorded as character updates (:meth:`CombatSync.pull_characters`).

Building the combat writes nothing: a GM page (or the resolver) that opens while the log holds
changes no page of the GM's has seen (a player renamed their character) rebuilds the same combat
as any other, and a write refused while it builds cannot send it round again.

Another writer's action (the resolver rolled a player's attack, another GM window moved the turn)
reaches this combat as the next event of its log when it is one (:meth:`CombatSync.follow`),
else the combat is rebuilt from the log.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping

from ..core.combat import Combat
from ..core.i18n import T
from ..core.problems import RuleError
from .attack_desk import AttackDesk
from .audience import COMBAT_FORMAT, PLAYERS, project_combat, same_view, secret_combatants
from .events import EventError, jsonable, norm
from .kinds import COMBAT_STATE
from .rules import check_text
from .seats import PermissionDenied
from .store import AUDIENCE_ALL, AUDIENCE_GM

log = logging.getLogger(__name__)


class TableCombat(Combat):
    """The GM's Combat at a shared table: the actions that roll dice (``roll_initiative``, the
    actions that start or end a turn, ``attack``) go through its table (a :class:`CombatSync`:
    the table's fair dice, the defender's seat asked). Without a table it is a plain Combat.
    Replaying events never rolls, so replay is unchanged."""

    def __init__(self, system, *, table: "CombatSync | None" = None, rng=None):
        super().__init__(system, rng=rng)
        self.table = table

    def add_table_character(self, character_id: str, *, hidden: bool = False) -> dict:
        """Bring the table's character ``character_id`` into the fight (as the GM page's "Bring
        into combat" does): its sheet as the table holds it, under its name."""
        if self.table is None:
            raise RuleError("no_table", T("This fight is not at a table.", "Этот бой идёт не за столом."))
        character, name = self.table.table_character(character_id)
        return self.add(character_id, character, name=name, hidden=hidden)

    def next_turn(self) -> dict:
        return super().next_turn() if self.table is None else self.table.turn("next")

    def delay(self) -> dict:
        return super().delay() if self.table is None else self.table.turn("delay")

    def act_now(self, cid: str) -> dict:
        return super().act_now(cid) if self.table is None else self.table.turn("act_now", cid)

    def turn_plain(self, action: str, *args: Any) -> dict:
        """The Combat's own ``next_turn``, ``delay`` or ``act_now`` (the actions that start or
        end a turn, so call ``system.on_turn``) with this Combat's ``rng``: the table sets it to
        the fair stream of the turn's roll index."""
        plain = {"next": super().next_turn, "delay": super().delay, "act_now": super().act_now}
        return plain[action](*args)

    def attack(self, attacker_id: str, target_id: str, attack_id: str, **options: Any) -> dict | None:
        """At a table: rolled with the fair dice, or None while the defender's seat is asked."""
        if self.table is None:
            return super().attack(attacker_id, target_id, attack_id, **options)
        return self.table.attacks.attack(attacker_id, target_id, attack_id, options)

    def roll_initiative(self, ids=None, **options: Any) -> dict:
        if self.table is None:
            return super().roll_initiative(ids, **options)
        return self.table.tracker_initiative(ids, options)

    def roll_initiative_with(self, rng, ids=None, **options: Any) -> dict:
        """Roll with ``rng`` (the table's stream for this roll index) instead of ``self.rng``."""
        saved = self.rng
        self.rng = rng
        try:
            return super().roll_initiative(ids, **options)
        finally:
            self.rng = saved


def character_changes(stored: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The traits of ``values`` (a ``to_dict()``) that differ from the table's ``stored`` ones."""
    now = jsonable(dict(values))
    return {k: v for k, v in now.items() if k not in ("system", "schema") and stored.get(k) != v}


def push_characters(session, combat: Combat) -> bool:
    """Table characters in ``combat`` take the values this seat holds for them (its sheet
    edits, the GM's updates). Returns whether anything changed."""
    changed = False
    for cid in combat.ids:
        data = session.state.characters.get(cid)
        if data is None:
            continue
        ch = combat.character(cid)
        if jsonable(ch.to_dict()) == data:
            continue
        try:
            ch.load_dict(data)
            changed = True
        except ValueError:
            log.exception("character %s does not load into the combat", cid)
    return changed


def record_sheet(session, character_id: str, values: Mapping[str, Any], reason: Any = "sheet"):
    """A sheet (or a rule acting on the model) changed a character: record what differs from
    the table (role, GM fields, limits checked by the session). Returns the event or None."""
    diff = character_changes(session.state.characters.get(character_id, {}), values)
    if not diff:
        return None
    return session.update_character(character_id, diff, reason=reason)


class CombatSync:
    """The GM's :class:`TableCombat` and its writes. ``on_reload(combat)`` is called when the
    combat had to be rebuilt from the log (a refused write, another GM window's action);
    ``on_refused(error)`` when a tracker action was refused (without it, the error is raised)."""

    def __init__(
        self,
        session,
        *,
        on_reload: Callable[[Combat], None] | None = None,
        on_refused: Callable[[BaseException], None] | None = None,
    ):
        session.require("combat")
        self.session = session
        self.system = session.system
        self.on_reload = on_reload
        self.on_refused = on_refused
        self.locale = "en"  # of the texts written (the initiative line)
        self.writing = False
        self._reloading = False
        self.last_public: dict | None = None
        self.attacks = AttackDesk(self)
        self.combat = self.replay()

    # -- the log -------------------------------------------------------------------------------
    def replay(self) -> TableCombat:
        """A fresh Combat from the GM events in the log (and the last projection players got)."""
        events, last_public = [], None
        tracked = self.session.state.combat_events  # kept by the state: no read of the whole log
        if tracked is not None:
            events = [dict(ev) for ev in tracked]
            last_public = dict(self.session.state.combat_public) if self.session.state.combat_public else None
        for e in self.session.events() if tracked is None else ():
            if e.kind != "combat.state":
                continue
            st = e.payload.get("state") or {}
            if e.audience == AUDIENCE_GM and st.get("format") == COMBAT_FORMAT and isinstance(st.get("event"), Mapping):
                events.append(dict(st["event"]))
            elif e.audience == AUDIENCE_ALL:
                last_public = dict(st)
        self.writing = True  # nothing here is recorded: the log already holds it
        try:
            combat = TableCombat(self.system, table=self)
            for ev in events:
                try:
                    combat.apply(ev)
                except Exception:
                    log.exception("combat event %s does not apply", ev.get("seq"))
            combat.observe(self._on_event)
            push_characters(self.session, combat)
        finally:
            self.writing = False
        self.last_public = last_public
        return combat

    def reload(self) -> TableCombat:
        """The combat rebuilt from the log (a refused write, another writer's action)."""
        if self._reloading:  # a reload's own trouble never starts another
            return self.combat
        self._reloading = True
        try:
            self.combat = self.replay()
        finally:
            self._reloading = False
        if self.on_reload is not None:
            self.on_reload(self.combat)
        return self.combat

    def follow(self, events) -> bool:
        """Another writer's GM ``combat.state`` events (the resolver rolled a player's attack,
        another GM window acted): each that is the next event of this combat's log is applied
        (the tracker redraws, nothing is rebuilt); anything else rebuilds the combat from the
        log. Returns whether the combat changed."""
        changed = False
        for e in events:
            if not (COMBAT_STATE.name == e.kind and e.audience == AUDIENCE_GM) or self.is_own(e):
                continue
            st = COMBAT_STATE.read(e.payload).state or {}
            ev = st.get("event")
            if st.get("format") == COMBAT_FORMAT and isinstance(ev, dict) and ev.get("seq") == len(self.combat.events):
                self.writing = True
                try:
                    self.combat.apply(ev)
                except Exception:
                    log.exception("a followed combat event does not apply: rebuilding")
                    self.writing = False
                    self.reload()
                    return True
                finally:
                    self.writing = False
                self.last_public = dict(self.session.state.combat_public) if self.session.state.combat_public else None
            else:
                self.reload()
                return True
            changed = True
        if changed:
            with self.quietly():
                push_characters(self.session, self.combat)
        return changed

    def quietly(self):
        """A context in which what the combat applies is not recorded (it came from the log)."""
        import contextlib

        @contextlib.contextmanager
        def quiet():
            was, self.writing = self.writing, True
            try:
                yield
            finally:
                self.writing = was

        return quiet()

    def is_own(self, e) -> bool:
        """Whether a GM ``combat.state`` event is one this combat has applied already (its own
        action, written through this page, whoever it acted for)."""
        st = COMBAT_STATE.read(e.payload).state or {}
        ev = st.get("event") if isinstance(st.get("event"), dict) else {}
        mine = self.combat.events
        seq = ev.get("seq")
        return isinstance(seq, int) and 0 <= seq < len(mine) and mine[seq] == ev

    # -- what players get ----------------------------------------------------------------------
    def shared_ids(self) -> set[str]:
        """Combatants that are table characters every seat sees (players hold their sheets)."""
        st = self.session.state
        return {
            cid
            for cid in self.combat.ids
            if cid in st.characters and self.session.character_audience(cid) == AUDIENCE_ALL
        }

    def public_view(self) -> dict:
        return project_combat(self.combat, PLAYERS, shared=self.shared_ids())

    # -- writing -------------------------------------------------------------------------------
    def _on_event(self, event: dict) -> None:
        if self.writing:
            return
        try:
            self.record(event)
        except REFUSALS + (ValueError,) as exc:
            if self.on_refused is None:
                raise
            self.on_refused(exc)

    def tracker_initiative(self, ids, options: dict) -> dict | None:
        """The combat's ``roll_initiative`` at the table: :meth:`roll_initiative`, a refusal
        shown (``on_refused``) rather than raised when the page says how."""
        try:
            return self.roll_initiative(ids, options)
        except REFUSALS as exc:
            if self.on_refused is None:
                raise
            self.on_refused(exc)
            return None

    def turn(self, action: str = "next", *args: Any) -> dict | None:
        """The combat's actions that start or end a turn, at the table (their effects rolled with
        the fair dice: :meth:`.attack_desk.AttackDesk.next_turn`)."""
        try:
            return self.attacks.next_turn(action, *args)
        except REFUSALS as exc:
            if self.on_refused is None:
                raise
            self.on_refused(exc)
            return None

    def record(self, event: dict) -> None:
        """Record an action the Combat applied (with the players' projection when it changed).
        A refusal rebuilds the Combat from the log (``on_reload``) and raises."""
        if self._reloading:
            return
        try:
            for key in ("name",):
                check_text("name", event.get(key))
            public = self.public_view()
            changed = not same_view(public, self.last_public)
            self.session.set_combat({"format": COMBAT_FORMAT, "event": event}, public=public, public_changed=changed)
        except Exception:
            self.reload()
            raise
        self.last_public = public
        self.pull_characters(reason={"combat": event.get("type")})

    def pull_characters(self, reason: Any = None) -> None:
        """Table characters in the combat whose values the combat changed are recorded as
        character updates (seen by whoever sees the character)."""
        st = self.session.state
        for cid in self.combat.ids:
            if cid in st.characters:
                record_sheet(self.session, cid, self.combat.character(cid).to_dict(), reason=reason)

    def table_character(self, character_id: str) -> tuple[Any, str]:
        """``(Character, name)`` of a table character, to bring into the combat."""
        data = self.session.state.characters.get(character_id)
        if data is None:
            raise RuleError(
                "unknown_character",
                T(f"No character {character_id!r} at this table.", f"За столом нет персонажа {character_id!r}."),
            )
        return self.system.Character.from_dict(data), str(data.get("name") or character_id)

    def roll_initiative(self, ids, options: dict, *, locale: str | None = None) -> dict:
        """Roll initiative for ``ids`` (default: the whole order) with the table's fair dice:
        the session's ``initiative`` event and this Combat's outcome come from the same roll
        index's stream, in one write transaction. Returns the Combat's event."""
        self.session.require("combat")
        combat = self.combat
        ids = list(combat.order if ids is None else ids)
        for cid in ids:
            if cid not in combat:
                raise RuleError("unknown_combatant", T(f"No combatant {cid!r}.", f"Нет участника {cid!r}."))
        if not ids:
            raise RuleError("nobody", T("Nobody to roll initiative for.", "Некому бросать инициативу."))
        characters = {cid: jsonable(combat.character(cid).to_dict()) for cid in ids}
        hidden = bool(set(ids) & secret_combatants(combat))
        names = {cid: combat.name(cid) for cid in ids}
        rolled: dict[str, Any] = {}

        def in_combat(rng, outcome):
            self.writing = True
            try:
                event = combat.roll_initiative_with(rng, ids, **options)
            finally:
                self.writing = False
            rolled["event"] = event
            got = event.get("rolls") or {}
            same = (
                sorted(got) == sorted(outcome["rolls"])
                and all(
                    norm(got[c].get("key")) == outcome["rolls"][c]["key"]
                    and norm(got[c].get("text")) == outcome["rolls"][c]["text"]
                    for c in got
                )
                and norm(event.get("tiebreaks") or []) == outcome["tiebreaks"]
            )
            if not same:
                raise RuntimeError(
                    "the tracker's initiative differs from the table's fair roll "
                    "(the system's roll_initiative is not deterministic given its rng)"
                )
            public = self.public_view()
            rolled["public"] = public
            return {"format": COMBAT_FORMAT, "event": event}, public

        try:
            self.session.roll_initiative(
                characters, options=options, hidden=hidden, combat=in_combat, names=names, locale=locale or self.locale
            )
        except Exception:
            if "event" in rolled:  # the Combat moved but nothing was written: back to the log
                self.reload()
            raise
        self.last_public = rolled.get("public")
        self.pull_characters(reason={"combat": "initiative"})
        return rolled["event"]


REFUSALS = (PermissionDenied, EventError, RuntimeError)

__all__ = ["CombatSync", "REFUSALS", "TableCombat", "character_changes", "push_characters", "record_sheet"]
