"""Measure the projection on real transcripts: volume, locators, throughput.

Everything is measured on the same input in the same run, and defined once here (and
in docs/observation.md):

* **content chars** (the input): over the records in scope (``user``/``assistant``
  records; sidechain records only with ``include_sidechain``; a repeated ``uuid`` once),
  the characters of assistant ``text`` blocks, of each ``tool_use`` input serialized as
  compact JSON, of user text (string content or ``text`` blocks, harness-injected or
  not), and of each ``tool_result``'s text. Thinking blocks, images, attachments,
  progress, system and bookkeeping records are not content (they are reported apart).
* **observed chars**: the length of every ``Observation.text`` the projector emits.
* **built-in chars**: the length of every entry of the built-in observer's digest
  (``digest``) for the same records. The digest keeps user text whole, harness-injected
  or not; the ratio is also given as if it skipped the harness-injected part, as the
  projector does.
* **locators**: for every item the projection shortens (tool calls, failed tool
  results, subagent reports), the values of locator arguments (``LOCATOR_KEYS``) and
  the path and ``file:line`` tokens of every other string in it; one is kept when it
  is readable in that item's observation, verbatim or inside a ``dir/{a,b}`` group.
* **throughput**: bytes per second from file bytes to observations (reading, parsing,
  projection, redaction), against a bare ``json.loads`` of every line of the same
  bytes; the median of ``repeat`` runs of each, interleaved.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.observe import locators, redact
from sbcore.observe.blocks import LineBlocks
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.digest import builtin_entries, input_json
from sbcore.observe.model import Observation
from sbcore.observe.project import RECORDS_REMEMBERED, REPORT_TOOLS, Projector, RecentIds
from sbcore.observe.record_text import clean_prompt, error_text, report_text, result_text
from sbcore.observe.sentinel import ADVISORY_SENTINEL
from sbcore.safefile import check_regular

SEGMENTS: tuple[tuple[str, str], ...] = (
    ("text", "Assistant text"),
    ("args", "Tool-call arguments"),
    ("prompt", "User prompts"),
    ("result", "Tool results"),
)
_SEGMENT_OF_KIND = {"text": "text", "tool": "args", "prompt": "prompt", "error": "result", "report": "result"}
_LOST_SAMPLE = 20


@dataclass(slots=True)
class _Totals:
    files: int = 0
    bytes: int = 0
    records: int = 0
    invalid_lines: int = 0
    observations: int = 0
    out_of_scope_chars: int = 0
    thinking_chars: int = 0
    images: int = 0
    segment_in: dict[str, int] = field(default_factory=lambda: dict.fromkeys(dict(SEGMENTS), 0))
    segment_out: dict[str, int] = field(default_factory=lambda: dict.fromkeys(dict(SEGMENTS), 0))
    segment_builtin: dict[str, int] = field(default_factory=lambda: dict.fromkeys(dict(SEGMENTS), 0))
    builtin_harness_chars: int = 0
    tool_calls: dict[str, int] = field(default_factory=dict)
    tool_in: dict[str, int] = field(default_factory=dict)
    tool_out: dict[str, int] = field(default_factory=dict)
    locators_in: int = 0
    locators_kept: int = 0
    lost: list[dict[str, str]] = field(default_factory=list)


def transcript_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files named directly, and every ``*.jsonl`` under directories, sorted per directory."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.jsonl") if p.is_file()))
            continue
        problem = check_regular(path)
        if problem is not None:
            raise FileNotFoundError(problem)
        found.append(path)
    return found


def parse_lines(data: bytes) -> tuple[list[dict[str, Any]], int]:
    """Every JSON object line of ``data``, and how many non-blank lines were not one."""
    records: list[dict[str, Any]] = []
    invalid = 0
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except RecursionError:  # nested deeper than the parser's stack
            invalid += 1
            continue
        except ValueError:
            try:
                value = json.loads(line.decode("utf-8", errors="replace"))
            except (ValueError, RecursionError):
                invalid += 1
                continue
        if isinstance(value, dict):
            records.append(value)
        else:
            invalid += 1
    return records, invalid


def _content_chars(record: dict[str, Any]) -> tuple[dict[str, int], int, int]:
    """Content chars per segment of one record, plus thinking chars and image count."""
    out = dict.fromkeys(dict(SEGMENTS), 0)
    thinking = images = 0
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    assistant = record.get("type") == "assistant"
    if isinstance(content, str):
        out["text" if assistant else "prompt"] += len(content)
        return out, 0, 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            out["text" if assistant else "prompt"] += len(block["text"])
        elif kind == "tool_use" and assistant:
            out["args"] += len(input_json(block.get("input")))
        elif kind == "tool_result" and not assistant:
            out["result"] += len(result_text(block.get("content")))
        elif kind in ("thinking", "redacted_thinking"):
            thinking += len(str(block.get("thinking") or block.get("data") or ""))
        elif kind == "image":
            images += 1
    return out, thinking, images


def string_leaves(value: Any) -> Iterable[str]:
    """Every string a JSON value holds, its keys aside, in document order."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from string_leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from string_leaves(item)


