"""The Playground's linked views: the code its components share to point at a position and animate a change
(``pointer.js``, put before each one's own code), and the marks for pointed and changed rows (``linked.css``).

A position pointed at in one view (the list, the term table, the formula) is marked in every view with no rerun:
the components (the figure charts' and the swap map's among them) listen to the same events on the page's document,
as a Vega chart's signal bound to ``ui.charts.POINT_EVENT`` can.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).parent

POINTER_JS = (_HERE / "pointer.js").read_text(encoding="utf-8")
LINKED_CSS = (_HERE / "linked.css").read_text(encoding="utf-8")
# svg(), html() and textWidth(), put before the code of each component that draws SVG.
SVG_JS = (_HERE / "svg_drawing.js").read_text(encoding="utf-8")
