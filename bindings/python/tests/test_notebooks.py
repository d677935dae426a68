"""The notebooks are stored without outputs (make test executes them with
nbmake, so an exception in any cell fails the build)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[3] / "notebooks").glob("*.ipynb"))


def test_four_notebooks():
    names = [p.name for p in NOTEBOOKS]
    assert len(names) >= 4, names
    for want in ("quickstart", "parameter-study", "train-a-tuner", "ray-tune-sweep"):
        assert any(want in n for n in names), (want, names)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_without_outputs(path):
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [] and cell.get("execution_count") is None, f"{path.name} cell {i} has outputs"
