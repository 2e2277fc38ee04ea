"""Error messages from ndcg_core (and the link reader) in the page's language.

ndcg_core raises ValueErrors in English for every caller: the command line, scripts and the
pages. On a page, ``localise`` rewrites each message a learner can meet into the chosen
language. Every known message shape is a named pattern; its fields fill the template
``error.<name>`` of the language's catalogue. The part that says where the problem is
("grade at position 2", "row 3, label") is translated the same way, through ``where.<name>``.
A message of any other shape is shown as it came.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .i18n import Translator

_LINE = r"line (?P<line>\d+) of (?P<file>.+?): "

SHAPES: dict[str, re.Pattern[str]] = {name: re.compile(pattern) for name, pattern in {
    # Grades and labels typed into a list (ndcg_core.single, ndcg_core.ranked_list).
    "grade_blank": r"(?P<where>.+?) is blank: enter a number",
    "grade_bool": r"(?P<where>.+?) is (?P<value>.+): a grade must be a number, not true/false",
    "grade_nan": r"(?P<where>.+?) is NaN: a grade must be a number",
    "grade_not_number": r"(?P<where>.+?) is (?P<value>.+): not a number",
    "grade_infinite": r"(?P<where>.+?) is (?P<value>.+): a grade must be finite",
    "grade_negative": r"(?P<where>.+?) is (?P<value>.+): grades cannot be negative",
    "grade_above_top": r"(?P<where>.+?) is (?P<value>.+): the top grade is (?P<top>.+)",
    "label_blank": r"(?P<where>.+?) is blank: give the item a name",
    "label_long": r"(?P<where>.+?) has (?P<count>\d+) characters; at most (?P<limit>\d+) fit",
    "top_grade_range": r"the top grade must be 1 to (?P<limit>\d+), got (?P<value>.+)",
    "list_too_long": r"the list would have (?P<count>\d+) items; the Playground holds at most (?P<limit>\d+)",
    "k_whole": r"k must be a whole number of positions, got (?P<value>.+)",
    "k_min": r"k must be at least 1, got (?P<value>.+)",
    "cutoffs_repeat": r"cutoffs must not repeat, got (?P<value>.+)",
    "value_not_number": r"(?P<where>.+?) must be a number, got (?P<value>.+)",
    "value_infinite": r"(?P<where>.+?) must be finite, got (?P<value>.+)",
    # A classroom table of queries typed on the Evaluate page (ui.editing).
    "row_blank": r"row (?P<n>\d+): the (?P<where>query|document) is blank",
    "row_space": r"row (?P<n>\d+): the (?P<where>query|document) (?P<value>.+) has a space; use one word",
    "row_needs": r"row (?P<n>\d+): give a grade, a rank, or both",
    "row_not_number": r"row (?P<n>\d+): the (?P<where>grade) (?P<value>.+) is not a number",
    "row_grade_whole": r"row (?P<n>\d+): the (?P<where>grade) (?P<value>.+) must be a whole number",
    "row_rank_whole": r"row (?P<n>\d+): the (?P<where>rank) (?P<value>.+) is not a whole number",
    "row_rank_min": r"row (?P<n>\d+): the rank must be 1 or more, got (?P<value>.+)",
    "table_no_grades": r"the table has no grades: judge at least one document",
    "table_no_ranks": r"the table has no ranks: rank at least one document",
    # Lists, k values and rankings typed on the pages (ui.editing, ui.sortable, ui.evaluate_view, ui.metrics_view).
    "list_empty_keep": r"the list cannot be empty: keep at least one item",
    "list_none_typed": r"no grades were typed: the list cannot be empty",
    "list_needs_one": r"the list needs at least one item",
    "grades_missing": r"type at least one grade",
    "grades_too_many": r"at most (?P<limit>\d+) grades",
    "k_missing": r"give at least one k, for example 5, 10, 20",
    "k_word": r"k (?P<value>.+) is not a whole number",
    "k_range": r"k (?P<value>-?\d+) is outside 1 to (?P<limit>\d+)",
    "k_too_many": r"at most (?P<limit>\d+) values of k, got (?P<count>\d+)",
    "paired_mismatch": r"the two systems have (?P<a>\d+) and (?P<b>\d+) queries; compare the same queries",
    "paired_few": r"a paired test needs at least 2 queries, got (?P<count>\d+)",
    "file_too_long": r"(?P<file>.+) has (?P<count>[\d,]+) lines; NDCG Lab reads at most (?P<limit>[\d,]+): "
                     r"split it by query",
    # Answers and seeds in Practice (ndcg_core.exercises).
    "number_missing": r"type a number, for example 0\.75",
    "number_comma": r"(?P<value>.+) has a comma: write decimals with a point, for example 1\.5",
    "number_invalid": r"(?P<value>.+) is not a number: type digits, for example 0\.75",
    "number_infinite": r"(?P<value>.+) is not a finite number",
    "answer_missing": r"choose an answer first",
    "seed_whole": r"the seed must be a whole number, got (?P<value>.+)",
    "seed_range": r"the seed must be 0 to (?P<limit>\d+), got (?P<value>.+)",
    # Files (ndcg_core.trec_io, ndcg_core.evaluate).
    "file_nul": _LINE + r"a NUL byte; this looks like a binary file, not text",
    "file_not_utf8": _LINE + r"not UTF-8 text; is this a binary file\?",
    "file_columns": _LINE + r"expected (?P<count>\d+) columns \((?P<names>[^)]*)\), got (?P<got>\d+)",
    "file_columns_min": _LINE + r"expected at least (?P<count>\d+) columns \((?P<names>[^)]*)\), got (?P<got>\d+)",
    "file_header_columns": _LINE + r"expected (?P<count>\d+) columns like the header, got (?P<got>\d+)",
    "file_not_number": _LINE + r"(?P<what>\w+) (?P<value>.+) is not a number",
    "file_unusable": _LINE + r"(?P<what>\w+) (?P<value>.+) is not a usable number",
    "file_grade_whole": _LINE + r"grade (?P<value>.+) is not a whole number "
                                r"\(TREC grades are integers such as 0, 1, 2; -1 marks judged but unusable\)",
    "file_retrieved_twice": _LINE + r"document (?P<doc>.+) of query (?P<query>.+) is retrieved twice "
                                    r"for the same query \(first on line (?P<first>\d+)\)",
    "file_judged_twice": _LINE + r"document (?P<doc>.+) of query (?P<query>.+) is judged twice "
                                 r"\(first on line (?P<first>\d+)\)",
    "file_header_missing": r"line 1 of (?P<file>.+?): the header has no (?P<column>\w+) column for the "
                           r"(?P<what>\w+) \(looked for (?P<looked>.*); found (?P<found>.*)\)",
    "file_field_empty": _LINE + r"the (?P<column>\w+) is empty",
    "file_header_only": r"(?P<file>.+) has a header but no (?P<what>\w+) rows",
    "file_no_lines": r"(?P<file>.+) has no (?P<kind>\w+) lines, only comments or blank lines",
    "file_gzip": r"(?P<file>.+?): not a readable gzip file \((?P<detail>.*)\)",
    "no_shared_query": r"no query of (?P<run>.+) is judged in (?P<qrels>.+): check that the query ids match",
    # The lines a file message quotes, and their problems.
    "quoted_line": r"  line (?P<line>\d+): (?P<text>.*) \((?P<problem>[^()]*(?:\([^()]*\)[^()]*)*)\)",
    "more_bad_lines": r"  \.\.\. and (?P<count>\d+) more bad lines",
    "problem_columns": r"expected (?P<count>\d+) columns \((?P<names>[^)]*)\), got (?P<got>\d+)",
    "problem_columns_min": r"expected at least (?P<count>\d+) columns \((?P<names>[^)]*)\), got (?P<got>\d+)",
    "problem_header_columns": r"expected (?P<count>\d+) columns like the header, got (?P<got>\d+)",
    "problem_not_number": r"(?P<what>\w+) (?P<value>.+) is not a number",
    # Shared links (ui.share).
    "link_empty": r"the link holds no state",
    "link_long": r"the link's state is (?P<count>\d+) characters long; at most (?P<limit>\d+) are read",
    "link_damaged": r"the link's state is damaged \(it may have been cut short or edited\)",
    "link_not_settings": r"the link's state is not a set of settings",
    "link_version": r"the link's state has version (?P<value>.+); this NDCG Lab reads version (?P<version>.+)",
    "link_counts": r"the link has (?P<labels>\d+) labels for (?P<grades>\d+) grades",
    "link_list_empty": r"the link's list is empty",
    "link_k": r"k is (?P<k>.+), but the list has (?P<count>\d+) items",
    "link_gain": r"unknown gain (?P<value>.+); the link may come from another program",
    "link_discount": r"unknown discount (?P<value>[^;]+)",
    "link_ideal": r"unknown ideal (?P<value>[^;]+)",
    "link_custom_gain": r"the link's custom gain has (?P<count>\d+) grades; at most (?P<limit>\d+)",
    "link_base": r"the discount base must be above 1, got (?P<value>.+)",
    "link_extra": r"the link's unretrieved items must be a list of at most (?P<limit>\d+)",
    "link_extra_pair": r"unretrieved item (?P<n>\d+) is not a \(label, grade\) pair",
    "link_lacks": r"the link lacks its (?P<name>.+) part",
    "link_kind": r"the link's (?P<name>.+) part is (?P<value>.+), not the expected kind of value",
    "link_not_whole": r"the link's (?P<name>\w+) (?P<value>.+) is not a whole number",
    "link_range": r"the link's (?P<name>\w+) is (?P<value>-?\d+); it must be (?P<low>-?\d+) to (?P<high>-?\d+)",
    # Last: the widest shape.
    "file_empty": r"(?P<file>.+) is empty",
}.items()}

WHERE: dict[str, re.Pattern[str]] = {name: re.compile(pattern) for name, pattern in {
    "judged_at": r"judged grade at position (?P<n>\d+)",
    "unretrieved_at": r"unretrieved grade at position (?P<n>\d+)",
    "grade_at": r"grade at position (?P<n>\d+)",
    "score_at": r"score at position (?P<n>\d+)",
    "unretrieved_row_grade": r"unretrieved row (?P<n>\d+), grade",
    "row_grade": r"row (?P<n>\d+), grade",
    "row_label": r"row (?P<n>\d+), label",
    "row_score": r"row (?P<n>\d+), score",
    "unretrieved_grade": r"unretrieved grade (?P<n>\d+)",
    "unretrieved_label": r"unretrieved label (?P<n>\d+)",
    "grade_n": r"grade (?P<n>\d+)",
    "label_n": r"label (?P<n>\d+)",
    "new_grade": r"the new grade",
    "discount_base": r"the discount base",
    "gain_of": r"the gain of grade (?P<grade>.+)",
    "gain_for": r"gain for grade (?P<grade>.+)",
    "custom_grade": r"grade in the custom gain",
    "query": r"query",
    "document": r"document",
    "grade": r"grade",
    "rank": r"rank",
}.items()}

_TRANSLATED_FIELDS = {"where": WHERE, "problem": SHAPES}


def localise(message: str, t: Translator) -> str:
    """``message`` in ``t``'s language, line by line; lines of an unknown shape stay as they are."""
    return "\n".join(_line(line, t, SHAPES, "error") for line in message.split("\n"))


def _line(text: str, t: Translator, shapes: dict[str, re.Pattern[str]], prefix: str) -> str:
    for name, shape in shapes.items():
        found = shape.fullmatch(text)
        if found is None:
            continue
        if not t.has(f"{prefix}.{name}"):
            return text
        fields = {
            field: _line(value, t, *_nested(field)) if field in _TRANSLATED_FIELDS else value
            for field, value in found.groupdict().items()
        }
        return t(f"{prefix}.{name}", **fields)
    return text


def _nested(field: str) -> tuple[dict[str, re.Pattern[str]], str]:
    return (WHERE, "where") if field == "where" else (SHAPES, "error")
