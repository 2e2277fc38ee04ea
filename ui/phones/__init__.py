"""The phones' HTTP API, a package of its own below the views (it imports none): the Starlette routes ``serve.py``
mounts (``routes``: a card, its stream of Server-Sent Events, an answer, a join, the teacher's watch stream) over the
classroom's runtime (``ui.database.runtime``, ``ndcg_core.classroom.runtime``); the card a phone draws (``card``: a
model of plain blocks, built by each kind's ``card`` in ``ui.kinds``); a student's card and the reply to an answer in
their language (``student_card``); and the phone's own pages, the join page (``join_page``) and the phone page
(``phone_page``), plain HTML with a Content Security Policy.

The Streamlit phone view (``ui.views.classroom.phone``, where the app runs without ``serve.py``) draws the same card
model from ``student_card``. The package's ``__init__`` imports none of its modules: the card model is imported
without the routes.
"""
