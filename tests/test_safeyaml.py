"""The shared YAML loader: aliases work, an alias bomb or an oversized text is refused with its line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from sbcore import safeyaml
from sbcore.conductor.labels import LabelError, load_labels
from sbcore.config.edit import set_in_text
from sbcore.config.schema import parse_value
from sbcore.schemas import yamlpos


def bomb(levels: int = 9, fan: int = 9) -> str:
    """The classic "billion laughs": ``fan ** levels`` values in a few hundred bytes."""
    names = "abcdefghijklmnopqrstuvwxyz"
    lines = ['a: &a ["lol"]']
    for level in range(1, levels + 1):
        refs = ",".join([f"*{names[level - 1]}"] * fan)
        lines.append(f"{names[level]}: &{names[level]} [{refs}]")
    return "\n".join(lines) + "\n"


def test_the_bomb_is_a_few_hundred_bytes() -> None:
    assert len(bomb()) < 400


def test_ordinary_aliases_and_merges_still_load() -> None:
    text = "base: &b {x: 1, y: [1, 2]}\nfirst: *b\nsecond:\n  <<: *b\n  y: [3]\n"
    assert safeyaml.safe_load(text) == {
        "base": {"x": 1, "y": [1, 2]},
        "first": {"x": 1, "y": [1, 2]},
        "second": {"x": 1, "y": [3]},
    }


def test_the_bomb_is_refused_with_the_line_of_the_alias_that_crossed_the_limit() -> None:
    with pytest.raises(safeyaml.YamlLimitError) as caught:
        safeyaml.safe_load(bomb())
    mark = caught.value.problem_mark
    assert mark is not None
    # 9**5 = 59049 expanded values fit under the limit, 9**6 do not: refused while composing line 7 (a6).
    assert mark.line + 1 == 7
    assert "alias bomb" in str(caught.value)


def test_expansion_through_merge_keys_is_counted_too() -> None:
    lines = ["m0: &m0 {k: v}"]
    for level in range(1, 12):
        merges = ", ".join([f"*m{level - 1}"] * 4)
        lines.append(f"m{level}: &m{level} {{a: [{merges}], b: [{merges}]}}")
    with pytest.raises(safeyaml.YamlLimitError):
        safeyaml.safe_load("\n".join(lines))


def test_an_oversized_text_is_refused_before_parsing() -> None:
    with pytest.raises(safeyaml.YamlLimitError, match="over the limit"):
        safeyaml.safe_load("x: " + "a" * safeyaml.MAX_YAML_CHARS)


def test_yamlpos_reports_the_bomb_as_a_syntax_error_with_its_line() -> None:
    with pytest.raises(yamlpos.YamlSyntaxError) as caught:
        yamlpos.load(bomb())
    assert caught.value.line == 7
    assert isinstance(caught.value.__cause__, safeyaml.YamlLimitError)


def test_compose_is_bounded() -> None:
    with pytest.raises(safeyaml.YamlLimitError):
        safeyaml.compose(bomb())


def test_every_other_reader_goes_through_the_bounded_loader(tmp_path: Path) -> None:
    with pytest.raises(yaml.YAMLError):
        set_in_text(bomb(), ["gate", "rate_per_hour"], 2)
    assert parse_value(bomb(), None) == bomb()  # refused as YAML, so kept as the literal text
    labels = tmp_path / "labels.yaml"
    labels.write_text(bomb())
    with pytest.raises(LabelError, match="alias bomb"):
        load_labels(labels)
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(LabelError, match="a FIFO"):
        load_labels(fifo)
