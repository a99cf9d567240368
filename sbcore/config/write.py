"""Changing a layer: ``set`` and ``reset``, validated before anything is written.

A rejected change raises ``ConfigRejected`` with every reason and leaves every
file byte-for-byte as it was. An accepted one rewrites only the lines of the
key it touches (see ``edit``), atomically, under a lock on the file's
directory so two concurrent ``set`` calls cannot lose each other's change.
Files in the data and config directories are private (0600); the workspace
file belongs to the repository and keeps whatever mode it has.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.config.edit import Edit, remove_from_text, set_in_text
from sbcore.config.effective import (
    INVARIANTS,
    MISSING,
    EffectiveConfig,
    broken_invariants,
    invariant_message,
    load_config,
    lookup,
    merge,
    read_layers,
)
from sbcore.config.layers import (
    WRITABLE,
    ConfigProblem,
    LayerFile,
    LayerName,
    layer_path,
    local_dir,
    read_text,
)
from sbcore.config.schema import (
    BadValueError,
    KeyRef,
    UnknownKeyError,
    config_schema,
    knob,
    parse_value,
    resolve_key,
    schema_issues,
)
from sbcore.config.trust import Request
from sbcore.config.widening import reset_refusal, set_refusal
from sbcore.paths import FILE_MODE, config_dir, data_dir, ensure_private_dir, replace_file, write_private
from sbcore.problems import SbcoreError
from sbcore.schemas import yamlpos

_HEADERS: dict[str, str] = {
    "global": "# sbcore configuration, global layer: applies to every workspace of this user.\n",
    "workspace": (
        "# sbcore configuration, workspace layer: committed and shared by the team.\n"
        "# Personal settings belong in the local layer (second-brain config set --local).\n"
    ),
    "local": "# sbcore configuration, local layer: this user, this workspace only.\n",
}
_HEADER_TAIL = "# `second-brain config show` lists every key, its value and the layer it comes from.\n"


DetectorCheck = Callable[[EffectiveConfig], tuple[list[str], list[str]]]
"""Given the configuration a change would produce: (reasons to refuse it, warnings to print)."""


class ConfigRejected(SbcoreError):
    """A change that was refused; nothing was written."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("\n".join(reasons))
        self.reasons = reasons


@dataclass
class Outcome:
    """What a ``set`` or ``reset`` did, for the command to report."""

    key: str
    layer: LayerName
    path: Path
    changed: bool
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def set_value(
    key: str,
    raw: str,
    *,
    layer: LayerName = "local",
    workspace: Path | None,
    cwd: Path | None = None,
    provider_names: Callable[[], Iterable[str]] | None = None,
    check_detectors: DetectorCheck | None = None,
) -> Outcome:
    """Set ``key`` to the value written as ``raw`` (YAML or JSON) in one layer.

    Validated against the schema (type, range, choices), against the file's
    other contents, and against the knobs it must agree with, before anything
    is written. ``cwd`` resolves a relative ``catalogue.file``. ``provider_names``
    lists the providers the installed packs register, asked only when
    ``model.provider`` is set (the caller loads the packs: they sit above this floor).
    ``check_detectors`` is asked, when a ``detectors.<id>.…`` key is set, with the
    configuration as it would be after the change; it returns (refusals, warnings),
    so the catalogue (above this floor too) can refuse an override it would drop.
    """
    target = _target(layer, workspace)
    try:
        ref = resolve_key(key)
    except UnknownKeyError as exc:
        raise ConfigRejected([str(exc)]) from exc
    if ref.is_group:
        raise ConfigRejected([_group_message(ref)])
    try:
        value = parse_value(raw, ref.schema)
    except BadValueError as exc:
        raise ConfigRejected([f"{key}: {exc}"]) from exc
    ref, value = _normalise(ref, value, layer, workspace, cwd or Path.cwd(), provider_names)
    cautions: list[str] = []

    def compute(text: str | None) -> Edit | None:
        current = _parse(layer, target, text)
        data = copy.deepcopy(current.data)
        _assign(data, ref.path, value)
        _check_layer(ref, current, data)
        _check_invariants(ref, layer, workspace, data)
        if check_detectors is not None and ref.path[0] == "detectors":
            refusals, warned = check_detectors(_candidate(current, workspace, data))
            if refusals:
                raise ConfigRejected(refusals)
            cautions[:] = warned
        refused = set_refusal(ref, value, layer)  # a valid change that widens needs the user's own act
        if refused is not None:
            raise ConfigRejected([refused])
        base = text if text is not None else _HEADERS[layer] + _HEADER_TAIL
        return set_in_text(base, ref.path, value)

    changed, comments_kept = _transact(layer, target, workspace, compute)
    outcome = Outcome(key=ref.key, layer=layer, path=target, changed=changed, warnings=list(cautions))
    if not comments_kept:
        outcome.warnings.append(f"{target}: the file's comments could not be kept by this edit")
    described = knob(ref.key)
    if described is not None and described.warning:
        outcome.warnings.append(described.warning)
    _report_effective(outcome, ref, layer, workspace, value)
    return outcome


