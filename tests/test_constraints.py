"""``constraints.txt``: the versions the documented figures were measured with, one for every
dependency ``pyproject.toml`` declares, each within what it asks for."""

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def _pinned() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not pinned with ==: {line}"
            pins[canonicalize_name(name)] = version.strip()
    return pins


def test_every_declared_dependency_is_pinned_within_its_bounds():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = [Requirement(text) for text in project["dependencies"]]
    declared += [Requirement(text) for extra in project["optional-dependencies"].values() for text in extra]
    pins = _pinned()
    for requirement in declared:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is declared in pyproject.toml but not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} is not {requirement.specifier}"
    assert set(pins) == {canonicalize_name(requirement.name) for requirement in declared}, "a pin of nothing declared"
