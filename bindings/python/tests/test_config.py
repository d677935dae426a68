"""EnvConfig is Go's env.Config field for field, and the environments take
exactly its fields as their configuration keywords."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import yarngym
from yarngym._native import CONFIG_KEYS, REG_CONFIG, EnvConfig, registry

# Go type (as reflect names it) -> the Python annotation EnvConfig gives it.
GO_TO_PY = {
    "string": {"str", "str | None"},
    "[]string": {"Sequence[str] | None", "Sequence[str] | Mapping[str, Any] | None"},
    "map[string][2]float64": {"Mapping[str, Sequence[float]] | None"},
    "float64": {"float | None"},
    "int": {"int | None"},
    "map[string]float64": {"Mapping[str, float] | None"},
}


def test_fields_match_go():
    go = registry(REG_CONFIG)
    assert [f["key"] for f in go] == list(CONFIG_KEYS), "EnvConfig's fields differ from Go's env.Config"
    py = {f.name: f.type for f in dataclasses.fields(EnvConfig)}
    for f in go:
        assert f["type"] in GO_TO_PY, f"Go type {f['type']} of {f['key']} has no Python counterpart in this test"
        assert py[f["key"]] in GO_TO_PY[f["type"]], f"{f['key']}: Python {py[f['key']]}, Go {f['type']}"


def test_envs_take_the_config_fields():
    for cls in (yarngym.ClusterEnv, yarngym.VectorClusterEnv):
        params = inspect.signature(cls.__init__).parameters
        missing = [k for k in CONFIG_KEYS if k not in params]
        assert not missing, f"{cls.__name__} does not take {missing}"


def test_to_json():
    cfg = EnvConfig("quick", sets={"run.max_s": 60}, controlled="max_am_share", bounds={"max_am_share": (0.1, 0.9)},
                    control_interval_s=30).to_json()
    assert cfg == {"scenario": "quick", "sets": ["run.max_s=60"], "controlled": ["max_am_share"],
                   "bounds": {"max_am_share": [0.1, 0.9]}, "control_interval_s": 30.0}
    env = yarngym.ClusterEnv(**{k: v for k, v in dataclasses.asdict(EnvConfig("quick", controlled=["max_am_share"])).items()})
    try:
        assert env.config["controlled"] == ["max_am_share"]
    finally:
        env.close()


def test_py_typed_ships():
    assert (typing.cast(typing.Any, yarngym).__file__ or "").endswith("__init__.py")
    from importlib.resources import files

    assert files("yarngym").joinpath("py.typed").is_file()
