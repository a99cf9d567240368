"""The team's notes the recall tests index, and where a workspace's index file is."""

from __future__ import annotations

import textwrap
from pathlib import Path

from sbcore.paths import data_dir
from sbcore.state.recall import index_path

PAST_FIX = textwrap.dedent(
    """\
    # 0007: One connection pool per process

    ## Fix for psycopg TooManyConnections

    The error "psycopg.errors.TooManyConnections: remaining connection slots are reserved" came from each
    test fixture opening its own connection; the fix was the session-scoped db_pool fixture.

    ## Decision

    Do not call psycopg.connect outside billing/db.py.
    """
)
GUIDE = textwrap.dedent(
    """\
    # Working here

    ## Running the tests

    Use pytest -q from the root; the integration tests need the local database.
    """
)
FAILING = "E   psycopg.errors.TooManyConnections: remaining connection slots are reserved for superusers"


def index_file(workspace: Path) -> Path:
    return index_path(workspace, data_dir())
