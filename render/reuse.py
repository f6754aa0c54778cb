"""The last pictures drawn, by what they show: a view unchanged since it was last drawn is not drawn and
PNG-encoded again (a click's answer and the DM edit after it, a table shown twice, the same hand in two
messages). Safe from worker threads; bounded, so memory stays flat however many tables play."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class Pictures:
    def __init__(self, size: int = 128) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        """The picture for ``key``, drawn by ``draw`` unless kept; a key that cannot be hashed (a view
        holding a dict) is drawn every time."""
        try:
            with self._lock:
                kept = self._kept.get(key)
                if kept is not None:
                    self._kept.move_to_end(key)
                    self.hits += 1
                    return kept
        except TypeError:
            return draw()
        png = draw()  # outside the lock: two threads may draw the same picture once each, never wait
        with self._lock:
            self.misses += 1
            self._kept[key] = png
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return png


PICTURES = Pictures()
