"""The lecturer's guide says what a phone says of an estimate typed with a decimal comma: the app reads "0,75" as
0.75, saves it and says so, on a line of its own before "Saved."; it asks no question ("did you mean 0.75?")."""

import re

from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.service import Outcome, check
from support import ROOT
from ui.i18n import Translator
from ui.phones.card import plain
from ui.phones.student_card import reply

GUIDE = ROOT / "docs" / "lecturer" / "running-a-class.md"


def said_of(typed):
    """The phone's reply to an estimate typed as ``typed``, line by line, as the app words it in English."""
    entries, refused = check(Predict(preset_list("five")), [(0, typed)])
    assert not refused and entries[0].value == float(typed.replace(",", "."))
    return plain(reply(Translator("en"), Outcome(tuple(entries))).message).split("\n")


def test_the_guide_quotes_the_note_the_phone_gives_for_a_decimal_comma():
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())  # the guide's lines joined as they read
    note, saved = said_of("0,75")
    assert note == "Read 0,75 as 0.75." and saved.startswith("Saved.")
    assert f'"{note}"' in text
    assert not re.search(r"did you mean", text, re.I)
