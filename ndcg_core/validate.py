"""The one place that checks what a user gives: grades, scores, labels, item ids, k, cutoff lists, custom
gains, the top grade, seeds and typed answers. Each check returns the clean value or raises an
``InputError`` that names the value and where it was."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from numbers import Number
from typing import Any, Literal

import numpy as np

from .error_codes import PlaceCode
from .errors import LARGEST_FLOAT, InputError, Note, Place, number_text, shown

MAX_SEED = 10**9
MAX_LABEL_LENGTH = 60
MAX_TOP_GRADE = 10
MAX_CUTOFF = 10_000
MAX_CUTOFFS = 12

_TOKEN_SEPARATORS = re.compile(r"[\s,，、]+")

# Places of the items of a list, by the kind of list.
_ITEM_PLACES: dict[str, tuple[PlaceCode, PlaceCode]] = {
    "list": ("list.grades", "list.grade"),
    "pool": ("pool.grades", "pool.grade"),
    "scores": ("list.scores", "list.score"),
}


def flag(value: Any, name: str) -> bool:
    """An on/off option as a bool; anything but True or False (numpy's too) is an error."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputError("flag.not_bool", name=name, value=shown(value))
    return bool(value)


def tokens(text: object) -> list[str]:
    """What a user typed in a box of numbers, split at commas (also Chinese ， and 、) and spaces."""
    return [part for part in _TOKEN_SEPARATORS.split(str(text)) if part]


def number(value: Any, place: Place, *, negative: bool = True) -> float:
    """A real, finite number from a number or its text; ``negative=False`` treats it as a grade."""
    if isinstance(value, (bool, np.bool_)):
        raise InputError("number.bool", place=place, value=shown(value))
    if isinstance(value, (complex, np.complexfloating)):
        raise InputError("number.complex", place=place, value=shown(value))
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise InputError("number.blank", place=place)
        try:
            result = float(text)
        except ValueError:
            raise InputError("number.not_number", place=place, value=shown(value)) from None
    elif isinstance(value, (Number, np.number, Decimal, Fraction)):
        try:
            with np.errstate(over="raise"):
                result = float(value)  # type: ignore[arg-type]
        except (OverflowError, FloatingPointError):
            raise InputError(
                "number.too_large", place=place, value=shown(value), limit=number_text(LARGEST_FLOAT)
            ) from None
        except (TypeError, ValueError):
            raise InputError("number.not_number", place=place, value=shown(value)) from None
    else:
        raise InputError("number.not_number", place=place, value=shown(value))
    if math.isnan(result):
        raise InputError("number.nan", place=place)
    if math.isinf(result):
        raise InputError("number.infinite", place=place, value=shown(value))
    if result < 0 and not negative:
        raise InputError("grade.negative", place=place, value=shown(value))
    return result


def grade(value: Any, place: Place, top: float | None = None) -> float:
    """A grade: a number from 0 up to ``top`` (no upper bound if ``None``)."""
    result = number(value, place, negative=False)
    if top is not None and result > top:
        raise InputError("grade.above_top", place=place, value=number_text(result), top=number_text(top))
    return result


def numbers(values: Iterable[Any], kind: str = "list") -> np.ndarray:
    """A list of grades (``kind`` "list" or "pool": 0 or more) or of scores ("scores": any sign) as floats."""
    list_place, item_place = _ITEM_PLACES[kind]
    if isinstance(values, (str, bytes)):
        raise InputError("number.not_list", place=Place(list_place), value=shown(values))
    if isinstance(values, np.ndarray) and values.dtype.kind in "fiu" and values.ndim == 1:
        return _number_array(values, item_place, negative=kind == "scores")
    try:
        items = list(values)
    except TypeError:
        raise InputError("number.not_list", place=Place(list_place), value=shown(values)) from None
    out = np.empty(len(items), dtype=np.float64)
    for i, value in enumerate(items):
        out[i] = number(value, Place(item_place, position=i + 1), negative=kind == "scores")
    return out


def _number_array(values: np.ndarray, item_place: PlaceCode, *, negative: bool) -> np.ndarray:
    """A numeric numpy vector checked as a whole; the first bad entry is named as ``number`` would."""
    if values.dtype.kind in "iu" or values.dtype.itemsize <= 8:
        out = values.astype(np.float64)
        bad = ~np.isfinite(out) if negative else ~np.isfinite(out) | (out < 0)
        if not bad.any():
            return out
        first = int(np.flatnonzero(bad)[0])
        # .item(): quoted as the Python number, as the loop below and a list quote it (not "np.float64(-2.0)")
        number(values[first].item(), Place(item_place, position=first + 1), negative=negative)
    out = np.empty(len(values), dtype=np.float64)
    for i, value in enumerate(values.tolist()):
        out[i] = number(value, Place(item_place, position=i + 1), negative=negative)
    return out


def whole(value: Any, place: Place, *, low: int = 1, high: int | None = None, truncate: bool = False) -> int:
    """A whole number from ``low`` to ``high``: k, a top grade, a seed, a rank.

    ``truncate`` reads 23.4 as 23, as trec_eval reads the cutoffs of a measure.
    """
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                raise InputError("k.not_whole", place=place, value=shown(text)) from None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer, float, np.floating)):
        raise InputError("k.not_whole", place=place, value=shown(value))
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value) or not (truncate or float(value).is_integer()):
            raise InputError("k.not_whole", place=place, value=shown(value))
        value = int(value)
    result = int(value)
    if result < low:
        raise InputError("k.too_small", place=place, value=shown(result), low=low)
    if high is not None and result > high:
        raise InputError("k.too_large", place=place, value=shown(result), limit=high)
    return result


