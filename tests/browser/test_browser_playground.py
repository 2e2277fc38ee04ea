"""The Playground in Debian's Chromium: drag, keyboard, buttons, a grade, k, the presenter view, predict first, a
preset and the table's editor.

Each check is that the list shows the order the interaction makes and the NDCG on screen is ndcg_core's value for
it. A page opens once per test and takes several interactions in turn (opening one costs more than an interaction).
"""

import re
from math import log2

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from ndcg_core import idcg, ndcg_at_k
from ndcg_core.lists.items import ideal_order
from ndcg_core.lists.presets import PRESETS
from support import wait_for_idle

pytestmark = pytest.mark.browser


@pytest.fixture
def page(desktop_page):
    """The worker's shared desktop page (conftest's ``desktop_page``), not a fresh context: each test opens its
    address and sets its size."""
    return desktop_page


FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))


def open_playground(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Playground")  # the deep link runs the page directly
    expect(page.locator("li.row .label")).to_have_text(list(FIVE), timeout=30000)
    expect_ndcg(page, "NDCG@5", f"{ndcg_at_k(list(FIVE.values()), 5):.4f}")
    wait_for_idle(page)


def metric(page):
    return page.locator('[data-testid="stMetric"]').filter(has_text="NDCG@").first


def expect_ndcg(page, label, value):
    """The headline shows ``label`` and ``value``, e.g. ("NDCG@5", "0.9724")."""
    expect(metric(page).get_by_test_id("stMetricLabel")).to_have_text(label)
    expect(metric(page).get_by_test_id("stMetricValue")).to_have_text(value)


def expect_order(page, labels, grades=FIVE, k=5):
    """The list shows ``labels`` in this order and the headline ndcg_core's NDCG@k for them."""
    expect(page.locator("li.row .label")).to_have_text(labels)
    expect_ndcg(page, f"NDCG@{k}", f"{ndcg_at_k([grades[x] for x in labels], k):.4f}")


def test_drag_keyboard_button_grade_slider_and_presenter_view_on_one_page(page, app_url):
    """One page, each way of changing the list in turn, each from the list the last one left: the order on
    screen and ndcg_core's NDCG for it after each (the captions' wording is the AppTests' in test_playground_page)."""
    open_playground(page, app_url)
    grades = dict(FIVE)

    # The mouse: drag doc E up to the second place.
    rows = page.locator("li.row")
    rows.nth(4).drag_to(rows.nth(1), steps=20)
    expect_order(page, ["doc A", "doc E", "doc B", "doc C", "doc D"])
    expect(page.get_by_test_id("stMarkdown").filter(has_text="after moving doc E from 5 to 2")).to_have_count(1)

    # The keyboard: the focus stays on the moved item through the server's redraw, and the move is announced.
    page.locator("li.row").first.focus()
    page.keyboard.press("Alt+ArrowDown")
    expect_order(page, ["doc E", "doc A", "doc B", "doc C", "doc D"])
    expect(page.locator(".live")).to_have_text("doc A moved to position 2 of 5")
    expect(page.locator("li.row").nth(1)).to_be_focused()
    expect(page.locator("li.row").nth(1)).to_have_attribute("data-id", "1")
    page.keyboard.press("Alt+ArrowDown")  # still on doc A: pressing again moves it again
    expect_order(page, ["doc E", "doc B", "doc A", "doc C", "doc D"])
    expect(page.locator(".live")).to_have_text("doc A moved to position 3 of 5")

    # A labelled button.
    page.get_by_role("button", name="Move doc D up").click()
    order = ["doc E", "doc B", "doc A", "doc D", "doc C"]
    expect_order(page, order)

    # A grade: the NDCG and the ideal change, the order does not; the caption names the regrade and the IDCG.
    page.get_by_label("Grade of doc D").select_option("3")
    grades["doc D"] = 3
    expect_order(page, order, grades)
    expect(page.get_by_label("Grade of doc D")).to_have_value("3")
    caption = page.get_by_test_id("stMarkdown").filter(has_text="after regrading doc D from 0 to 3.")
    expect(caption).to_contain_text(
        f"the ideal's DCG (IDCG) rose from {idcg(list(FIVE.values()), 5):.4f} to {idcg(list(grades.values()), 5):.4f}"
    )

    # The slider: k down by one, then by another; the positions past k are drawn apart.
    slider = page.get_by_role("slider", name="k (positions counted)")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    expect_order(page, order, grades, k=4)
    expect(page.locator("li.row.beyond-k")).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    expect_order(page, order, grades, k=3)
    expect(page.locator("li.row.beyond-k .label")).to_have_text(["doc D", "doc C"])

    # The presenter view: nothing to edit, and the keyboard still reorders.
    page.get_by_text("Presenter view").click()
    expect(page.locator(".ndcg-sortable.readonly")).to_have_count(1)
    expect(page.get_by_text("Edit labels and grades")).to_have_count(0)
    expect(page.locator("li.row select, li.row button.remove")).to_have_count(0)
    page.locator("li.row").nth(4).focus()
    page.keyboard.press("Alt+Home")
    expect_order(page, ["doc C", "doc E", "doc B", "doc A", "doc D"], grades, k=3)
    expect(page).to_have_url(re.compile(r"present=1"))


# The example's IDCG@5: its grades 3, 3, 2, 1, 0 in order.
IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)


