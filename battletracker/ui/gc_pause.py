"""Cyclic garbage collection held off while Qt hands Python objects that a collection could delete.

PySide6 deletes a window that Python owns (a dialog run with `exec()`, say) when its
wrapper is released. If the last reference to that wrapper sits in a reference cycle,
the collector releases it at whatever allocation happens to start a collection. One
such allocation is PySide6 wrapping, one by one, the widgets of a list Qt has already
returned (`QApplication.topLevelWidgets()`): a collection there deletes a window the
list still names, and wrapping it next reads freed memory and crashes the process.
The warm-up holds collections off while its threads run, so that none runs on them,
and lets go on the GUI thread once they have finished (warmup.py). Holds nest; the
collector's state before the first is restored when the last is released.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QWidget

_lock = threading.Lock()
_holders = 0
_enabled_before = True


def hold() -> None:
    """No cyclic collection until every `hold` has been matched by a `release`."""
    global _holders, _enabled_before
    with _lock:
        _holders += 1
        if _holders == 1:
            _enabled_before = gc.isenabled()
            gc.disable()


def release() -> None:
    """The end of one `hold`; the last one restores the collector as it was before the first.

    Release on the thread that owns the Qt objects: the first allocation after it
    may start a collection, on the thread that makes it.
    """
    global _holders
    with _lock:
        _holders -= 1
        if _holders == 0 and _enabled_before:
            gc.enable()


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic collection within the block (nested holds included)."""
    hold()
    try:
        yield
    finally:
        release()


def top_level_widgets() -> list[QWidget]:
    """`QApplication.topLevelWidgets()`, wrapped with no collection deleting one of them on the way."""
    with collection_paused():
        return QApplication.topLevelWidgets()
