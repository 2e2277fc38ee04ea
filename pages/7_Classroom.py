"""Classroom: a live room with a code and a QR code; students answer on their phones, the class's answers
appear on the projector as they arrive."""

from ui.page import start_page
from ui.views.classroom.page import render_page

render_page(start_page("classroom.title", icon="🏫"))
