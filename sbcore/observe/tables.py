"""A table a tool prints its errors in, read as its rows' cells.

A tool that prints its errors in a table (`airflow dags list-import-errors`, `conftest test --output table`)
says the same error as when it prints it plainly: the outcome reader (:mod:`.outcome`) reads a result holding
a table's rule as its cells before it picks the line that says what failed. Standard library only (it runs in
the projection).
"""

from __future__ import annotations

import re

from sbcore.observe.lazy_pattern import Lazy

# A table's rule under its heading or around it (`-----+------`, `=====+=====`, `+-----+-----+`).
TABLE_RULE = Lazy(r"^[ \t]*\+?[-=]{3,}(?:\+[-=]{3,})+\+?[ \t]*$", re.M)


def untabled(text: str) -> str:
    """``text`` with each table row read as its cells, `` | `` between them (its heading, rules, outer bars
    and padding gone): repeat-failure signs a row by its longest cell, the message. A table whose first column
    is blank on some rows holds a message wrapped over them (a traceback beside the file it came from): it is
    read as that column's lines."""
    lines = text.split("\n")
    # a line holds no line break, so the rule matched at its start spans it whole
    rules = [TABLE_RULE.match(line) is not None for line in lines]
    rows = [_cells(line) if "|" in line else [] for line in lines]
    wrapped = any(len(cells) > 1 and not cells[0] for cells in rows)
    read: list[str] = []
    for at, line in enumerate(lines):
        cells = rows[at]
        heading = (
            cells and at + 1 < len(lines) and rules[at + 1] and (at == 0 or rules[at - 1] or not rows[at - 1])
        )
        if rules[at] or heading:
            read.append("")
        elif cells:
            read.append(" | ".join(cells[1:]) if wrapped else " | ".join(cell for cell in cells if cell))
        else:
            read.append(line)
    return "\n".join(read)


def _cells(row: str) -> list[str]:
    """A table row's cells, stripped; its outer bars (`| a | b |`) are no cells."""
    row = row.strip()
    if len(row) > 1 and row[0] == "|" and row[-1] == "|":
        row = row[1:-1]
    return [cell.strip() for cell in row.split("|")]
