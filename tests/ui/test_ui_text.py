"""Every piece of UI text comes from the catalogues: no literal text in Streamlit calls, and no page
shows a bare catalogue key, in either language."""

import ast
import re

import pytest
from streamlit.testing.v1 import AppTest

from support import ROOT, seed_state

DISPLAY_CALLS = {
    "title",
    "header",
    "subheader",
    "markdown",
    "caption",
    "button",
    "text_input",
    "selectbox",
    "radio",
    "checkbox",
    "toggle",
    "metric",
    "info",
    "warning",
    "error",
    "success",
    "expander",
    "download_button",
    "number_input",
    "slider",
    "multiselect",
    "file_uploader",
    "page_link",
    "progress",
    "status",
    "tabs",
    "write",
    "text",
}
# Notation, not language: the same in every language.
NOTATION = re.compile(
    r"^(NDCG|DCG|IDCG|CG|P|MRR|ERR)(@\d*|@\{k\})?$|^NDCG Lab$|^[^A-Za-z\u4e00-\u9fff]*$"
    r"|^pages/\w+\.py$"
)  # a page path (st.page_link's target), not text
SOURCES = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").glob("**/*.py"))]


def literal_texts(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DISPLAY_CALLS:
            for arg in node.args[:1]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield node.lineno, arg.value
                if isinstance(arg, ast.JoinedStr):
                    text = "".join(v.value for v in arg.values if isinstance(v, ast.Constant))
                    yield node.lineno, text


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_literal_ui_text_in_streamlit_calls(path):
    offenders = [(line, text) for line, text in literal_texts(path) if not NOTATION.match(text.strip("*: "))]
    assert not offenders, offenders


PAGES = ["app.py"] + [f"pages/{p.name}" for p in sorted((ROOT / "pages").glob("*.py"))]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_no_page_shows_a_bare_catalogue_key(page, lang):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if page != "app.py":
        at.switch_page(page)
    seed_state(at, lang=lang)
    at.run()
    assert not at.exception
    texts = [
        e.value
        for e in (
            *at.caption,
            *at.markdown,
            *at.title,
            *at.header,
            *at.subheader,
            *at.info,
            *at.warning,
            *at.error,
            *at.success,
        )
    ]
    texts += [
        w.label
        for w in (
            *at.button,
            *at.selectbox,
            *at.radio,
            *at.slider,
            *at.number_input,
            *at.text_input,
            *at.checkbox,
            *at.toggle,
            *at.metric,
            *at.tabs,
            *at.expander,
        )
    ]
    bare = [x for x in texts if re.fullmatch(r"[a-z_]+(\.[a-z_0-9]+)+", str(x).strip())]
    assert not bare, bare
    if lang == "zh":
        assert any(re.search(r"[\u4e00-\u9fff]", str(x)) for x in texts)
