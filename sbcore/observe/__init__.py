"""Observation: read the coding agent's transcript, project it, redact it, spool it.

Standard library only, but for the projector's JSON parser (``orjson``, in ``jsonline``, which
``project`` and the modules built on it import). The hooks and the worker import this package, and
its import cost is part of every tool call's latency: the hooks never import the projector (an
import-linter contract forbids ``orjson`` on the hook path).
"""
