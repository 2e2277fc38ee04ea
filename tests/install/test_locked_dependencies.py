"""The dependency locks agree with pyproject.toml's ranges, with each other, and can be installed by pip's hash mode.

``requirements.lock`` (the app) and ``requirements-test.lock`` (the app and the ``test`` extra) are what the README's
two commands install; ``bash .ci/lock`` makes them from ``pyproject.toml``. Whoever widens or narrows a range there and
forgets the lock is stopped here.
"""

import re
import tomllib
from importlib import metadata

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from support import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
APP, TEST, UV = ROOT / "requirements.lock", ROOT / "requirements-test.lock", ROOT / "requirements-uv.lock"

# One locked entry: "name==version \" or "name==version ; marker \", then its "--hash=" lines.
ENTRY = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+?)(?:\s*;\s*(?P<marker>[^\\]+?))?\s*\\?$")


def read_lock(text: str) -> dict[str, list[tuple[Version, Marker | None, int]]]:
    """Every locked package: its pinned versions, each with its environment marker and its number of hashes."""
    found: dict[str, list[tuple[Version, Marker | None, int]]] = {}
    current: list | None = None
    for line in text.splitlines():
        match = ENTRY.match(line)
        if match:
            marker = Marker(match["marker"]) if match["marker"] else None
            current = [Version(match["version"]), marker, 0]
            found.setdefault(canonicalize_name(match["name"]), []).append(current)  # type: ignore[arg-type]
        elif current is not None and line.strip().startswith("--hash=sha256:"):
            current[2] += 1
    return {name: [tuple(entry) for entry in entries] for name, entries in found.items()}  # type: ignore[misc]


LOCKS = {APP.name: read_lock(APP.read_text(encoding="utf-8")), TEST.name: read_lock(TEST.read_text(encoding="utf-8"))}


def wanted(lock: str) -> list[Requirement]:
    requirements = [Requirement(r) for r in PYPROJECT["dependencies"]]
    if lock == TEST.name:
        requirements += [Requirement(r) for r in PYPROJECT["optional-dependencies"]["test"]]
    return requirements


def extra_requirements(requirement: Requirement) -> list[Requirement]:
    """What ``requirement``'s extras add (``psycopg[binary]`` adds psycopg-binary), read from the installed package."""
    found = []
    for line in metadata.requires(requirement.name) or []:
        dependency = Requirement(line)
        if dependency.marker and any(dependency.marker.evaluate({"extra": extra}) for extra in requirement.extras):
            dependency.marker = None
            found.append(dependency)
    return found


def test_the_reader_finds_entries_markers_and_hashes():
    # A check that cannot fail is a defect: the reader must see what we know is in a lock.
    sample = "numpy==2.4.6 ; python_full_version < '3.12' \\\n    --hash=sha256:aa \\\n    --hash=sha256:bb\n"
    sample += "numpy==2.5.5 ; python_full_version >= '3.12' \\\n    --hash=sha256:cc\n    # via x\nsix==1.16.0 \\\n"
    sample += "    --hash=sha256:dd\n"
    lock = read_lock(sample)
    assert [(str(v), str(m), n) for v, m, n in lock["numpy"]] == [
        ("2.4.6", 'python_full_version < "3.12"', 2),
        ("2.5.5", 'python_full_version >= "3.12"', 1),
    ]
    assert lock["six"] == [(Version("1.16.0"), None, 1)]
    assert len(LOCKS[APP.name]) > 30 and len(LOCKS[TEST.name]) > len(LOCKS[APP.name])


@pytest.mark.parametrize("lock", [APP.name, TEST.name])
def test_every_range_in_pyproject_is_locked_to_a_version_inside_it(lock):
    locked = LOCKS[lock]
    for requirement in wanted(lock):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement} is in pyproject.toml but not in {lock}: run bash .ci/lock"
        for version, _, _ in locked[name]:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"{lock} pins {name}=={version}, outside pyproject.toml's {requirement}: run bash .ci/lock"
            )


@pytest.mark.parametrize("lock", [APP.name, TEST.name])
def test_what_an_extra_brings_is_locked_too(lock):
    with_extras = [r for r in wanted(lock) if r.extras]
    assert with_extras, "pyproject.toml asks for psycopg[binary]: the test has something to check"
    for requirement in with_extras:
        for dependency in extra_requirements(requirement):
            assert canonicalize_name(dependency.name) in LOCKS[lock], f"{dependency} (from {requirement}) in {lock}"


def test_the_app_lock_names_the_same_versions_as_the_test_lock():
    for name, entries in LOCKS[APP.name].items():
        assert name in LOCKS[TEST.name], f"{name} is in {APP.name} only"
        assert sorted(str(v) for v, _, _ in entries) == sorted(str(v) for v, _, _ in LOCKS[TEST.name][name]), name


@pytest.mark.parametrize("lock", [APP.name, TEST.name])
def test_every_locked_package_has_hashes_so_pip_checks_what_it_downloads(lock):
    for name, entries in LOCKS[lock].items():
        for version, _, hashes in entries:
            assert hashes > 0, f"{name}=={version} in {lock} has no --hash: pip's hash-checking mode would refuse it"


def test_the_test_command_installs_uv_from_its_lock_then_the_test_lock_with_it():
    (_, marker, hashes), *more = read_lock(UV.read_text(encoding="utf-8"))["uv"]
    assert len(read_lock(UV.read_text(encoding="utf-8"))) == 1 and not more and marker is None and hashes > 0
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = readme.split("```bash\n")[2].split("\n```")[0]
    assert f"python -m pip install -r {UV.name} && python -m uv pip install" in command
    assert f"-r {TEST.name}" in command.split("python -m uv pip install", 1)[1]
    assert f"-r {APP.name}" in readme.split("```bash\n")[1].split("\n```")[0]  # users install with pip alone
    assert "uv" not in readme.split("```bash\n")[1].split("\n```")[0]


@pytest.mark.parametrize("lock", [APP, TEST, UV])
def test_a_lock_says_how_to_refresh_it(lock):
    assert "bash .ci/lock" in lock.read_text(encoding="utf-8").split("\n", 3)[1]
