"""Practice: seeded exercises with feedback and a running score."""

from ui.page import start_page
from ui.views.practice import render_page

render_page(start_page("practice.title", icon="✏️"))
