"""Named registries of NDCG variants (gains, discounts, tie policies).

Each variant is an entry with a name, a one-line description for the UI and a
factory that builds the variant from keyword parameters, in the spirit of
ir_measures' declared parameters. The UI lists entries; it never hard-codes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .error_codes import Code
from .errors import InputError, error_code, shown

T = TypeVar("T")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One named variant: its factory, a one-line description and its parameters."""

    name: str
    label: str
    description: str
    factory: Callable[..., T]
    params: dict[str, Any] = field(default_factory=dict)

    def build(self, **params: Any) -> T:
        """Build the variant, with declared parameters defaulted."""
        unknown = set(params) - set(self.params)
        if unknown:
            raise InputError(
                "variant.parameter",
                variant=shown(self.name),
                value=shown(sorted(unknown)[0]),
                parameters=", ".join(sorted(self.params)) or "-",
            )
        return self.factory(**{**self.params, **params})


class Registry(Generic[T]):
    """An ordered mapping of variant names to entries; ``kind`` names the error code of an unknown name
    (``<kind>.unknown``, or ``unknown`` if given), checked when the registry is made: a registry whose code has no
    template stops its module from loading."""

    def __init__(self, kind: str, unknown: Code | None = None) -> None:
        self.kind = kind  # "gain" raises gain.unknown for a name it does not hold
        self.unknown: Code = unknown or error_code(f"{kind}.unknown")
        self._entries: dict[str, Entry[T]] = {}

    def register(
        self,
        name: str,
        label: str,
        description: str,
        params: dict[str, Any] | None = None,
    ) -> Callable[[Callable[..., T]], Callable[..., T]]:
        """Decorator that registers a factory under ``name``."""

        def decorate(factory: Callable[..., T]) -> Callable[..., T]:
            self._entries[name] = Entry(name, label, description, factory, dict(params or {}))
            return factory

        return decorate

    def __getitem__(self, name: str) -> Entry[T]:
        try:
            return self._entries[name]
        except (KeyError, TypeError):
            raise InputError(self.unknown, value=shown(name), choices=", ".join(self._entries)) from None

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[Entry[T]]:
        return iter(self._entries.values())

    def names(self) -> list[str]:
        return list(self._entries)

    def build(self, name: str, **params: Any) -> T:
        return self[name].build(**params)
