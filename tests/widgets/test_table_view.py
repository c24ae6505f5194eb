"""TableView without a browser: a GM and players on one store (separate sessions and store
connections, as separate Voila kernels would have), driven by clicks and forged front-end
messages (with the 'buffers' key, notes-jupyter §1.1). Followers are polled by hand."""

from __future__ import annotations

import html
import json

import ipywidgets as widgets
import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.table import SeatError, SeatSpec, TableSession, open_store
from tabletop_widgets.table.lobbykey import prepare_lobby_key
from tabletop_widgets.widgets.lobby import Lobby, sample_character
from tabletop_widgets.table.audience import PLAYERS, project_combat, secret_combatants
from tabletop_widgets.widgets.table_view import TableView, seat_error_page
from helpers import SeatPages, frontend_click, frontend_update

SYSTEMS = available_systems()
SECRET_EXPR = "1d1+918273640"  # total 918273641: a number that appears nowhere else
SECRET_NPC = "Zzyzxogre"


def tree(widget) -> list[widgets.Widget]:
    """Every widget reachable from ``widget`` (children, and widget-valued traits)."""
    seen: dict[int, widgets.Widget] = {}
    stack = [widget]
    while stack:
        w = stack.pop()
        if id(w) in seen or not isinstance(w, widgets.Widget):
            continue
        seen[id(w)] = w
        for name in w.keys:
            value = getattr(w, name, None)
            if isinstance(value, widgets.Widget):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in value if isinstance(v, widgets.Widget))
    return list(seen.values())


def synced_text(widget) -> str:
    """All synced state of a view's widgets, as JSON text."""
    return json.dumps([w.get_state() for w in tree(widget)], default=str, ensure_ascii=False)


def classes(widget) -> set[str]:
    return {c for w in tree(widget) if isinstance(w, widgets.DOMWidget) for c in w._dom_classes}


class Table(SeatPages):
    def __init__(self, tmp_path, slug="ret"):
        self.system = get_system(slug)
        chars = {
            "c1": sample_character(self.system, "Aria").to_dict(),
            "c2": sample_character(self.system, "Boris").to_dict(),
        }
        seats = [
            SeatSpec("gm", "gm", "Gail"),
            SeatSpec("p1", "player", "Pat", "c1"),
            SeatSpec("p2", "player", "Quinn", "c2"),
            SeatSpec("o1", "observer", "Olga"),
        ]
        super().__init__(str(tmp_path / "table.db"), slug, seats, chars, title="Test table")


# ---------------------------------------------------------------------------------------------
# building: what each seat gets
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_system_renders_gm_and_player(tmp_path, slug):
    t = Table(tmp_path, slug)
    try:
        gm, p1 = t.view("gm"), t.view("p1")
        assert set(gm.models) == {"c1", "c2"} and len(gm.sheet_tabs.children) == 2
        assert list(p1.models) == ["c1"] and p1.sheet("c1").character is p1.models["c1"]
        assert gm.tray.checks and p1.tray.checks
        assert "tt-table-view" in gm._dom_classes and "tt-table-player" in p1._dom_classes
        check = p1.tray.checks[0].id
        result = p1.tray.roll_check(check)
        assert result is not None and p1.tray.last_error is None
        gm.session.poll()
        assert gm.roll_log.entries[-1].who == "Pat"
    finally:
        t.close()


def test_gm_only_widgets_are_not_built_for_players(table):
    gm, p1, obs = table.view("gm"), table.view("p1"), table.view("o1")
    gm_only = {
        "tt-gm-notes",
        "tt-hidden-roll",
        "tt-roll-for",
        "tt-combat-add",
        "tt-table-sheets",
        "tt-gm-seats",
        "tt-seat-reissue",
    }
    for key in ("notes", "tab_seats", "tab_sessions"):  # each built when its tab is first shown
        frontend_update(gm.tabs, selected_index=gm._tab_keys.index(key))
    assert gm_only <= classes(gm)
    assert not gm_only & classes(p1)
    assert not gm_only & classes(obs)
    assert p1.hidden_toggle is None and p1.notes_box is None and p1.combat_add is None
    assert obs.tray is None and not obs.sheets
    # a player's screen holds only their own sheet
    assert "Boris" not in synced_text(p1)


