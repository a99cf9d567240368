"""How fast ``redact`` reads the strings a transcript's assistant writes (its text, its commands).

Figures against ``json.loads`` over the same files, in CPU time and best of several runs, so they stay
comparable on a shared, busy machine: per string (as the projection calls it) and over the strings joined
(one long text, as a pasted log is). ``python -m sbcore.bench.redaction TRANSCRIPT...``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence

from sbcore.observe.redact import redact


def throughput(paths: Sequence[str], rounds: int = 5) -> list[str]:
    """Throughput figures for ``redact`` on the assistant text and Bash commands of transcripts.

    Measured against ``json.loads`` over the same files, in CPU time and best of several runs, so the
    figures stay comparable on a shared, busy machine.
    """
    lines = []
    for path in paths:
        with open(path, "rb") as handle:
            lines += [line for line in handle.read().splitlines() if line.strip()]
    strings: list[str] = []
    for line in lines:
        record = json.loads(line)
        content = record.get("message", {}).get("content") if record.get("type") == "assistant" else None
        for block in content if isinstance(content, list) else ():
            if block.get("type") == "text":
                strings.append(block["text"])
            elif block.get("type") == "tool_use" and block.get("name") == "Bash":
                command = block.get("input", {}).get("command")
                strings.append(command if isinstance(command, str) else "")
    joined = "\n".join(strings)
    size, raw = len(joined), sum(map(len, lines))

    def best(run: Callable[[], object], repeat: int) -> float:
        times = []
        for _ in range(rounds * repeat):
            started = time.process_time()
            run()
            times.append(time.process_time() - started)
        return min(times)

    loads = raw / best(lambda: [json.loads(line) for line in lines], 1) / 1e6
    each = size / best(lambda: [redact(s) for s in strings], 4) / 1e6
    whole = size / best(lambda: redact(joined), 4) / 1e6
    changed = sum(redact(s) != s for s in strings)
    return [
        f"corpus: {len(paths)} files, {raw / 1e6:.1f} MB; {len(strings)} strings, {size / 1e6:.2f} MB text",
        f"json.loads           {loads:7.0f} MB/s",
        f"redact per string    {each:7.0f} MB/s  ({each / loads:.2f}x json.loads)",
        f"redact concatenated  {whole:7.0f} MB/s  ({whole / loads:.2f}x json.loads)",
        f"strings changed      {changed}",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure secret-redaction throughput on transcripts.")
    parser.add_argument("transcripts", nargs="+", metavar="TRANSCRIPT", help="JSONL transcript files")
    parser.add_argument("--rounds", type=int, default=5, help="runs per figure, the best kept (default 5)")
    args = parser.parse_args(argv)
    print("\n".join(throughput(args.transcripts, max(1, args.rounds))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
