"""The soft task boundary, judged offline: labelled sessions of new goals, follow-ups and topic shifts.

Each case is a short synthetic session: a first goal, a few steps of narrated work on it, then one prompt the
judge must classify. ``True`` cases are the user starting a clearly different piece of work; ``False`` cases
are follow-ups, questions about the work, and shifts of topic the user drives within one goal (which must
never split the task: a wrong split costs the task its context).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from sbcore.conductor.new_goal import GoalJudge, NewGoalSettings, request_form
from sbcore.observe.model import Observation

UPLOADS = (
    "Make the storage uploads retry with exponential backoff when the S3 client times out",
    [  # narration, and the file the step edits
        ("Reading the upload client to see where the S3 bucket timeout surfaces", "storage/upload_client.py"),
        (
            "The retry wrapper around put_object has no backoff; adding an exponential delay",
            "storage/retry.py",
        ),
        ("Wiring the backoff into the multipart upload path and its timeout handler", "storage/multipart.py"),
        ("Running the storage upload tests against the stubbed S3 client", "tests/storage/test_upload.py"),
    ],
)
PARSER = (
    "The YAML config parser crashes on anchors and aliases; make it resolve them",
    [
        ("Looking at how the config loader walks the YAML node tree", "config/loader.py"),
        ("Anchors are kept as raw nodes; resolving aliases before validation", "config/resolve.py"),
        (
            "Adding cases for nested anchors and merge keys to the parser fixtures",
            "tests/config/test_yaml.py",
        ),
    ],
)


def _session(goal: str, steps: list[tuple[str, str]]) -> list[Observation]:
    out = [Observation("prompt", f"[prompt] {goal}", uuid="p0")]
    for index, (said, path) in enumerate(steps):
        out.append(Observation("text", f"[text] {said}", uuid=f"t{index}"))
        out.append(
            Observation(
                "tool",
                f"[tool] Edit {path}",
                tool="Edit",
                tool_use_id=f"c{index}",
                args={"file_path": path},
                uuid=f"c{index}",
            )
        )
    return out


@dataclass(frozen=True)
class Case:
    name: str
    session: tuple[str, list[tuple[str, str]]]
    prompt: str
    new_goal: bool


CASES = [
    # -- the user starts a different piece of work ----------------------------------------------------
    Case("billing export", UPLOADS, "Add a CSV export of monthly invoices to the billing dashboard", True),
    Case(
        "after thanks",
        UPLOADS,
        "Thanks! Now, something different: write a migration renaming the customers.email column",
        True,
    ),
    Case(
        "docs site ci",
        PARSER,
        "Set up a GitHub Actions workflow that builds and publishes the docs site",
        True,
    ),
    Case(
        "login page", PARSER, "Implement password reset emails for the login page with a signed token", True
    ),
    Case("polite request", UPLOADS, "Can you write a Dockerfile for the analytics dashboard frontend?", True),
    # -- follow-ups: never a new task ----------------------------------------------------------------
    Case("continue", UPLOADS, "continue", False),
    Case("yes", PARSER, "yes, do that", False),
    Case("also", UPLOADS, "Also add a CSV export of monthly invoices to the billing dashboard", False),
    Case(
        "question", UPLOADS, "Why did you pick a base delay of 200 milliseconds for the first retry?", False
    ),
    Case("unrelated question", PARSER, "What does the billing dashboard use for charts these days?", False),
    Case("pointing back", UPLOADS, "That looks wrong, the jitter should be applied before the cap", False),
    Case("too", PARSER, "Handle the JSON config files too while you are in there", False),
    # -- topic shifts within one goal, driven by the user --------------------------------------------
    Case(
        "same goal, new file", UPLOADS, "Make the download path use the same exponential backoff on S3", False
    ),
    Case("narrowing", UPLOADS, "Cap the S3 upload retries at five attempts and log each timeout", False),
    Case(
        "tests of the goal",
        PARSER,
        "Write a regression test for a YAML alias that points at an anchor",
        False,
    ),
    Case(
        "adjacent subsystem",
        PARSER,
        "Make the config loader report the line of an unresolved YAML alias",
        False,
    ),
    Case(
        "new words, same work", UPLOADS, "Log a warning with the bucket name when the upload gives up", False
    ),
    Case(
        "error wording",
        PARSER,
        "Make malformed merge keys produce a readable message naming the anchor",
        False,
    ),
    Case(
        "ui of the goal", UPLOADS, "Now look at how the retry interacts with the upload progress bar", False
    ),
    Case("changelog", UPLOADS, "Write the changelog entry for this and bump the minor version", False),
    Case("readme", UPLOADS, "Document the new settings in the README under configuration", False),
    Case("commit", UPLOADS, "Commit with a descriptive message and open a pull request", False),
    Case("suite", PARSER, "Run the full test suite and report which modules still fail", False),
    Case("websocket", PARSER, "Implement a websocket chat server with rooms and presence", True),
    Case("vite", UPLOADS, "Migrate the frontend build from webpack to vite", True),
    Case(
        "says different but is not",
        UPLOADS,
        "Switch to a multipart upload for files over 100 MB on S3",
        False,
    ),
]


def _judge(case: Case, **settings: object) -> bool:
    judge = GoalJudge(NewGoalSettings(**settings))  # type: ignore[arg-type]
    assert judge.split(_session(*case.session)) is None, "the session's own goal and work are one task"
    found = judge.split([Observation("prompt", f"[prompt] {case.prompt}", uuid="p1")])
    return found is not None


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_labelled_prompt_is_judged_as_labelled(case: Case) -> None:
    assert _judge(case) is case.new_goal


def test_the_set_has_both_labels_and_precision_is_perfect() -> None:
    judged = [(_judge(case), case.new_goal) for case in CASES]
    assert sum(label for _, label in judged) >= 7 and sum(not label for _, label in judged) >= 15
    assert all(label for said, label in judged if said), "every split is a real new goal"


def test_no_split_before_work_is_done_under_the_goal() -> None:
    judge = GoalJudge(NewGoalSettings())
    first = Observation("prompt", f"[prompt] {UPLOADS[0]}", uuid="p0")
    other = Observation("prompt", "[prompt] Add a CSV export of monthly invoices to the billing dashboard")
    assert judge.split([first, other]) is None, (
        "a second prompt at once is the user still saying what they want"
    )


def test_a_disabled_judge_never_splits() -> None:
    assert not _judge(CASES[0], enabled=False)


def test_after_a_split_the_new_goal_is_the_task() -> None:
    judge = GoalJudge(NewGoalSettings())
    judge.split(_session(*UPLOADS))
    batch = [
        Observation("text", "[text] Wrapping up the upload retry", uuid="x"),
        Observation("prompt", "[prompt] Add a CSV export of monthly invoices to the billing dashboard"),
    ]
    found = judge.split(batch)
    assert found is not None and found.index == 1 and found.similarity < 0.03
    follow = Observation("prompt", "[prompt] Include the invoice currency column in the CSV export")
    assert judge.split([follow]) is None, "a prompt on the new goal stays in the new task"


def test_a_task_taken_up_again_is_judged_against_its_ledger_goal_and_restored_work() -> None:
    judge = GoalJudge(NewGoalSettings())
    off = Observation("prompt", "[prompt] Add a CSV export of monthly invoices to the billing dashboard")
    judge.reset(UPLOADS[0])
    assert judge.split([off]) is None, "no work known under the goal yet: no split"
    judge.reset(UPLOADS[0], _session(*UPLOADS)[1:])
    on_goal = Observation("prompt", "[prompt] Make the S3 upload backoff jitter configurable")
    assert judge.split([on_goal]) is None
    assert judge.split([off]) is not None


@pytest.mark.parametrize(
    ("text", "follow_up"),
    [
        ("continue", True),
        ("ok", True),
        ("Great, now run the linters", False),
        ("It still fails on the second call", True),
        ("Why is the cache keyed by path?", True),
        ("Could you add a health probe to the API server?", False),
        ("Add a health probe to the API server", False),
        ("Add a health probe as well", True),
    ],
)
def test_request_form(text: str, follow_up: bool) -> None:
    assert (request_form(text) is not None) is follow_up


def test_the_vocabulary_read_when_a_prompt_needs_it_is_the_one_read_as_the_task_went() -> None:
    """The task's words are learnt when a prompt is judged against them, not as each observation comes:
    the same words, those given before the prompt and not the prompt's own, however many wait unread."""
    from sbcore.conductor import new_goal
    from sbcore.observe.topic import words

    judge = GoalJudge(NewGoalSettings())
    texts = [f"refactor invoice{n % 40} exporter streaming batch{n % 13} ledger" for n in range(1300)]
    for text in texts:
        judge._learn(text)
    assert judge._unread, "some are still unread"
    known = judge._learnt + len(judge._unread)
    judge._learn("kubernetes helm rollout")  # the prompt's own words, learnt after it is judged
    stems = {word[: new_goal.STEM] for word in words("kubernetes rollout for the invoice exporter")}
    eager = {word[: new_goal.STEM] for text in texts for word in words(text)}
    assert judge._shared(stems, known) == len(stems & eager) / len(stems)


