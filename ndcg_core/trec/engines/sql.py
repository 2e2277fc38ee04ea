"""The SQL the out-of-core engines share (``duckdb_sql``, ``spark_sql``): reading a text file and trec_eval's
ranking, written once, with a ``Dialect`` value for where DuckDB and Spark spell a thing differently.

Reading (``trec_select``, ``csv_select``, ``typed``): each line of a file split into its fields and checked as
the default reader checks it (a column ``bad``); the engine only counts the bad lines (see ``files.Unclean``).

Both engines hold the qrels as a table ``qrels`` (qid, docno, rel) and the run as ``run`` (qid, docno, score),
and ask the same questions of them in SQL that DuckDB and Spark both accept: which queries are evaluated, in
trec_eval's order (ids compared as bytes: both compare strings by their UTF-8 bytes); each ranking in trec_eval's
order (score descending, as doubles or as 32-bit floats, -0.0 tying with 0.0, then document id descending as
bytes), joined with the judgments. Only the judged documents of each ranking come back, with their positions, to
``evaluate.ranked_columns``: the default engine's own arithmetic, so every figure has the same bits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from ...errors import InputError
from ..evaluate import Evaluation, EvaluationOptions, ranked_columns
from ..readers import DOC_NAMES, LARGEST_EXACT_GRADE, QID_NAMES, RANK_NAMES, REL_NAMES, SCORE_NAMES
from .files import CSV_CONTENT, NUMBER, OTHER_SPACE, SPACE, SPLIT, pick_list
from .memory import with_rows

_FLOAT32_MAX = float(np.finfo(np.float32).max)
_FLOAT32_INF_FROM = 2.0**128 - 2.0**103  # half way from float32's largest value to 2^128: rounds to infinity

Fetch = Callable[[str], Mapping[str, np.ndarray]]
"""Runs a SELECT and returns its columns by name."""
Create = Callable[[str, str], None]
"""Makes a table (its name, a SELECT) that later statements read."""


# -------------------------------------------------------------------------------------- reading a text file


@dataclass(frozen=True)
class Dialect:
    """How one engine spells what the shared SQL needs (each a format string over the names in braces).

    ``param``: a text value in a statement (``{name}``: its parameter's name, ``{value}``: the text), inlined as a
    literal or named as a parameter the engine passes (``TEXT_PARAMS``); ``lines``: the lines of a file as
    ``line``, from ``{source}`` (no line holds a NUL byte: ``files.scan`` sends such a file to the default reader).
    """

    param: Callable[[str, str], str]
    lines: str
    element: str  # the i-th field (from 1) of a list, NULL beyond its end: {array}, {i}
    size: str  # {array}
    trim: str  # {text} without the characters {chars} at either end
    matches: str  # {text} holds a match of the regular expression {pattern}
    split: str  # {text} split at every {separator} (a single space)
    split_blanks: str  # {text} split at runs of the regular expression {pattern}
    starts: str  # {text} starts with {prefix}
    untidy: str  # {line} holds a blank other than single spaces between fields


def _inline(name: str, value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


DUCKDB = Dialect(
    param=_inline,
    lines="(SELECT c1 AS line FROM {source}) AS lines",
    element="{array}[{i}]",
    size="len({array})",
    trim="trim({text}, {chars})",
    matches="regexp_matches({text}, {pattern})",
    split="string_split({text}, {separator})",
    split_blanks="regexp_split_to_array({text}, {pattern})",
    starts="starts_with({text}, {prefix})",
    # DuckDB finds a character several times faster than a regular expression does.
    untidy=" OR ".join(
        [*(f"contains({{line}}, chr({c}))" for c in (9, 11, 12, 13)), "contains({line}, '  ')"]
        + ["starts_with({line}, ' ')", "ends_with({line}, ' ')"]
    ),
)
SPARK = Dialect(
    param=lambda name, value: f":{name}",
    lines="(SELECT value AS line FROM {source}) AS lines",
    element="try_element_at({array}, {i})",
    size="size({array})",
    trim="trim(BOTH {chars} FROM {text})",
    matches="{text} RLIKE {pattern}",
    split="split({text}, {separator}, -1)",
    split_blanks="split({text}, {pattern}, -1)",
    starts="startswith({text}, {prefix})",
    untidy="{line} RLIKE :untidy",
)
UNTIDY = "[\t\r\x0b\x0c]|  |^ | $"  # a TREC line a single space does not split as trec_eval does
NUMBER_WHOLE = f"^(?:{NUMBER})\\z"  # the whole text one of the default reader's numbers
TEXT_PARAMS = {
    "space": SPACE,
    "blanks": SPLIT,
    "number": NUMBER_WHOLE,
    "untidy": UNTIDY,
    "other_space": OTHER_SPACE,
    "content": CSV_CONTENT,
}
"""The values of the text parameters, by name, for a dialect that names them (Spark)."""


def trec_select(dialect: Dialect, kind: str, source: str) -> str:
    """TREC text: fields split at runs of blanks; comment and blank lines skipped; each line checked.

    A tidy line (single spaces, no other blank) is split at its spaces, several times faster than the regular
    expression the others need; a blank line splits into one empty field.
    """
    d = dialect
    f1 = d.element.format(array="f", i=1)
    split = d.split_blanks.format(
        text=d.trim.format(text="line", chars=d.param("space", SPACE)), pattern=d.param("blanks", SPLIT)
    )
    single = d.split.format(text="line", separator="' '")
    comment = d.starts.format(text=f1, prefix="'#'")
    content = f"{f1} <> '' AND NOT {comment}"
    docno, text = d.element.format(array="f", i=3), d.element.format(array="f", i=4 if kind == "qrels" else 5)
    fields = f"""SELECT {f1} AS qid, {docno} AS docno, {text} AS text, {d.size.format(array="f")} AS width
        FROM (SELECT CASE WHEN {d.untidy.format(line="line")} THEN {split} ELSE {single} END AS f
            FROM {d.lines.format(source=source)}) AS split_lines
        WHERE {content}"""
    return typed(dialect, kind, fields, "width = 4" if kind == "qrels" else "width >= 6")


def csv_select(
    dialect: Dialect, kind: str, source: str, header: tuple[str, list[str]], *, header_text: bool = False
) -> str | None:
    """CSV/TSV lines after the header, split at its delimiter; each field stripped of blanks then quotes. None
    when a column is missing (the default reader says which). ``header_text``: the lines hold the header, left out
    by its text (the parameter ``header``)."""
    d = dialect
    delimiter, names = header
    wanted = {"qid": QID_NAMES, "docno": DOC_NAMES}
    rank = False
    if kind == "qrels":
        wanted["text"] = REL_NAMES
    elif pick_list(names, SCORE_NAMES) is None and pick_list(names, RANK_NAMES) is not None:
        wanted["text"], rank = RANK_NAMES, True
    else:
        wanted["text"] = SCORE_NAMES
    at = {}
    for column, aliases in wanted.items():
        picked = pick_list(names, aliases)
        if picked is None:
            return None
        field = d.element.format(array="f", i=names.index(picked) + 1)
        at[column] = d.trim.format(text=d.trim.format(text=field, chars=d.param("space", SPACE)), chars="'\"'")
    other_space = d.matches.format(text="line", pattern=d.param("other_space", OTHER_SPACE))
    content = d.matches.format(text="line", pattern=d.param("content", CSV_CONTENT))
    if header_text:
        content += f" AND line <> {d.param('header', '')}"
    fields = f"""SELECT {at["qid"]} AS qid, {at["docno"]} AS docno, {at["text"]} AS text,
            CASE WHEN {other_space} OR {at["qid"]} = '' OR {at["docno"]} = ''
                THEN -1 ELSE {d.size.format(array="f")} END AS width
        FROM (SELECT {d.split.format(text="line", separator=d.param("delimiter", delimiter))} AS f, line
            FROM {d.lines.format(source=source)}
            WHERE {content}) AS split_lines"""
    return typed(dialect, "rank" if rank else kind, fields, f"width = {len(names)}")


_WHOLE = f"abs(v) <= {LARGEST_EXACT_GRADE} AND v = round(v)"
_NUMBERS = {  # by kind: when a line's number v is usable, and the column it gives
    "qrels": (_WHOLE, f"CASE WHEN {_WHOLE} THEN CAST(v AS BIGINT) END AS rel"),  # a grade: whole, up to 2^53
    "run": ("v IS NOT NULL AND NOT isnan(v)", "v AS score"),  # a score: not NaN
    "rank": ("abs(v) < CAST('inf' AS DOUBLE)", "-v AS score"),  # a CSV's rank: finite, negated into a score
}


def typed(dialect: Dialect, kind: str, fields: str, width: str) -> str:
    """The columns (qid, docno, and rel or score) and whether the line is bad, as the default reader decides.

    ``kind``: "qrels", "run" or "rank" (``_NUMBERS``). Both engines order NaN above every number, so a comparison
    with a bound refuses it; Spark's isnan(NULL) is false, not NULL, so a score that is no number is refused by
    name. Each engine takes a few numbers pyarrow does not ("+-1", "1_0"): the regular expression refuses them.
    """
    pattern = dialect.param("number", NUMBER_WHOLE)
    number = f"CASE WHEN {dialect.matches.format(text='text', pattern=pattern)} THEN try_cast(text AS DOUBLE) END"
    usable, value = _NUMBERS[kind]
    return f"""SELECT qid, docno, {value}, NOT coalesce({width} AND {usable}, false) AS bad
        FROM (SELECT qid, docno, width, {number} AS v FROM ({fields}) AS fields) AS numbers"""


# -------------------------------------------------------------------------------------- ranking


def queries_select(complete: bool) -> str:
    """The evaluated queries, numbered from 0 in trec_eval's order (``slot``), and whether the run names each:
    those judged and ranked (or only judged, ``complete``)."""
    return f"""SELECT qid, bool_or(ranked) AS in_run, row_number() OVER (ORDER BY qid) - 1 AS slot FROM (
            SELECT DISTINCT qid, false AS ranked FROM qrels UNION ALL SELECT DISTINCT qid, true FROM run
        ) AS named GROUP BY qid HAVING bool_or(NOT ranked) AND (bool_or(ranked) OR {str(complete).lower()})"""


def ranked_select(float32_scores: bool) -> str:
    """The judged documents of each ranking: query slot, position from 0 in trec_eval's order, grade."""
    key = _KEY32 if float32_scores else _KEY64
    return f"""SELECT slot, position, rel FROM (
            SELECT slot, qid, docno,
                row_number() OVER (PARTITION BY slot ORDER BY {key} DESC, docno DESC) - 1 AS position
            FROM run JOIN queries USING (qid)
        ) AS ranking JOIN qrels USING (qid, docno) ORDER BY slot, position"""


SLOTS_SELECT = "SELECT qid, in_run FROM queries ORDER BY slot"
JUDGED_SELECT = "SELECT slot, rel FROM qrels JOIN queries USING (qid)"
COUNTED_SELECT = "SELECT slot, count(*) AS n FROM run JOIN queries USING (qid) GROUP BY slot"
GRADES_SELECT = "SELECT DISTINCT rel FROM qrels"


def float32_key(column: str) -> str:
    """A score as a 32-bit float compares, as a double: rounded to nearest, beyond float32's range infinite."""
    clamped = f"greatest(least({column}, {_FLOAT32_MAX!r}), {-_FLOAT32_MAX!r})"
    return (
        f"(CASE WHEN abs({column}) >= {_FLOAT32_INF_FROM!r} THEN sign({column}) * CAST('inf' AS DOUBLE)"
        f" ELSE CAST(CAST({clamped} AS FLOAT) AS DOUBLE) END + 0.0)"
    )


_KEY64 = "score + 0.0"  # a run row's score as it compares as a double (-0.0 and 0.0 tie)
_KEY32 = float32_key("score")  # as it compares as a 32-bit float


@dataclass(frozen=True)
class Ranked:
    """What an engine's SQL found, ready for ``ranked_columns``: the evaluated queries in trec_eval's order,
    whether the run names each, every judgment (slot, grade), the judged documents of each ranking (slot,
    position, grade) and each query's number of ranked documents."""

    qids: list[str]
    in_run: np.ndarray
    judged: tuple[np.ndarray, np.ndarray]
    ranked: tuple[np.ndarray, np.ndarray, np.ndarray]
    retrieved_count: np.ndarray

    ties: str = "trec_eval"  # the tie policy ``ranked`` is in
    group: np.ndarray | None = None  # with averaged ties, each ranked row's tie group (``ranked_columns``)

    def evaluation(
        self, options: EvaluationOptions, qrels_name: str, run_name: str, tag: str, *, engine: str
    ) -> Evaluation:
        """The evaluation under ``options`` (``engine``: the engine's name on the command line, for errors)."""
        if not self.qids:
            raise InputError("files.no_shared_query", run=run_name, qrels=qrels_name)
        columns = self.columns(options, engine)
        return Evaluation(self.qids, columns, options, qrels_name=qrels_name, run_name=run_name, tag=tag)

    def columns(self, options: EvaluationOptions, engine: str) -> dict[str, np.ndarray]:
        """``Evaluation.columns`` under ``options`` (whose tie policy must be the ranking's)."""
        return ranked_columns(
            self.judged,
            self.ranked,
            self.retrieved_count,
            self.in_run,
            options,
            engine,
            ties=self.ties,
            group=self.group,
        )


def rank_tables(create: Create, fetch: Fetch, *, complete: bool, float32_scores: bool) -> Ranked:
    """Ask the tables ``qrels`` and ``run`` which queries are evaluated and how each ranking orders its judged
    documents (``create`` makes the table ``queries`` the other statements join)."""
    create("queries", queries_select(complete))
    queries = fetch(SLOTS_SELECT)
    nq = len(queries["qid"])
    if not nq:
        empty = np.zeros(0, dtype=np.int64)
        return Ranked([], np.zeros(0, dtype=bool), (empty, empty), (empty, empty, empty), empty)
    judged = fetch(JUDGED_SELECT)
    ranked = fetch(ranked_select(float32_scores))
    counted = fetch(COUNTED_SELECT)
    retrieved_count = np.zeros(nq, dtype=np.int64)
    retrieved_count[_ints(counted["slot"])] = _ints(counted["n"])
    return Ranked(
        [str(q) for q in queries["qid"]],
        np.asarray(queries["in_run"], dtype=bool),
        (_ints(judged["slot"]), _ints(judged["rel"])),
        (_ints(ranked["slot"]), _ints(ranked["position"]), _ints(ranked["rel"])),
        retrieved_count,
    )


def _ints(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


# -------------------------------------------------------------------------------------- rankings for an explanation

_GAIN = "CASE WHEN rel > 0 THEN rel ELSE 0 END"  # a document's grade where it has a gain, else 0
# Within a tie group, each policy's order (the rows' gains ascending or descending, the file's order, document id).
_TIE_BREAKS = {
    "trec_eval": "docno DESC",
    "average": "docno DESC",
    "best": "g DESC, docno DESC",
    "worst": "g ASC, docno DESC",
    "file": "row ASC",
}
# The rows each policy keeps: the judged documents; averaged ties every document of a tie group with a gain too.
_KEPT = dict.fromkeys(_TIE_BREAKS, "rel IS NOT NULL") | {"average": "rel IS NOT NULL OR top > 0"}


def _graded(float32: bool, row: str, subset: str) -> str:
    """Every run row of the queries in the table ``subset``: its slot, score, key (the score as it compares), file
    order (``row``: the dialect's expression), grade (NULL if unjudged) and the grade where it has a gain."""
    key = _KEY32 if float32 else _KEY64
    return f"""SELECT slot, docno, score, {key} AS key, rel, {_GAIN} AS g, row FROM (
            SELECT qid, docno, score, {row} AS row FROM run) AS numbered
        JOIN queries USING (qid) JOIN {subset} USING (slot) LEFT JOIN qrels USING (qid, docno)"""


TIES_SELECT = f"""SELECT slot, grouping(key32) AS as_double,
        CASE WHEN min({_KEY64}) < max({_KEY64}) THEN 1 ELSE 0 END AS differs
    FROM (SELECT slot, score, {_KEY64} AS key64, {_KEY32} AS key32, {_GAIN} AS g
        FROM run JOIN queries USING (qid) LEFT JOIN qrels USING (qid, docno)) AS graded
    GROUP BY GROUPING SETS ((slot, key64), (slot, key32)) HAVING min(g) < max(g)"""
"""The tie groups between documents of different gains, in one pass over the run: by scores as doubles
(``as_double`` 1) and as 32-bit floats (0), and whether a group holds scores that differ as doubles."""


def mixed_select(float32: bool) -> str:
    """The queries (slots) where scores, compared as doubles or as 32-bit floats, tie between documents of
    different gains (from the table ``ties``, made of ``TIES_SELECT``), and whether such a tie holds scores that
    differ as doubles."""
    return f"SELECT slot, max(differs) AS differs FROM ties WHERE as_double = {0 if float32 else 1} GROUP BY slot"


def ordered_select(float32: bool, ties: str, row: str, subset: str) -> str:
    """The judged documents of each ranking of the queries in ``subset``, ordered by the tie policy ``ties``: slot,
    position from 0, grade (-1 for an unjudged document), tie group; averaged ties add every document of a tie
    group with a gain."""
    return f"""SELECT slot, position, coalesce(rel, -1) AS rel, tie FROM (
            SELECT slot, rel, row_number() OVER (PARTITION BY slot ORDER BY key DESC, {_TIE_BREAKS[ties]}) - 1
                    AS position,
                dense_rank() OVER (PARTITION BY slot ORDER BY key DESC) AS tie,
                max(g) OVER (PARTITION BY slot, key) AS top
            FROM ({_graded(float32, row, subset)}) AS graded
        ) AS ranking WHERE {_KEPT[ties]} ORDER BY slot, position"""


class SqlRankings:
    """``Rankings`` of the tables ``qrels`` and ``run`` an out-of-core engine holds (see ``engines.Rankings``).

    Each order is one ranking in SQL, of the queries where it can change a figure only (a tie between documents
    of different gains); only the judged documents of each come back, evaluated by ``ranked_columns``.
    ``row``: the dialect's expression of a run row's place in its file (for ties in file order). Every judged
    query is ranked (trec_eval's ``-c``), so there is one at least: the readers refuse qrels without a judgment.
    """

    def __init__(self, create: Create, fetch: Fetch, *, row: str, engine: str) -> None:
        self._fetch, self._row, self._engine = fetch, row, engine
        self._base = rank_tables(create, fetch, complete=True, float32_scores=False)
        self.in_run = self._base.in_run
        counts = self._base.retrieved_count
        self.longest = int(counts.max())
        self.unjudged = int(counts.sum()) > int((self._base.ranked[2] >= 0).sum())
        self.grades = tuple(int(g) for g in np.sort(_ints(fetch(GRADES_SELECT)["rel"])))
        self._tied: dict[str, np.ndarray] = {}
        create("ties", TIES_SELECT)
        for scores in ("double", "float32"):
            create(f"mixed_{scores}", mixed_select(scores == "float32"))
            found = fetch(f"SELECT slot, differs FROM mixed_{scores} ORDER BY slot")
            rows = np.zeros(len(self.in_run), dtype=bool)
            rows[_ints(found["slot"])] = True
            self._tied[scores] = rows
            if scores == "float32":
                self._differs = bool(_ints(found["differs"]).any())
        self._orders: dict[tuple[str, str], Ranked] = {}

    def mixed(self, scores: str) -> bool:
        return bool(self._tied[scores].any())

    def float32_matters(self) -> bool:
        return self._differs

    def columns(self, scores: str, ties: str, options: EvaluationOptions) -> Mapping[str, np.ndarray]:
        # The rows come ranked: of the options' order, ranked_columns reads the tie policy only (to check it).
        default = replace(options, scoring=replace(options.scoring, ties="trec_eval"))
        base = self._base.columns(default, self._engine)
        if (scores, ties) == ("double", "trec_eval") or not self.mixed(scores):
            return base
        if (scores, ties) not in self._orders:
            self._orders[(scores, ties)] = self._ordered(scores, ties)
        in_order = replace(options, scoring=replace(options.scoring, ties=ties))
        sub = self._orders[(scores, ties)].columns(in_order, self._engine)
        return with_rows(base, self._tied[scores], sub)

    def _ordered(self, scores: str, ties: str) -> Ranked:
        """The ranking of the queries with mixed ties in this order, their slots numbered from 0."""
        rows = self._tied[scores]
        slots = np.flatnonzero(rows)
        found = self._fetch(ordered_select(scores == "float32", ties, self._row, f"mixed_{scores}"))
        slot = np.searchsorted(slots, _ints(found["slot"]))
        group = None
        if ties == "average":
            tie = _ints(found["tie"])
            starts = np.ones(len(slot), dtype=bool)
            starts[1:] = (slot[1:] != slot[:-1]) | (tie[1:] != tie[:-1])
            group = np.cumsum(starts) - 1
        j_slot, j_rel = self._base.judged
        kept = rows[j_slot]
        return Ranked(
            [self._base.qids[i] for i in slots],
            self.in_run[slots],
            (np.searchsorted(slots, j_slot[kept]), j_rel[kept]),
            (slot, _ints(found["position"]), _ints(found["rel"])),
            self._base.retrieved_count[slots],
            ties=ties,
            group=group,
        )
