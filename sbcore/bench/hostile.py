"""Hostile inputs through the user-facing commands: each must end in a clear error or a correct result.

The inputs are what a repository, a broken disk or a live session can put in front of ``config show``,
``project``, ``measure`` and ``replay``: a workspace layer that is a ~300-byte YAML alias bomb (or a FIFO), a
transcript with a line nested 200,000 levels deep, one that ends in a half-written line, a FIFO in place of
a transcript, and a transcript of a few hundred megabytes. Every case runs the real CLI in a child process,
so the figures are the command's own: wall time, peak resident memory (the child's own ``VmHWM`` at exit,
read from ``/proc``; elsewhere ``wait4``'s ``ru_maxrss``), exit status, and whether a Python traceback
reached the terminal. ``second-brain bench hostile`` prints them; ``tests/test_hostile_inputs.py`` asserts on
them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from sbcore.bench.synthetic import SyntheticSession

BOMB_LEVELS = 9
_ENTRY = """
import atexit, os, sys

def _peak():
    # VmHWM is this process's own high-water mark since exec; wait4's ru_maxrss would also count the
    # parent's memory the child shared between fork and exec.
    try:
        with open("/proc/self/status") as status:
            kb = next((line.split()[1] for line in status if line.startswith("VmHWM:")), "")
        with open(os.environ["SB_BENCH_PEAK_FILE"], "w") as out:
            out.write(kb)
    except OSError:
        pass

atexit.register(_peak)
from sbcore.cli import main
sys.exit(main(sys.argv[1:]))
"""


def alias_bomb(levels: int = BOMB_LEVELS) -> str:
    """Nine anchors of nine aliases each: 9**9 values once expanded, about 300 bytes of YAML."""
    names = "abcdefghijklmnopqrstuvwxyz"
    lines = ['a: &a ["lol"]']
    for level in range(1, levels + 1):
        refs = ",".join([f"*{names[level - 1]}"] * 9)
        lines.append(f"{names[level]}: &{names[level]} [{refs}]")
    return "\n".join(lines) + "\n"


def _session_lines(count: int, seed: int = 0) -> list[str]:
    session = SyntheticSession("hostile-session", "/work/project", seed=seed)
    lines: list[str] = []
    for turn in session.turns():
        lines.extend(json.dumps(record, separators=(",", ":")) for record in turn.records)
        if len(lines) >= count:
            return lines[:count]
    return lines


def write_deep(path: Path, depth: int = 200_000) -> Path:
    """A valid session with one line nested ``depth`` levels deep in the middle, and one nested just under
    the parser's limit (it parses, but walking it recursively would not)."""
    lines = _session_lines(40)
    nested = "[" * depth + "]" * depth
    deep = '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":' + nested
    near = "[" * 950 + "]" * 950
    almost = (
        '{"type":"assistant","uuid":"deep-2","message":{"role":"assistant","content":'
        '[{"type":"tool_use","id":"t-deep","name":"Bash","input":{"command":"ls","x":' + near + "}}]}}"
    )
    path.write_text("\n".join([*lines[:20], deep + "}]}}", almost, *lines[20:]]) + "\n")
    return path


def write_half_written(path: Path) -> Path:
    """A session whose last line stops halfway, as a live transcript's can."""
    lines = _session_lines(40)
    tail = '{"type":"assistant","uuid":"half","message":{"role":"assistant","content":[{"type":"te'
    path.write_text("\n".join(lines) + "\n" + tail)
    return path


def write_large(path: Path, size_bytes: int) -> Path:
    """A synthetic session of at least ``size_bytes``, written record by record (never held whole)."""
    session = SyntheticSession("large-session", "/work/project", seed=7)
    written = 0
    with path.open("w", encoding="utf-8") as out:
        for turn in session.turns():
            for record in turn.records:
                line = json.dumps(record, separators=(",", ":")) + "\n"
                out.write(line)
                written += len(line)
            if written >= size_bytes:
                break
    return path


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@dataclass(frozen=True)
class CaseResult:
    """One command on one input: what the user saw, and what it cost."""

    case: str
    command: str
    exit_status: int
    wall_s: float
    peak_rss_mb: float
    traceback: bool
    stderr_tail: str