def test_a_move_waits_for_the_guess_then_a_preset_loads_and_orders_ideally(page, app_url):
    """Predict first (was test_browser_predict_first_on_the_playground, a page of its own): with the switch on, a
    move waits (the list goes back to its order) until the learner has guessed; the reveal makes it and says
    whether the guess was right. The example's doc C (a 3) up from 3 to 2 raises NDCG@5 by (3 - 2)(1/log2(3) - 1/2)
    / IDCG, a little. Then, the switch off, a preset loaded and ordered ideally on the same page."""
    open_playground(page, app_url)
    rows = page.locator("ol > li.row")
    predict = page.get_by_text("Predict first")
    predict.click()
    wait_for_idle(page)
    rows.nth(2).locator("button.up").click()
    expect(page.get_by_text("Before moving doc C from 3 to 2: what will it do to NDCG@5?")).to_be_visible()
    expect(page.locator("ol > li.row .label")).to_have_text(["doc A", "doc B", "doc C", "doc D", "doc E"])
    page.get_by_text("Up", exact=True).click()
    wait_for_idle(page)
    page.get_by_text("a little (under 0.05)").click()
    wait_for_idle(page)
    page.get_by_role("button", name="Make the move and show me").click()
    change = (1 / log2(3) - 1 / 2) / IDCG
    expect(page.get_by_text(re.compile(rf"^Right: you guessed up, a little .* \(\+{change:.4f}\)\.$"))).to_be_visible()
    expect(page.locator("ol > li.row .label")).to_have_text(["doc A", "doc C", "doc B", "doc D", "doc E"])
    predict.click()
    wait_for_idle(page)

    page.get_by_test_id("stSelectbox").filter(has_text="Example").click()
    page.get_by_role("option", name="Wikipedia: 3, 2, 3, 0, 1, 2 and two unretrieved").click()
    page.get_by_role("button", name="Load", exact=True).click()
    wikipedia = PRESETS.build("wikipedia")
    grades = dict(zip(wikipedia.labels, wikipedia.grades, strict=False))
    pool = [*grades.values(), *(g for _, g in wikipedia.extra)]  # the two judged items the system did not retrieve
    expect(page.locator("li.row .label")).to_have_text(list(grades))
    expect_ndcg(page, "NDCG@6", f"{ndcg_at_k(list(grades.values()), 6, pool=pool):.4f}")
    assert f"{ndcg_at_k(list(grades.values()), 6, pool=pool):.4f}" == "0.7850"
    page.get_by_role("button", name="Ideal order", exact=True).click()
    ideal = [it.label for it in ideal_order(wikipedia.items())]
    assert [grades[x] for x in ideal] == [3, 3, 2, 2, 1, 0]
    expect(page.locator("li.row .label")).to_have_text(ideal)
    # Not 1: the ideal of all judgments has the unretrieved 3 and 2 in it.
    expect_ndcg(page, "NDCG@6", f"{ndcg_at_k([grades[x] for x in ideal], 6, pool=pool):.4f}")


# The element's box is the same over three animation frames in a row: the grid has finished laying out.
SETTLED = """e => new Promise(done => {
  let last = "", same = 0;
  const tick = () => {
    const b = e.getBoundingClientRect(), now = [b.x, b.y, b.width, b.height].join();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 3) done(true); else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


def open_the_table_s_editor(page):
    page.set_viewport_size({"width": 1366, "height": 1600})
    page.get_by_text("Edit labels and grades").click()


def edit_table_cell(page, row, column, text):
    """Type into a cell of the open 'Edit labels and grades' table (a canvas grid: open the cell editor by
    position)."""
    grid = page.locator('[data-testid="stDataFrameResizable"]').first
    expect(grid).to_be_visible()
    grid.scroll_into_view_if_needed()
    editor = page.locator("textarea.gdg-input")
    header, height = 35, 35  # Streamlit's default row height
    for attempt in range(3):
        grid.evaluate(SETTLED)  # the grid may still be laying out just after the expander opens
        box = grid.bounding_box()
        # The label's column is the first; the grade's the last, out to the grid's right edge (a long label
        # widens the label's column past the grid's middle).
        x = box["x"] + (60 if column == "label" else box["width"] - 24)
        page.mouse.dblclick(x, box["y"] + header + height * row + height / 2)
        try:
            editor.wait_for(state="visible", timeout=5000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
    editor.fill(text)
    editor.press("Enter")


def test_a_label_with_markup_stays_text_and_a_bad_grade_is_a_message_in_the_table_s_editor(page, app_url):
    """One page, two edits of the table in turn: a label with markup stays text and runs nothing; then a bad grade
    is a message and the list (with that label) is kept."""
    dialogs = []

    def dismiss(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    try:
        open_playground(page, app_url)
        open_the_table_s_editor(page)
        hostile = "<img src=x onerror=alert(1)><script>alert(2)</script>"
        edit_table_cell(page, 0, "label", hostile)
        expect(page.locator("li.row .label").first).to_have_text(hostile)
        # The breakdown table, drawn after the list, shows it as text too: the whole page has been redrawn.
        expect(page.locator(".ndcg-table tbody tr").first.locator("td").first).to_have_text(hostile)
        # No element was made from it anywhere, so there is nothing that could run later.
        assert page.locator("img[src='x']").count() == 0
        assert page.locator("script").filter(has_text="alert(2)").count() == 0
        wait_for_idle(page)

        # A bad grade, in the list the label left.
        edit_table_cell(page, 1, "grade", "abc")
        expect(page.get_by_test_id("stAlert")).to_contain_text("Row 2, grade is 'abc': not a number")
        expect(page.get_by_test_id("stAlert")).to_contain_text("keeps its last valid state")
        expect(page.locator("li.row .label")).to_have_text([hostile, *list(FIVE)[1:]])
        expect(page.get_by_label("Grade of doc B")).to_have_value("2")
        expect_ndcg(page, "NDCG@5", f"{ndcg_at_k(list(FIVE.values()), 5):.4f}")
    finally:
        page.remove_listener("dialog", dismiss)  # the page is shared: the next test's dialogs are its own
    assert dialogs == []
