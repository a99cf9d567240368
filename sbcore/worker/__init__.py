"""The session worker: one per Claude Code session, tailing its transcript and running the observer.

``second-brain worker`` (or ``python -m sbcore.worker``) starts one; see
``docs/worker.md`` for its lifecycle, the hosts that start it and the files
it writes. Importing this package imports nothing heavy.
"""
