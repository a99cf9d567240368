"""standard-questions reads what any tool shows (issue 22, item 4): a dependency installed, a message that
names a command, a format or lint task, an edit that adds a definition, a subagent's report in plain words.

The tools here (gleam, glab, nx, earthly, gleeunit) are named in no table of the built-in pack: a team's
checklist pattern, or the built-in patterns, meet them through rules about what a command does, not lists of
tools.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from test_standard_questions_precision import edit
from test_triggers import ROOT, Session, ask, open_ids

from sbcore.observe.model import Observation


@pytest.fixture
def checklist() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "catalogue" / "standard-questions.yaml").read_text())
    config: dict[str, Any] = document["config"]
    return config


def team_checklist(checklist: dict[str, Any], question: str, commands: list[str]) -> dict[str, Any]:
    """The built-in checklist with one question answered (and shown to apply) by a team's own pattern."""
    config = copy.deepcopy(checklist)
    for item in config["questions"]:
        if item["id"] == question:
            item["applies_when"] = {"paths": ["test/**"]}
            item["answered_by"] = {"commands": commands}
    return config


def report(s: Session, text: str) -> None:
    s.observations.append(Observation(kind="report", text=f"[report] Agent: {text}", tool="Agent"))


def test_installing_a_test_library_does_not_answer_that_tests_ran(checklist: dict[str, Any]) -> None:
    config = team_checklist(checklist, "tests_run", [r"\bgleeunit\b"])
    s = Session()
    s.run("ls test/cart_test.gleam")
    s.edit("/repo/src/cart.gleam")
    s.run("gleam add --dev gleeunit")
    assert "tests_run" in open_ids(ask(s, config))
    s.run("gleam run -m gleeunit")
    assert "tests_run" not in open_ids(ask(s, config, {}))


def test_a_message_that_names_a_test_command_does_not_run_it(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    s.run('glab mr create --title "Cart totals" --description "CI runs ./run_tests.sh on every push"')
    assert "tests_run" in open_ids(ask(s, checklist))
    s.run("bash -c './run_tests.sh --fast'")  # a shell handed a script does run it
    assert "tests_run" not in open_ids(ask(s, checklist, {}))


@pytest.mark.parametrize(
    ("programs", "seen", "lints", "build"),
    [
        (["nx", "earthly"], "ls test/a.spec.ts", ["nx run web:lint", "earthly +format"], "nx run web:build"),
        # a plugin's goal or a task named for style or linting within its name (twelfth round)
        (
            ["zmvn", "zgradle"],
            "ls src/test/java/ShipmentMapperTest.java",
            ["zmvn -q zstyle:check", "zgradle zlintCheck"],
            "zmvn -q compile",
        ),
    ],
)
def test_a_format_or_lint_task_is_not_a_build(
    checklist: dict[str, Any], programs: list[str], seen: str, lints: list[str], build: str
) -> None:
    config = team_checklist(checklist, "compiles", [rf"^{program}\b" for program in programs])
    s = Session()
    s.run(seen)
    s.edit("/repo/apps/web/src/cart.ts")
    for command in lints:
        s.run(command)
    assert "compiles" in open_ids(ask(s, config))
    s.run(build)
    assert "compiles" not in open_ids(ask(s, config, {}))


def test_an_edit_that_adds_a_definition_is_new_code_to_test(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls test/cart_test.gleam")
    edit(s, "/repo/src/cart.gleam", "pub fn discount(cart, pct) {\n  total(cart) * pct / 100\n}\n", "")
    assert "tests_added" in open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("  total(cart) * 2\n", "  total(cart)\n"),  # a change inside existing code
        ("pub type Cart {\n  Cart(items: List(Item))\n}\n", ""),  # a type declared: data, not a code path
        ("fn noop(_x) {}\n", ""),  # an empty body
    ],
)
def test_an_edit_inside_existing_code_is_not_new_code(checklist: dict[str, Any], new: str, old: str) -> None:
    s = Session()
    s.run("ls test/cart_test.gleam")
    edit(s, "/repo/src/cart.gleam", new, old)
    assert "tests_added" not in open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    "words",
    [
        "Done. The whole suite is green now.",
        "All specs pass after the fix.",
        "gleam test: 42 tests, 0 failures",
        "I re-ran the tests and they pass.",
    ],
)
def test_a_subagents_report_in_plain_words_answers(checklist: dict[str, Any], words: str) -> None:
    s = Session()
    s.run("ls test")
    s.edit("/repo/src/cart.gleam")
    report(s, words)
    assert "tests_run" not in open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    "words",
    ["Please run the tests before merging.", "The tests should pass once the fixture is updated."],
)
def test_a_report_that_asks_or_expects_does_not_answer(checklist: dict[str, Any], words: str) -> None:
    s = Session()
    s.run("ls test")
    s.edit("/repo/src/cart.gleam")
    report(s, words)
    assert "tests_run" in open_ids(ask(s, checklist))


