"""Bad input as data: one error class, a stable code per problem, and one English template per code.

``InputError(ValueError)`` carries a ``code`` (``grade.not_number``, ``k.too_small``, ``run.columns``)
and ``fields`` (the value as the user gave it, quoted and shortened; its position, row, line, file).
Where the value was is a ``Place``, itself a code with fields, so "grade at position 2" and
"line 7 of run.txt" translate like everything else. ``str(error)`` is the English message; a page
renders the same error in its own language with ``error.render(lookup)``, where ``lookup`` maps a
key (``error.<code>``, ``place.<code>``, ``frame.<name>``) to that language's template.

Every code is a type (``ndcg_core.error_codes``: ``Code``, ``PlaceCode``, ...), so a raise with a code that does
not exist fails the type check, and this module checks when it loads that each code has exactly one English
template here, in ``TEMPLATES`` (read-only). Codes only another layer raises (the UI's editors, actions and page
links) are that layer's: it declares them the same way and makes its own lookup with ``layered``, over the
core's and without changing it, with its own error and place classes (see ``ui/errors.py``).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, get_args

from .error_codes import Code, NoteCode, Outage, PlaceCode

Lookup = Callable[[str], str]

LARGEST_FLOAT = 1.7976931348623157e308

# Where a value was. Fields are numbers or names the user chose (a file name), never English words.
PLACES: dict[PlaceCode, str] = {
    "list.grades": "the grades",
    "list.grade": "grade at position {position}",
    "list.scores": "the scores",
    "list.score": "score at position {position}",
    "list.item": "item id at position {position}",
    "pool.grades": "the judged grades (the ideal)",
    "pool.grade": "judged grade at position {position}",
    "table.grade": "row {row}, grade",
    "table.label": "row {row}, label",
    "table.score": "row {row}, score",
    "table.item": "row {row}, item",
    "extra.grade": "unretrieved row {row}, grade",
    "extra.item": "unretrieved row {row}, item",
    "new.grade": "the new grade",
    "gain.grade": "a grade in the custom gain",
    "gain.of": "the gain of grade {grade}",
    "discount.base": "the discount base b",
    "metric.max_grade": "the top grade of the scale (max_grade)",
    "metric.n_relevant": "the number of relevant items (n_relevant)",
    "k": "k",
    "top_grade": "the top grade",
    "option.max_docs": "-M",
    "measure.cutoff": "a cutoff of measure {measure}",
    "measure.level": "a level of measure {measure}",
    "measure.gain": "the gain for level {level} of measure {measure}",
    "seed": "the seed",
    "file.line": "line {line} of {file}",
    "frame.row": "row {row} of {frame}",
    "link.label": "label {position}",
    "link.grade": "grade {position}",
    "link.extra_label": "unretrieved label {position}",
    "link.extra_grade": "unretrieved grade {position}",
    "link.gain_grade": "custom-gain grade",
    "room.code": "the room code",
    "go.code": "the short link's code",
    "room.nickname": "the nickname",
    "activity.count": "the number of exercises",
    "lesson.field": "field {field}",
    "lesson.activity_field": "activity {number} ({kind}), field {field}",
    "lesson.activity": "activity {number} ({kind})",
    "lesson.code": "the lesson's code",
}

MESSAGES: dict[Code, str] = {
    # A number the user typed or passed: a grade, a score, a gain, k, an answer.
    "number.not_list": "{place} must be a list of numbers, got {value}",
    "number.blank": "{place} is blank: enter a number",
    "number.bool": "{place} is {value}: enter a number, not true or false",
    "number.not_number": "{place} is {value}: not a number",
    "number.complex": "{place} is {value}: a complex number; enter a real number",
    "number.nan": "{place} is NaN: enter a number",
    "number.infinite": "{place} is {value}: enter a finite number",
    "number.too_large": "{place} is {value}: larger than {limit}, the largest number a float holds",
    "grade.negative": "{place} is {value}: grades cannot be negative",
    "grade.above_top": "{place} is {value}: the top grade is {top}",
    "top_grade.range": "{place} must be 1 to {limit}, got {value}",
    # Item labels and ids.
    "label.blank": "{place} is blank: give the item a name",
    "label.too_long": "{place} has {count} characters; at most {limit} fit",
    "item.not_text": "{place} is {value}: it holds a character that is not text (a lone surrogate)",
    "item.blank": "{place} is blank: give every item an id",
    "item.space": "{place} is {value}: an id is one word, without spaces",
    "item.repeated": "{place} is {value}, which appears twice",
    "item.unknown": "no item has id {value}",
    # k and lists of cutoffs.
    "k.not_whole": "{place} must be a whole number, got {value}",
    "k.too_small": "{place} must be at least {low}, got {value}",
    "k.too_large": "{place} must be at most {limit}, got {value}",
    "k.required": "this metric needs k, for example k=10",
    "k.none": "give at least one k, for example 5, 10, 20",
    "k.too_many": "at most {limit} values of k, got {count}",
    "k.not_evaluated": "k = {value} was not evaluated; the cutoffs are {cutoffs}",
    # Lengths that must match, sizes that must fit.
    "count.items": "{items} item ids for {grades} grades",
    "count.scores": "{scores} scores for {grades} grades",
    "count.labels": "{labels} labels for {grades} grades",
    "list.empty": "the list cannot be empty: keep at least one item",
    "list.none_typed": "no grades were typed: the list cannot be empty",
    "list.too_long": "the list would have {count} items; it can hold at most {limit}",
    "list.move": "cannot move from position {source} to position {target}: the list has positions 1 to {count}",
    # Variants and other named choices.
    "gain.unknown": "unknown gain {value}; choose one of {choices}",
    "discount.unknown": "unknown discount {value}; choose one of {choices}",
    "ties.unknown": "unknown tie policy {value}; choose one of {choices}",
    "ideal.unknown": "unknown ideal {value}; choose one of {choices}",
    "preset.unknown": "unknown preset {value}; choose one of {choices}",
    "results.unknown": "unknown result list {value}; choose one of {choices}",
    "convention.unknown": "unknown convention {value}; choose one of {choices}",
    "variant.parameter": "{variant} takes no parameter {value}; its parameters are {parameters}",
    "gain.not_mapping": "a custom gain needs a mapping of grade to gain, got {value}",
    "discount.base": "{place} must be greater than 1, got {value}",
    # Arithmetic at the edges.
    "ideal.lacks_grade": "the judged pool lacks the grade {value} of position {position}: each grade of the "
    "list that has a positive gain must be in the pool as often as in the list (an unjudged item counts 0 "
    "and needs no entry)",
    "result.too_large": "the {measure} of this list is larger than {limit}, the largest number a float holds; "
    "NDCG, a ratio, can still be computed",
    # Other metrics.
    "metric.n_relevant": "{place} must be a whole number, 0 or more, got {value}",
    "metric.n_relevant_small": "{place} is {value}, but the list alone holds {count} relevant items",
    "metric.max_grade_below": "{place} is {value}, below the list's grade {grade}",
    # Practice: seeds and answers.
    "seed.not_whole": "{place} must be a whole number, got {value}",
    "seed.range": "{place} must be 0 to {limit}, got {value}",
    "answer.blank": "type a number, for example 0.75",
    "answer.comma": "{value} has a comma: write decimals with a point, for example 1.5",
    "answer.not_number": "{value} is not a number: type digits, for example 0.75",
    "answer.infinite": "{value} is not a finite number",
    "explain_change.unknown": "unknown convention change {value}; choose one of {choices}",
    "explain_library.unknown": "unknown tool {value}; choose one of {choices}",
    "explain.whole_grades": "grade {value} is not a whole number: qrels files hold whole grades",
    "answer.no_choice": "choose an answer first",
    "answer.part": "there is no part {value} to answer; this question has {count}",
    # Predict first (ndcg_core/lists/guess.py).
    "guess.direction": "choose first whether NDCG goes up, goes down or stays the same",
    "guess.size": "choose first roughly how much NDCG changes: a little, some or a lot",
    "reach.too_long": "finding the fewest moves tries every order; {count} items is too many (at most {limit})",
    # Naming a learner's mistake (ndcg_core/teaching/mistakes.py).
    "mistake.unknown": "unknown mistake {value}; choose one of {choices}",
    "mistake.metric": "unknown question {value}: a mistake is named for one of {choices}",
    "mistake.no_position": "a question on one DCG term needs its position, 1 to {count}",
    "mistake.position": "{value} is not a position of the list: choose 1 to {count}",
    "mistake.not_here": "the mistake {value} cannot show in a question on {metric} for this list",
    "worksheet.cell": "{value} is not a cell of this worksheet",
    # Files: reading.
    "file.missing": "{file}: no such file",
    "file.folder": "{file}: is a folder, not a file",
    "file.unreadable": "{file}: cannot be read ({reason})",
    "file.source": "cannot read a {kind}: give a path, bytes or an open file",
    "file.gzip": "{file}: not a readable gzip file (it may be cut short or damaged)",
    "file.empty": "{file} is empty",
    "file.nul": "{place}: a NUL byte; this looks like a binary file, not text",
    "file.not_utf8": "{place}: not UTF-8 text; is this a binary file?",
    "file.too_long": "{file} has {count} lines; NDCG Lab reads at most {limit}: split it by query",
    # Files: qrels.
    "qrels.columns": "{place}: expected 4 columns (qid iter docno rel), got {count}",
    "qrels.no_lines": "{file} has no judgments, only comments or blank lines",
    "qrels.grade_not_number": "{place}: grade {value} is not a number",
    "qrels.grade_not_whole": "{place}: grade {value} is not a whole number (TREC grades are integers such as "
    "0, 1, 2; -1 marks judged but unusable)",
    "qrels.grade_too_large": "{place}: grade {value} is beyond {limit}, the largest grade read exactly",
    "qrels.duplicate": "{place}: document {document} of query {query} is judged twice (first on line {first})",
    "qrels.header_missing": "line 1 of {file}: the header has no {column} column for the judgments "
    "(looked for {looked}; found {found})",
    "qrels.header_only": "{file} has a header but no judgments",
    # Files: runs.
    "run.columns": "{place}: expected at least 6 columns (qid Q0 docno rank score tag), got {count}",
    "run.no_lines": "{file} has no ranked documents, only comments or blank lines",
    "run.score_not_number": "{place}: score {value} is not a number",
    "run.score_nan": "{place}: score {value} is not a usable number",
    "run.rank_not_number": "{place}: rank {value} is not a number",
    "run.rank_not_finite": "{place}: rank {value} is not a finite number",
    "run.duplicate": "{place}: document {document} of query {query} is retrieved twice (first on line {first})",
    "run.header_missing": "line 1 of {file}: the header has no {column} column for the ranking "
    "(looked for {looked}; found {found})",
    "run.header_only": "{file} has a header but no ranked documents",
    # Files: CSV/TSV with a header.
    "csv.columns": "{place}: expected {expected} columns like the header, got {count}",
    "csv.field_empty": "{place}: the {column} is empty",
    # Evaluation over many queries.
    "files.no_shared_query": "no query of {run} is judged in {qrels}: check that the query ids match",
    "files.swapped": "{qrels} looks like a run and {run} like qrels: are the two files swapped?",
    "measure.not_text": "a measure is a name such as ndcg_cut.10, got {value}",
    "measure.unknown": "unknown measure {value}: this tool computes {families}",
    "measure.gain_pair": "measure {measure}: {value} should be LEVEL=GAIN, such as 2=9",
    "measure.level_twice": "measure {measure}: level {level} is given two gains; give each level once",
    "measure.not_one": "{value} names {count} measures; name one, such as ndcg_cut.10",
    "flag.not_bool": "{name} must be True or False, got {value}",
    "cli.gain_and_custom": "--gain cannot be combined with a custom gain per grade (ndcg.LEVEL=GAIN)",
    "engine.unknown": "unknown engine {value}; choose one of {choices}",
    "engine.ties": "--engine {engine} orders tied scores as trec_eval does; --ties {ties} needs the default engine",
    "engine.not_installed": "--engine {engine} needs the Python package {package}: pip install 'ndcg-lab[{extra}]'",
    "engine.spark_start": "Spark did not start on {master} ({reason}); --engine spark needs Java 17 or later",
    # Comparing two systems.
    "paired.mismatch": "the two systems have {a} and {b} queries; compare the same queries",
    "paired.too_few": "a paired test needs at least 2 queries, got {count}",
    "compare.runs": "a comparison needs a baseline and at least one more run, got {count} run(s)",
    "compare.names": "{names} names for {runs} runs; give one name per run",
    "compare.same_name": "two runs are named {value}; give each run its own name",
    "frame.not_table": "{frame} is a {value}, not a pandas DataFrame or a pyarrow Table",
    "frame.column": "{frame} has no column {column} for the {role}; its columns are {columns}",
    "frame.null": "{place}: the {column} column is empty there; every row needs a value",
    "frame.id_type": "{frame}'s {column} column holds {type}; ids are strings or integers",
    # A Playground link's state (``ListSpec.from_link`` in ndcg_core/lists/spec.py), and small whole numbers in a
    # link (``link_number`` there: a custom gain's grade, a Learn step, a Practice exercise number).
    "link.empty": "the link holds no state",
    "link.too_long": "the link's state is {count} characters long; at most {limit} are read",
    "link.damaged": "the link's state is damaged (it may have been cut short or edited)",
    "link.not_settings": "the link's state is not a set of settings",
    "link.version": "the link's state has version {value}; this NDCG Lab reads version {version}",
    "link.counts": "the link has {labels} labels for {grades} grades",
    "link.list_empty": "the link's list is empty",
    "link.k": "k is {value}, but the list has {count} items",
    "link.gain": "unknown gain {value}; the link may come from another program",
    "link.discount": "unknown discount {value}",
    "link.ideal": "unknown ideal {value}",
    "link.custom_gain": "the link's custom gain has {count} grades; at most {limit}",
    "link.base": "the discount base must be above 1, got {value}",
    "link.extra": "the link's unretrieved items must be a list of at most {limit}",
    "link.extra_pair": "unretrieved item {position} is not a (label, grade) pair",
    "link.lacks": "the link lacks its {name} part",
    "link.kind": "the link's {name} part is {value}, not the expected kind of value",
    "link.not_whole": "the link's {place} {value} is not a whole number",
    "link.range": "the link's {place} is {value}; it must be {low} to {high}",
    # The live classroom: rooms, joining, answering.
    "room.setting": "the setting {name} is {value}: it must be a number above 0",
    "store.setting": "the setting {name} is {value}: it must be a whole number, {low} or more",
    "room.code_blank": "{place} is blank: type the 6 characters shown on the screen",
    "room.code_length": "{place} {value} does not have {length} characters",
    "room.code_letters": "{place} {value} has {letters}, which no code uses (codes have no 0, O, 1, I or L)",
    "room.unknown": "there is no open room {code}: check the code on the screen",
    "room.ended": "the teacher has ended this room",
    "room.full": "the room is full: it holds at most {limit} students",
    "room.too_many": "{limit} rooms are open already, the most this server holds; try again later",
    "room.join_wait": "too many wrong codes from here: wait {seconds} seconds and try again",
    "room.join_busy": "many are joining from this network at once: wait {seconds} seconds and press Join again",
    "room.closed": "the teacher has closed joining this room",
    "room.seats": "{value} is not a room size: give a whole number from 1 to {limit}",
    "room.passphrase": "this server starts rooms for lecturers only: type the lecturer's passphrase",
    "room.started_many": (
        "{limit} rooms were started from here within the hour, the most one place may start; try again in "
        "{minutes} minutes"
    ),
    "room.proxy_setting": "the setting {name} has {value}, which is not an address or a network such as 10.0.0.0/8",
    "room.bad_key": "this link does not control the room: its key is not the room's key",
    "room.bad_student": "the student id {value} in the link is not one this app made",
    "room.nickname_long": "the nickname has {count} characters; at most {limit} fit",
    "room.nickname_control": "the nickname {value} holds an invisible control character",
    "room.nickname_invisible": "the nickname {value} would show nothing: write at least one letter or digit",
    "room.not_joined": "join the room before answering",
    "room.not_current": "this activity has closed: the teacher has opened another",
    "room.locked": "answers are locked: the teacher is no longer taking them",
    "room.too_fast": "too many answers too fast: wait a second and send it again",
    "room.no_activity": "open an activity first",
    "room.phase": "unknown phase {value}; choose one of {choices}",
    "room.revealed_final": (
        "this activity has been revealed, so its answers are final: run it again as a new round to take answers"
    ),
    "room.schema": "the classroom database has schema version {value}; this NDCG Lab reads version {version}",
    "room.public_url_scheme": "{name} is {value}: it must start with http:// or https://, e.g. https://ndcg.example.edu",
    "room.public_url_host": "{name} is {value}: it has no host name, or a bad port; e.g. https://ndcg.example.edu",
    "room.public_url_extra": "{name} is {value}: give the app's address alone, with no user name, ? query or # part",
    "room.public_url_space": "{name} is {value}: an address cannot hold spaces or control characters",
    "activity.kind": "unknown activity {value}; choose one of {choices}",
    "activity.gain": "the classroom scores with gain {choices}, not {value}",
    "activity.twist": "unknown twist {value}; choose one of {choices}",
    "activity.pair": "unknown pair of rankings {value}; choose one of {choices}",
    "activity.metric": "unknown metric {value}; choose one of {choices}",
    "activity.estimate_range": "{value} is outside 0 to 1: NDCG is between 0 and 1",
    "activity.order": "the order {value} is not an order of the list's {count} items",
    "activity.vote": "{value} is not a vote: choose A, B or the same",
    "activity.part": "there is no exercise {value}; this set has {count}",
    "activity.choice": "{value} is not one of the choices {choices}",
    "activity.scale": "a judging scale runs from a whole number, 0 or more, to a higher one at most {steps} above "
    "it; {low} to {high} is not one",
    "activity.off_scale": "the grade {value} at position {position} is outside the judging scale {low} to {high}",
    "activity.result": "there is no result {value}; this list has {count}",
    "activity.grade": "{value} is not a grade of the scale: choose a whole number from {low} to {high}",
    "activity.mistake_unknown": "option {position} is {value}, not a mistake; choose one of {choices}",
    "activity.mistake_not_here": "option {position}, the mistake {value}, cannot be made on this list; the mistakes "
    "that give a wrong NDCG here are {choices}",
    "activity.mistake_right": "option {position}, the mistake {value}, gives the right NDCG@{k} on this list, "
    "{number}; choose another of {choices}",
    "activity.mistake_same": "option {position}, the mistake {one}, gives the same number as {other} on this list, "
    "{number}; choose another mistake",
    "activity.mistakes_few": "this list gives only {count} wrong numbers at least {apart} apart and from the right "
    "NDCG@{k}; Which is right? needs {needed}: choose another list or another k",
    # Lessons (TOML files): where a problem is names the activity and the field.
    "lesson.too_large": "{file} has {count} bytes; a lesson file holds at most {limit}",
    "lesson.too_deep": "{file}, line {line}: lists and tables nested more than {limit} deep; a lesson needs 3 at most",
    "lesson.nested": "{file}: lists and tables nested too deep to read; a lesson needs 3 levels at most",
    "lesson.key_parts": "{file}, line {line}: a key or table name of more than {limit} dotted parts; a lesson's "
    "longest has 2",
    "lesson.syntax": "{file}, line {line}, column {column}: this is not valid TOML ({reason})",
    "lesson.syntax_end": "{file}: this is not valid TOML; it ends too soon ({reason})",
    "lesson.format": "{place} is {value}: this NDCG Lab reads lesson format {version}",
    "lesson.missing": "{place} is missing",
    "lesson.unknown_field": "{place} is not a field of the format here; the fields are {fields}",
    "lesson.not_text": "{place} is {value}: write text in quotes",
    "lesson.text_blank": "{place} is blank",
    "lesson.text_long": "{place} has {count} characters; at most {limit} fit",
    "lesson.not_whole": "{place} is {value}: write a whole number",
    "lesson.out_of_range": "{place} is {value}: it must be {low} to {high}",
    "lesson.not_bool": "{place} is {value}: write true or false",
    "lesson.choice": "{place} is {value}; choose one of {choices}",
    "lesson.not_list": "{place} is {value}: write a list in brackets, such as [3, 0, 2]",
    "lesson.not_table": "{place} is {value}: write a table of its fields in braces",
    "lesson.grade": "{place}: grade {position} is {value}, not a number",
    "lesson.grade_negative": "{place}: grade {position} is {value}; grades cannot be negative",
    "lesson.item_not_text": "{place}: item {position} is {value}; write it as text in quotes",
    "lesson.item_blank": "{place}: item {position} is blank",
    "lesson.item_long": "{place}: item {position} has {count} characters; at most {limit} fit",
    "lesson.count": "{place}: {grades} grades for {items} items; give one grade per item",
    "lesson.grade_disagrees": "{place}: {value} has grade {first} in one ranking and {second} in the other; a result "
    "has one grade",
    "lesson.exercise_kind": "{place}: exercise {position} is {value}; choose from {choices}",
    "lesson.scale": "{place} is {value}: write two whole numbers, such as [0, 4]",
    "lesson.not_activity": "activity {number} is {value}: write each activity as an [[activity]] table",
    "lesson.no_activities": "the lesson has no activities: add at least one [[activity]] table",
    "lesson.too_many": "the lesson has {count} activities; at most {limit} fit",
    "lesson.problem": "{place}: {problem}",
    "lesson.unknown": "there is no saved lesson {code}: check the code",
    "room.no_lesson": "this room runs no lesson: choose one first",
    "room.lesson_step": "there is no activity {value} in this lesson; it has {count}",
    "room.time_up": "time is up: answers closed when the countdown reached zero",
    "go.page": "a short link cannot hold page {value}; it holds {choices}",
    "go.unknown": "there is no short link {code}: check the code",
    "go.too_many": "this address has made {count} short links in the last hour, as many as one may; the full link "
    "works as well, or make a short one later",
}

# When the classroom's database cannot serve (``StoreUnavailable``): not bad input, nothing the user can fix by
# typing; the message says what happened and that what they did was not saved.
OUTAGES: dict[Outage, str] = {
    "store.unavailable": "the classroom's database is not answering: this was not saved; try again in a moment",
    "store.read_only": "the classroom cannot save: its database is read-only (ask whoever runs this server)",
    "store.full": "the classroom cannot save: its database's disk is full (ask whoever runs this server)",
}

# How messages are put together: a quoted line after its problem, and the count of further problems.
FRAMES: dict[str, str] = {
    "quote": "{message} (the line reads {quote})",
    "more_one": "1 more bad line",
    "more_many": "{count} more bad lines",
}

# What the core says about an input it accepted by reading it one particular way (not an error).
NOTES: dict[NoteCode, str] = {
    "answer.comma_read": "read {value} as {meant}",
}


def check_codes(codes: Any, templates: Mapping[Any, str], what: str) -> None:
    """Each code of the ``Literal`` type ``codes`` has a template in ``templates`` and each template a code; a
    ``TypeError`` names the difference. Called where the codes are declared, so a missing template stops the
    module from loading."""
    declared = set(get_args(codes))
    missing, unused = sorted(declared - set(templates)), sorted(set(templates) - declared)
    if missing or unused:
        raise TypeError(f"{what}: codes without a template {missing}; templates without a code {unused}")


check_codes(Code, MESSAGES, "ndcg_core.errors.MESSAGES")
check_codes(Outage, OUTAGES, "ndcg_core.errors.OUTAGES")
check_codes(PlaceCode, PLACES, "ndcg_core.errors.PLACES")
check_codes(NoteCode, NOTES, "ndcg_core.errors.NOTES")

# Every English template by key (``error.<code>``, ``place.<code>``, ``note.<code>``, ``frame.<name>``), read-only.
TEMPLATES: Mapping[str, str] = MappingProxyType(
    {
        **{f"error.{code}": text for code, text in MESSAGES.items()},
        **{f"note.{code}": text for code, text in NOTES.items()},
        **{f"error.{code}": text for code, text in OUTAGES.items()},
        **{f"place.{code}": text for code, text in PLACES.items()},
        **{f"frame.{name}": text for name, text in FRAMES.items()},
    }
)


def layered(*, messages: Mapping[Any, str], places: Mapping[Any, str] | None = None) -> Mapping[str, str]:
    """The core's templates with another layer's own codes (the UI's: its editors, actions and page links) over
    them, as a new read-only lookup; the core's ``TEMPLATES`` stays as it is.

    One template per code: a code the core has already is refused (a ``KeyError`` names it).
    """
    table = {f"error.{code}": text for code, text in messages.items()}
    table.update({f"place.{code}": text for code, text in (places or {}).items()})
    clashes = sorted(key for key in table if key in TEMPLATES)
    if clashes:
        raise KeyError(f"these codes have a template in the core already: {', '.join(clashes)}")
    return MappingProxyType({**TEMPLATES, **table})


def error_code(text: str) -> Code:
    """A code made from parts (a registry's ``<kind>.unknown``), checked now: a ``KeyError`` if the core has no
    such code. Made when a module loads, so that a wrong one stops it loading rather than waiting to be raised."""
    if text not in MESSAGES:
        raise KeyError(f"no error code {text!r}: add it to ndcg_core.error_codes with its template in MESSAGES")
    return text


def english(key: str) -> str:
    """The English template of ``key`` (``error.<code>``, ``place.<code>`` or ``frame.<name>``)."""
    return TEMPLATES[key]


def placeholders(template: str) -> set[str]:
    """The field names a template fills, e.g. ``{"place", "value"}``."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def shown(value: Any, limit: int = 40) -> str:
    """A value the user gave, as a message quotes it: ``repr`` (so text is quoted and escaped), at most ``limit``
    long."""
    try:
        text = repr(value)
    except Exception:  # an object whose repr fails is still named by its type
        text = f"<{type(value).__name__}>"
    if isinstance(value, int) and not isinstance(value, bool) and len(text) > limit:
        return f"{text[:12]}...({len(text)} digits)"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def number_text(value: float) -> str:
    """A number written the short way: 3 rather than 3.0, 2.5, 1e+300."""
    return f"{value:g}"


class Place:
    """Where a bad value was: a code such as ``list.grade`` and its fields (position, row, line, file).

    ``templates`` is the lookup its code is checked against and rendered from by default (a layer's subclass has
    its own, ``layered`` over the core's)."""

    __slots__ = ("code", "fields")
    templates: ClassVar[Mapping[str, str]] = TEMPLATES
    code: str
    fields: dict[str, Any]

    def __init__(self, code: PlaceCode, /, **fields: Any) -> None:
        self._make(code, fields)

    def _make(self, code: str, fields: dict[str, Any]) -> None:
        _check(self.templates, f"place.{code}", fields)
        self.code = code
        self.fields = fields

    def render(self, lookup: Lookup | None = None) -> str:
        lookup = lookup or self.templates.__getitem__
        return _fill(lookup(f"place.{self.code}"), self.fields, lookup)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Place({self.code!r}, {self.fields!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Place) and (self.code, self.fields) == (other.code, other.fields)

    def __hash__(self) -> int:
        return hash(self.code)


class Note:
    """What the reader of an input says about how it read it ("read 0,62 as 0.62"): a code such as
    ``answer.comma_read`` with its fields, rendered as an error is, from ``note.<code>``."""

    __slots__ = ("code", "fields")

    def __init__(self, code: NoteCode, /, **fields: Any) -> None:
        _check(TEMPLATES, f"note.{code}", fields)
        self.code: str = code
        self.fields = fields

    def render(self, lookup: Lookup = english) -> str:
        return _fill(lookup(f"note.{self.code}"), self.fields, lookup)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Note({self.code!r}, {self.fields!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Note) and (self.code, self.fields) == (other.code, other.fields)

    def __hash__(self) -> int:
        return hash(self.code)


class InputError(ValueError):
    """Bad input, with a stable ``code`` and the ``fields`` that fill its message.

    ``quote`` is the offending line of a file, as text; ``also`` holds further problems of the same
    input (each an ``InputError``) and ``more`` how many more there were beyond those. ``templates`` is the
    lookup its code is checked against and rendered from by default (a layer's subclass has its own).
    """

    templates: ClassVar[Mapping[str, str]] = TEMPLATES
    code: str

    def __init__(
        self,
        code: Code,
        /,
        *,
        quote: str | None = None,
        also: tuple[InputError, ...] = (),
        more: int = 0,
        **fields: Any,
    ) -> None:
        self._make(code, quote, also, more, fields)

    def _make(
        self, code: str, quote: str | None, also: tuple[InputError, ...], more: int, fields: dict[str, Any]
    ) -> None:
        _check(self.templates, f"error.{code}", fields)
        self.code = code
        self.fields = fields
        self.quote = quote
        self.also = tuple(also)
        self.more = int(more)
        super().__init__(self.render())

    @property
    def place(self) -> Place | None:
        place = self.fields.get("place")
        return place if isinstance(place, Place) else None

    def render(self, lookup: Lookup | None = None) -> str:
        """The message in the language ``lookup`` gives (English by default), one line per problem."""
        lines = [_one(self, lookup)] + [_one(other, lookup) for other in self.also]
        if self.more:
            frame = (lookup or english)("frame.more_one" if self.more == 1 else "frame.more_many")
            lines.append(_fill(frame, {"count": self.more}, lookup))
        return "\n".join(lines)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.code, self.fields, self.quote, self.also, self.more))


class StoreUnavailable(RuntimeError):
    """The classroom's database cannot serve now: not answering (``store.unavailable``, after retries), read-only
    (``store.read_only``) or out of disk (``store.full``). Whatever the call would have written was rolled back.

    Like an ``InputError`` it has a stable ``code`` and renders in a page's language with ``render(lookup)``; it is
    not a ``ValueError``, so no caller mistakes it for a refusal of what the user typed.
    """

    def __init__(self, code: str, /, **fields: Any) -> None:
        # A plain str: the store picks the outage from the database's answer; an unknown one is refused here.
        if code not in OUTAGES:
            raise KeyError(f"no outage {code}")
        _check(TEMPLATES, f"error.{code}", fields)
        self.code = code
        self.fields = fields
        super().__init__(self.render())

    def render(self, lookup: Lookup = english) -> str:
        return _fill(lookup(f"error.{self.code}"), self.fields, lookup)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_outage, (self.code, self.fields))


def _rebuild_outage(code: str, fields: dict[str, Any]) -> StoreUnavailable:
    return StoreUnavailable(code, **fields)


def _rebuild(
    kind: type[InputError],
    code: str,
    fields: dict[str, Any],
    quote: str | None,
    also: tuple[InputError, ...],
    more: int,
) -> InputError:
    error = kind.__new__(kind)
    error._make(code, quote, also, more, fields)
    return error


def _one(error: InputError, lookup: Lookup | None) -> str:
    own = lookup or error.templates.__getitem__
    message = _fill(own(f"error.{error.code}"), error.fields, lookup)
    if error.quote is not None:
        message = _fill(own("frame.quote"), {"message": message, "quote": shown(error.quote, 80)}, lookup)
    return message


def _fill(template: str, fields: Mapping[str, Any], lookup: Lookup | None) -> str:
    # A place, or a problem inside another (a lesson's activity), is rendered in the same language; with no
    # lookup given, each in its own English (a layer's place inside a core error).
    return template.format(
        **{
            name: value.render(lookup) if isinstance(value, Place | InputError) else value
            for name, value in fields.items()
        }
    )


def _check(templates: Mapping[str, str], key: str, fields: Mapping[str, Any]) -> None:
    # A code raised with other fields than its template names is a bug of ours: say which, loudly.
    template = templates.get(key)
    if template is None:
        raise KeyError(f"no template for {key}")
    if placeholders(template) != set(fields):
        raise TypeError(f"{key} takes the fields {sorted(placeholders(template))}, got {sorted(fields)}")