def k(value: Any, place: Place | None = None) -> int | None:
    """A cutoff k, a whole number 1 or more; ``None`` stays ``None`` (the whole list)."""
    if value is None:
        return None
    return whole(value, place or Place("k"))


def required_k(value: Any) -> int:
    """k for a metric that has no meaning without one (P@k, recall@k)."""
    if value is None:
        raise InputError("k.required")
    return whole(value, Place("k"))


def cutoffs(
    value: Any,
    place: Place | None = None,
    *,
    limit: int | None = None,
    max_count: int | None = None,
    truncate: bool = False,
    required: bool = True,
) -> tuple[int, ...]:
    """Cutoffs as sorted distinct whole numbers from text ("5, 10, 20", also with ， 、 or spaces) or a sequence.

    A repeated cutoff is the same cutoff: ``5, 10, 5`` is ``(5, 10)``.

    This is the one reader of k lists: the command line's ``ndcg_cut.5,10``, ``EvaluationOptions(cutoffs=...)``
    and the Evaluate page's box all use it.
    """
    place = place or Place("k")
    parts: Sequence[Any] = tokens(value) if isinstance(value, str) else list(value)
    if not parts and required:
        raise InputError("k.none")
    out = {whole(part, place, high=limit, truncate=truncate) for part in parts}  # a repeat means the same k
    if max_count is not None and len(out) > max_count:
        raise InputError("k.too_many", limit=max_count, count=len(out))
    return tuple(sorted(out))


def top_grade(value: Any) -> int:
    """The top grade of a scale, 1 to ``MAX_TOP_GRADE``."""
    try:
        return whole(value, Place("top_grade"), high=MAX_TOP_GRADE)
    except InputError:
        raise InputError("top_grade.range", place=Place("top_grade"), limit=MAX_TOP_GRADE, value=shown(value)) from None


def label(value: Any, place: Place) -> str:
    """An item's label, trimmed; blank or too long is an error. Any characters are kept as text."""
    text = "" if value is None else str(value).strip()
    if not text:
        raise InputError("label.blank", place=place)
    if len(text) > MAX_LABEL_LENGTH:
        raise InputError("label.too_long", place=place, count=len(text), limit=MAX_LABEL_LENGTH)
    encodable(text, place)
    return text


