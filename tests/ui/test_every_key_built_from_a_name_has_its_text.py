"""No raw text key on any screen: every key the UI builds at run time from a name (a registry entry, an activity
kind, a phase, a column) has its text in both catalogues, for every name it can be built from.

A lecturer projected "discount conventions.discount.jk": the J&K discount had no key under ``conventions.discount``.
The table below lists each key pattern with the names that fill it, taken from the registries and constants the
pages build from, so a new entry without its texts fails here. The last test reads the UI's source for keys built
with an f-string and fails on a pattern the table does not cover, so a new pattern cannot be missed either.
"""

import re
from pathlib import Path

import pytest

from ndcg_core.classroom.kinds import KINDS
from ndcg_core.classroom.kinds.compare import METRICS as VOTE_METRICS
from ndcg_core.classroom.kinds.compare import PAIRS, VOTES
from ndcg_core.classroom.kinds.lists import ACTIVITY_GAINS, activity_list, list_conventions
from ndcg_core.classroom.kinds.rank import TWISTS
from ndcg_core.classroom.storage import PHASES
from ndcg_core.lists.discounts import DISCOUNTS
from ndcg_core.lists.gains import GAINS
from ndcg_core.lists.guess import DIRECTIONS, GUESS_MISTAKES, SIZES
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.results import RESULTS
from ndcg_core.lists.spec import LIST_IDEALS
from ndcg_core.lists.ties import TIE_POLICIES
from ndcg_core.teaching import exercises, predict, worksheet
from ndcg_core.teaching.catalogue import CHANGES, LIBRARIES
from ndcg_core.teaching.conventions import CONVENTIONS
from ndcg_core.teaching.explain import IDLE_WORDS
from ndcg_core.teaching.metrics import METRICS
from ndcg_core.teaching.mistakes import METRICS as MISTAKE_QUESTIONS
from ndcg_core.teaching.mistakes import MISTAKES
from ndcg_core.teaching.slips import STEPS as SLIP_STEPS
from ndcg_core.trec.evaluate import IDEALS
from ui import classroom_results, editing
from ui.exercise_text import conventions_text
from ui.i18n import LANGUAGES, Translator, catalogue
from ui.mistake_text import GROUPS, SLIP_TEXTS
from ui.views import evaluate, learn, playground
from ui.views.classroom import lesson_editor, lesson_run, sources
from ui.widgets import table

UI = Path(__file__).resolve().parents[2] / "ui"