def test_a_test_file_the_user_turned_down_answers_tests_added(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls test")
    s.observations.append(
        Observation(
            kind="tool",
            text="[tool] Write",
            tool="Write",
            tool_use_id="toolu_w1",
            args={"file_path": "/repo/src/cart.gleam", "content": "pub fn total(c) {\n  0\n}\n"},
        )
    )
    assert "tests_added" in open_ids(ask(s, checklist))
    s.observations.append(
        Observation(
            kind="tool",
            text="[tool] Write",
            tool="Write",
            tool_use_id="toolu_w2",
            args={"file_path": "/repo/test/cart_test.gleam", "content": "pub fn total_test() {}\n"},
        )
    )
    s.observations.append(
        Observation(
            kind="error",
            text="[error] Write: The user doesn't want to proceed with this tool use.",
            tool="Write",
            tool_use_id="toolu_w2",
        )
    )
    assert "tests_added" not in open_ids(ask(s, checklist, {}))


@pytest.mark.parametrize(
    ("command", "runs_tests", "builds"),
    [
        ("gleam test", True, False),
        ("crystal spec spec/cart_spec.cr", True, False),
        ("nx run web:test", True, False),
        ("earthly +test", True, False),
        ("raco test src", True, False),
        ("Rscript -e 'mypkg::test()'", True, False),
        ("gleam build --target javascript", False, True),
        ("nx run web:build", False, True),
        ("docker build -t test .", False, True),  # `test` names the image: an option's value
        ("kubectl get pods test", False, False),
        ("gleam format --check", False, False),
    ],
)
def test_any_tools_own_test_or_build_subcommand_answers(
    checklist: dict[str, Any], command: str, runs_tests: bool, builds: bool
) -> None:
    s = Session()
    s.run("ls test/cart_test.gleam")
    s.run("ls build.gleam.toml tsconfig.json")
    s.edit("/repo/src/cart.zorp")  # a language in no table: no test run of it is known to build it first
    s.run(command)
    still_open = open_ids(ask(s, checklist))
    assert ("tests_run" not in still_open) is runs_tests
    assert ("compiles" not in still_open) is builds


def test_a_project_script_whose_body_runs_the_tests_answers_that_they_ran(checklist: dict[str, Any]) -> None:
    """Tuned on blind batch b1: `mix ci` runs the tests when the project's manifest says its alias does.
    Here a Taskfile's `verify` runs `gleam test`: the session never shows that, the checkout does."""
    from sbcore.detectors.standard_questions import standard_questions

    from sbcore.observe.project_facts import ProjectFacts

    s = Session()
    s.run("ls test/cart_test.gleam")
    s.edit("/repo/src/cart.gleam")
    s.run("task verify")
    unaware = standard_questions(s.observations, {}, {}, checklist)
    assert "tests_run" in open_ids(unaware)
    project = ProjectFacts(
        root="/repo", paths=("Taskfile.yml",), scripts={"verify": "gleam format --check && gleam test"}
    )
    informed = standard_questions(s.observations, {}, {}, checklist, project=project)
    assert "tests_run" not in open_ids(informed)
    quiet = ProjectFacts(root="/repo", paths=("Taskfile.yml",), scripts={"verify": "gleam format --check"})
    assert "tests_run" in open_ids(standard_questions(s.observations, {}, {}, checklist, project=quiet))


# -- tuned on blind batch b4 (tuning split); tools of no table: raku, zef, pants, psake-style targets ------


def test_a_command_run_on_a_test_folder_or_file_is_a_test_run(checklist: dict[str, Any]) -> None:
    s = Session()
    s.edit("/repo/lib/Cart.rakumod")
    s.run("raku -Ilib t/")  # the Perl-family `t/` folder: it shows the project has tests too
    assert "tests_run" not in open_ids(ask(s, checklist))
    s.edit("/repo/lib/Cart.rakumod")
    s.run("raku -Ilib t/01-cart.rakutest")
    assert "tests_run" not in open_ids(ask(s, checklist, {}))


def open_after(checklist: dict[str, Any], command: str, shown: str = "ls tests") -> list[str]:
    """The questions left open when ``command`` ran after an edit, in a project ``shown`` has tests in."""
    s = Session()
    s.run(shown)
    s.edit("/repo/src/cart.zig")
    s.run(command)
    return open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    "command",
    [
        "./build.ps1 Test",  # a PascalCase target
        "pants -ldebug test ::",  # after the tool's own options
        "./do --verbose Tests",
        "npx gren-test",  # a program named for running tests
        "run-tests",
        "xtest --seed 3",
    ],
)
def test_a_test_target_or_a_program_named_for_tests_answers(checklist: dict[str, Any], command: str) -> None:
    assert "tests_run" not in open_after(checklist, command)


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        ("zlint spec/", "ls t/01-cart.rakutest"),  # a program named for linting, run on the tests
        ("rakutidy t/01-cart.rakutest", "ls t/01-cart.rakutest"),  # one named for formatting
        ("cp t/01-cart.rakutest /tmp/", "ls t/01-cart.rakutest"),  # one that moves files
        ("zef install --deps-only t/", "ls t/01-cart.rakutest"),  # a dependency manager
        ("raku-runner -f tests/fixtures.yml", "ls tests"),  # a data file in a test folder
        ("gren-kondo --lint src test", "ls tests"),  # a program told to lint
        ("podman build -t test .", "ls tests"),  # a subcommand's option named test
        ("test -f build/app && echo built", "ls tests"),  # the shell's own test builtin
        ("qlang check src tests", "ls tests"),  # a subcommand that lints what it is given (tenth round)
        ("qlang format --check src tests", "ls tests"),  # one that formats it
        ("qlint src tests --ext .q", "ls tests"),  # a linter handed the test folder (a script's body too)
    ],
)
def test_what_does_not_run_the_tests_answers_nothing(
    checklist: dict[str, Any], command: str, shown: str
) -> None:
    assert "tests_run" in open_after(checklist, command, shown)


