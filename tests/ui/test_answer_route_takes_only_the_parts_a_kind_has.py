"""One student cannot stuff the class's answers (issue 46): the answer route of a real ``serve.py`` refuses an answer
to a part the activity does not have, in the student's language, and stores nothing of it; and the projector's
"Answered" count on the Classroom page counts each student once per part, even over rows stored before the check."""

import pytest
from serve_support import room_on
from storage_support import predict
from test_classroom_page import session

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import Classroom
from ndcg_core.classroom.storage.answers import Sending
from ndcg_core.errors import InputError, shown
from support import plain
from ui.i18n import Translator


@pytest.fixture
def served(serve_py):
    with room_on(serve_py) as running:
        yield running


def test_an_answer_to_parts_a_predict_does_not_have_is_refused_in_the_students_language_and_not_stored(served):
    activity = served.store.rooms.open_activity(served.code, served.key, predict())
    path = f"/api/room/{served.code}/answer"
    stuffed = [[part, "0.99"] for part in range(40)]  # under the body limit (another finding)
    for lang in ("en", "zh"):
        status, reply = served.post_json(
            path, {"me": served.me, "lang": lang, "activity": activity.id, "values": stuffed}
        )
        assert status == 200 and reply["ok"] is False
        said = plain(Translator(lang).explain(InputError("answer.part", value=shown(1), count=1)))
        assert said and said in plain(reply["message"]), reply["message"]
    assert served.store.answers.for_activity(activity.id) == []  # nothing of it stored, part 0 included
    status, reply = served.post_json(
        path, {"me": served.me, "lang": "en", "activity": activity.id, "values": [[0, "0.99"]]}
    )
    assert reply["ok"] is True
    assert [(a.student, a.part) for a in served.store.answers.for_activity(activity.id)] == [(1, 0)]


def test_the_projector_counts_a_student_once_however_many_parts_the_store_holds(tmp_path, monkeypatch):
    """Rows for parts 0 to 302 of a Predict, as the answer route stored them before it checked the part: the
    projector's "Answered" says 1 / 1 (one student, one question), not 303 / 1."""
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    monkeypatch.setenv("NDCG_LAB_DATABASE_URL", url)
    store = Classroom(url)
    room, key = store.rooms.create()
    ana = rules.new_student_id()
    store.students.join(room.code, ana, "Ana", source="test")
    activity = store.rooms.open_activity(room.code, key, predict())
    # As stored before the kinds checked the part: the store writes the values it is given, checked by then.
    store.answers.submit_many([Sending(room.code, ana, activity.id, tuple((part, 0.99) for part in range(303)))])
    assert len(store.answers.for_activity(activity.id)) == 303
    screen = session(room=room.code, view="screen")
    screen.session_state["classroom"].key = key
    screen.run()
    assert not screen.exception
    assert next(m for m in screen.metric if m.label == "Answered").value == "1 / 1"
    store.close()
