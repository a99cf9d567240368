"""The conductor: the one pipeline every driver of the observer's loop runs, and replay on top of it.

Above the engine (``think``), the gate and delivery; below the worker, the test kit and the CLI.
"""

from sbcore.conductor.pipeline import PassReport, Pipeline, Verdict

__all__ = ["PassReport", "Pipeline", "Verdict"]
