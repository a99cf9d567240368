"""The built-in structural triggers: must-fire and must-stay-silent cases over observation sequences."""

from __future__ import annotations

import copy
import itertools
import json
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from sbcore.detectors.standard_questions import standard_questions
from sbcore.detectors.triggers import (
    error_headline,
    normalise_command,
    repeat_failure,
)

from sbcore.observe.model import Observation
from sbcore.packs.catalogue import merge_config
from sbcore.packs.registry import Contributions
from sbcore.packs.types import TriggerMatch

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "transcripts"


# -- building observation streams ---------------------------------------------------------------


class Session:
    """A tiny script of what the agent did, as projected observations."""

    def __init__(self) -> None:
        self.observations: list[Observation] = []
        self._ids = itertools.count(1)
        self._minute = itertools.count(0)

    def _stamp(self) -> str:
        return f"2026-01-01T10:{next(self._minute):02d}:00Z"

    def run(
        self, command: str, *, error: str | None = None, tool: str = "Bash", cwd: str | None = None
    ) -> str:
        tool_use_id = f"toolu_{next(self._ids):03d}"
        self.observations.append(
            Observation(
                kind="tool",
                text=f"[tool] {tool} {command}",
                timestamp=self._stamp(),
                tool=tool,
                tool_use_id=tool_use_id,
                args={"command": command} if cwd is None else {"command": command, "cwd": cwd},
                uuid=str(uuid.uuid4()),
            )
        )
        if error is not None:
            self.observations.append(
                Observation(
                    kind="error",
                    text=error,
                    timestamp=self._stamp(),
                    tool=tool,
                    tool_use_id=tool_use_id,
                    uuid=str(uuid.uuid4()),
                )
            )
        return tool_use_id

    def fail(
        self, command: str, error: str = "Exit code 1\nboom: it broke", *, cwd: str | None = None
    ) -> str:
        return self.run(command, error=error, cwd=cwd)

    def edit(self, path: str, tool: str = "Edit") -> None:
        key = "notebook_path" if tool == "NotebookEdit" else "file_path"
        self.observations.append(
            Observation(
                kind="tool",
                text=f"[tool] {tool} {path}",
                timestamp=self._stamp(),
                tool=tool,
                tool_use_id=f"toolu_{next(self._ids):03d}",
                args={key: path},
                uuid=str(uuid.uuid4()),
            )
        )

    def say(self, text: str) -> None:
        self.observations.append(Observation(kind="text", text=text, timestamp=self._stamp()))


def fire(session: Session, state: dict[str, Any] | None = None, **params: Any) -> TriggerMatch | None:
    return repeat_failure(session.observations, params, {} if state is None else state)


# -- command normalisation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("pytest -x tests", "pytest  -x   tests"),
        ("pytest -k 'a or b'", 'pytest -k "a or b"'),
        ("npm run build", "npm run build 2>&1"),
        ("npm run build", "npm run build 2>/dev/null"),
        ("npm run build", "npm run build > /dev/null 2>&1"),
        ("npm run build", "npm run build 2>&1 | tail -20"),
        ("npm run build", "npm run build | head -n 50 | cat"),
        ("uv run pytest", "cd /repo && uv run pytest"),
        ("uv run pytest", "cd /repo; cd sub && uv run pytest"),
        ("uv run pytest", "sleep 5 && uv run pytest"),
        ("uv run pytest", "(uv run pytest)"),
        ("uv run pytest", "time uv run pytest"),
        ("uv run pytest", "timeout 120 uv run pytest"),
        ("pytest -q -x tests", "pytest -x -q tests"),
        ("ruff check --fix --quiet .", "ruff check --quiet --fix ."),
        ("make test", "make test # third try"),
        ("make test", "make test \\\n"),
        ("cargo test", "cargo test;"),
    ],
)
def test_cosmetic_variants_share_a_key(left: str, right: str) -> None:
    assert normalise_command(left) == normalise_command(right)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("erk exec get-plan-info 7839", "erk exec get-plan-info 7835"),  # different work, not a retry
        ("pytest tests/a.py", "pytest tests/b.py"),
        ("DEBUG=1 pytest", "pytest"),
        ("export MODE=a && ./run.sh", "./run.sh"),
        ("source .venv/bin/activate && pytest", "pytest"),
        ("pytest || true", "pytest"),
        ("pytest | grep FAIL", "pytest"),
        ("cmd -a X -b", "cmd -b X -a"),  # flags never move across a positional
        ("git commit -m a -- -x -y", "git commit -m a -- -y -x"),  # nothing after -- is a flag
        ("cd build && make", "cd build && make install"),
        ("sleep 5 && curl a", "sleep 5 && curl b"),
    ],
)
def test_real_differences_keep_separate_keys(left: str, right: str) -> None:
    assert normalise_command(left) != normalise_command(right)