def test_locale_switches_the_whole_screen(table):
    gm = table.view("gm")
    gm.sheet("c1")  # built before the switch; c2 is built after it
    gm.locale = "ru"
    assert gm.tray.locale == gm.roll_log.locale == gm.tracker.locale == "ru"
    assert gm.sheet("c1").locale == gm.sheet("c2").locale == "ru"
    assert "Скрытый бросок" in gm.hidden_toggle.description
    frontend_update(gm.locale_toggle, index=0)
    assert gm.locale == "en" and gm.tracker.locale == "en"


# ---------------------------------------------------------------------------------------------
# the fair-dice proof every seat keeps, and seat links
# ---------------------------------------------------------------------------------------------
def test_every_seat_shows_the_full_commitment_and_its_head(table):
    from tabletop_widgets.table import verify_table

    gm, p1, obs = table.view("gm"), table.view("p1"), table.view("o1")
    commitment = gm.session.commitment
    assert len(commitment) == 64
    for view in (gm, p1, obs):
        assert f">{commitment}</code>" in view.commit.value
        assert f">{view.session.head}</code>" in view.commit.value and len(view.session.head) == 64
    before = p1.session.head
    p1.tray.roll("1d20")
    gm.session.poll()
    obs.session.poll()
    assert p1.session.head != before
    # everyone who received the roll shows the same head, and it is the one verify will accept
    assert gm.session.head == p1.session.head == obs.session.head
    for view in (gm, p1, obs):
        assert f">{view.session.head}</code>" in view.commit.value
    saved = p1.session.head
    gm.session.close_table()
    with open_store(table.path) as store:
        assert verify_table(store, table.made.table_id, commitment=commitment, head=saved).ok
        assert not verify_table(store, table.made.table_id, commitment=commitment, head="0" * 64).ok


def test_the_proof_is_folded_under_fair_dice_and_opens_when_a_session_turns(table):
    """Issue 32 item 11: "Dice commitment: 019ec…" and "Log checkpoint:" led every seat's
    header; they are for checking later, so they sit under a "Fair dice" fold, which opens by
    itself when a session ends or starts (the status line points at the key, or the new
    commitment)."""
    gm, p1 = table.view("gm"), table.view("p1")
    for view in (gm, p1):
        assert view.proof_toggle.description == "Fair dice" and not view.proof_toggle.value
        assert view.commit.layout.display == "none" and "Dice commitment" in view.commit.value
        assert "tt-proof-toggle" in view.proof_toggle._dom_classes
    frontend_update(p1.proof_toggle, value=True)
    assert p1.commit.layout.display is None
    p1.choose_locale("ru")
    assert p1.proof_toggle.description == "Честные кубики" and p1.commit.layout.display is None
    frontend_update(p1.proof_toggle, value=False)
    gm.session.end_session()
    p1.session.poll()
    assert p1.proof_toggle.value and p1.commit.layout.display is None  # the revealed key, in view
    assert "«Честных кубиках»" in p1.status.value


def test_a_hidden_roll_moves_the_gms_head_but_not_the_players(table):
    gm, p1 = table.view("gm"), table.view("p1")
    frontend_update(gm.hidden_toggle, value=True)
    gm.tray.roll("1d20")
    p1.session.poll()
    assert gm.session.head != p1.session.head
    assert gm.session.head not in synced_text(p1)


def test_gm_reissues_a_seat_link_from_the_table_page(table):
    gm, p1 = table.view("gm"), table.view("p1")
    assert "p1" in dict((v, k) for k, v in gm.seat_pick.options)
    assert "gm" not in [v for _k, v in gm.seat_pick.options]  # not the GM's own page
    frontend_update(gm.seat_pick, index=[v for _k, v in gm.seat_pick.options].index("p1"))
    frontend_click(gm.reissue_button)
    url = gm._new_link[1]
    assert f"table={table.made.table_id}" in url and "seat=" in url
    token = url.split("seat=", 1)[1]
    assert token != table.made.tokens["p1"]
    assert html.escape(url) in gm.new_link.value and "Pat — player" in gm.new_link.value
    # the new link joins as p1; the old one is refused
    with open_store(table.path) as store:
        assert TableSession.join(store, table.made.table_id, token).seat == "p1"
        with pytest.raises(SeatError):
            TableSession.join(store, table.made.table_id, table.made.tokens["p1"])
    # the page still open with the old link learns it, stops, and can no longer act
    p1.session.poll()
    assert p1.replaced
    assert "new link" in p1.status.value and "tt-msg" in p1.status.value
    p1.tray.roll("1d6")
    assert p1.tray.last_error is not None
    p1.locale = "ru"
    assert "новую ссылку" in p1.status.value


