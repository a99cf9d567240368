"""The hot path: what runs inside Claude Code's hooks.

``plugin/bin/sb-hook`` answers most tool calls without starting Python; this
package handles the rest (``python -P -m sbcore.hooks EVENT``): it drains the
session's mailbox into the hook's answer, records the turn structure the
worker cannot read from the transcript in time, and runs the immediate half of
the finish gate.

Standard library only, and each module imports what it needs when it needs
it, because every millisecond here is added to the agent's latency. Every
failure fails open: exit 0, no output, one line in ``<data>/logs/hooks.log``.
"""
