"""Whether a change to a configuration layer widens what the observer may do, and so needs the user's own act.

A capability (a value that can run a process, open a connection or choose where data goes), a consent (one
that opts in, unmutes or turns on) and a voice (one that changes what the observer says to the agent) set in
the global or local layer apply at once; so does removing a value there that holds the observer back
(``model.provider: offline``, ``mute.all: true``). Either needs the user at their own terminal
(:func:`~sbcore.config.user_act.refusal`, looked up at each call), and the check lives here, in the
functions that write, so that calling the library is no way around it. The workspace layer is exempt: what
it sets applies only after ``second-brain trust``, which asks for the user's own act itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sbcore.config import user_act
from sbcore.config.effective import MISSING, lookup
from sbcore.config.layers import layer_path, read_layer
from sbcore.config.schema import KeyRef, UnknownKeyError, resolve_key
from sbcore.config.trustclass import config_class, value_class

_WIDENS = {
    "capability": "is a capability (it can run a process, connect, or choose where data goes)",
    "consent": "widens what is observed or sent (it opts in, unmutes, or turns on)",
    "voice": "changes what the observer says (its words reach the agent)",
}


def set_refusal(ref: KeyRef, value: Any, layer: str) -> str | None:
    """Why setting ``ref`` to ``value`` in ``layer`` must be refused here, or None. A value that only
    switches a capability off (``model.provider offline``) is no widening."""
    if layer == "workspace":
        return None
    kind = value_class(ref.path, value)
    if kind == "safe":
        return None
    why = user_act.refusal()
    return None if why is None else f"{ref.key} {_WIDENS[kind]}: {why}"


def reset_refusal(target: str, layer: str, workspace: Path | None) -> str | None:
    """Why removing ``target`` (a key, a group or ``all``) from ``layer`` must be refused here: it takes
    away a value that narrows (``reset all --global`` included), or None."""
    if layer == "workspace":
        return None
    found = read_layer(layer, layer_path(layer, workspace))  # type: ignore[arg-type]
    if target == "all":
        path: tuple[str, ...] = ()
    else:
        try:
            path = resolve_key(target).path
        except UnknownKeyError:
            path = tuple(target.split("."))
    removed = lookup(found.data, path) if path else found.data
    if removed is MISSING:
        return None
    narrowing = [
        ".".join(leaf)
        for leaf, value in _leaves(path, removed)
        if config_class(leaf) in ("consent", "capability") and value_class(leaf, value) == "safe"
    ]
    if not narrowing:
        return None
    why = user_act.refusal()
    if why is None:
        return None
    return f"removing {', '.join(narrowing)} takes away a setting that holds the observer back: {why}"


def _leaves(path: tuple[str, ...], value: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(value, dict) and value:
        for name, child in value.items():
            yield from _leaves((*path, str(name)), child)
    elif path:
        yield path, value