def test_a_players_sheet_load_cannot_set_a_gm_only_field(table):
    """Hole 3 through the real sheet: the player's JSON Load of a file that raises a GM-only
    field (RET's luck_max_override) is refused by the table; nothing is written, the sheet
    goes back to the table's values, and the player reads why."""
    p1 = table.view("p1")
    sheet = p1.sheet("c1")
    stored = dict(p1.session.state.characters["c1"])
    head = p1.session.store.head(table.made.table_id)
    forged = dict(sheet.character.to_dict(), luck_max_override=40)
    sheet.load_json(json.dumps(forged), "mine.json")
    assert p1.session.store.head(table.made.table_id) == head  # nothing written
    assert p1.session.state.characters["c1"] == stored
    assert p1.models["c1"].luck_max_override == stored.get("luck_max_override")
    assert "tt-msg" in p1.status.value and "GM" in p1.status.value
    # a file that changes only the player's own fields is taken
    sheet.load_json(json.dumps(dict(sheet.character.to_dict(), name="Aria Loaded")), "mine.json")
    assert p1.session.state.characters["c1"]["name"] == "Aria Loaded"


def test_a_player_cannot_reissue_links(table):
    p1 = table.view("p1")
    assert p1.seats_box is None
    assert p1.reissue_link("p2") is None
    assert "may not" in p1.status.value
    with pytest.raises(PermissionError):
        p1.session.reissue_seat("p2")


def test_bring_into_combat_offers_only_who_is_not_fighting(table):
    """Issue 32 item 9: the GM's picker left those already in the fight in its list (a second
    Aria in the tracker was one click away); it follows the fight, also when a combatant leaves
    it, and a forged pick of a fighter is refused with a reason."""
    gm = table.view("gm")
    pick, button = gm.gm_desk.combat_pick, gm.gm_desk.combat_add_button
    assert [cid for _label, cid in pick.options] == ["c1", "c2"] and not button.disabled
    gm.bring_into_combat("c1")
    assert [cid for _label, cid in pick.options] == ["c2"]
    frontend_click(button)  # Boris, the one left
    assert sorted(gm.tracker.combat.ids) == ["c1", "c2"]
    assert pick.options == () and button.disabled and "already" in button.tooltip
    before = list(gm.tracker.combat.ids)
    assert gm.bring_into_combat("c1") is None  # forged: Aria fights already
    assert gm.tracker.combat.ids == before and "in the fight already" in gm.status.value
    gm.tracker.combat.remove("c2")  # Boris leaves: he can be brought back
    assert [cid for _label, cid in pick.options] == ["c2"] and not button.disabled
    gm.choose_locale("ru")
    assert button.tooltip == "Добавить персонажа стола в трекер боя"


# ---------------------------------------------------------------------------------------------
# security: forged messages, hidden information
# ---------------------------------------------------------------------------------------------
def test_forged_gm_actions_in_a_players_view_are_refused(table):
    gm, p1 = table.view("gm"), table.view("p1")
    gm.bring_into_combat("c1")
    gm.tracker.add_combatant(name="Goblin")
    p1.session.poll()
    before = len(p1.session.events())
    tr = p1.tracker
    # toolbar buttons and the damage panel exist only hidden (players' tracker); a forged
    # click still reaches Python and must be refused there
    for button in (tr.next_button, tr.initiative_button, tr.end_button, tr.undo_button, tr.add_button):
        frontend_update(button, disabled=False)
        frontend_click(button)
    tr.selected = "c1"
    frontend_update(tr.amount, value=5)
    frontend_click(tr.damage_button)
    frontend_update(tr._rows["c1"].defeated, value=True)
    assert tr._rows["c1"].defeated.value is False  # sprang back
    assert len(p1.session.events()) == before  # nothing written
    assert tr.combat.round == 0
    # direct calls from a player's seat are refused too
    assert p1.add_note("forged") is None
    assert p1.bring_into_combat("c1") is None
    assert len(p1.session.events()) == before
    assert "not" in p1.status.value.lower()


