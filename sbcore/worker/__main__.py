"""``python -m sbcore.worker``: run a session worker (the same as ``second-brain worker``)."""

from __future__ import annotations

import sys

from sbcore.worker.command import main

sys.exit(main())
