"""Benchmarks behind ``second-brain bench``: what is measured and how; the command only parses and prints.

``hooks``: the hook launcher's fast path and a drain; ``worker``: a session
worker's memory; ``synthetic``: the deterministic session the worker is fed.
"""