def run_cli(
    case: str, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout_s: float = 600.0
) -> CaseResult:
    """Run ``second-brain ARGV`` in a child; it reports its own peak RSS, its stderr goes to a file."""
    started = time.perf_counter()
    with (
        tempfile.TemporaryFile() as err,
        open(os.devnull, "wb") as sink,
        tempfile.TemporaryDirectory() as scratch,
    ):
        peak_file = Path(scratch) / "peak"
        child_env = dict(env, SB_BENCH_PEAK_FILE=str(peak_file))
        proc = subprocess.Popen(
            [sys.executable, "-c", _ENTRY, *argv], cwd=cwd, env=child_env, stdout=sink, stderr=err
        )
        deadline = time.monotonic() + timeout_s
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        wall = time.perf_counter() - started
        err.seek(0)
        text = err.read().decode("utf-8", errors="replace")
        peak_kb = peak_file.read_text().strip() if peak_file.exists() else ""
    peak_mb = int(peak_kb) / 1024 if peak_kb.isdigit() else usage.ru_maxrss / 1024
    return CaseResult(
        case=case,
        command="second-brain " + " ".join(argv),
        exit_status=proc.returncode,
        wall_s=round(wall, 2),
        peak_rss_mb=round(peak_mb, 1),
        traceback="Traceback (most recent call last)" in text,
        stderr_tail=_tail(text),
    )


def _tail(text: str) -> str:
    """The last thing stderr said, on one line: its last line, or the whole of the problem it ends
    (``==> File …:7 ==> At key: … =====> …``, see :mod:`sbcore.problems`), where the file names the place."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines:
        return ""
    start = len(lines) - 1
    if lines[start].startswith(("=====>", "hint:")):
        while start > 0 and lines[start - 1].startswith(("==> ", "=====>")):
            start -= 1
    return " ".join(lines[start:])


def hostile_cases(root: Path, *, large_bytes: Sequence[int] = ()) -> list[tuple[str, list[str], Path]]:
    """The inputs, written under ``root``, as ``(case, argv, cwd)``: one large transcript of each size in
    ``large_bytes`` (none when it is empty), which ``replay`` also prints as ``--json``, so its memory can be
    read at several sizes."""
    bomb_ws = root / "bomb-ws"
    (bomb_ws / ".git").mkdir(parents=True)
    (bomb_ws / ".second-brain").mkdir()
    (bomb_ws / ".second-brain" / "config.yaml").write_text(alias_bomb())
    fifo_ws = root / "fifo-ws"
    (fifo_ws / ".git").mkdir(parents=True)
    (fifo_ws / ".second-brain").mkdir()
    make_fifo(fifo_ws / ".second-brain" / "config.yaml")
    inputs = {
        "deep line": write_deep(root / "deep.jsonl"),
        "half-written line": write_half_written(root / "half.jsonl"),
        "FIFO": make_fifo(root / "fifo.jsonl"),
    }
    for size in large_bytes:
        inputs[f"{size // 1_000_000} MB transcript"] = write_large(root / f"large-{size}.jsonl", size)
    cases: list[tuple[str, list[str], Path]] = [
        ("alias bomb layer", ["config", "show"], bomb_ws),
        ("FIFO layer", ["config", "show"], fifo_ws),
    ]
    for name, path in inputs.items():
        cases.append((name, ["project", str(path)], root))
        cases.append((name, ["measure", "--repeat", "1", str(path)], root))
        cases.append((name, ["replay", str(path)], root))
        if name.endswith("MB transcript"):
            cases.append((name, ["replay", "--json", str(path)], root))
    return cases


def run_hostile(root: Path, *, large_bytes: Sequence[int] = ()) -> list[CaseResult]:
    """Write the inputs under ``root`` and run every case, with configuration and data directories of its
    own (the user's are never read)."""
    env = dict(os.environ, SBCORE_CONFIG_DIR=str(root / "config"), SBCORE_DATA_DIR=str(root / "data"))
    env.pop("CLAUDE_PLUGIN_DATA", None)
    cases = hostile_cases(root, large_bytes=large_bytes)
    return [run_cli(case, argv, cwd=cwd, env=env) for case, argv, cwd in cases]


def render(results: Sequence[CaseResult]) -> str:
    """A table of the figures, one case per line."""
    rows = [f"{'case':<22} {'command':<22} {'exit':>4} {'wall s':>7} {'peak MB':>8}  outcome"]
    for result in results:
        words = result.command.split()
        verb = " ".join(words[1:3]) if words[1] == "config" or words[2] == "--json" else words[1]
        outcome = "TRACEBACK" if result.traceback else (result.stderr_tail or "ok")
        rows.append(
            f"{result.case:<22} {verb:<22} {result.exit_status:>4} {result.wall_s:>7.2f} "
            f"{result.peak_rss_mb:>8.1f}  {outcome[:90]}"
        )
    return "\n".join(rows)


def as_json(results: Sequence[CaseResult]) -> list[dict[str, object]]:
    return [asdict(result) for result in results]