# pattern ("{}" where the name goes) -> the names it is built from
NAMES: dict[str, tuple[str, ...]] = {
    # registries
    "gain.{}.label": tuple(GAINS.names()),
    "gain.{}.description": tuple(GAINS.names()),
    "discount.{}.label": tuple(DISCOUNTS.names()),
    "discount.{}.description": tuple(DISCOUNTS.names()),
    "ties.{}.label": tuple(TIE_POLICIES.names()),
    "ties.{}.description": tuple(TIE_POLICIES.names()),
    "preset.{}.label": tuple(PRESETS.names()),
    "preset.{}.description": tuple(PRESETS.names()),
    "results.{}.label": tuple(RESULTS.names()),
    "convention.{}.label": tuple(CONVENTIONS.names()),
    "convention.{}.description": tuple(CONVENTIONS.names()),
    # what an explained number's conventions change, and the tools (ui/explain_number.py)
    "explain_change.{}.label": tuple(CHANGES.names()),
    "explain_change.{}.description": tuple(CHANGES.names()),
    "explain_library.{}.label": tuple(LIBRARIES.names()),
    "explain_library.{}.description": tuple(LIBRARIES.names()),
    "explain.idle.{}": tuple(IDLE_WORDS),
    # what a question or a class list is scored under (ui/exercise_text.py)
    "conventions.gain.{}": (*ACTIVITY_GAINS, exercises.GAIN),
    "conventions.discount.{}": tuple(DISCOUNTS.names()),
    "conventions.ideal.{}": LIST_IDEALS,
    "conventions.{}": ("mrr", "precision"),
    # the classroom
    "classroom.kind.{}": tuple(KINDS.names()),
    "classroom.kind_help.{}": tuple(KINDS.names()),
    "classroom.metric.{}": VOTE_METRICS,
    "classroom.vote.{}": VOTES,
    "classroom.pair.{}": tuple(PAIRS),
    "classroom.twist.{}": TWISTS,
    "classroom.phase.{}": PHASES,
    "classroom.csv.{}": (*classroom_results.COLUMNS, "points"),
    "classroom.source.{}": sources.SOURCES,
    "classroom.{}": ("results", "preset"),
    "classroom.lesson_source.{}": lesson_run.LESSON_SOURCES,
    "classroom.unsent.{}": ("choice", "estimate", "grades", "order", "practice", "vote"),
    "classroom.judge_alpha_{}": ("well", "roughly", "disagree", "none"),
    "classroom.judge_verdict_{}": ("well", "roughly", "disagree"),
    "classroom.join_note.{}": ("server_local", "deploy_local"),
    "classroom.csv.metric.{}": ("ndcg", "dcg", *VOTE_METRICS),
    "classroom.csv.ideal.{}": LIST_IDEALS,
    "classroom.group.{}": GROUPS,
    "editor.from.{}": lesson_editor.FROM,
    # the mistakes a learner's number is traced to (ui/mistake_text.py)
    "mistake.{}.label": tuple(MISTAKES.names()),
    "mistake.{}.did": tuple(MISTAKES.names()),
    "mistake.{}.fix": tuple(MISTAKES.names()),
    # a slip located (ui/mistake_text.py): its kind's sentence and the step it is in
    "mistakes.slip.{}": SLIP_TEXTS,
    "mistakes.slip_where.{}": SLIP_STEPS,
    "mistakes.rebuilt.{}": (*MISTAKE_QUESTIONS, "ndcg_undivided", "factor"),
    # Practice and Learn
    "practice.kind.{}": exercises.KINDS,
    "practice.why.{}": exercises.FORMS,
    "practice.prompt.{}": tuple(f for f in exercises.FORMS if f not in ("better_order", "gap")),
    "practice.choice.{}": ("a", "b", "up", "down", "same"),
    "learn.step.{}": tuple(str(s) for s in range(1, learn.STEPS + 1)),
    "learn.why.{}": tuple(str(s) for s in learn.CHECKED),
    "learn.question.{}": tuple(str(s) for s in learn.CHECKED),
    "learn.sheet.name.{}": worksheet.KINDS,
    "learn.predict.{}": ("direction", "band"),
    "learn.predict.direction.{}": predict.DIRECTIONS,
    "learn.predict.band.{}": predict.band_names(),
    "learn.predict.verdict.{}": ("right", "half", "wrong"),
    "learn.predict.after.{}": tuple(str(s) for s in learn.PREDICTED),
    "learn.pool.{}": tuple(learn.POOLS),
    # the Playground, Evaluate, Metrics and the tables
    "playground.ideal.{}": LIST_IDEALS,
    "playground.chart.{}": playground.CHART_KINDS,
    "playground.chart.{}_alt": playground.CHART_KINDS,
    "playground.order.{}": ("ideal", "worst", "shuffle", "reset"),
    "playground.change.{}": ("ideal_order", "worst_order", "shuffle", "table", "typed", "swap"),
    "playground.change.setting.{}": tuple(playground.SETTING_CHANGES),
    "playground.why.ideal_{}": ("rose", "fell"),
    "playground.explained.{}": ("moved", "stayed", "out", "in"),
    # predict first (ndcg_core/lists/guess.py)
    "playground.predict.direction.{}": DIRECTIONS,
    "playground.predict.size.{}": SIZES,
    "playground.predict.way.{}": ("up", "down"),
    "playground.predict.{}.same": ("guess", "truth"),
    "playground.predict.{}.move": ("guess", "truth"),
    "guess.mistake.{}": GUESS_MISTAKES,
    "evaluate.compare.export.{}": ("csv", "json", "tex"),
    "home.path.{}": ("learn", "playground", "practice"),
    "home.path.{}_what": ("learn", "playground", "practice"),
    "evaluate.ideal.{}": tuple(IDEALS),
    "evaluate.source.{}": evaluate.SOURCES,
    "evaluate.upload.{}": evaluate.ROLES,
    "evaluate.role.{}": evaluate.ROLES,
    "evaluate.typed.{}": editing.TYPED_COLUMNS,
    "evaluate.col.{}": ("judged", "relevant", "retrieved", "relevant_retrieved", "query"),
    "metrics.name.{}": tuple(METRICS),
    "table.{}": (*table.COLUMNS, "in_top_k"),
    "sortable.{}": ("up", "down", "handle", "hint_touch", "list", "moved"),
}

