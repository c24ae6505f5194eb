"""Issue 21: big rolls at a table. ``10000d10`` and ``3000d6`` (the notation allows 10,000 dice)
are stored packed, reach the other seat as a bounded summary, and ``verify`` still checks every
die against the seed: it fails when one die is changed in the stored payload, even when the
attacker recomputes the hash chain. On SQLite and on PostgreSQL (the ``store`` fixtures)."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from tabletop_widgets.dice import DiceError, roll as dice_roll
from tabletop_widgets.table import PlayError, SeatSpec, TableSession, create_table, verify_table
from tabletop_widgets.table.events import MAX_PAYLOAD_BYTES
from tabletop_widgets.table.fairdice import rng_for
from tabletop_widgets.table.records import (
    BIG_ROLL_DICE,
    PackError,
    StoredRoll,
    dice_html,
    is_packed,
    pack_result,
    summary_text,
    unpack_dice,
    unpack_result,
)
from tabletop_widgets.table.store import dumps

from .test_trust import rewrite_chain, sql


@pytest.fixture
def table(store, store_url, open_store_at, ret_sheet):
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c_bob")],
        characters={"c_bob": ret_sheet},
    )
    gm = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["gm"])
    bob = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["bob"])
    return made, gm, bob


def _values(data) -> list[int]:
    return [d["value"] for d in unpack_result(data)["dice"]]


@pytest.mark.parametrize(("expr", "n", "faces"), [("10000d10", 10_000, 10), ("3000d6", 3_000, 6)])
def test_a_big_roll_is_stored_shown_to_the_other_seat_and_verified(table, store, store_url, backend, expr, n, faces):
    made, gm, bob = table
    event = gm.roll(expr, label="Swarm")
    # stored: packed, well under the payload limit, every die there
    stored = store.events(made.table_id, after_seq=event.seq - 1, limit=1)[0]
    assert stored.seq == event.seq
    assert len(dumps(stored.payload).encode()) < MAX_PAYLOAD_BYTES // 4
    assert is_packed(stored.payload["result"])
    values = _values(stored.payload["result"])
    assert len(values) == n and set(values) <= set(range(1, faces + 1))
    assert sum(values) == stored.payload["result"]["total"]
    # the text is bounded and says what a player needs: how many dice, each face's count, the total
    text = stored.payload["text"]
    assert len(text) < 400
    assert f"{n:,} dice" in text and text.endswith(f"= {sum(values)}")
    assert f"{faces}×{values.count(faces):,}" in text
    # shown to the other seat: bob's kernel gets the roll and reads the same dice
    got = bob.poll()
    assert [e.seq for e in got] == [event.seq]
    entry = bob.state.log[-1]
    assert entry["total"] == sum(values) and entry["label"] == "Swarm"
    shown = StoredRoll(entry["result"])
    assert shown.big and len(shown.dice) == n and [d.value for d in shown.dice] == values
    assert "кубиков" in shown.text("ru") and str(sum(values)) in shown.text("ru")
    # the seat reloading its page rebuilds the same state (a snapshot round-trips packed dice)
    bob.snapshot()
    again = TableSession.join(bob.store, made.table_id, made.tokens["bob"])
    assert again.state.log[-1]["result"] == entry["result"]
    # verify: every die replayed against the seed
    gm.close_table()
    seed = bytes.fromhex(store.get_table(made.table_id).seed)
    fresh = dice_roll(expr, rng=rng_for(seed, event.roll))
    assert [d.value for d in fresh.dice] == values
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.problems
    assert rep.checked == 1


def _change_one_die(payload: dict, at: int) -> dict:
    """The stored payload with die number ``at`` turned to another face (repacked as the table
    would pack it, so the packed form itself stays readable)."""
    forged = json.loads(json.dumps(payload))
    packed = forged["result"]["dice"]
    width = packed["width"]
    raw = bytearray(zlib.decompress(base64.b64decode(packed["values"])))
    old = int.from_bytes(raw[at * width : (at + 1) * width], "little")
    raw[at * width : (at + 1) * width] = (old + 1 if old == 0 else old - 1).to_bytes(width, "little")
    packed["values"] = base64.b64encode(zlib.compress(bytes(raw), 9)).decode("ascii")
    return forged


@pytest.mark.parametrize("expr", ["10000d10", "3000d6"])
def test_verify_fails_when_one_die_is_changed_in_the_stored_payload(table, store, store_url, backend, expr):
    made, gm, bob = table
    gm.roll("1d20")
    event = gm.roll(expr)
    gm.close_table()
    assert verify_table(store, made.table_id).ok
    at = 1234
    forged = _change_one_die(dict(event.payload), at)
    assert _values(forged["result"])[at] != _values(event.payload["result"])[at]
    sql(store_url, backend, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), event.seq))
    rep = verify_table(store, made.table_id)
    assert not rep.ok
    assert any("chain hash does not match" in p for p in rep.problems)
    # the skilled attacker recomputes the chain: the dice replay alone still finds the one die
    rewrite_chain(store_url, backend, made.table_id)
    rep = verify_table(store, made.table_id)
    assert not rep.ok
    assert len(rep.problems) == 1, rep.problems
    assert f"result.dice[{at}].value" in rep.problems[0] and "does not match the seed" in rep.problems[0]


def test_verify_reports_damaged_packed_dice(table, store, store_url, backend):
    made, gm, bob = table
    event = gm.roll("500d6")
    gm.close_table()
    forged = json.loads(json.dumps(event.payload))
    forged["result"]["dice"]["values"] = "not base64 at all!"
    sql(store_url, backend, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), event.seq))
    rewrite_chain(store_url, backend, made.table_id)
    rep = verify_table(store, made.table_id)
    assert not rep.ok and "cannot be read" in rep.problems[0]


@pytest.mark.parametrize("expr", ["10001d6", "5000d6+5001d10"])
def test_past_the_limit_a_player_reads_what_to_change(table, store, expr):
    made, gm, bob = table
    before = store.head(made.table_id)
    with pytest.raises(DiceError) as info:
        bob.roll(expr)
    err = info.value
    for locale, word in (("en", "too many dice"), ("ru", "слишком много кубиков")):
        text = err.text(locale)
        assert word in text and "10" in text  # what is wrong and the limit
        assert "payload" not in text and "bytes" not in text  # no engineer's words
    assert store.head(made.table_id) == before  # refused before any die: nothing written


@pytest.mark.parametrize("expr", ["100#101d6", "9990d6!"])
def test_past_the_limit_while_rolling_says_so(table, store, expr):
    made, gm, bob = table
    with pytest.raises(PlayError) as info:
        for _ in range(30):  # exploding dice pass the limit only when enough of them explode
            bob.roll(expr)
    err = info.value
    assert err.code == "roll_too_many_dice"
    assert "more than 10,000 dice" in err.text("en") and "smaller parts" in err.text("en")
    assert "больше 10\u00a0000 кубиков" in err.text("ru") and "по частям" in err.text("ru")
    for locale in ("en", "ru"):
        assert "payload" not in err.text(locale) and "negative" not in err.text(locale)
    # the dice were drawn: the attempt spends its index and is recorded (verify replays it)
    assert bob.state.log[-1]["failed"] is True
    gm.close_table()
    assert verify_table(store, made.table_id).ok


# -- the packed form itself ---------------------------------------------------------------------
def test_small_rolls_are_stored_as_before():
    data = dice_roll("3d6", seed=1).to_json()
    assert pack_result(data) == data and not is_packed(data)
    data = dice_roll(f"{BIG_ROLL_DICE}d6", seed=1).to_json()
    assert pack_result(data) == data


@pytest.mark.parametrize(
    "expr", ["10000d1000000", "3000d6kh10", "5000d6+5000d8", "300d20", "200dF", "300d6>=5", "50#200d6", "400d6!"]
)
def test_packing_gives_back_every_die(expr):
    data = json.loads(json.dumps(dice_roll(expr, seed=7).to_json()))
    packed = pack_result(data)
    assert is_packed(packed) and len(dumps(packed)) < MAX_PAYLOAD_BYTES
    back = unpack_result(packed)

    def dice(d):
        return [x for sub in d.get("results") or [d] for x in sub["dice"]]

    assert dice(back) == dice(data)
    assert {k: v for k, v in back.items() if k not in ("text", "results", "dice")} == {
        k: v for k, v in data.items() if k not in ("text", "results", "dice")
    }
    assert len(summary_text(packed, "en")) < 20_000 and len(summary_text(packed, "ru")) < 20_000


def test_summary_counts_kept_and_dropped_in_both_languages():
    data = pack_result(dice_roll("3000d6kh10", seed=3).to_json())
    assert "3,000 dice, 10 kept, 2,990 dropped" in summary_text(data, "en")
    assert "3\u00a0000 кубиков, оставлено 10, отброшено 2\u00a0990" in summary_text(data, "ru")
    html = dice_html(data, "en")
    assert html.count("<s>") == 2990


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.update(count=20_000),
        lambda p: p.update(width=3),
        lambda p: p.update(format="other/1"),
        lambda p: p.update(faces=[[6, 5]]),
        lambda p: p.update(values=base64.b64encode(zlib.compress(b"\0" * 10_000_000)).decode()),
        lambda p: p.update(flags="@@@"),
    ],
)
def test_damaged_packed_dice_raise_a_clear_error(damage):
    packed = pack_result(dice_roll("300d6", seed=1).to_json())["dice"]
    damage(packed)
    with pytest.raises(PackError):
        unpack_dice(packed)
