"""The shared test helpers (tests/helpers.py) do what the tests rely on."""

from __future__ import annotations

import asyncio

import pytest

from helpers import FixedRng, async_wait_until, seeded_random, wait_until


def test_wait_until_returns_the_first_true_answer_and_names_what_it_waited_for():
    answers = iter([0, None, "ready"])
    assert wait_until(lambda: next(answers), 5, "the answer") == "ready"
    with pytest.raises(AssertionError, match="waited 0.05 s for the moon to rise"):
        wait_until(lambda: False, 0.05, "the moon to rise")


def test_async_wait_until_lets_the_loop_run_while_it_waits():
    async def scenario():
        flag = asyncio.Event()
        asyncio.get_running_loop().call_later(0.05, flag.set)
        assert await async_wait_until(flag.is_set, 5, "the flag") is True
        with pytest.raises(AssertionError, match="waited 0.05 s for the sun"):
            await async_wait_until(lambda: None, 0.05, "the sun")

    asyncio.run(scenario())


def test_fixed_rng_scripts_the_dice_and_refuses_one_more():
    rng = FixedRng(6, 1)
    assert (rng.randint(1, 6), rng.randint(1, 20)) == (6, 1)
    with pytest.raises(AssertionError, match="more dice rolled than expected"):
        rng.randint(1, 6)


def test_seeded_random_prints_its_seed_and_replays(monkeypatch, capsys):
    monkeypatch.delenv("TABLETOP_TEST_SEED", raising=False)
    first = seeded_random(7).random()
    assert "random seed 7 (replay with TABLETOP_TEST_SEED=7)" in capsys.readouterr().out
    monkeypatch.setenv("TABLETOP_TEST_SEED", "7")
    assert seeded_random(99).random() == first  # the variable wins over the default
    assert "TABLETOP_TEST_SEED=7" in capsys.readouterr().out
