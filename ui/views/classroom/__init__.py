"""Classroom: a live room. The teacher starts it and projects its code and QR code; students join on their
phones and answer its activities (one kind each, ``kinds``); the class's answers appear on the projector as they arrive.

The package is split by role: ``page`` routes a run to the landing, the teacher's ``control`` page, the projector
view (``screen``) or a student's ``phone``; ``live`` draws the class's answers on the control page and the
projector; ``setup`` opens the next activity live; ``lesson_editor`` builds a lesson and ``lesson_run`` runs one;
``kinds`` holds one module per activity kind (its projector view and its form), registered in ``kinds.VIEWS``.
Adding a kind is one module in ``ndcg_core.classroom.kinds`` (``KINDS``), one in ``ui.kinds`` (its phone card and
CSV words, ``WORDS``), one module here, its texts. A phone's question and answer is a card (``ui.phones.card``: a
model of plain text and inputs, built by the kind's ``card`` in ``ui.kinds``), which the phone's own page
(``ui.phones.phone_page``, under ``serve.py``) draws in the browser from the card routes of ``ui.phones.routes``,
or ``phone`` draws with Streamlit where the app runs without those routes; both get the card and the reply to an
answer from ``ui.phones.student_card``, over the classroom's runtime. Nothing below the views imports this package.

Everything lives in the database (``ndcg_core.classroom.storage``); every number comes from
``ndcg_core.classroom.kinds`` and ``ndcg_core.classroom.results``. The presenter's panel is a fragment that runs
every second (``st.fragment(run_every=...)``) and redraws the counts and chart. A student's phone asks the card
route every 0.75 s with the revision of the card it shows (``ui/widgets/phone_card.js``): the answer is a short
"same" until the teacher changes something, and then the new card in the same request.

The package imports none of its modules (``page`` is the Classroom page's entry): a module of it imports what it
uses.
"""