def call_locators(tool_input: Any) -> list[str]:
    """The locators a tool call carries: locator arguments whole, path tokens elsewhere."""
    if not isinstance(tool_input, dict):
        return locators.harvest("\n".join(string_leaves(tool_input)))
    found: list[str] = []
    rest: list[str] = []
    for key, value in tool_input.items():
        if key in locators.LOCATOR_KEYS and isinstance(value, str | int) and not isinstance(value, bool):
            if str(value):
                found.append(str(value))
        else:
            rest.extend(string_leaves(value))
    for text in rest:
        found.extend(locators.harvest(text))
    return list(dict.fromkeys(found))


class _RecentNames(OrderedDict[str, str]):
    """Tool names by call id, the ``RECORDS_REMEMBERED`` most recent only (as the projector remembers)."""

    def __setitem__(self, key: str, value: str) -> None:
        super().__setitem__(key, value)
        if len(self) > RECORDS_REMEMBERED:
            self.popitem(last=False)


def _items(
    record: dict[str, Any], names: dict[str, str], seen_calls: RecentIds
) -> list[tuple[str, str, list[str]]]:
    """``(observation kind, tool_use_id, locators)`` for each shortened item of a record."""
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    items: list[tuple[str, str, list[str]]] = []
    if not isinstance(content, list):
        return items
    assistant = record.get("type") == "assistant"
    for block in content:
        if not isinstance(block, dict):
            continue
        if assistant and block.get("type") == "tool_use":
            call_id = str(block.get("id") or "")
            if call_id in seen_calls:
                continue
            seen_calls.add(call_id)
            names[call_id] = str(block.get("name") or "tool")
            items.append(("tool", call_id, call_locators(block.get("input"))))
        elif not assistant and block.get("type") == "tool_result":
            call_id = str(block.get("tool_use_id") or "")
            if block.get("is_error"):
                text = error_text(block.get("content"))
                if text and ADVISORY_SENTINEL not in text:
                    items.append(("error", call_id, locators.harvest(text)))
            elif names.get(call_id) in REPORT_TOOLS:
                report = report_text(record, block)
                if report and ADVISORY_SENTINEL not in report:
                    items.append(("report", call_id, locators.harvest(report)))
    return items


def _measure_file(path: Path, config: ProjectionConfig, totals: _Totals) -> None:
    """Measure one file block by block (:class:`~sbcore.observe.blocks.LineBlocks`): memory stays bounded
    by a block's records, whatever the file's size. The record and call ids it remembers to judge
    duplicates are the most recent ``RECORDS_REMEMBERED``, as the projector's are."""
    totals.files += 1
    projector = Projector(config)
    names: dict[str, str] = _RecentNames()
    seen_calls = RecentIds(RECORDS_REMEMBERED)
    seen_uuids = RecentIds(RECORDS_REMEMBERED)
    blocks = LineBlocks(path)
    for block in blocks:
        records, invalid = parse_lines(block)
        totals.records += len(records)
        totals.invalid_lines += invalid
        for record in records:
            _measure_record(record, path, config, projector, names, seen_calls, seen_uuids, totals)
    totals.bytes += blocks.bytes
    totals.invalid_lines += blocks.oversize_lines


def _measure_record(
    record: dict[str, Any],
    path: Path,
    config: ProjectionConfig,
    projector: Projector,
    names: dict[str, str],
    seen_calls: RecentIds,
    seen_uuids: RecentIds,
    totals: _Totals,
) -> None:
    try:
        observations = projector.feed([record])
        _measure_observed(record, observations, path, config, names, seen_calls, seen_uuids, totals)
    except RecursionError:  # parsed, but nested too deeply to walk: a bad line after all
        totals.records -= 1
        totals.invalid_lines += 1


