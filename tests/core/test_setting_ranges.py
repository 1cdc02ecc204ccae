"""Every number setting of every agent kind has a range, checked when the spec is read:
a value outside it (`inf`, `1e308`, a huge count, a seed past 64 bits, more memory
than the machine has) is a BadSetting in one line, never accepted and never a
traceback later."""
from __future__ import annotations

import math

import pytest

from plyground.core.agents.bot import Bot, bot_agent_class
from plyground.core.catalogue import AGENT_KINDS, parse_agent
from plyground.core.errors import BadSetting
from plyground.core.ranges import LARGEST_SEED, machine_memory


class Counting(Bot):
    """A bot with settings of its own."""

    settings = {"depth": 2, "weight": 0.5, "name": "x", "greedy": True}


KINDS = {**AGENT_KINDS, "bot.py:Counting": bot_agent_class(Counting, "bot.py:Counting")}


@pytest.mark.parametrize("kind", sorted(AGENT_KINDS))
def test_every_number_setting_of_plyground_s_kinds_gives_its_range(kind):
    numbers = [s for s in AGENT_KINDS[kind].settings_spec if s.type in (int, float)]
    unbounded = [s.name for s in numbers if s.minimum is None or s.maximum is None
                 or not (math.isfinite(s.minimum) and math.isfinite(s.maximum))]
    assert unbounded == [], f"{kind}: give these a minimum and a maximum"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_number_setting_refuses_what_is_past_its_range(kind):
    for setting in KINDS[kind].settings_spec:
        if setting.type not in (int, float):
            continue
        low, high = setting.range()
        assert math.isfinite(low) and math.isfinite(high), setting.name
        if setting.type is int:
            past = (str(int(low) - 1), str(int(high) + 1), "9" * 5000)
        else:
            past = (repr(low - abs(low) / 1000 - 1), repr(high + abs(high) / 1000 + 1))
        for text in ("inf", "-inf", "nan", "1e308", *past):
            with pytest.raises(BadSetting) as refused:
                setting.parse(kind, text)
            assert len(str(refused.value).splitlines()) == 1


@pytest.mark.parametrize("spec, said", [
    ("alphabeta:time=1e308", "alphabeta: time must be at most 86400"),
    ("alphabeta:time=nan", "is not a finite number"),
    ("mcts:time=inf", "is not a finite number"),
    ("alphabeta:nodes=99999999999999999999", "alphabeta: nodes must be at most"),
    ("alphabeta:depth=1000", "alphabeta: depth must be at most 64"),
    ("minimax:depth=99999999999999999999", "minimax: depth must be at most 64"),
    ("mcts:iterations=99999999999", "mcts: iterations must be at most 10000000"),
    ("mcts:c=1e300", "mcts: c must be at most 1000"),
    ("az:sims=99999999999", "az: sims must be at most"),
    ("mcts:seed=-1", "mcts: seed must be at least 0"),
    (f"mcts:seed={LARGEST_SEED + 1}", f"mcts: seed must be at most {LARGEST_SEED}"),
    ("perfect:time=100000", "perfect: time must be at most 86400"),
    ("engine:cmd=true,time=1e308", "engine: time must be at most 86400"),
    ("engine:cmd=true,nodes=1e3", "is not a whole number"),
    ("engine:cmd=true,mem=99999999999999999999T", "more than this machine's memory"),
    ("engine:cmd=true,mem=" + "9" * 400 + ".5T", "is not a memory size"),
])
def test_a_setting_out_of_range_is_refused_as_the_spec_is_read(spec, said):
    with pytest.raises(BadSetting) as refused:
        parse_agent(spec)
    assert said in str(refused.value) and len(str(refused.value).splitlines()) == 1


def test_mem_goes_up_to_the_machine_s_memory_and_no_further():
    machine = machine_memory()
    assert parse_agent(f"engine:cmd=true,mem={machine}").settings["mem"] == machine
    with pytest.raises(BadSetting, match="more than this machine's memory"):
        parse_agent(f"engine:cmd=true,mem={machine + 1}")


def test_a_seed_has_the_generator_s_64_bits_and_no_more():
    """Seeds derived from the game's are 64-bit, and travel in specs."""
    assert parse_agent(f"mcts:seed={LARGEST_SEED}").settings["seed"] == LARGEST_SEED
    with pytest.raises(BadSetting, match="seed must be at most"):
        parse_agent(f"mcts:seed={LARGEST_SEED + 1}")