def encodable(text: str, place: Place) -> str:
    """Text that can be written as UTF-8 (a lone surrogate cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("item.not_text", place=place, value=shown(text)) from None
    return text


def item_ids(
    items: Sequence[Any] | None, n: int, *, what: Literal["count.items", "count.labels"] = "count.items"
) -> list[str]:
    """Item ids of a list of ``n`` as text (positions ``1..n`` when ``None``)."""
    if items is None:
        return [str(i) for i in range(n)]
    ids = [str(x) for x in items]
    if len(ids) != n:
        if what == "count.labels":
            raise InputError("count.labels", labels=len(ids), grades=n)
        raise InputError("count.items", items=len(ids), grades=n)
    for position, text in enumerate(ids, start=1):
        encodable(text, Place("list.item", position=position))
    return ids


def one_word_ids(ids: Sequence[str], places: Sequence[Place]) -> None:
    """Ids that are single words and all distinct (TREC files need both)."""
    seen: set[str] = set()
    for text, place in zip(ids, places, strict=False):
        if not text:
            raise InputError("item.blank", place=place)
        encodable(text, place)
        if any(c.isspace() for c in text):
            raise InputError("item.space", place=place, value=shown(text))
        if text in seen:
            raise InputError("item.repeated", place=place, value=shown(text))
        seen.add(text)


def gain_mapping(mapping: Any) -> dict[float, float]:
    """A custom grade-to-gain table with every grade and gain a finite number."""
    if not isinstance(mapping, Mapping):
        raise InputError("gain.not_mapping", value=shown(mapping))
    table: dict[float, float] = {}
    for key, value in mapping.items():
        g = number(key, Place("gain.grade"))
        table[g] = number(value, Place("gain.of", grade=number_text(g)))
    return table


def list_size(n: int, limit: int) -> None:
    """An error if a list of ``n`` items is longer than ``limit``."""
    if n > limit:
        raise InputError("list.too_long", count=n, limit=limit)


def seed(value: Any) -> int:
    """A seed of a practice set: a whole number from 0 to ``MAX_SEED``."""
    place = Place("seed")
    text = str(value).strip()
    try:
        result = int(text)
    except ValueError:
        raise InputError("seed.not_whole", place=place, value=shown(value)) from None
    if not 0 <= result <= MAX_SEED:
        raise InputError("seed.range", place=place, limit=MAX_SEED, value=shown(result))
    return result


@dataclass(frozen=True)
class Reading:
    """A typed answer read as a number, with a note when it was read one particular way ("read 0,62 as 0.62")
    that the learner should be told."""

    value: float
    note: Note | None = None


def reading(text: Any) -> Reading:
    """A number a learner typed as an answer. A comma that can only be a decimal mark ("0,62") is read as a point,
    with a note saying so; any other comma ("1,234", "0,6,2", "1.000,5") and "abc" say what to type instead."""
    raw = "" if text is None else str(text).strip()
    if not raw:
        raise InputError("answer.blank")
    note = None
    if "," in raw or "，" in raw:
        meant = comma_decimal(raw)
        if meant is None:
            raise InputError("answer.comma", value=shown(raw))
        # Quoted as typed, not as repr: it matched the decimal-comma pattern, so it is digits and one comma.
        note = Note("answer.comma_read", value=raw, meant=number_text(meant))
        raw = raw.replace("，", ",").replace(",", ".")
    try:
        value = float(raw)
    except ValueError:
        raise InputError("answer.not_number", value=shown(raw)) from None
    if not math.isfinite(value):
        raise InputError("answer.infinite", value=shown(raw))
    return Reading(value, note)


def answer(text: Any) -> float:
    """A number a learner typed as an answer (``reading``'s value, without its note)."""
    return reading(text).value


_DECIMAL_COMMA = re.compile(r"[+-]?(?P<whole>[0-9]+)[,，](?P<fraction>[0-9]+)")


def comma_decimal(text: Any) -> float | None:
    """The number a typed answer means when its one comma can only be a decimal mark ("0,75" is 0.75): digits on
    both sides and no point. ``None`` otherwise, and where the comma may group thousands ("1,234": three digits
    after it, one to three before, not starting with 0)."""
    raw = "" if text is None else str(text).strip()
    # ASCII digits only ([0-9], not \d): "²" and "٣" are digits to str.isdigit, and float() refuses them.
    found = _DECIMAL_COMMA.fullmatch(raw)
    if found is None:
        return None
    whole, fraction = found["whole"], found["fraction"]
    if len(fraction) == 3 and len(whole) <= 3 and not whole.startswith("0"):
        return None
    return float(raw.replace("，", ".").replace(",", "."))