def test_unbalanced_quotes_fall_back_to_whitespace_folding() -> None:
    assert normalise_command('echo "unterminated   quote') == 'echo "unterminated quote'


def test_a_leading_cd_alone_is_kept() -> None:
    assert normalise_command("cd /somewhere") == "cd /somewhere"


@given(st.lists(st.text(alphabet="abcxyz019._/=-", min_size=1, max_size=8), min_size=1, max_size=6))
def test_whitespace_never_changes_the_key(words: list[str]) -> None:
    assert normalise_command(" ".join(words)) == normalise_command("   ".join(words) + "  ")


@given(st.text(max_size=200))
def test_normalisation_never_raises(command: str) -> None:
    assert isinstance(normalise_command(command), str)


# -- error headlines -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Exit code 1\n======== test session starts ========\nFAILED tests/x.py::t - AssertionError",
            "FAILED tests/x.py::t - AssertionError",
        ),
        (
            "Exit code 2\nusage: tool [-h]\ntool: error: unrecognized arguments: --frob",
            "tool: error: unrecognized arguments: --frob",
        ),
        ("just some output\nmore", "just some output"),
        (
            "[error] Bash: Exit code 1\nModuleNotFoundError: No module named 'x'",
            "ModuleNotFoundError: No module named 'x'",
        ),
        ("Exit code 1", "Exit code 1"),
        ("", ""),
    ],
)
def test_error_headline_picks_the_telling_line(text: str, expected: str) -> None:
    assert error_headline(text) == expected


def test_error_headline_is_capped() -> None:
    assert len(error_headline("error: " + "x" * 1000)) == 200


# -- repeat_failure --------------------------------------------------------------------------------


def test_three_failures_of_one_command_fire() -> None:
    s = Session()
    for _ in range(3):
        s.fail("uv run pyright", 'Exit code 1\nerror: Import "foo" could not be resolved')
    match = fire(s)
    assert match is not None
    assert match.key == "pyright"  # the work, not the wrapper
    assert match.data["failures"] == 3
    assert match.data["variants"] == 1
    assert match.data["command"] == "uv run pyright"
    assert match.data["exit_code"] == 1
    assert len(match.evidence) == 3
    assert all("could not be resolved" in line for line in match.evidence)
    assert match.evidence[0].startswith("2026-01-01T10:00:00Z: ")  # when the attempt started
    assert "failed 3 times in a row" in match.summary


def test_two_failures_stay_silent() -> None:
    s = Session()
    s.fail("npm run build")
    s.fail("npm run build")
    assert fire(s) is None


def test_cosmetic_variations_count_as_one_command() -> None:
    s = Session()
    s.fail("npm run build 2>&1 | tail -20")
    s.fail("cd /repo && npm run build")
    s.fail("npm  run build | head -50")
    match = fire(s)
    assert match is not None
    assert match.data["variants"] == 3
    assert match.data["command"] == "npm  run build | head -50"  # the latest attempt, as typed
    assert match.data["normalised"] == "[/repo] js-script build"


def test_a_success_of_the_same_command_resets_the_streak() -> None:
    s = Session()
    s.fail("make test")
    s.fail("make test")
    s.run("make test 2>&1")  # succeeded
    s.fail("make test")
    s.fail("make test")
    s.say("still looking")
    assert fire(s) is None
    s.fail("make test")
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_other_commands_and_edits_do_not_reset_but_are_counted() -> None:
    s = Session()
    s.fail("go test ./...")
    s.run("ls")
    s.edit("/repo/main.go")
    s.fail("go test ./...")
    s.edit("/repo/main.go")
    s.run("git status")
    s.fail("go test ./...")
    match = fire(s)
    assert match is not None
    assert match.data["edits_between"] == 2


def test_different_arguments_are_different_work() -> None:
    s = Session()
    for plan in ("7839", "7835", "7829", "7819"):
        s.fail(f"erk exec get-plan-info {plan}")
    assert fire(s) is None


def test_user_rejections_and_permission_blocks_are_not_failures() -> None:
    s = Session()
    s.fail("rm -rf build", "The user doesn't want to proceed with this tool use. The tool use was rejected.")
    s.fail("rm -rf build", "This command requires approval")
    s.fail("rm -rf build", "The user doesn't want to take this action right now. STOP what you are doing.")
    assert fire(s) is None
    s.fail("rm -rf build", "rm: cannot remove 'build': Permission denied")
    assert fire(s) is None  # one real failure so far


