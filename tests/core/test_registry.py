"""Named registries (``ndcg_core.registry``).

The package's registries are filled when it is imported, before any test runs, so a registry of the test's
own is filled here: what ``register`` keeps, ``in``, and the errors of an unknown name or parameter."""

from ndcg_core.registry import Entry, Registry
from support import error_of

# --- register, membership, unknown names and parameters -------------------------------------------------------------


def make():
    registry = Registry("gain")

    @registry.register("power", "Power", "grade to a power", params={"p": 2})
    def power(p):
        return ("power", p)

    @registry.register("ab", "AB", "two parameters", params={"b": 2, "a": 1})
    def ab(a, b):
        return ("ab", a, b)

    @registry.register("flat", "Flat", "every grade counts 1")
    def flat():
        return ("flat",)

    return registry, power, flat


def test_register_keeps_the_entry_and_returns_the_factory():
    registry, power, flat = make()
    assert power(3) == ("power", 3)
    assert list(registry)[::2] == [
        Entry("power", "Power", "grade to a power", power, {"p": 2}),
        Entry("flat", "Flat", "every grade counts 1", flat, {}),
    ]
    assert registry.names() == ["power", "ab", "flat"] and registry["flat"].factory is flat
    assert registry.build("power") == ("power", 2) and registry.build("power", p=5) == ("power", 5)
    assert "power" in registry and "cube" not in registry


def test_an_unknown_name_or_parameter():
    registry, _, _ = make()
    error = error_of(registry.__getitem__, "cube")
    assert (error.code, error.fields) == ("gain.unknown", {"value": "'cube'", "choices": "power, ab, flat"})
    error = error_of(registry.build, "flat", p=1)
    assert (error.code, error.fields) == ("variant.parameter", {"variant": "'flat'", "value": "'p'", "parameters": "-"})
    error = error_of(registry.build, "power", q=1, a=2)
    assert (error.code, error.fields) == (
        "variant.parameter",
        {"variant": "'power'", "value": "'a'", "parameters": "p"},
    )
    error = error_of(registry.build, "ab", c=3)
    assert error.fields["parameters"] == "a, b"
