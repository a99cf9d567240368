"""The words every advisory opens with, in a module of its own.

The projector drops any content carrying them (so the observer never reads its
own advice back) and the gate's framing starts every advisory with them. Both
import the constant from here, because the drain hook renders advisories on
the hot path and must not pay for importing the projector to learn one string.
"""

ADVISORY_SENTINEL = "Second Brain advisory"
"""Every advisory the gate delivers starts with this; content carrying it is never observed."""