def test_ignore_errors_is_configurable() -> None:
    s = Session()
    for _ in range(3):
        s.fail("flaky-tool", "Exit code 75\nTemporary failure, please retry")
    assert fire(s, ignore_errors=[r"Temporary failure"]) is None
    assert fire(s, ignore_errors=[]) is not None


def test_a_call_still_in_flight_does_not_reset() -> None:
    s = Session()
    for _ in range(3):
        s.fail("pytest")
    s.run("pytest")  # the latest call: its result has not been observed yet
    assert fire(s) is not None


def test_a_call_followed_by_anything_counts_as_success() -> None:
    s = Session()
    for _ in range(3):
        s.fail("pytest")
    s.run("pytest")
    s.say("All green now.")
    assert fire(s) is None


def test_min_failures_param() -> None:
    s = Session()
    s.fail("cargo build")
    s.fail("cargo build")
    assert fire(s, min_failures=2) is not None
    s2 = Session()
    for _ in range(4):
        s2.fail("cargo build")
    assert fire(s2, min_failures=5) is None


def test_a_streak_is_reported_once_and_a_new_streak_again() -> None:
    s = Session()
    state: dict[str, Any] = {}
    for _ in range(3):
        s.fail("tox")
    assert fire(s, state) is not None
    s.fail("tox")
    assert fire(s, state) is None  # same streak, already handed to a fork
    s.run("tox")
    s.say("fixed")
    for _ in range(3):
        s.fail("tox")
    assert fire(s, state) is not None
    json.dumps(state)  # the host may persist it


def test_the_most_recent_streak_wins() -> None:
    s = Session()
    for _ in range(3):
        s.fail("mypy .")
    for _ in range(3):
        s.fail("ruff check .")
    state: dict[str, Any] = {}
    first = fire(s, state)
    second = fire(s, state)
    assert first is not None and first.key == "ruff check ."
    assert second is not None and second.key == "mypy ."
    assert fire(s, state) is None


def test_evidence_is_bounded_to_the_latest_attempts() -> None:
    s = Session()
    for attempt in range(8):
        s.fail("pytest", f"Exit code 1\nFAILED attempt {attempt}")
    match = fire(s, max_evidence=3)
    assert match is not None
    assert match.data["failures"] == 8
    assert [a["error"] for a in match.data["attempts"]] == [f"FAILED attempt {n}" for n in (5, 6, 7)]


def test_only_command_tools_are_tracked() -> None:
    s = Session()
    for _ in range(3):
        s.run("whatever", error="Exit code 1\nerror", tool="mcp__shell__exec")
    assert fire(s) is None
    assert fire(s, tools=["mcp__shell__exec"]) is not None


def test_registered_defaults_fill_missing_params() -> None:
    from sbcore.detectors import triggers

    contributions = Contributions(pack="builtin")
    contributions.register_trigger("repeat_failure", triggers.repeat_failure, triggers.REPEAT_FAILURE_PARAMS)
    spec = contributions.triggers["repeat_failure"]
    s = Session()
    s.fail("make")
    s.fail("make")
    assert spec.invoke(s.observations, {}, {}) is None  # default min_failures is 3
    assert spec.invoke(s.observations, {"min_failures": 2}, {}) is not None


# -- standard_questions ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def checklist() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "catalogue" / "standard-questions.yaml").read_text())
    config: dict[str, Any] = document["config"]
    return config


def ask(session: Session, config: dict[str, Any], state: dict[str, Any] | None = None) -> TriggerMatch | None:
    return standard_questions(session.observations, {}, {} if state is None else state, config)


def open_ids(match: TriggerMatch | None) -> list[str]:
    return [] if match is None else [item["id"] for item in match.data["unanswered"]]


