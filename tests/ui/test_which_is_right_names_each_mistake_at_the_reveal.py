"""Which is right? on a phone and in the results CSV: four numbers to pick from, nothing said of the mistakes until
the reveal; then a wrong choice is named by its mistake, with the student's number rebuilt and the fix, in the
student's language, and every option is named."""

from ndcg_core.classroom.kinds.choose import choose_activity
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.storage import ActivityRow
from ui.i18n import Translator
from ui.kinds import WORDS
from ui.phones.card import Choice, Note, Text, plain

# Seed 000's list: NDCG@3 = 4 / (3 + 2/log2(3)) = 0.9386; 2^g - 1 gives 0.9558, log2(i) 0.8524, the DCG itself 4.
SPEC = activity_list(("doc A", "doc B", "doc C"), (3, 0, 2), 3)
ACTIVITY = choose_activity(SPEC, ["no_normalisation", "gain_exponential", "discount_log_i"], seed=1)
BY = {o.mistake: o for o in ACTIVITY.options()}


def body(lang, phase, mine):
    row = ActivityRow(1, 1, "choose", ACTIVITY.payload(), phase, 0.0)
    return WORDS["choose"].card(Translator(lang), ACTIVITY, row, mine)


def texts(card):
    return [plain(b.markdown) for b in card.blocks if isinstance(b, Text | Note)]


def test_the_phone_offers_four_numbers_and_names_no_mistake_before_the_reveal():
    card = body("en", "open", {})
    (choice,) = [b for b in card.blocks if isinstance(b, Choice)]
    # A no-break space: a button too narrow for its text moves to the next row, its number stays beside its letter.
    assert [text for _, text in choice.options] == [
        f"{o.letter.upper()}:\u00a0{o.number:.2f}" for o in ACTIVITY.options()
    ]
    assert sorted(text.split("\u00a0")[1] for _, text in choice.options) == ["0.85", "0.94", "0.96", "4.00"]
    assert not choice.disabled
    shown = " ".join(texts(card))
    assert "2^grade" not in shown and "Right" not in shown


def test_a_wrong_choice_is_named_by_its_mistake_with_the_number_rebuilt_and_the_fix():
    wrong = BY["gain_exponential"]
    card = body("en", "revealed", {0: wrong.letter})
    (note,) = [b for b in card.blocks if isinstance(b, Note)]
    said = plain(note.markdown)
    right = BY[None]
    assert note.level == "warning"
    assert f"You chose {wrong.letter.upper()}: 0.96, a number made by a mistake: 2^grade - 1 as the gain." in said
    assert f"The right answer is {right.letter.upper()}: 0.94." in said
    # The student's own number rebuilt: (7 + 3/2) / (7 + 3/log2(3)) = 8.50 / 8.89, beside 4 / 4.26.
    assert "Your 0.96 is 8.50 / 8.89 = 0.96; NDCG@3 is DCG@3 / IDCG@3 = 4.00 / 4.26 = 0.94." in said
    assert "Take each grade as its gain" in said
    lines = texts(card)[-4:]
    assert f"{BY['no_normalisation'].letter.upper()}: 4.00: DCG given for NDCG" in lines
    assert f"{right.letter.upper()}: 0.94: Right" in lines


def test_a_right_choice_shows_the_working_and_a_student_who_chose_nothing_the_answer():
    right = BY[None]
    (note,) = [b for b in body("en", "revealed", {0: right.letter}).blocks if isinstance(b, Note)]
    assert note.level == "success"
    assert plain(note.markdown) == f"Right: {right.letter.upper()}: 0.94 is NDCG@3 = DCG@3 / IDCG@3 = 4.00 / 4.26."
    (note,) = [b for b in body("en", "revealed", {}).blocks if isinstance(b, Note)]
    assert plain(note.markdown) == f"The right answer was {right.letter.upper()}: 0.94."


def test_the_reveal_speaks_chinese_on_a_chinese_phone():
    said = " ".join(texts(body("zh", "revealed", {0: BY["discount_log_i"].letter})))
    assert "这个数出自一种错误" in said and "正确" in said
    assert "You chose" not in said


def test_the_results_csv_says_which_mistake_each_answer_was():
    t, views = Translator("en"), WORDS["choose"]
    wrong = BY["discount_log_i"]
    assert views.csv_answer(t, ACTIVITY, 0, wrong.letter) == f"{wrong.letter.upper()}: 0.85 (log2(i) for log2(i + 1))"
    assert views.csv_solution(t, ACTIVITY, 0, ACTIVITY.solutions()[0]) == f"{BY[None].letter.upper()}: 0.94"
    details = views.csv_details(t, ACTIVITY, 0)
    assert details.startswith("Which is right? list doc A:3, doc B:0, doc C:2; k = 3")
    assert "(DCG given for NDCG)" in details and "(Right)" in details