def test_forged_edit_of_another_players_character_is_refused(table):
    p1 = table.view("p1")
    # the player's kernel has no model of c2; forging a change on a model it has is theirs only
    assert "c2" not in p1.models
    model = p1.models["c1"]
    name_before = table.session("gm").state.characters["c2"]["name"]
    p1.session.character_id  # noqa: B018 - their own seat
    # a player editing their own sheet is recorded
    trait = "name"
    model.name = "Aria the Bold"
    assert p1.session.state.characters["c1"][trait] == "Aria the Bold"
    assert table.session("gm").state.characters["c2"]["name"] == name_before


def test_hidden_gm_roll_never_reaches_a_player(table):
    gm, p1, obs = table.view("gm"), table.view("p1"), table.view("o1")
    frontend_update(gm.hidden_toggle, value=True)
    frontend_update(gm.tray.notation, value=SECRET_EXPR)
    frontend_click(gm.tray.roll_button)
    assert gm.tray.last_result is not None and gm.tray.last_result.total == 918273641
    assert "918273641" in synced_text(gm.roll_log)
    assert gm.roll_log.entries[-1].what["en"].startswith("[hidden] ")
    frontend_update(gm.hidden_toggle, value=False)
    gm.tray.roll("1d1+7")  # a public roll after it
    for view in (p1, obs):
        view.session.poll()
        text = synced_text(view)
        assert "918273640" not in text and "918273641" not in text
        assert "8" in view.roll_log.entries[-1].text()
        assert len(view.roll_log.entries) == 1
        assert all("918273641" not in json.dumps(e) for e in view.session.state.log)
    # nothing anywhere in this process's player widgets either (the GM's are in the same
    # process here, so look at the player's tree only) — and a fresh player kernel:
    fresh = table.view("p1")
    assert "918273641" not in synced_text(fresh)


def test_hidden_combatant_never_reaches_a_player(table):
    gm, p1 = table.view("gm"), table.view("p1")
    gm.bring_into_combat("c1")
    gm.tracker.add_combatant(name=SECRET_NPC, hidden=True)
    gm.tracker.add_combatant(name="Goblin")
    gm.tracker.roll_initiative()
    while gm.tracker.combat.current != SECRET_NPC.lower():
        gm.tracker.next_turn()
    p1.session.poll()
    text = synced_text(p1)
    assert SECRET_NPC not in text and SECRET_NPC.lower() not in text
    assert SECRET_NPC not in json.dumps(p1.session.state.combat)
    assert p1.tracker.combat.round == gm.tracker.combat.round
    assert "?" in p1.tracker.round_label.value
    assert SECRET_NPC in synced_text(gm.tracker)


def test_public_combat_drops_secret_ids_and_names():
    from tabletop_widgets.core.combat import Combat

    system = get_system("ret")
    combat = Combat(system)
    combat.add("hero", system.Character(name="Hero"))
    combat.add("spy", system.Character(name="Spy"), hidden=True)
    combat.roll_initiative()
    combat.next_turn()
    combat.set_hidden("spy", False)
    combat.set_hidden("spy", True)
    combat.remove("spy")
    assert secret_combatants(combat) == {"spy"}
    assert "spy" not in json.dumps(project_combat(combat, PLAYERS)).lower()


def test_no_or_wrong_token_gives_a_clear_page(table):
    for query in ("", f"table={table.made.table_id}", f"table={table.made.table_id}&seat=wrong"):
        with pytest.raises(SeatError) as err:
            TableSession.from_query(query, store=open_store(table.path))
        page = seat_error_page(err.value)
        assert "tt-seat-error" in page.value and "GM" in page.value
        assert "Test table" not in page.value