def test_no_edit_means_nothing_to_ask(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls")
    s.say("Looked around.")
    assert ask(s, checklist) is None


def test_an_unverified_code_edit_opens_every_applicable_question(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests mypy.ini")  # the project has tests and a type-checker
    s.edit("/repo/src/app/service.py", tool="Write")  # new code
    match = ask(s, checklist)
    # deployed and docs_updated ship disabled: project-specific, and rarely worth saying offline
    assert open_ids(match) == ["tests_run", "tests_added", "compiles"]
    assert match is not None
    assert match.data["last_edit"]["path"] == "/repo/src/app/service.py"
    assert match.data["unanswered"][0]["question"] == "Were the tests run after the latest code change?"
    assert match.data["unanswered"][0]["since"] == "2026-01-01T10:01:00Z"
    assert match.data["unanswered"][0]["since_path"] == "/repo/src/app/service.py"
    assert "/repo/src/app/service.py" in match.summary  # the wording names the edit
    assert match.key.startswith("compiles,tests_added,tests_run@")


def test_commands_after_the_last_edit_answer(checklist: dict[str, Any]) -> None:
    s = Session()
    s.edit("/repo/pkg/handler.go")
    s.edit("/repo/pkg/handler_test.go")
    s.edit("/repo/README.md")
    s.fail("go test ./pkg/...")  # failing still answers "were the tests run"
    assert ask(s, checklist) is None


def test_a_test_run_before_the_last_edit_does_not_count(checklist: dict[str, Any]) -> None:
    s = Session()
    s.edit("/repo/lib/a.ts")
    s.run("npm test")
    s.run("npx tsc --noEmit")
    s.edit("/repo/lib/a.ts")
    match = ask(s, checklist)
    assert "tests_run" in open_ids(match)
    assert "compiles" in open_ids(match)
    assert match is not None and match.data["unanswered"][0]["edits_since"] == 1


def test_tests_written_first_answer_tests_added(checklist: dict[str, Any]) -> None:
    s = Session()
    s.edit("/repo/tests/test_parser.py", tool="Write")
    s.edit("/repo/parser.py")
    s.run("python -m pytest -q")
    s.run("mypy parser.py")
    s.edit("/repo/docs/parser.md")
    assert ask(s, checklist) is None


def _docs_then_code() -> Session:
    s = Session()
    s.edit("/repo/docs/api.md")
    s.edit("/repo/api/routes.py")
    s.edit("/repo/tests/test_routes.py")
    s.run("pytest")
    s.run("mypy api")
    return s


def test_docs_written_just_before_the_code_count_by_default(checklist: dict[str, Any]) -> None:
    assert ask(_docs_then_code(), checklist) is None


def test_a_team_can_require_docs_after_the_code_change(checklist: dict[str, Any]) -> None:
    config = copy.deepcopy(checklist)
    for question in config["questions"]:
        if question["id"] == "docs_updated":
            question["answered_within"] = "after_first_edit"
            question["enabled"] = True
    assert open_ids(ask(_docs_then_code(), config)) == ["docs_updated"]


def test_doc_only_edits_ask_nothing(checklist: dict[str, Any]) -> None:
    s = Session()
    s.edit("/repo/README.md")
    s.edit("/repo/docs/guide/intro.md")
    assert ask(s, checklist) is None


def test_config_only_edits_do_not_ask_for_new_tests(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/pyproject.toml", tool="Write")
    assert open_ids(ask(s, checklist)) == ["tests_run"]


def test_notebook_and_write_edits_count(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("pytest tests")
    s.edit("/repo/analysis.ipynb", tool="NotebookEdit")
    assert "tests_run" in open_ids(ask(s, checklist))


def test_a_gap_is_reported_once_and_a_new_edit_reopens_it(checklist: dict[str, Any]) -> None:
    s = Session()
    state: dict[str, Any] = {}
    s.run("cargo build")
    s.edit("/repo/a.rs")
    assert ask(s, checklist, state) is not None
    assert ask(s, checklist, state) is None
    s.edit("/repo/a.rs")
    assert ask(s, checklist, state) is not None
    json.dumps(state)


def test_a_team_can_change_and_extend_the_checklist(checklist: dict[str, Any]) -> None:
    team = merge_config(
        checklist,
        {
            "questions": [
                {"id": "tests_added", "enabled": False},
                {"id": "tests_run", "answered_by": {"commands": [r"\./scripts/check\b"]}},
                {
                    "id": "version_bumped",
                    "question": "Was the version bumped everywhere it is pinned?",
                    "applies_after": "code_edit",
                    "answered_within": "anywhere",
                    "answered_by": {"edits": ["pyproject.toml", "*/__init__.py"]},
                },
            ]
        },
    )
    assert [q["id"] for q in team["questions"]] == [
        "tests_run",
        "tests_added",
        "compiles",
        "deployed",
        "docs_updated",
        "version_bumped",
    ]
    assert checklist["questions"][1]["enabled"] is True  # the shipped defaults are untouched
    s = Session()
    s.edit("/repo/src/core.py")
    s.edit("/repo/tests/test_core.py")
    s.run("./scripts/check --fast")
    s.run("mypy src")
    assert open_ids(ask(s, team)) == ["version_bumped"]
    s.edit("/repo/pyproject.toml")
    s.run("./scripts/check")
    s.run("mypy src")
    assert ask(s, team) is None


def test_applies_after_edit_includes_non_code(checklist: dict[str, Any]) -> None:
    config = copy.deepcopy(checklist)
    config["questions"] = [
        {
            "id": "spellcheck",
            "question": "Was the spell checker run?",
            "applies_after": "edit",
            "answered_by": {"commands": [r"\bcodespell\b"]},
        }
    ]
    s = Session()
    s.edit("/repo/README.md")
    assert open_ids(ask(s, config)) == ["spellcheck"]
    s.run("codespell README.md")
    assert ask(s, config) is None


def test_a_broken_regex_is_named(checklist: dict[str, Any]) -> None:
    config = copy.deepcopy(checklist)
    config["questions"] = [{"id": "x1", "question": "?", "answered_by": {"commands": ["(unclosed"]}}]
    s = Session()
    s.edit("/repo/a.py")
    with pytest.raises(ValueError, match=r"invalid regular expression '\(unclosed'"):
        ask(s, config)


def test_an_empty_checklist_asks_nothing() -> None:
    s = Session()
    s.edit("/repo/a.py")
    assert standard_questions(s.observations, {}, {}, {"questions": []}) is None


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("docs/**", "/repo/docs/a/b.md", True),
        ("docs/**", "/repo/src/docs.py", False),
        ("*.md", "/repo/README.md", True),
        ("*.md", "/repo/README.mdx", False),
        ("test_*.py", "/repo/tests/test_x.py", True),
        ("test_*.py", "/repo/test_dir/x.py", False),
        ("tests/**", "/repo/pkg/tests/unit/x.py", True),
        ("*Test.java", "C:\\repo\\src\\FooTest.java", True),
        ("/repo/only/*.py", "/repo/only/a.py", True),
        ("/repo/only/*.py", "/other/repo/only/a.py", False),
        ("src/**/*.py", "/w/src/a/b/c.py", True),
        ("src/**/*.py", "/w/src/c.py", True),
    ],
)
def test_path_globs(pattern: str, path: str, matches: bool) -> None:
    config = {
        "questions": [
            {"id": "q1", "question": "?", "applies_after": "edit", "answered_by": {"edits": [pattern]}}
        ]
    }
    s = Session()
    s.edit(path)
    assert (standard_questions(s.observations, {}, {}, config) is None) is matches


# -- the real corpus ---------------------------------------------------------------------------------


def _corpus_sessions() -> Iterator[tuple[str, list[Observation]]]:
    """Bash calls and their failures from each transcript (a minimal projection, enough for this trigger)."""
    for path in sorted(CORPUS.glob("*.jsonl")):
        observations: list[Observation] = []
        names: dict[str, str] = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            content = (record.get("message") or {}).get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use" and block.get("name") == "Bash":
                    names[block["id"]] = "Bash"
                    command = (block.get("input") or {}).get("command", "")
                    observations.append(
                        Observation(
                            "tool", command, tool="Bash", tool_use_id=block["id"], args={"command": command}
                        )
                    )
                elif block.get("type") == "tool_result" and block.get("tool_use_id") in names:
                    if block.get("is_error"):
                        body = block.get("content")
                        if isinstance(body, list):
                            body = "\n".join(part.get("text", "") for part in body if isinstance(part, dict))
                        observations.append(
                            Observation(
                                "error", str(body)[:400], tool="Bash", tool_use_id=block["tool_use_id"]
                            )
                        )
                    else:
                        observations.append(Observation("text", "ok"))
        yield path.name, observations


def _exact_streaks(observations: Sequence[Observation]) -> bool:
    """The naive oracle: one exact command string failing 3 times, no success of it in between."""
    failed = {o.tool_use_id for o in observations if o.kind == "error"}
    streak: dict[str, int] = {}
    for obs in observations:
        if obs.kind != "tool":
            continue
        command = obs.args["command"]
        streak[command] = streak.get(command, 0) + 1 if obs.tool_use_id in failed else 0
        if streak[command] >= 3:
            return True
    return False


@pytest.mark.corpus
def test_corpus_normalisation_only_ever_merges() -> None:
    """Run the trigger as passes would (after each new failure) and compare with an exact-match oracle."""
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not available")
    fired, oracle = set(), set()
    for name, observations in _corpus_sessions():
        state: dict[str, Any] = {}
        for end, obs in enumerate(observations, start=1):
            if obs.kind == "error":
                seen = observations[:end]
                if repeat_failure(seen, {"ignore_errors": []}, state) is not None:
                    fired.add(name)
                if _exact_streaks(seen):
                    oracle.add(name)
    assert oracle, "the corpus has exact retry loops; the oracle should find some"
    assert oracle <= fired
    # normalisation finds loops the exact oracle misses (cosmetic variants), but stays rare
    assert len(fired) <= len(oracle) + 5
