"""The checks ``second-brain doctor`` runs: each one a small function from what it looks at to a verdict.

Each check says what it found in one line and, when something is wrong, the command or change that fixes
it. ``fail`` is something that stops the observer working (no hooks can start, no data directory, a CLI
older than any verified); ``warn`` is something that works but deserves a look (a CLI newer than the one
tested, a workspace waiting for trust, an error in a worker's log). Checks read files and ask the
programs the user installed (the ``claude`` CLI, the bound interpreter); none writes anything, and the
only connection one opens is to the model provider the effective configuration already chose.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sbcore import __version__
from sbcore.safefile import open_regular

Status = Literal["ok", "warn", "fail"]

MINIMUM_CLI = (2, 1, 328)
"""The oldest Claude Code CLI the observer supports: the oldest whose behaviour was verified (see
``claude-code-facts``); nothing older has been, so an older one is refused rather than guessed at."""
TESTED_CLI = (2, 1, 328)
"""The CLI the end-to-end tests run (``.ci/run`` pins it; a test keeps the two equal). Newer is untested."""
MINIMUM_PYTHON = (3, 11)
PROBE_TIMEOUT_S = 20.0
REACH_TIMEOUT_S = 5.0
LOG_TAIL_BYTES = 64 * 1024


@dataclass(frozen=True)
class Check:
    """One verdict: what was checked, how it stands, what was found, and how to fix it."""

    name: str
    status: Status
    detail: str
    fix: str = ""

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail, "fix": self.fix}


@dataclass(frozen=True)
class Scene:
    """Where the checks look: the checkout's plugin folder (None without one), the CLI, the workspace."""

    plugin_dir: Path | None
    plugin_id: str | None
    claude: str | None
    workspace: Path
    data: Path
    claude_config: Path


def python(scene: Scene) -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] < MINIMUM_PYTHON:
        need = ".".join(map(str, MINIMUM_PYTHON))
        return Check("python", "fail", f"{sys.executable} is Python {version}", f"use Python {need} or newer")
    return Check("python", "ok", f"{sys.executable} (Python {version})")


def package(scene: Scene) -> Check:
    import sbcore

    return Check("sbcore", "ok", f"sbcore {__version__} from {Path(sbcore.__file__).parent}")


def plugin(scene: Scene) -> Check:
    """The plugin folder this package runs (a checkout's), its version against the package's, and whether
    Claude Code has it enabled."""
    if scene.plugin_dir is None or scene.plugin_id is None:
        return Check(
            "plugin",
            "fail",
            "no plugin folder beside this package (it was not installed from a source checkout)",
            "install from a checkout: `git clone …; pip install -e .; second-brain install`",
        )
    manifest = scene.plugin_dir / ".claude-plugin" / "plugin.json"
    try:
        declared = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError, AttributeError) as error:
        return Check("plugin", "fail", f"{manifest}: unreadable ({error})", "restore the checkout's plugin/")
    if declared != __version__:
        relation = "older" if _version(str(declared)) < _version(__version__) else "newer"
        return Check(
            "plugin",
            "fail",
            f"plugin {declared} at {scene.plugin_dir} is {relation} than the sbcore {__version__} it runs",
            "install the package and the plugin from one checkout: `pip install -e .` there, then "
            "`second-brain install`",
        )
    loaded = os.environ.get("CLAUDE_PLUGIN_ROOT")
    if loaded:  # run by the plugin itself (a slash command): this session loaded it, from there
        return Check("plugin", "ok", f"{scene.plugin_id} {declared}, loaded by this session from {loaded}")
    enabled = _enabled_plugins(scene.claude_config)
    if enabled.get(scene.plugin_id) is not True:
        return Check(
            "plugin",
            "fail",
            f"{scene.plugin_id} {declared} is not enabled in {scene.claude_config / 'settings.json'}",
            "run `second-brain install`",
        )
    return Check("plugin", "ok", f"{scene.plugin_id} {declared}, enabled, runs from {scene.plugin_dir}")