def _measure_observed(
    record: dict[str, Any],
    observations: list[Observation],
    path: Path,
    config: ProjectionConfig,
    names: dict[str, str],
    seen_calls: RecentIds,
    seen_uuids: RecentIds,
    totals: _Totals,
) -> None:
    """Add one in-scope record's content, digest and observations to the totals."""
    if record.get("type") not in ("user", "assistant"):
        return
    content, thinking, images = _content_chars(record)
    uuid = record.get("uuid")
    in_scope = config.include_sidechain or not record.get("isSidechain")
    if in_scope and isinstance(uuid, str):
        in_scope = uuid not in seen_uuids
        seen_uuids.add(uuid)
    if not in_scope:
        totals.out_of_scope_chars += sum(content.values())
        return
    totals.thinking_chars += thinking
    totals.images += images
    for segment, chars in content.items():
        totals.segment_in[segment] += chars
    meta = bool(
        record.get("isMeta") or record.get("isCompactSummary") or record.get("isVisibleInTranscriptOnly")
    )
    for segment, text in builtin_entries(record):
        totals.segment_builtin[segment] += len(text)
        if segment == "prompt" and (meta or clean_prompt(text) is None):
            totals.builtin_harness_chars += len(text)
    for obs in observations:
        totals.observations += 1
        totals.segment_out[_SEGMENT_OF_KIND[obs.kind]] += len(obs.text)
        if obs.kind == "tool" and obs.tool:
            totals.tool_out[obs.tool] = totals.tool_out.get(obs.tool, 0) + len(obs.text)
    _count_tools(record, totals)
    _count_locators(record, observations, names, seen_calls, totals, path)


def _count_tools(record: dict[str, Any], totals: _Totals) -> None:
    if record.get("type") != "assistant":
        return
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict) and block.get("type") == "tool_use":
            name = str(block.get("name") or "tool")
            totals.tool_calls[name] = totals.tool_calls.get(name, 0) + 1
            totals.tool_in[name] = totals.tool_in.get(name, 0) + len(input_json(block.get("input")))


def _count_locators(
    record: dict[str, Any],
    observations: Sequence[Observation],
    names: dict[str, str],
    seen_calls: RecentIds,
    totals: _Totals,
    path: Path,
) -> None:
    by_item: dict[tuple[str, str], str] = {
        (obs.kind, obs.tool_use_id or ""): obs.text for obs in observations
    }
    for kind, call_id, found in _items(record, names, seen_calls):
        text = by_item.get((kind, call_id), "")
        expanded = locators.expand(text) if "{" in text else set()
        for token in found:
            totals.locators_in += 1
            if locators.is_kept(token, text, expanded):
                totals.locators_kept += 1
            elif len(totals.lost) < _LOST_SAMPLE:
                totals.lost.append(
                    {"file": path.name, "kind": kind, "tool_use_id": call_id, "locator": token}
                )


def throughput(files: Sequence[Path], config: ProjectionConfig, repeat: int) -> tuple[float, float, int]:
    """``(projection MB/s, json.loads MB/s, bytes)``: medians over ``repeat`` runs.

    Both start from the file's bytes on disk (read included), in the same blocks of whole lines. The
    two are interleaved file by file, in alternating order, so a busy machine slows both alike. Each run
    starts cold: the memos an earlier run filled (locator words, strings found clean of secrets) are
    emptied, so repeating the same corpus does not make projection look faster than a first reading is.
    """
    size = sum(path.stat().st_size for path in files)
    projection: list[float] = []
    parsing: list[float] = []
    for run in range(max(1, repeat)):
        locators.forget_words()
        redact.forget_clean()
        project_time = parse_time = 0.0
        for path in files:
            for step in (0, 1) if run % 2 == 0 else (1, 0):
                start = time.perf_counter()
                if step == 0:
                    _parse_all(path)
                    parse_time += time.perf_counter() - start
                else:
                    projector = Projector(config)
                    for block in LineBlocks(path):
                        projector.feed_bytes(block)
                    project_time += time.perf_counter() - start
        projection.append(project_time)
        parsing.append(parse_time)
    mb = size / 1_000_000
    return mb / statistics.median(projection), mb / statistics.median(parsing), size


def _parse_all(path: Path) -> None:
    """The baseline: ``json.loads`` of every line, block by block; a bad line is skipped, as it is by the
    projector."""
    loads = json.loads
    for block in LineBlocks(path):
        for line in block.split(b"\n"):
            if line:
                try:
                    loads(line)
                except (ValueError, RecursionError):
                    continue


def _pct(part: int, whole: int) -> float:
    return round(100 * part / whole, 2) if whole else 0.0