def reset_value(
    target_key: str,
    *,
    layer: LayerName = "local",
    workspace: Path | None,
    confirm: Callable[[int, Path], bool] | None = None,
) -> Outcome:
    """Remove a key, a group, or (``all``) everything from one layer, so lower layers show through.

    A key the schema does not know can still be removed when the file holds
    it: that is how a misspelt key that breaks a layer gets cleaned up.
    ``confirm(count, file)`` is asked before a reset that would remove more than one key (a team's
    whole workspace file, say); False refuses it and nothing is written.
    """
    answers: dict[int, bool] = {}
    target = _target(layer, workspace)
    refused = reset_refusal(target_key, layer, workspace)
    if refused is not None:
        raise ConfigRejected([refused])
    if target_key == "all":
        path: tuple[str, ...] = ()
        shown = "all"
    else:
        try:
            path = resolve_key(target_key).path
        except UnknownKeyError as exc:
            path = tuple(target_key.split("."))
            if not _present_in_file(target, path):
                raise ConfigRejected([str(exc)]) from exc
        if path[:2] == ("enable", "workspaces") and len(path) == 3 and not _present_in_file(target, path):
            path = (*path[:2], os.path.realpath(os.path.expanduser(path[2])))
        shown = ".".join(path)

    def compute(text: str | None) -> Edit | None:
        if text is None:
            return None
        current = _parse(layer, target, text)
        removed = lookup(current.data, path) if path else current.data
        if removed is MISSING:
            return None
        count = count_keys(removed)
        if confirm is not None and count > 1:
            if count not in answers:
                answers[count] = confirm(count, target)
            if not answers[count]:
                raise ConfigRejected([f"not confirmed: {shown} is {count} keys of {target}"])
        return remove_from_text(text, path)

    changed, comments_kept = _transact(layer, target, workspace, compute)
    outcome = Outcome(key=shown, layer=layer, path=target, changed=changed)
    if not changed:
        outcome.notes.append(_not_set(shown, layer, target))
    if not comments_kept:
        outcome.warnings.append(f"{target}: the file's comments could not be kept by this edit")
    config = load_config(workspace)
    written = next(f for f in config.layers if f.name == layer)
    if written.problems:
        state = "is still skipped" if written.status == "skipped" else "still has keys held back"
        outcome.warnings.append(
            f"the {layer} layer {state}:\n" + "\n".join(str(problem) for problem in written.problems)
        )
    if path and len(path) >= 2 and not _user_keyed_entry(path):
        with contextlib.suppress(KeyError):
            value = config.get(target_key)
            outcome.notes.append(f"{target_key} is now {_show(value)} (from {config.layer_of(target_key)})")
    return outcome


# -- helpers ------------------------------------------------------------------------------------


def _target(layer: LayerName, workspace: Path | None) -> Path:
    if layer not in WRITABLE:
        choices = ", ".join(WRITABLE)
        raise ConfigRejected([f"{layer!r} is not a layer that can be written; use one of {choices}"])
    path = layer_path(layer, workspace)
    if path is None:
        raise ConfigRejected([f"the {layer} layer needs a workspace"])
    return path


def _group_message(ref: KeyRef) -> str:
    return (
        f"{ref.key} is a group; set one of its keys (`second-brain config show {ref.key}` lists them), "
        f"or reset the whole group with `second-brain config reset {ref.key}`"
    )


def _normalise(
    ref: KeyRef,
    value: Any,
    layer: LayerName,
    workspace: Path | None,
    cwd: Path,
    provider_names: Callable[[], Iterable[str]] | None = None,
) -> tuple[KeyRef, Any]:
    """Store values the way they will be read: resolved workspace paths, checked catalogue paths."""
    if ref.path[:2] == ("enable", "workspaces") and len(ref.path) == 3:
        real = os.path.realpath(os.path.expanduser(ref.path[2]))
        return KeyRef(f"enable.workspaces.{real}", (*ref.path[:2], real), ref.schema), value
    if ref.path == ("catalogue", "file") and value is not None:
        given = Path(os.path.expanduser(value))
        base = workspace if layer == "workspace" and workspace is not None else cwd
        absolute = given if given.is_absolute() else base / given
        if not absolute.exists():
            raise ConfigRejected([f"catalogue.file: {absolute} does not exist"])
        if layer == "workspace" and workspace is not None:
            with contextlib.suppress(ValueError):
                # Relative to the workspace root, so the committed file works in every checkout.
                return ref, str(Path(os.path.realpath(absolute)).relative_to(workspace))
        return ref, str(Path(os.path.realpath(absolute)))
    if ref.path == ("model", "provider"):
        _check_provider(str(value), provider_names)
    return ref, value


