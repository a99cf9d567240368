"""Delivery: the mailbox admitted advice waits in, how it is framed, and the channels it leaves by.

Above the gate (which decides and remembers) and below the hooks, the worker and the conductor (which
drive it). Standard library only: the hooks import it.
"""
