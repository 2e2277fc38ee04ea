"""UI text in English and Simplified Chinese: one JSON catalogue per language in ``ui/locales``.

Pages never write UI text inline; they call ``Translator(lang)("key", name=value)``.
Registry entries (gains, discounts, presets) are translated through keys built from their
names (``gain.linear.label``) and fall back to the registry's English text.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ndcg_core.errors import InputError, Note, StoreUnavailable
from ui.errors import english  # the core's templates and the UI's own

from .format import sentence

LANGUAGES = {"en": "English", "zh": "简体中文"}
DEFAULT_LANGUAGE = "en"
_LOCALES = Path(__file__).parent / "locales"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every text of one language, keyed by a dotted name (read once per process; never mutated)."""
    if lang not in LANGUAGES:
        raise KeyError(f"no catalogue for language {lang!r}")
    return json.loads((_LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


class Translator:
    """Looks up UI text in one language and fills in ``{name}`` fields."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self._texts = catalogue(self.lang)

    def __call__(self, key: str, **fields: Any) -> str:
        text = self._texts.get(key)
        if text is None:
            text = catalogue(DEFAULT_LANGUAGE).get(key, key)
        return text.format(**fields) if fields else text

    def has(self, key: str) -> bool:
        return key in self._texts

    def template(self, key: str) -> str:
        """The template of an error, place or frame key: this language's, or the core's English one."""
        return self._texts.get(key) or english(key)

    def explain(self, err: Exception | Note) -> str:
        """An error (or a core's ``Note``) as sentences on screen (Markdown, user text escaped), one line per problem.

        An ``InputError``, a ``StoreUnavailable`` or a ``Note`` is translated by its code; anything else is shown as
        it came.
        """
        text = err.render(self.template) if isinstance(err, (InputError, StoreUnavailable, Note)) else str(err)
        return "  \n".join(sentence(line) for line in text.split("\n"))

    def entry(self, kind: str, entry: Any, part: str) -> str:
        """A registry entry's ``label`` or ``description`` in this language (the registry's English if none)."""
        key = f"{kind}.{entry.name}.{part}"
        return self._texts.get(key) or getattr(entry, part)

    def group(self, prefix: str) -> dict[str, str]:
        """Every text under ``prefix.``, keyed by the rest of its name (for a component or a chart)."""
        return dict(_group(self.lang, prefix))


@cache
def _group(lang: str, prefix: str) -> dict[str, str]:
    """``Translator.group``, worked out once per language and prefix (the page asks after every move)."""
    start = prefix + "."
    base = {k[len(start) :]: v for k, v in catalogue(DEFAULT_LANGUAGE).items() if k.startswith(start)}
    base.update({k[len(start) :]: v for k, v in catalogue(lang).items() if k.startswith(start)})
    return base