def measure(
    paths: Iterable[str | Path], config: ProjectionConfig | None = None, repeat: int = 5
) -> dict[str, Any]:
    """Every figure ``second-brain measure`` prints, as one JSON-ready dict."""
    config = config or ProjectionConfig()
    files = transcript_files(paths)
    totals = _Totals()
    for path in files:
        _measure_file(path, config, totals)
    projection_mb_s, json_mb_s, _ = throughput(files, config, repeat) if files else (0.0, 0.0, 0)
    input_chars = sum(totals.segment_in.values())
    observed = sum(totals.segment_out.values())
    builtin = sum(totals.segment_builtin.values())
    per_segment = {
        key: {
            "label": label,
            "input_chars": totals.segment_in[key],
            "share": _pct(totals.segment_in[key], input_chars),
            "observed_chars": totals.segment_out[key],
            "kept": _pct(totals.segment_out[key], input_chars),
            "kept_of_segment": _pct(totals.segment_out[key], totals.segment_in[key]),
            "builtin_chars": totals.segment_builtin[key],
            "builtin": _pct(totals.segment_builtin[key], input_chars),
        }
        for key, label in SEGMENTS
    }
    per_tool = {
        name: {
            "calls": totals.tool_calls[name],
            "args_chars": totals.tool_in[name],
            "observed_chars": totals.tool_out.get(name, 0),
            "args_kept": _pct(totals.tool_out.get(name, 0), totals.tool_in[name]),
        }
        for name in sorted(totals.tool_in, key=lambda n: (-totals.tool_in[n], n))
    }
    return {
        "files": totals.files,
        "bytes": totals.bytes,
        "records": totals.records,
        "invalid_lines": totals.invalid_lines,
        "observations": totals.observations,
        "input_chars": input_chars,
        "observed_chars": observed,
        "observed_share": _pct(observed, input_chars),
        "builtin_chars": builtin,
        "builtin_share": _pct(builtin, input_chars),
        "ratio_vs_builtin": round(observed / builtin, 4) if builtin else 0.0,
        "builtin_harness_prompt_chars": totals.builtin_harness_chars,
        "ratio_vs_builtin_without_harness_prompts": (
            round(observed / (builtin - totals.builtin_harness_chars), 4)
            if builtin > totals.builtin_harness_chars
            else 0.0
        ),
        "locators_in": totals.locators_in,
        "locators_kept": totals.locators_kept,
        "locators_lost": totals.lost,
        "projection_mb_s": round(projection_mb_s, 1),
        "json_loads_mb_s": round(json_mb_s, 1),
        "throughput_ratio": round(projection_mb_s / json_mb_s, 3) if json_mb_s else 0.0,
        "repeat": max(1, repeat),
        "out_of_scope_chars": totals.out_of_scope_chars,
        "thinking_chars": totals.thinking_chars,
        "images": totals.images,
        "include_sidechain": config.include_sidechain,
        "per_segment": per_segment,
        "per_tool": per_tool,
    }


def render_tables(result: dict[str, Any]) -> str:
    """The design's tables, with the built-in digest beside them."""
    lines = [
        f"{result['files']} files, {result['records']:,} records, {result['bytes'] / 1e6:.1f} MB; "
        f"content {result['input_chars']:,} chars"
        + (f" (out of scope: {result['out_of_scope_chars']:,})" if result["out_of_scope_chars"] else ""),
        "",
        f"{'Segment':<22}{'Share':>9}{'Kept':>9}{'Built-in':>10}",
    ]
    for row in result["per_segment"].values():
        lines.append(f"{row['label']:<22}{row['share']:>8.1f}%{row['kept']:>8.1f}%{row['builtin']:>9.1f}%")
    lines.append(
        f"{'Observed total':<22}{'':>9}{result['observed_share']:>8.1f}%{result['builtin_share']:>9.1f}%"
        f"   ratio {result['ratio_vs_builtin']:.3f}"
    )
    lines.append(
        f"{'':<22}(ratio {result['ratio_vs_builtin_without_harness_prompts']:.3f} if the built-in "
        f"also skipped the {result['builtin_harness_prompt_chars']:,} chars of harness-injected user text)"
    )
    lines += ["", f"{'Tool':<22}{'Args kept':>10}{'Calls':>8}"]
    calls = args = kept = 0
    for name, row in result["per_tool"].items():
        lines.append(f"{name:<22}{row['args_kept']:>9.0f}%{row['calls']:>8,}")
        calls += row["calls"]
        args += row["args_chars"]
        kept += row["observed_chars"]
    lines.append(f"{'All tools':<22}{_pct(kept, args):>9.0f}%{calls:>8,}")
    lines += [
        "",
        f"Locators: {result['locators_in']:,} in, {result['locators_kept']:,} kept",
        f"Throughput: projection {result['projection_mb_s']} MB/s, "
        f"json.loads {result['json_loads_mb_s']} MB/s, "
        f"ratio {result['throughput_ratio']:.2f} (median of {result['repeat']})",
    ]
    for lost in result["locators_lost"]:
        lines.append(f"  lost: {lost['file']} {lost['kind']} {lost['tool_use_id']}: {lost['locator']}")
    return "\n".join(lines)
