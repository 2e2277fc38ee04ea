"""Small pieces several pages share: the QR code, the browser's memory of a room, short links."""

from __future__ import annotations

import json
from typing import Any


def as_json(payload: Any) -> str:
    """A component's data as JSON text, which the component parses. Streamlit passes text on as it is, where it
    would look for a dataframe in each value of a dict: half of what the list and the table cost the server per
    move (``benchmarks/bench_instant.py``)."""
    return json.dumps(payload, separators=(",", ":"))
