"""The Playground in Debian's Chromium: drag, keyboard, buttons, a grade, k and a preset.

Each test checks that the NDCG on screen is ndcg_core's value for the order on screen.
"""

import time

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k
from ndcg_core.lists.presets import PRESETS
from support import wait_for_idle

pytestmark = pytest.mark.browser

FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))


def open_playground(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Playground")  # the deep link runs the page directly
    expect(page.locator("li.row")).to_have_count(5, timeout=30000)
    expect(metric(page)).to_contain_text("0.9724")
    wait_for_idle(page)


def metric(page):
    return page.locator('[data-testid="stMetric"]').filter(has_text="NDCG@").first


def shown(page):
    """The headline's label and value, e.g. ("NDCG@5", "0.9724")."""
    m = metric(page)
    return m.get_by_test_id("stMetricLabel").inner_text().strip(), m.get_by_test_id(
        "stMetricValue"
    ).inner_text().strip()


def order(page):
    return page.locator("li.row .label").all_inner_texts()


def wait_for_ndcg_of_shown_order(page, grades=FIVE, before=None, k=5, timeout=15):
    """Wait until the list shows a new order and the headline shows ndcg_core's NDCG@k for it."""
    deadline = time.monotonic() + timeout
    while True:
        labels = order(page)
        expected = (f"NDCG@{k}", f"{ndcg_at_k([grades[x] for x in labels], k):.4f}")
        text = shown(page)
        if labels != before and text == expected:
            return labels, text
        if time.monotonic() > deadline:
            raise AssertionError(f"order {labels} shows {text!r}, expected {expected!r}")
        time.sleep(0.1)


def test_drag_an_item_with_the_mouse(page, app_url):
    open_playground(page, app_url)
    rows = page.locator("li.row")
    rows.nth(4).drag_to(rows.nth(1), steps=20)
    labels, text = wait_for_ndcg_of_shown_order(page, before=list(FIVE))
    assert labels[1] == "doc E"
    assert "after moving doc E from 5 to 2" in page.get_by_test_id("stCaptionContainer").all_inner_texts().__str__()


def test_move_with_the_keyboard_keeps_focus_and_announces(page, app_url):
    open_playground(page, app_url)
    first = page.locator("li.row").first
    first.focus()
    page.keyboard.press("Alt+ArrowDown")
    labels, _ = wait_for_ndcg_of_shown_order(page, before=list(FIVE))
    assert labels[:2] == ["doc B", "doc A"]
    expect(page.locator(".live")).to_have_text("doc A moved to position 2 of 5")
    focused = page.locator(".ndcg-sortable").evaluate("e => e.getRootNode().activeElement.dataset.id")
    assert focused == "1"  # still on doc A after the server's redraw: keep pressing to keep moving
    page.keyboard.press("Alt+ArrowDown")
    labels, _ = wait_for_ndcg_of_shown_order(page, before=labels)
    assert labels[:3] == ["doc B", "doc C", "doc A"]


def test_move_with_a_labelled_button(page, app_url):
    open_playground(page, app_url)
    page.get_by_role("button", name="Move doc D up").click()
    labels, _ = wait_for_ndcg_of_shown_order(page, before=list(FIVE))
    assert labels == ["doc A", "doc B", "doc D", "doc C", "doc E"]


def test_edit_a_grade(page, app_url):
    open_playground(page, app_url)
    page.get_by_label("Grade of doc D").select_option("3")
    expected = f"{ndcg_at_k([3, 2, 3, 3, 1], 5):.4f}"
    expect(metric(page)).to_contain_text(expected, timeout=15000)


def test_change_k_with_the_slider(page, app_url):
    open_playground(page, app_url)
    slider = page.get_by_role("slider", name="k (positions counted)")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    wait_for_idle(page)
    page.keyboard.press("ArrowLeft")
    expect(metric(page)).to_contain_text(f"NDCG@3{ndcg_at_k([3, 2, 3, 0, 1], 3):.4f}", timeout=15000)
    expect(page.locator("li.row.beyond-k")).to_have_count(2)


def test_load_a_preset_and_order_it_ideally(page, app_url, tmp_path):
    open_playground(page, app_url)
    page.get_by_test_id("stSelectbox").filter(has_text="Example").click()
    page.get_by_role("option", name="Wikipedia: 3, 2, 3, 0, 1, 2 and two unretrieved").click()
    page.get_by_role("button", name="Load", exact=True).click()
    expect(metric(page)).to_contain_text("NDCG@60.7850", timeout=15000)
    expect(page.locator("li.row")).to_have_count(6)
    page.get_by_role("button", name="Ideal order", exact=True).click()
    grades = dict(zip(PRESETS.build("wikipedia").labels, PRESETS.build("wikipedia").grades, strict=False))
    pool = [*grades.values(), 3, 2]  # the two judged items the system did not retrieve
    deadline = time.monotonic() + 15
    while (labels := order(page)) == list(grades) or shown(page) != (
        "NDCG@6",
        f"{ndcg_at_k([grades[x] for x in labels], 6, ideal=pool):.4f}",
    ):
        assert time.monotonic() < deadline, (labels, shown(page))
        time.sleep(0.1)
    assert [grades[x] for x in labels] == [3, 3, 2, 2, 1, 0]
    page.screenshot(path=str(tmp_path / "playground.png"))


def edit_table_cell(page, row, column, text):
    """Type into a cell of the 'Edit labels and grades' table (a canvas grid: open the cell editor by position)."""
    page.set_viewport_size({"width": 1366, "height": 1600})
    page.get_by_text("Edit labels and grades").click()
    grid = page.locator('[data-testid="stDataFrameResizable"]').first
    expect(grid).to_be_visible()
    editor = page.locator("textarea.gdg-input")
    header, height = 35, 35  # Streamlit's default row height
    for _ in range(5):  # the grid may still be laying out just after the expander opens
        page.wait_for_timeout(300)
        box = grid.bounding_box()
        x = box["x"] + (60 if column == "label" else 60 + box["width"] / 2)
        page.mouse.dblclick(x, box["y"] + header + height * row + height / 2)
        if editor.count():
            break
    expect(editor).to_be_visible()
    editor.fill(text)
    editor.press("Enter")


def test_a_label_with_markup_stays_text_and_runs_nothing(page, app_url):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_playground(page, app_url)
    hostile = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    edit_table_cell(page, 0, "label", hostile)
    expect(page.locator("li.row .label").first).to_have_text(hostile, timeout=15000)
    assert page.locator(".ndcg-sortable img, .ndcg-sortable script").count() == 0
    page.wait_for_timeout(500)
    assert dialogs == []


def test_a_bad_grade_in_the_table_is_a_message_and_the_list_is_kept(page, app_url):
    open_playground(page, app_url)
    edit_table_cell(page, 1, "grade", "abc")
    expect(page.get_by_test_id("stAlert")).to_contain_text("Row 2, grade is 'abc': not a number", timeout=15000)
    expect(page.get_by_test_id("stAlert")).to_contain_text("keeps its last valid state")
    assert order(page) == list(FIVE)
    assert shown(page) == ("NDCG@5", "0.9724")


def test_presenter_view_keeps_keyboard_reordering(page, app_url):
    open_playground(page, app_url)
    page.get_by_text("Presenter view").click()
    expect(page.locator(".ndcg-sortable.readonly")).to_have_count(1, timeout=15000)
    expect(page.get_by_text("Edit labels and grades")).to_have_count(0)
    assert page.locator("li.row select, li.row button.remove").count() == 0
    page.locator("li.row").nth(4).focus()
    page.keyboard.press("Alt+Home")
    labels, _ = wait_for_ndcg_of_shown_order(page, before=list(FIVE))
    assert labels[0] == "doc E"
