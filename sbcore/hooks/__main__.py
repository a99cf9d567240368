"""``python -m sbcore.hooks EVENT``: one hook call (the launcher ``plugin/bin/sb-hook`` runs this)."""

from __future__ import annotations

from sbcore.hooks.dispatch import main

raise SystemExit(main())