def _check_provider(name: str, provider_names: Callable[[], Iterable[str]] | None) -> None:
    """A provider must exist when set: ``auto``, or a name an installed pack (built-ins too) registers.

    The built-in names come from the schema's list of them (the one the docs print; a test keeps it equal
    to what the built-in pack registers), so a broken pack environment cannot make them unsettable."""
    provider = config_schema()["properties"]["model"]["properties"]["provider"]
    known = {str(name) for name in provider.get("examples", ())}
    try:
        if provider_names is not None:
            known |= set(provider_names())
    except Exception:  # a broken pack environment must not make the built-in names unsettable
        pass
    if name not in known:
        close = difflib.get_close_matches(name, sorted(known), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ConfigRejected(
            [f"model.provider: no provider named {name!r} (known: {', '.join(sorted(known))}){hint}"]
        )


def _parse(layer: LayerName, path: Path, text: str | None) -> LayerFile:
    """The layer's current data and key lines, refusing a file that cannot be edited safely."""
    current = LayerFile(layer, path)
    if text is None:
        return current
    try:
        located = yamlpos.load(text)
    except yamlpos.YamlSyntaxError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise ConfigRejected([f"{where}: not valid YAML ({exc.message}); fix it by hand first"]) from exc
    if located.problems:
        reasons = [f"{path}:{p.line}: {p.message}" for p in located.problems]
        raise ConfigRejected([*reasons, "fix the file by hand first"])
    data = located.data if located.data is not None else {}
    if not isinstance(data, dict):
        raise ConfigRejected([f"{path}: the top of the file is not a mapping; fix it by hand first"])
    current.data = data
    current.lines = {key: position.line for key, position in located.positions.items()}
    return current


def _candidate(current: LayerFile, workspace: Path | None, data: dict[str, Any]) -> EffectiveConfig:
    """The configuration as it would be with ``data`` in ``current``'s layer, every key applied.

    Trust is left out on purpose: a refused override is refused whether or not
    the workspace is trusted yet, so it is checked as written.
    """
    changed = LayerFile(current.name, current.path, "ok", data, [], current.lines)
    layers = [changed if f.name == current.name else f for f in read_layers(workspace)]
    return EffectiveConfig(workspace, layers, merge([(f.name, f.data) for f in layers if f.used]))


def _assign(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        if not isinstance(data.get(part), dict):
            data[part] = {}
        data = data[part]
    data[path[-1]] = copy.deepcopy(value)


def _check_layer(ref: KeyRef, current: LayerFile, data: dict[str, Any]) -> None:
    """Refuse a value that breaks the schema, or a file that would stay broken (and so stay skipped)."""
    issues = schema_issues(data)
    mine = [issue for issue in issues if _related(issue.path, ref.path)]
    if mine:
        raise ConfigRejected([f"{issue.key}: {issue.message}" + _hint(issue.hint) for issue in mine])
    if issues:
        problems = [
            ConfigProblem(issue.message, current.path, current.line_of(issue.path), issue.key, issue.hint)
            for issue in issues
        ]
        raise ConfigRejected(
            [str(problem) for problem in problems]
            + [
                f"the {current.name} layer is skipped until these are fixed, so the new value would not "
                "take effect; `second-brain config reset KEY` removes a bad key"
            ]
        )


def _related(issue_path: tuple[str | int, ...], key_path: tuple[str, ...]) -> bool:
    shorter = min(len(issue_path), len(key_path))
    return tuple(issue_path[:shorter]) == key_path[:shorter]


def _hint(hint: str | None) -> str:
    return f" ({hint})" if hint else ""


def _check_invariants(ref: KeyRef, layer: LayerName, workspace: Path | None, data: dict[str, Any]) -> None:
    others = [(f.name, f.data) for f in read_layers(workspace) if f.used and f.name != layer]
    candidate = merge(sorted([*others, (layer, data)], key=lambda item: WRITABLE.index(item[0])))
    involved = {rule.low for rule in INVARIANTS} | {rule.high for rule in INVARIANTS}
    if ref.key not in involved:
        return
    reasons = [
        invariant_message(rule, low, high, candidate)
        for rule, low, high in broken_invariants(candidate)
        if ref.key in (rule.low, rule.high)
    ]
    if reasons:
        raise ConfigRejected(reasons)


def _present_in_file(path: Path, key_path: tuple[str, ...]) -> bool:
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError):
        return False
    if text is None:
        return False
    try:
        data = yamlpos.load(text).data
    except yamlpos.YamlSyntaxError:
        return False
    return lookup(data, key_path) is not MISSING


def _not_set(key: str, layer: LayerName, path: Path) -> str:
    if key == "all":
        return f"the {layer} layer ({path}) sets nothing"
    return f"{key} is not set in the {layer} layer ({path})"


def _user_keyed_entry(path: tuple[str, ...]) -> bool:
    """``detectors.<id>`` or ``tools.mcp_servers.<name>``: an entry that disappears rather than reverts."""
    return path[0] == "detectors" or path[:2] in {("tools", "mcp_servers"), ("enable", "workspaces")}


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _report_effective(
    outcome: Outcome, ref: KeyRef, layer: LayerName, workspace: Path | None, value: Any
) -> None:
    config: EffectiveConfig = load_config(workspace)
    where = f"the {layer} layer ({outcome.path})"
    verb = "=" if outcome.changed else "was already"
    outcome.notes.append(f"{ref.key} {verb} {_show(value)} in {where}")
    trust = config.trust
    held = [] if trust is None else [*trust.ignored, *trust.log_only]
    if layer == "workspace" and trust is not None and _waits_for_trust(ref.key, held):
        outcome.notes.append(
            f"{ref.key} applies only once this workspace is trusted: review it with `{trust.command}`"
        )
        return
    try:
        winner = config.layer_of(ref.key)
        effective = config.get(ref.key)
    except KeyError:
        return
    if winner != layer and json.dumps(effective, sort_keys=True) != json.dumps(value, sort_keys=True):
        outcome.warnings.append(
            f"{ref.key} stays {_show(effective)}: the {winner} layer overrides the {layer} layer "
            f"(reset it there with `second-brain config reset {ref.key} --{winner}`)"
        )


def _waits_for_trust(key: str, held: list[Request]) -> bool:
    """Whether ``key`` (or something under or above it) is held back or log-only in the untrusted layer."""
    return any(r.key == key or r.key.startswith(key + ".") or key.startswith(r.key + ".") for r in held)


# -- writing ------------------------------------------------------------------------------------


def count_keys(value: Any) -> int:
    """How many keys (leaves) ``value`` sets: a mapping counts its leaves, anything else one."""
    if isinstance(value, dict):
        return sum(count_keys(item) for item in value.values())
    return 1


def _transact(
    layer: LayerName,
    path: Path,
    workspace: Path | None,
    compute: Callable[[str | None], Edit | None],
) -> tuple[bool, bool]:
    """Compute the new text, then write it under a directory lock, recomputing if the file moved meanwhile.

    Validation runs before any directory is created, so a rejected change
    leaves no trace, not even an empty ``.second-brain/``.
    Returns (changed, comments kept).
    """
    before = _read(path)
    edit = compute(before)
    if edit is None or edit.text == before:
        return False, True
    try:
        _prepare_dir(layer, path, workspace)
        with _locked(path.parent):
            current = _read(path)
            if current != before:
                before, edit = current, compute(current)
                if edit is None or edit.text == before:
                    return False, True
            _write(layer, path, edit.text)
    except OSError as exc:
        raise ConfigRejected([f"cannot write {path}: {exc.strerror or exc}"]) from exc
    return True, edit.comments_kept


def _read(path: Path) -> str | None:
    try:
        return read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigRejected([f"cannot read {path}: {exc}"]) from exc


def _prepare_dir(layer: LayerName, path: Path, workspace: Path | None) -> None:
    if layer == "workspace":
        path.parent.mkdir(parents=True, exist_ok=True)
    elif layer == "local" and workspace is not None:
        ensure_private_dir(data_dir())
        ensure_private_dir(local_dir(workspace))
    else:
        ensure_private_dir(config_dir())


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no advisory locks, last writer wins
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _write(layer: LayerName, path: Path, text: str) -> None:
    """Atomically replace the file's content, through a symlink if the file is one."""
    real = Path(os.path.realpath(path))
    data = text.encode("utf-8")
    if layer == "workspace":
        mode = real.stat().st_mode & 0o777 if real.exists() else None
        replace_file(real, data, mode)
    elif real == path:
        write_private(real, data)
    else:
        # A symlinked file (dotfiles): keep the link, don't touch the target's directory mode.
        replace_file(real, data, FILE_MODE)
