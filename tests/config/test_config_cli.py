"""``second-brain config``: what a person sees, and the exit codes scripts rely on."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sbcore.cli import main

if TYPE_CHECKING:
    from conftest import Dirs


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["config", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_bare_config_shows_everything_with_layers(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.workspace_file, "gate:\n  rate_per_hour: 2\n")
    code, out, err = run(capsys)
    assert (code, err) == (0, "")
    assert out.startswith(f"workspace  {dirs.workspace}  [observed]\nlayers, lowest first:\n")
    layer_lines = [line.split() for line in out.splitlines() if line.startswith("  ")]
    assert layer_lines[:4] == [
        ["default", "the", "schema's", "defaults"],
        ["global", str(dirs.global_file), "no", "file"],
        ["workspace", str(dirs.workspace_file), "1", "key"],
        ["local", str(dirs.local_file), "no", "file"],
    ]
    assert "no file" in out
    lines = {
        line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith(("gate.", "mute."))
    }
    assert lines["gate.rate_per_hour"] == ["2", "workspace"]
    assert lines["gate.cooldown_s"] == ["300", "default"]
    assert lines["mute.all"] == ["false", "default"]
    assert main(["config", "show"]) == 0


def test_show_one_key_explains_it(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n")
    dirs.put(dirs.local_file, "gate:\n  rate_per_hour: 3\n")
    code, out, _ = run(capsys, "show", "gate.rate_per_hour")
    assert code == 0
    assert out.splitlines()[:3] == ["gate.rate_per_hour = 3   (local)", "  default: 4", "  allowed: 0 – 60"]
    assert "Most advisories delivered to the agent" in out
    assert "warning: gate.rate_per_hour bounds" in out
    assert out.splitlines()[-3:] == ["  global     1", "  workspace  -", "  local      3"]


def test_show_a_group_or_a_detector(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.workspace_file, "detectors:\n  git-log:\n    enabled: true\n    deadline_s: 20\n")
    code, out, _ = run(capsys, "show", "mute")
    assert code == 0
    assert out.splitlines() == ["KEY       VALUE  LAYER", "mute.all  false  default"]
    code, out, _ = run(capsys, "show", "detectors.git-log")
    assert out.splitlines()[1:] == [
        "detectors.git-log.enabled     true   workspace",
        "detectors.git-log.deadline_s  20     workspace",
    ]


def test_show_json(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.local_file, "mute:\n  all: true\n")
    code, out, _ = run(capsys, "show", "--json")
    document = json.loads(out)
    assert code == 0
    assert document["workspace"] == str(dirs.workspace)
    assert document["effective"]["mute"]["all"] is True
    assert {"key": "mute.all", "value": True, "layer": "local"} in document["values"]
    assert [layer["status"] for layer in document["layers"]] == ["missing", "missing", "ok"]
    code, out, _ = run(capsys, "show", "gate", "--json")
    document = json.loads(out)
    assert "effective" not in document
    assert {row["key"] for row in document["values"]} == {
        "gate.confidence_floor", "gate.human_floor", "gate.rate_per_hour", "gate.cooldown_s",
        "gate.body_cap", "gate.dedup_threshold", "gate.advice_ttl_s", "gate.queue_timeout_s",
    }  # fmt: skip


def test_show_reports_a_broken_layer_and_exits_1(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.workspace_file, "gate:\n  rate_per_hour: 100\n  cooldown_s: 5\n")
    code, out, err = run(capsys)
    assert code == 1
    assert "1 key, 1 HELD BACK (problems above)" in out
    assert err.splitlines()[:6] == [
        f"error: the workspace layer ({dirs.workspace_file}) has keys held back; the rest of it applies:",
        "  gate.rate_per_hour: held back (the value below this layer applies)",
        f"  ==> File {dirs.workspace_file}:2",
        "  ==> At key: gate.rate_per_hour",
        "  =====> 100 is greater than the maximum of 60",
        "  hint: correct the value in the file, or remove it: "
        "second-brain config reset gate.rate_per_hour --workspace",
    ]


def test_show_reports_an_unreadable_layer_as_skipped(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.workspace_file, "gate:\n  rate_per_hour: [1\n")
    code, out, err = run(capsys)
    assert code == 1
    assert "SKIPPED: 1 problem" in out
    assert err.splitlines()[0] == (
        f"error: the workspace layer ({dirs.workspace_file}) is skipped: none of its values apply until this "
        "is fixed"
    )


def merged_output(argv: list[str]) -> tuple[int, str]:
    """Run the command with stdout and stderr into one stream, as a terminal shows them."""
    stream = io.StringIO()
    with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
        code = main(argv)
    return code, stream.getvalue()


def test_show_prints_problems_before_the_table(dirs: Dirs) -> None:
    dirs.put(dirs.local_file, "mute:\n  all: maybe\n")
    code, text = merged_output(["config", "show"])
    assert code == 1
    assert text.startswith("error: the local layer")
    assert text.index("hint: correct the value") < text.index("layers, lowest first:") < text.index("KEY")


def test_set_refuses_an_override_the_catalogue_would_drop(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "set", "detectors.default.cadence", "on_trigger")
    assert (code, out) == (2, "")
    assert err == (
        "error: detectors.default.cadence: cadence 'on_trigger' needs a 'trigger'; the catalogue would "
        "refuse this override and drop every override of detector 'default' with it (hint: name a "
        "registered trigger under 'trigger: {name: ...}', or choose another cadence)\n"
        "nothing was written\n"
    )
    assert not dirs.local_file.exists()
    code, _, err = run(capsys, "set", "--workspace", "detectors.goal-drift.cadence", "on_trigger")
    assert code == 2
    assert "detectors.goal-drift.cadence: cadence 'on_trigger' needs a 'trigger'" in err
    assert not dirs.workspace_file.exists()
    code, _, err = run(capsys, "set", "detectors.default.tools", "[Bash]")
    assert code == 2 and "detectors.default.tools" in err and "nothing was written" in err


def test_set_accepts_a_good_override_and_warns_on_an_unknown_detector(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "set", "detectors.git-log.enabled", "true")[0] == 0
    assert "enabled: true" in dirs.local_file.read_text()
    code, _, err = run(capsys, "set", "detectors.defualt.enabled", "false")
    assert code == 0
    assert "warning: detectors.defualt: overrides name detector 'defualt'" in err
    assert "did you mean 'default'?" in err


def test_set_fixes_a_hand_edited_override_in_place(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.local_file, "detectors:\n  default:\n    cadence: on_trigger\n")
    code, _, err = run(capsys, "set", "detectors.default.cadence", "turn_end")
    assert code == 0, err
    assert "cadence: turn_end" in dirs.local_file.read_text()


def test_show_names_an_override_the_catalogue_dropped(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    """A hand-edited override the schema accepts but the catalogue refuses: which, where, and why."""
    dirs.put(dirs.workspace_file, "detectors:\n  default:\n    enabled: true\n    cadence: on_trigger\n")
    for argv in (["show"], ["show", "detectors"], ["show", "--json"]):
        code, out, err = run(capsys, *argv)
        assert code == 1
        text = out if "--json" in argv else err
        assert (
            f"{dirs.workspace_file}:4: detectors.default.cadence: cadence 'on_trigger' needs a 'trigger'"
            in text
        )
        assert "every override of this detector is dropped: enabled (workspace config" in text
        assert "second-brain config reset detectors.default.cadence --workspace" in text
    assert run(capsys, "show", "gate")[0] == 0  # the dropped override concerns detectors only


def test_show_unknown_key(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", "gate.rate_per_hr")
    assert code == 2
    assert "did you mean 'gate.rate_per_hour'?" in err


def test_set_prints_what_happened_and_warns_for_loud_knobs(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "set", "gate.rate_per_hour", "8")
    assert code == 0
    assert out == f"gate.rate_per_hour = 8 in the local layer ({dirs.local_file})\n"
    assert err.startswith("warning: gate.rate_per_hour bounds how often the observer speaks")
    code, out, err = run(capsys, "set", "--workspace", "gate.cooldown_s", "120")
    assert (code, err) == (0, "")
    assert out == f"gate.cooldown_s = 120 in the workspace layer ({dirs.workspace_file})\n"


def test_set_refused_exits_2_and_writes_nothing(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.local_file, "# mine\ngate:\n  rate_per_hour: 2\n")
    before = dirs.local_file.read_bytes()
    code, out, err = run(capsys, "set", "gate.rate_per_hour", "61")
    assert (code, out) == (2, "")
    assert err == "error: gate.rate_per_hour: 61 is greater than the maximum of 60\nnothing was written\n"
    assert dirs.local_file.read_bytes() == before


def test_layer_flags_are_exclusive(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["config", "set", "--global", "--local", "mute.all", "true"])
    assert caught.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.usefixtures("as_the_user")  # removing a mute is the user's own act
def test_reset(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    dirs.put(dirs.global_file, "mute:\n  all: true\n")
    code, out, _ = run(capsys, "reset", "mute", "--global")
    assert code == 0
    assert out == f"removed mute from the global layer ({dirs.global_file})\n"
    code, out, _ = run(capsys, "reset", "all", "--global")
    assert out == f"the global layer ({dirs.global_file}) sets nothing\n"
    code, _, err = run(capsys, "reset", "nonsense.key")
    assert code == 2
    assert "unknown configuration key 'nonsense'" in err


def test_directory_option_picks_the_workspace(
    dirs: Dirs, capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    other = tmp_path_factory.mktemp("other")
    (other / ".git").mkdir()
    code, out, _ = run(capsys, "-C", str(other), "set", "mute.all", "true", "--workspace")
    assert code == 0
    assert (other / ".second-brain" / "config.yaml").exists()
    assert not dirs.workspace_file.exists()
    code, out, _ = run(capsys, "show", "mute.all", "-C", str(other / ".second-brain"))
    assert out.startswith("mute.all = true   (workspace)")


def test_the_installed_command_runs_and_reports_each_problem_once(dirs: Dirs) -> None:
    command = [str(Path(sys.executable).parent / "second-brain"), "config", "show", "model.provider"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('model.provider = "auto"   (default)')
    dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 100\n")
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert result.stderr.count("100 is greater than the maximum of 60") == 1, result.stderr


def test_a_reset_of_several_keys_asks_or_takes_yes(
    dirs: Dirs, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`config reset all --workspace` used to wipe the team's file without a word."""
    team = "gate:\n  rate_per_hour: 2\n  cooldown_s: 5\nmute:\n  all: false\n"
    dirs.put(dirs.workspace_file, team)
    code, out, err = run(capsys, "reset", "all", "--workspace")  # no terminal under pytest
    assert code == 2 and out == ""
    assert f"this would remove 3 keys from {dirs.workspace_file}; pass --yes" in err
    assert "nothing was written" in err
    assert dirs.workspace_file.read_text() == team

    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert run(capsys, "reset", "gate", "--workspace")[0] == 2
    assert dirs.workspace_file.read_text() == team
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    code, out, _ = run(capsys, "reset", "gate", "--workspace")
    assert code == 0 and out.startswith("removed gate from the workspace layer")
    assert "rate_per_hour" not in dirs.workspace_file.read_text()

    code, out, _ = run(capsys, "reset", "mute.all", "--workspace")  # one key: no question
    assert code == 0


