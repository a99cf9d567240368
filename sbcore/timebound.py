"""A time bound for code that runs regular expressions a repository or a pack wrote.

A regular expression is a program: ``(a+)+$`` against forty ``a`` and a ``!`` backtracks 2**40 times, and
CPython's ``re`` cannot be given a time limit. Rejecting "dangerous-looking" patterns when they are compiled
catches only the shapes someone thought of, so untrusted patterns run under a wall-clock bound instead:
:func:`time_bound` arms an interval timer (``SIGALRM``) whose handler raises :class:`PatternTimeout`.
``re``'s matching loop polls for pending signals every few thousand steps, so the exception interrupts even a
runaway match, within milliseconds of the bound; the JSON Schema validator's ``pattern`` and
``patternProperties`` run ``re`` too and are interrupted the same way.

Where it applies: trigger functions (their params carry patterns a workspace may override), validation of
a detector's feedback and configuration against the schemas its file declares, the ``stale_if`` patterns a
model writes into advice (matched again by the drain hook), and golden-case headline patterns. All of that
runs in the main thread of the worker, the CLI or a hook, the only thread a signal handler runs in; called
from another thread, or inside an outer bound, :func:`time_bound` adds nothing (the outer bound still
holds). The Grep tool's model-written pattern runs in its own killable process instead (see
``sbcore.think.tools.files``).

Standard library only: hooks import this module.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from sbcore.problems import SbcoreError

_state = {"armed": False}


class PatternTimeout(SbcoreError, TimeoutError):
    """Code running an untrusted pattern outlived its bound and was interrupted."""


def _usable() -> bool:
    return (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and not _state["armed"]
    )


@contextlib.contextmanager
def time_bound(seconds: float, what: str) -> Iterator[None]:
    """Run the body for at most ``seconds`` of wall time, else raise :class:`PatternTimeout` naming ``what``.

    Nested bounds keep the outer one; outside the main thread there is no bound (see the module docstring).
    """
    if not _usable():
        yield
        return

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        if _state["armed"]:
            raise PatternTimeout(
                f"{what} ran longer than {seconds:g} s and was stopped "
                "(a regular expression that backtracks catastrophically?)"
            )

    previous = signal.signal(signal.SIGALRM, on_alarm)
    _state["armed"] = True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        _state["armed"] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