# ---------------------------------------------------------------------------------------------
# following the table and reloading
# ---------------------------------------------------------------------------------------------
def test_roll_damage_and_turn_reach_the_others(table):
    gm, p1, p2 = table.view("gm"), table.view("p1"), table.view("p2")
    gm.bring_into_combat("c1")
    gm.bring_into_combat("c2")
    gm.tracker.roll_initiative()
    # a player's roll
    p1.tray.roll("2d6+1")
    # a damage to Pat's character, by the GM's tracker
    hp_before = table.system.health(p1.models["c1"])[0]
    gm.tracker.damage("c1", 2)
    # a turn advance
    gm.tracker.next_turn()
    for view in (gm, p2, p1):
        view.session.poll()
    rolled = [x for x in p2.roll_log.entries if "2d6+1" in x.text()]
    assert [x.who for x in rolled] == ["Pat"] and [x.who for x in gm.roll_log.entries if "2d6+1" in x.text()] == ["Pat"]
    # the fight is in every seat's log too, in the tracker's words (issue 30): the damage, the turn
    fight = [x.text() for x in p2.roll_log.entries if x.who == "Gail"]
    assert any("damage 2" in line for line in fight) and any("turn:" in line for line in fight)
    assert table.system.health(p1.models["c1"])[0] < hp_before  # Pat's own sheet
    assert table.system.health(gm.models["c1"])[0] < hp_before  # the GM's sheet
    for view in (p1, p2):
        assert view.tracker.combat.round == 1
        assert view.tracker.combat.current == gm.tracker.combat.current
        assert "tt-current" in view.tracker._rows[gm.tracker.combat.current].box._dom_classes


def test_a_reload_rebuilds_the_same_screen(table):
    gm, p1 = table.view("gm"), table.view("p1")
    gm.bring_into_combat("c1")
    gm.tracker.add_combatant(name="Goblin")
    gm.tracker.roll_initiative()
    gm.tracker.next_turn()
    gm.tracker.damage("goblin", 3)
    gm.add_note("The goblin has the key", "Key")
    p1.tray.roll("1d20")
    gm.tray.roll("1d4")
    for v in (gm, p1):
        v.session.poll()
    gm2, p2 = table.view("gm"), table.view("p1")
    assert gm2.tracker.combat.state() == gm.tracker.combat.state()
    assert gm2.tracker.combat.can_undo
    assert [e.text() for e in gm2.roll_log.entries] == [e.text() for e in gm.roll_log.entries]
    assert [e.text() for e in p2.roll_log.entries] == [e.text() for e in p1.roll_log.entries]
    assert p2.tracker.combat.state() == p1.tracker.combat.state()
    assert "The goblin has the key" in gm2.notes_list.value
    assert gm2.models["c1"].to_dict() == gm.models["c1"].to_dict()
    # undo after a reload is recorded like any action
    gm2.tracker.undo()
    p1.session.poll()
    view = gm2.sync.public_view()["state"]
    assert p1.tracker.combat.order == view["order"] and p1.tracker.combat.round == view["round"]
    assert "goblin" in p1.tracker.combat
    assert table.system.health(p1.tracker.combat.character("goblin")) == table.system.health(
        gm2.tracker.combat.character("goblin")
    )


def test_check_effects_reach_the_sheet_and_the_log(table):
    p1 = table.view("p1")
    gm = table.view("gm")
    rolled = [spec.id for spec in p1.tray.checks if p1.tray.roll_check(spec.id) is not None]
    assert rolled
    gm.session.poll()
    assert gm.models["c1"].to_dict() == p1.models["c1"].to_dict()
    assert len(gm.roll_log.entries) == len(rolled) == len(p1.roll_log.entries)


def test_sheet_edit_is_shared_and_a_refused_edit_springs_back(table):
    gm, p1 = table.view("gm"), table.view("p1")
    gm.models["c2"].name = "Boris the Red"
    p1.session.poll()
    assert p1.session.state.characters["c2"]["name"] == "Boris the Red"
    # the table closes: every edit is refused and the model goes back
    gm.session.close_table()
    p1.session.poll()
    p1.models["c1"].name = "Changed"
    assert p1.models["c1"].name == "Aria"
    assert "closed" in p1.status.value.lower() or "refused" in p1.status.value.lower()