def test_steps_read_when_a_prompt_needs_them_judge_as_steps_read_as_they_came() -> None:
    """The task's steps are read into its topic when a prompt is judged (or too many wait), not as each
    observation comes: over sessions of several goals, follow-ups and long stretches of work, every prompt is
    judged alike, against the same steps and centroid, as by a judge that reads each observation at once."""
    names = [f"{a}{b}{c}{d}" for a in "bdfgkptv" for b in "aeiou" for c in "lmnrs" for d in "aio"]
    varied = [  # work of many words: the centroid outgrows its cap, which is applied step by step
        (f"Porting the {' '.join(names[n : n + 5])} handlers to the queue", f"q/{names[n]}.py")
        for n in range(0, 600, 5)
    ]
    stream: list[Observation] = []
    for round_ in range(3):
        for goal, steps in (UPLOADS, PARSER, (UPLOADS[0], varied)):
            stream += _session(goal, steps * (1 + round_ * 3))
            stream.append(Observation("prompt", "[prompt] It still fails on the second call", uuid="f"))
        stream += [Observation("prompt", f"[prompt] {case.prompt}", uuid=f"x{round_}") for case in CASES[::4]]
    lazy, eager = GoalJudge(NewGoalSettings()), GoalJudge(NewGoalSettings())
    lazy_found, eager_found = [], []
    for obs in stream:
        lazy_found.append(lazy.split([obs]))
        eager_found.append(eager.split([obs]))
        eager._catch_up()
        if obs.kind == "prompt":
            lazy._catch_up()
            assert (lazy.steps, lazy.topic.centroid, lazy.goal) == (
                eager.steps,
                eager.topic.centroid,
                eager.goal,
            )
    assert lazy_found == eager_found
    assert any(lazy_found), "the stream holds new goals"
