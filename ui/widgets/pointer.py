"""The Playground's linked views: the code its components share to point at a position and animate a change
(``pointer.js``, put before each one's own code), and the marks for pointed and changed rows (``linked.css``).

A position pointed at in one view (the list, the term table, the formula) is marked in every view with no rerun:
the components (the figure charts' among them) and the swap map's Vega signal (``ui.charts.POINT_EVENT``) listen
to the same events on the page's document.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).parent

POINTER_JS = (_HERE / "pointer.js").read_text(encoding="utf-8")
LINKED_CSS = (_HERE / "linked.css").read_text(encoding="utf-8")
