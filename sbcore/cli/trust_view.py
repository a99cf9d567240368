"""How every command shows what an untrusted workspace asked for and did not get.

``config show``, ``detectors list``/``show`` and ``run`` print the same lines
from the same JSON form (:meth:`sbcore.config.trust.WorkspaceTrust.to_json`,
also the status file's ``trust``): which key, from which file and line, and
the command that trusts it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Select = Callable[[str], bool]


def under(prefix: str) -> Select:
    """Configuration keys under ``prefix`` (everything for ``""``)."""
    return lambda key: not prefix or key == prefix or key.startswith(prefix + ".")


def about_detector(detector: str | None = None) -> Select:
    """What concerns one detector (its overrides, its workspace file), or any detector for None."""
    if detector is None:
        return lambda key: key.startswith(("detectors.", "detector "))
    return lambda key: (
        under(f"detectors.{detector}")(key)
        or key == f"detector {detector}"
        or key.startswith(f"detector {detector}:")
    )


def render_trust(trust: Mapping[str, Any] | None, select: Select | None = None) -> list[str]:
    """Lines for ``trust``, keeping the keys ``select`` accepts; nothing when trusted, absent or none left."""
    if not trust or trust.get("trusted"):
        return []
    keep = select or under("")
    ignored = [r for r in trust.get("ignored") or [] if keep(r["key"])]
    log_only = [r for r in trust.get("log_only") or [] if keep(r["key"])]
    if not ignored and not log_only:
        return []
    changed = " (it changed since you trusted it)" if trust.get("changed_since_trusted") else ""
    lines = [f"workspace not trusted{changed}: review and grant with `{trust['command']}`"]
    lines += [f"  ignored   {r['key']}  [{r['class']}]  {_where(r)}" for r in ignored]
    lines += [f"  log-only  {r['key']}  [{r['class']}]  {_where(r)}" for r in log_only]
    return lines


def _where(request: Mapping[str, Any]) -> str:
    line = request.get("line")
    return f"{request['file']}:{line}" if line else str(request["file"])
