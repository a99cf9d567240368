"""Second Brain core: a quiet, cheap observer for Claude Code sessions.

The package is laid out along the path an observation takes: ``observe`` (read,
project, redact, spool), ``run`` (trigger policy), ``think`` (window, forks,
providers, tools), ``gate`` (what may be said), ``hooks`` (the hot path), plus
``packs`` (the plugin boundary), ``config`` and ``cli``.
"""

__version__ = "0.1.0"