KEYS = sorted({pattern.replace("{}", name) for pattern, names in NAMES.items() for name in names})


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("key", KEYS)
def test_every_key_built_from_a_name_has_a_text_in_each_language(key, lang):
    text = catalogue(lang).get(key)
    assert text, f"{key!r} has no {LANGUAGES[lang]} text: the page would show the key itself"
    assert text != key


def test_the_chinese_texts_of_names_are_not_english_sentences():
    # A text copied from English into zh.json would pass the test above and still be English on a Chinese screen.
    # Names, formulas and abbreviations (Järvelin-Kekäläinen, log2(i + 1), NDCG@{k}, Run A) are the same in both:
    # at most three words.
    copied = [k for k in KEYS if catalogue("zh")[k] == catalogue("en")[k] and len(catalogue("en")[k].split()) > 3]
    assert copied == []


def built_patterns() -> dict[str, list[str]]:
    """Every key pattern the UI's source builds with ``t(f"...")``, ``t.entry(KIND, ...)``, with the files."""
    found: dict[str, list[str]] = {}
    for path in UI.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        for quote in ('"', "'"):
            for literal in re.findall(rf"\bt\(f{quote}([^{quote}]*\{{[^{quote}]*){quote}", source):
                pattern = re.sub(r"\{[^}]*\}", "{}", literal)
                found.setdefault(pattern, []).append(path.name)
        for kind in re.findall(r"\.entry\(\s*[\"'](\w+)[\"']", source):
            for part in ("label", "description"):
                found.setdefault(f"{kind}.{{}}.{part}", []).append(path.name)
    return found


def test_every_key_the_ui_builds_from_a_name_is_covered_by_this_module():
    # Keys whose dynamic part is text, not a name (a bold heading around a translated text), are not keys.
    not_keys = {"**{}**"}
    # ui/mistake_text.py builds "mistake.{code}.{part}" for the parts it names: the three rows above.
    covered_apart = {"mistake.{}.{}"}
    skip = not_keys | covered_apart
    uncovered = {p: files for p, files in built_patterns().items() if p not in NAMES and p not in skip}
    assert uncovered == {}, "add these patterns and their names to NAMES"


@pytest.mark.parametrize(
    "lang, says",
    [
        ("en", "discount 1/log2(position) from position 2 on, none before it (Järvelin and Kekäläinen)"),
        ("zh", "折扣 从位置 2 起为 1/log2(位置)，此前不打折"),
    ],
)
def test_a_class_list_with_the_jk_discount_states_it_in_words_with_its_base(lang, says):
    spec = activity_list(["a", "b", "c"], [3, 2, 0], 3, gain="exponential", discount="jk")
    text = conventions_text(list_conventions(spec), Translator(lang))
    assert says in text
    assert "conventions." not in text


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_not_sent_line_opens_with_why_answers_closed(lang):
    # One status line on a phone: "Time is up: ..." or "Locked: ...", filled by the phone, never a fixed "Locked".
    kinds = NAMES["classroom.unsent.{}"]
    assert set(kinds) >= {"choice"}
    for kind in kinds:
        assert catalogue(lang)[f"classroom.unsent.{kind}"].startswith("{closed}"), kind
