"""One kind of error: a common base for every exception sbcore defines, and one rendering of problems."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
from pathlib import Path

import pytest

import sbcore
from sbcore.packs.errors import ErrorChain
from sbcore.packs.model import SourceRef
from sbcore.problems import Problem, SbcoreError, render_problems


def _modules() -> list[str]:
    return [
        info.name for info in pkgutil.walk_packages(sbcore.__path__, "sbcore.") if "__main__" not in info.name
    ]


def test_every_exception_sbcore_defines_derives_from_the_common_base() -> None:
    outside = []
    for name in _modules():
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if (
                value.__module__ == name
                and issubclass(value, Exception)
                and not issubclass(value, Warning)  # a warning category (PackWarning) is no error
                and not issubclass(value, SbcoreError)
            ):
                outside.append(f"{name}.{value.__qualname__}")
    assert outside == []


def test_the_base_keeps_the_builtin_class_each_error_also_is() -> None:
    from sbcore.config.schema import UnknownKeyError
    from sbcore.deliver.mailbox import MailboxBusy
    from sbcore.safefile import TooLarge

    assert issubclass(MailboxBusy, OSError) and issubclass(TooLarge, OSError)
    assert issubclass(UnknownKeyError, KeyError)
    with pytest.raises(OSError):
        raise MailboxBusy("held")


def test_a_problem_renders_in_the_pre_commit_style() -> None:
    problem = Problem(
        "1.5 is greater than the maximum of 1",
        file="catalogue/bad.yaml",
        line=12,
        context=("detector 'repeat-failure'",),
        key="confidence_floor",
        fix="confidence floors are probabilities between 0 and 1",
    )
    assert problem.render() == (
        "==> File catalogue/bad.yaml:12\n"
        "==> At detector 'repeat-failure'\n"
        "==> At key: confidence_floor\n"
        "=====> 1.5 is greater than the maximum of 1\n"
        "hint: confidence floors are probabilities between 0 and 1"
    )
    assert Problem("no file", severity="warning").render() == "=====> warning: no file"
    assert render_problems([Problem("a"), Problem("b")]) == "=====> a\n\n=====> b"


def test_a_problem_as_json_has_every_field() -> None:
    problem = Problem("bad", file="f.yaml", line=3, key="gate.floor", fix="set it lower")
    assert problem.to_json() == {
        "file": "f.yaml",
        "line": 3,
        "context": [],
        "key": "gate.floor",
        "problem": "bad",
        "fix": "set it lower",
        "severity": "error",
    }


def test_a_catalogue_chain_is_rendered_by_the_one_renderer() -> None:
    chain = ErrorChain(SourceRef("d.yaml", 4), "unknown key", detector="x", key="prompt", hint="remove it")
    assert chain.render() == chain.to_problem().render()
    assert chain.to_problem().to_json()["context"] == ["detector 'x'"]


def test_an_error_without_a_location_is_one_problem_holding_its_message() -> None:
    from sbcore.jail import JailError

    assert JailError("outside the workspace").problems == [Problem("outside the workspace")]


def test_config_show_json_lists_problems_as_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sbcore.cli import main

    workspace = tmp_path / "repo"
    (workspace / ".second-brain").mkdir(parents=True)
    (workspace / ".second-brain" / "config.yaml").write_text("gate:\n  rate_per_hour: -3\n")
    code = main(["config", "show", "--json", "-C", str(workspace)])
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    (problem,) = document["problems"]
    assert problem["file"] == str(workspace / ".second-brain" / "config.yaml")
    assert (problem["line"], problem["key"]) == (2, "gate.rate_per_hour")
    assert problem["problem"] and set(problem) == {
        "file",
        "line",
        "context",
        "key",
        "problem",
        "fix",
        "severity",
    }
