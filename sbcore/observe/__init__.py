"""Observation: read the coding agent's transcript, project it, redact it, spool it.

Standard library only. The hooks and the worker import this package, and its
import cost is part of every tool call's latency.
"""
