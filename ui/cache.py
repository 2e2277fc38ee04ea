"""A small shared cache of results that are slow to make and never change once made (evaluations).

``st.cache_resource`` replays a cached function's Streamlit calls, so a function that draws a progress bar
while it works cannot be cached by it; this cache is filled by the caller instead, and the one instance is
held by ``st.cache_resource``. It holds only results keyed by the content that made them: no user's state.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any


class ResultCache:
    """At most ``max_entries`` results, each for at most ``ttl`` seconds; the least recently used goes first."""

    def __init__(self, max_entries: int, ttl: float) -> None:
        self.max_entries, self.ttl = max_entries, ttl
        self._entries: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            if time.monotonic() - found[0] > self.ttl:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return found[1]

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._entries[key] = (time.monotonic(), value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