def test_lobby_creates_a_table_with_working_links(tmp_path):
    store = open_store(str(tmp_path / "lobby.db"))
    lobby = Lobby(store, base="http://x/voila/render/table.ipynb")
    lobby_key = prepare_lobby_key(store)  # the server's lobby key
    frontend_update(lobby.key, value=lobby_key)
    frontend_update(lobby.players, value=3)
    frontend_update(lobby.observers, value=1)
    frontend_update(
        lobby.system, index=lobby.system.options.index(next(o for o in lobby.system.options if o[1] == "seasons"))
    )
    frontend_click(lobby.create_button)
    made = lobby.created
    assert made is not None and len(made.tokens) == 5
    assert lobby.links.value.count('href="http://x/voila/render/table.ipynb?table=') == 5
    s = TableSession.join(store, made.table_id, made.tokens["p2"])
    assert s.role == "player" and s.character_id == "c2" and s.system.slug == "seasons"
    assert s.state.characters["c2"]["name"] == "Boris"
    lobby.locale = "ru"
    assert "Ссылки мест" in lobby.links.value
    # empty names are refused with a message, nothing created
    lobby.key.value = lobby_key
    lobby.seat_rows[0][0].value = ""
    lobby.created = None
    assert lobby.create() is None and 'role="alert"' in lobby.error.value and lobby.created is None
    store.close()


def test_a_second_gm_tab_follows_the_combat(table):
    gm1, gm2 = table.view("gm"), table.view("gm")
    gm1.bring_into_combat("c1")
    gm1.tracker.add_combatant(name="Goblin")
    gm1.tracker.roll_initiative()
    gm1.tracker.next_turn()
    gm2.session.poll()
    assert gm2.tracker.combat.state() == gm1.tracker.combat.state()
    # and the other way round: gm2 acts, gm1 follows
    gm2.tracker.next_turn()
    gm1.session.poll()
    assert gm1.tracker.combat.current == gm2.tracker.combat.current
    assert gm1.tracker.combat.state() == gm2.tracker.combat.state()


def test_the_follower_task_updates_the_view_without_interaction(table):
    import asyncio

    async def run():
        p2 = TableView(table.session("p2"), animate=False)  # follow=True: the task
        assert p2.task is not None
        writer = table.session("p1")
        writer.roll("1d1+41")
        for _ in range(50):
            await asyncio.sleep(0.05)
            if p2.roll_log.entries:
                break
        p2.close()
        return [e.text() for e in p2.roll_log.entries]

    # a fresh loop in a thread of its own: Playwright's sync API (browser tests earlier in the
    # same session) keeps an event loop running on the main thread, where asyncio.run() refuses
    import threading

    out: dict = {}

    def in_thread():
        try:
            out["texts"] = asyncio.run(run())
        except BaseException as exc:  # re-raised below, in the test's thread
            out["error"] = exc

    t = threading.Thread(target=in_thread)
    t.start()
    t.join(timeout=60)
    if "error" in out:
        raise out["error"]
    texts = out.get("texts")
    assert texts and "42" in texts[-1]


def test_observer_sees_the_public_table_only(table):
    gm, obs = table.view("gm"), table.view("o1")
    gm.add_note("secret plan")
    gm.tray.roll("1d1+1")
    obs.session.poll()
    assert len(obs.roll_log.entries) == 1
    assert "secret plan" not in synced_text(obs)
    assert obs.tabs is None and obs.tray is None
    assert obs.add_note("forged") is None


@pytest.mark.parametrize("slug", SYSTEMS)
def test_public_combat_never_names_a_hidden_combatant(slug):
    """Many random GM actions: the players' projection never holds a hidden name or id."""
    import random
    from tabletop_widgets.core.combat import Combat
    from tabletop_widgets.core.problems import RuleError

    system = get_system(slug)
    rng = random.Random(7)
    combat = Combat(system, rng=random.Random(1))
    for name in ("Hero", "Ally"):
        combat.add(None, system.Character(), name=name)
    combat.add("qqspy", system.Character(), name="Qqspy", hidden=True)
    actions = [
        lambda: combat.next_turn(),
        lambda: combat.roll_initiative(),
        lambda: combat.damage(rng.choice(combat.ids), 1),
        lambda: combat.delay(),
        lambda: combat.set_hidden("qqspy", True) if "qqspy" in combat else None,
        lambda: combat.previous_turn(),
        lambda: combat.undo(),
    ]
    for _ in range(60):
        try:
            rng.choice(actions)()
        except (RuleError, ValueError, KeyError):
            pass
        text = json.dumps(project_combat(combat, PLAYERS)).lower()
        assert "qqspy" not in text
