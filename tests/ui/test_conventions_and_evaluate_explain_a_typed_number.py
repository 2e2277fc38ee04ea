"""The Conventions page and Evaluate's summary take the number another tool printed and show the conventions and tools
that give it, in both languages; text that is not a number is a clear message, and nothing typed renders as HTML."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.teaching.conventions import WIKIPEDIA
from support import ROOT, TREC, plain, seed_state

TOOLS = {"en": "Tools", "zh": "工具"}
SKLEARN = {"en": "scikit-learn ndcg_score", "zh": "scikit-learn 的 ndcg_score"}
DEFAULT = {"en": "Nothing: this project's default", "zh": "没有改动：本项目的默认约定"}


def open_page(page, lang, **state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page(page)
    seed_state(at, lang=lang, **state)
    return at.run()


def explained_table(at, lang):
    return next(d.value for d in at.table if TOOLS[lang] in d.value.columns)


def typed(at, number):
    box = next(w for w in at.text_input if w.key.endswith("explain"))
    return box.input(number).run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_conventions_page_names_scikit_learn_for_its_number(lang):
    sklearn = pytest.importorskip("sklearn.metrics")
    printed = sklearn.ndcg_score([list(WIKIPEDIA.grades)], [list(WIKIPEDIA.scores)], k=WIKIPEDIA.k)
    at = typed(open_page("pages/4_Conventions.py", lang), f"{printed:.4f}")
    assert not at.exception and not at.error
    table = explained_table(at, lang)
    assert any(SKLEARN[lang] in tools for tools in table[TOOLS[lang]])
    assert not any(DEFAULT[lang] in text for text in table.iloc[:, 1])


@pytest.mark.parametrize(
    "lang, number, says",
    [
        ("en", "abc", "'abc' is not a number"),
        ("zh", "abc", "abc"),
        ("en", "1,234", "has a comma"),
        ("en", "<b>0.5</b>", "<b>0.5</b>"),
    ],
)
def test_a_number_that_cannot_be_read_is_a_message_and_no_html(lang, number, says):
    at = typed(open_page("pages/4_Conventions.py", lang), number)
    assert not at.exception
    (error,) = at.error
    assert says in plain(error.value)
    assert "<b>" not in error.value  # escaped: shown as typed, never rendered
    assert not [d for d in at.table if TOOLS[lang] in d.value.columns]


def test_a_decimal_comma_is_read_as_a_point_and_said():
    at = typed(open_page("pages/4_Conventions.py", "en"), "0,6")
    assert not at.exception and not at.error
    assert any("Read 0,6 as 0.6" in plain(c.value) for c in at.caption)


def published_all(name):
    """trec_eval's own 'all' line for a measure, from out.test.a (the sample run's)."""
    for line in (TREC / "out.test.a").read_text().splitlines():
        measure, qid, value = line.split()
        if measure == name and qid == "all":
            return value
    raise KeyError(name)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_explains_trec_eval_s_number_as_the_default(lang):
    at = typed(open_page("pages/2_Evaluate.py", lang), published_all("ndcg_cut_5"))
    assert not at.exception and not at.error
    table = explained_table(at, lang)
    assert DEFAULT[lang] in table.iloc[0, 1]
    assert "trec_eval 10.0" in table[TOOLS[lang]].iloc[0]
