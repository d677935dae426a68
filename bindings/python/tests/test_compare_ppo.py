"""compare_ppo.py's table and arguments (no training: the benchmark itself
takes minutes and is not a test)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "compare_ppo.py"


def load():
    spec = importlib.util.spec_from_file_location("compare_ppo", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["compare_ppo"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_table_rates_and_speedups():
    cp = load()
    go = cp.Side("yarngym PPO (gorgonia)", 2560, 400, wall_s=4.0, cpu_s=2.0, env_cpu_s=1.5, update_cpu_s=0.4, returns=[-6.0, -7.0, -8.0])
    sb3 = cp.Side("stable-baselines3 PPO (torch)", 2560, 400, wall_s=4.0, cpu_s=4.0, env_cpu_s=2.0, update_cpu_s=1.0, returns=[-6.5, -7.5, -8.5])
    lines = cp.table(go, sb3)
    assert len(lines) == 6
    head, row_go, row_sb3, speed = lines[:4]
    assert "env steps/s" in head and "steps/CPU s" in head and "test return" in head
    # yarngym: 2560 / 1.5 env steps per env CPU second, 400 / 0.4 gradient steps per update CPU second.
    assert row_go.split()[3:5] == ["1707", "1000"]
    assert row_sb3.split()[3:5] == ["1280", "400"]
    cells = speed.split()[-9:]
    assert cells[0] == "1.33" and cells[1] == "2.50"  # rates: yarngym's over SB3's
    assert cells[5] == "2.00" and cells[6] == "1.00"  # times: SB3's over yarngym's
    assert cells[7] == "2.00" and cells[8] == "1.00"  # throughput per CPU and per wall second
    assert "paired over 3 test seeds: 0.5 ± 0" in lines[4]


def test_too_few_steps_is_refused(capsys):
    cp = load()
    with pytest.raises(SystemExit):
        cp.main(["--steps", "100"])
    assert "at least one rollout, 256" in capsys.readouterr().err
