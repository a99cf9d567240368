"""Mission step parsing."""
from dataclasses import dataclass


@dataclass
class Step:
    """One mission step."""

    kind: str
    args: dict


VALID_KINDS = {'goto', 'dock', 'undock', 'wait'}


def parse_mission(doc):
    """Turn a mission dict into a list of steps."""
    steps = []
    for i, raw in enumerate(doc.get('steps', [])):
        kind = raw.get('type')
        if kind not in VALID_KINDS:
            raise ValueError(f'step {i}: unknown type {kind!r}')
        steps.append(Step(kind, {k: v for k, v in raw.items() if k != 'type'}))
    return steps