def test_settings_and_comments_are_not_code_but_a_manifest_is(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/Api/appsettings.Development.json")
    s.edit("/repo/conf/application.conf")
    edit(
        s,
        "/repo/src/cart.zig",
        "/// The cart's total, in cents.\npub fn total(c: Cart) u64 {",
        "pub fn total(c: Cart) u64 {",
    )
    assert ask(s, checklist) is None  # settings, and a doc comment over the same code
    s.edit("/repo/deno.json")  # a manifest: what builds and runs changed
    assert "tests_run" in open_ids(ask(s, checklist, {}))


def test_a_definition_past_the_projections_cap_is_still_new_code() -> None:
    """The projection cuts an edit's text to its caps; the names it adds are read from the whole text."""
    import json as json_module

    from sbcore.observe.project import Projector

    old = "sub list ($self) {\n  return $self->db->select('t');\n}"
    new = (
        old
        + "\n"
        + "\n".join(f"# step {n}: keep the order stable" for n in range(12))
        + ("\nsub count ($self) {\n  return $self->db->select('t', 'count(*)')->[0];\n}")
    )
    use = {"type": "tool_use", "id": "toolu_1", "name": "Edit"}
    use["input"] = {"file_path": "/repo/lib/Tickets.pm", "old_string": old, "new_string": new}
    record = {"type": "assistant", "timestamp": "2026-01-01T10:00:00Z", "message": {"content": [use]}}
    (observation,) = Projector().feed_lines([json_module.dumps(record).encode()])
    assert "sub count" not in observation.args["new_string"]  # cut by the cap...
    assert observation.args["defines"] == ["count"]  # ...and still known to be added


# -- tuned on blind batch b5 (tuning split); tools of no table: gren, zlint, odin ------------------------


@pytest.mark.parametrize(
    ("path", "new", "old"),
    [
        (
            "/repo/src/stats.f90",
            "  !> Arithmetic mean.\n  pure real function mean(x)\n",
            "  pure real function mean(x)\n",
        ),
        ("/repo/src/stats.f90", "  real :: x(:)  !! sample values\n", "  real :: x(:)\n"),
        ("/repo/src/Money.gren", "{-| Whole pence. -}\ntype Cents = Cents Int\n", "type Cents = Cents Int\n"),
        ("/repo/lib/parse.ml", "(** The parser. *)\nlet parse s = s\n", "let parse s = s\n"),
    ],
)
def test_comment_markers_across_languages_make_an_edit_cosmetic(
    checklist: dict[str, Any], path: str, new: str, old: str
) -> None:
    s = Session()
    s.run("ls tests")
    edit(s, path, new, old)
    assert ask(s, checklist) is None


def test_a_doc_comment_longer_than_the_projections_cap_is_still_only_a_comment() -> None:
    import json as json_module

    from sbcore.observe.project import Projector

    doc = "".join(
        f"-- | Line {n} of the money module's documentation, as Pursuit shows it.\n" for n in range(8)
    )
    use = {"type": "tool_use", "id": "toolu_1", "name": "Edit"}
    use["input"] = {
        "file_path": "/repo/src/Money.gren",
        "old_string": "add a b = a + b\n",
        "new_string": doc + "add a b = a + b\n",
    }
    record = {"type": "assistant", "timestamp": "2026-01-01T10:00:00Z", "message": {"content": [use]}}
    (observation,) = Projector().feed_lines([json_module.dumps(record).encode()])
    assert "…" in observation.args["new_string"]  # cut by the cap...
    assert observation.args["comments_only"] is True  # ...and still known to change comments only


def test_a_user_who_says_not_to_build_makes_the_build_question_moot(checklist: dict[str, Any]) -> None:
    s = Session()
    prompt = "[prompt] Fix the halo kernel, but don't build it: the GPU partition is drained today."
    s.observations.append(Observation(kind="prompt", text=prompt))
    s.run("ls CMakeLists.txt")
    s.edit("/repo/src/halo.cu")
    assert "compiles" not in open_ids(ask(s, checklist))


def test_a_lint_task_answers_nothing_yet_shows_the_build_the_project_has(checklist: dict[str, Any]) -> None:
    """`quarry lint` builds nothing, so it cannot answer "does it still build?"; it does show the project is
    built with quarry, so the question applies (seventh round, from b6's `make lint` case)."""
    config = copy.deepcopy(checklist)
    for item in config["questions"]:
        if item["id"] == "compiles":
            item["applies_when"] = {"commands": [r"^quarry\b"]}
            item["answered_by"] = {"commands": [r"^quarry\b"]}
    s = Session()
    s.edit("/repo/src/ledger.qy")
    s.run("quarry lint src")
    assert "compiles" in open_ids(ask(s, config))
    s.run("quarry")
    assert "compiles" not in open_ids(ask(s, config, {}))
    quiet = Session()  # nothing shows a build at all: the question does not apply
    quiet.edit("/repo/src/ledger.qy")
    quiet.run("ls src")
    assert "compiles" not in open_ids(ask(quiet, config))