def claude_cli(scene: Scene) -> Check:
    if scene.claude is None:
        return Check("claude", "fail", "no `claude` on PATH", "install Claude Code, or pass --claude PATH")
    try:
        done = subprocess.run(
            [scene.claude, "--version"],
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return Check(
            "claude", "fail", f"{scene.claude} --version did not run ({error})", "reinstall Claude Code"
        )
    found = re.search(r"\b(\d+)\.(\d+)\.(\d+)\b", done.stdout)
    if done.returncode != 0 or found is None:
        said = " ".join((done.stdout + done.stderr).split())[:200] or "nothing"
        return Check("claude", "fail", f"{scene.claude} --version said {said!r}", "reinstall Claude Code")
    version = tuple(int(part) for part in found.groups())
    spelt, minimum, tested = (".".join(map(str, v)) for v in (version, MINIMUM_CLI, TESTED_CLI))
    if version < MINIMUM_CLI:
        return Check(
            "claude",
            "fail",
            f"Claude Code {spelt} ({scene.claude}) is older than the minimum supported {minimum}",
            "update Claude Code (`claude update`)",
        )
    if version > TESTED_CLI:
        return Check("claude", "warn", f"Claude Code {spelt}: newer than the tested {tested}, untested")
    return Check("claude", "ok", f"Claude Code {spelt} ({scene.claude}), the tested version")


def hooks(scene: Scene) -> Check:
    """The interpreter the hooks start (``SBCORE_PYTHON`` or ``plugin/lib/python-path``) runs the hooks."""
    if scene.plugin_dir is None:
        return Check("hooks", "fail", "no plugin folder, so no hooks", "install from a checkout")
    binding = scene.plugin_dir / "lib" / "python-path"
    given = os.environ.get("SBCORE_PYTHON")
    if given:
        interpreter, source = given, "SBCORE_PYTHON"
    else:
        try:
            interpreter, source = binding.read_text(encoding="utf-8").strip(), str(binding)
        except OSError:
            return Check(
                "hooks", "fail", f"no interpreter bound ({binding} missing)", "run `second-brain install`"
            )
    if not (os.path.isfile(interpreter) and os.access(interpreter, os.X_OK)):
        return Check(
            "hooks",
            "fail",
            f"the bound interpreter {interpreter} (from {source}) is not an executable file",
            "run `second-brain install` with the Python that has sbcore installed",
        )
    try:
        done = subprocess.run(
            [interpreter, "-P", "-c", "import sbcore.hooks.dispatch"],
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        done = subprocess.CompletedProcess([], 1, "", str(error))
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no error output"])[-1]
        return Check(
            "hooks",
            "fail",
            f"{interpreter} (from {source}) cannot run the hooks: {said}",
            "run `second-brain install` with the Python that has sbcore installed",
        )
    launchers = [
        name
        for name in ("sb-hook", "sb-statusline", "sb-worker")
        if not os.access(scene.plugin_dir / "bin" / name, os.X_OK)
    ]
    if launchers:
        return Check(
            "hooks",
            "fail",
            f"not executable: {', '.join(launchers)}",
            "run `second-brain install` (it restores the bits)",
        )
    return Check("hooks", "ok", f"bound to {interpreter} (from {source})")


def data_directory(scene: Scene) -> Check:
    """The data directory: a private folder this user can read and write, or none yet."""
    data = scene.data
    try:
        info = os.lstat(data)
    except FileNotFoundError:
        return Check("data directory", "ok", f"{data} (not made yet: the first session makes it, 0700)")
    except OSError as error:
        return Check(
            "data directory", "fail", f"{data}: {error.strerror}", f"check the permissions above {data}"
        )
    linked = ""
    if stat.S_ISLNK(info.st_mode):  # a user may keep it elsewhere: its target is what is checked
        linked = f" (a link to {os.path.realpath(data)})"
        try:
            info = os.stat(data)
        except OSError as error:
            return Check(
                "data directory",
                "fail",
                f"{data} is a link to nothing usable: {error.strerror}",
                f"`rm {data}`",
            )
    if not stat.S_ISDIR(info.st_mode):
        return Check(
            "data directory", "fail", f"{data} is not a folder", f"move it away: `mv {data} {data}.old`"
        )
    if info.st_uid != os.getuid():
        return Check(
            "data directory", "fail", f"{data} belongs to uid {info.st_uid}", f"`chown -R $USER {data}`"
        )
    if not os.access(data, os.R_OK | os.W_OK | os.X_OK):
        return Check("data directory", "fail", f"{data} cannot be read and written", f"`chmod 700 {data}`")
    if info.st_mode & 0o077:
        # Claude Code makes a plugin's data folder 0755; the worker tightens it as it starts, and what
        # is inside is 0700 and 0600 from the first write, so until then this is untidy, not open.
        return Check(
            "data directory",
            "warn",
            f"{data} has mode {stat.S_IMODE(info.st_mode):o} "
            "(its contents are private; a worker makes it 0700 when it starts)",
            f"`chmod 700 {data}`",
        )
    return Check("data directory", "ok", f"{data}{linked} (0700)")


def provider(scene: Scene, reach: Callable[[str], str | None] | None = None) -> Check:
    """The provider the effective configuration chooses here, and whether its address answers."""
    from sbcore.config import load_config
    from sbcore.think.providers.base import ProviderConfigError
    from sbcore.think.providers.choose import choose

    try:
        choice = choose(load_config(scene.workspace).group("model"), os.environ)
    except ProviderConfigError as error:
        return Check(
            "provider", "fail", f"model: {error}", "fix the key it names: `second-brain config show model`"
        )
    if choice.provider == "offline":
        return Check("provider", "ok", f"offline (no model): {choice.reason}; structural fallbacks only")
    if choice.address is None:
        return Check("provider", "ok", f"{choice.provider}, model {choice.model}: {choice.reason}")
    url = choice.address
    problem = (reach or _reach)(url)
    if problem is not None:
        return Check(
            "provider",
            "fail",
            f"{choice.provider} at {url} does not answer: {problem}",
            "check the network or model.base_url; or run without a model: "
            "`second-brain config set model.provider offline`",
        )
    return Check(
        "provider", "ok", f"{choice.provider}, model {choice.model} at {url} answers ({choice.reason})"
    )


def trust(scene: Scene) -> Check:
    from sbcore.config import load_config

    state = load_config(scene.workspace).trust
    if state is None or not state.needed:
        return Check(
            "workspace trust", "ok", f"{scene.workspace}: its layer asks for nothing that needs trust"
        )
    if state.trusted:
        return Check("workspace trust", "ok", f"{scene.workspace}: trusted")
    again = "changed since you trusted it" if state.recorded else "not trusted"
    keys = ", ".join(sorted({request.key for request in state.requests}))
    return Check(
        "workspace trust",
        "warn",
        f"{scene.workspace}: {again}; held back: {keys}",
        f"review with `second-brain trust --show`, then run `{state.command}` in your own terminal",
    )


def configuration(scene: Scene) -> Check:
    from sbcore.config import load_config

    problems = load_config(scene.workspace).problems
    if not problems:
        return Check("configuration", "ok", "every layer reads cleanly")
    first = str(problems[0]).splitlines()[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return Check(
        "configuration", "warn", f"{first}{more}", "`second-brain config show` lists each with its fix"
    )


def worker(scene: Scene) -> Check:
    """The last error any worker logged (the newest log that has one)."""
    logs = sorted(scene.data.glob("logs/worker-*.log"), key=_mtime, reverse=True)
    for log in logs:
        line = _last_error(log)
        if line is not None:
            return Check(
                "worker",
                "warn",
                f"last error in {log}: {line}",
                "see the log; `second-brain why` shows the last pass",
            )
    return Check("worker", "ok", f"no worker error logged ({len(logs)} worker log{'s' * (len(logs) != 1)})")


CHECKS: tuple[Callable[[Scene], Check], ...] = (
    python,
    package,
    claude_cli,
    plugin,
    hooks,
    data_directory,
    configuration,
    provider,
    trust,
    worker,
)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def _enabled_plugins(claude_config: Path) -> dict[str, Any]:
    try:
        settings = json.loads((claude_config / "settings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    enabled = settings.get("enabledPlugins") if isinstance(settings, dict) else None
    return enabled if isinstance(enabled, dict) else {}


def _reach(url: str) -> str | None:
    """None when anything answers at ``url`` (any HTTP status), else why not."""
    import httpx

    try:
        httpx.get(url, timeout=REACH_TIMEOUT_S, follow_redirects=False)
    except httpx.HTTPError as error:
        return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return None


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _last_error(log: Path) -> str | None:
    """The last ERROR or CRITICAL line of ``log``'s tail, or None."""
    try:
        with open_regular(log) as handle:
            handle.seek(max(0, os.fstat(handle.fileno()).st_size - LOG_TAIL_BYTES))
            tail = handle.read(LOG_TAIL_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    for line in reversed(tail.splitlines()):
        if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback"):
            return " ".join(line.split())[:300]
    return None