def test_reset_yes_removes_several_keys_without_a_terminal(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    dirs.put(dirs.workspace_file, "gate:\n  rate_per_hour: 2\n  cooldown_s: 5\n")
    code, out, _ = run(capsys, "reset", "all", "--workspace", "--yes")
    assert code == 0 and out.startswith("removed every key from the workspace layer")


@pytest.mark.parametrize(
    ("argv", "global_layer"),
    [
        (["reset", "model.provider", "--global"], "model:\n  provider: offline\n"),
        (["reset", "all", "--global", "--yes"], "model:\n  provider: offline\ngate:\n  cooldown_s: 5\n"),
        (["reset", "mute", "--global"], "mute:\n  all: true\n"),
        (["set", "mute.all", "false", "--global"], "mute:\n  all: true\n"),
        (["set", "enable.default", "true", "--global"], "enable:\n  default: false\n"),
        (["set", "detectors.repeat-failure.prompt", "Say yes.", "--global"], ""),
    ],
)
def test_widening_twins_need_the_users_own_act_too(
    dirs: Dirs, capsys: pytest.CaptureFixture[str], argv: list[str], global_layer: str
) -> None:
    """Inside Claude Code (here: no terminal), what widens the observer is refused however it is spelt:
    setting the wider value, or removing the narrowing one."""
    if global_layer:
        dirs.put(dirs.global_file, global_layer)
    before = dirs.global_file.read_bytes() if dirs.global_file.exists() else None
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), err
    assert "it needs an interactive terminal" in err and "nothing was written" in err
    after = dirs.global_file.read_bytes() if dirs.global_file.exists() else None
    assert after == before


def test_narrowing_needs_no_terminal(dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    """Muting, opting out, going offline and switching a detector off stay one command from anywhere."""
    for argv in (
        ["set", "mute.all", "true", "--global"],
        ["set", "enable.default", "false", "--global"],
        ["set", "model.provider", "offline", "--global"],
        ["set", "detectors.repeat-failure.enabled", "false"],
        ["reset", "gate.cooldown_s", "--global"],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 0, (argv, err)
