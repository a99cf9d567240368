"""The drain hooks (PostToolUse, PostToolUseFailure, UserPromptSubmit), called in-process."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hook_helpers import NOW, Answer, Env

from sbcore.deliver.framing import frame_for_agent, frame_for_user

Call = Callable[..., Answer]
DRAINS = ("PostToolUse", "PostToolUseFailure", "UserPromptSubmit")


@pytest.mark.parametrize("event", DRAINS)
def test_one_advisory_reaches_agent_and_user_with_the_same_framed_text(
    env: Env, call: Call, event: str
) -> None:
    advice = env.post()
    answer = call(event)
    assert answer.status == 0
    body = answer.json
    assert set(body) == {"hookSpecificOutput", "systemMessage"}
    assert body["hookSpecificOutput"] == {
        "hookEventName": event,
        "additionalContext": frame_for_agent(advice),
    }
    context = body["hookSpecificOutput"]["additionalContext"]
    assert body["systemMessage"].startswith(context)
    assert body["systemMessage"] == frame_for_user(advice)
    assert "standard-questions" in body["systemMessage"].removeprefix(context)
    assert "second-brain config set detectors.standard-questions.enabled false" in body["systemMessage"]
    assert env.mailbox.pending() == []


def test_delivered_exactly_once(env: Env, call: Call) -> None:
    env.post()
    assert call("PostToolUse").stdout
    assert call("PostToolUse").stdout == ""


def test_no_mailbox_no_output(env: Env, call: Call) -> None:
    answer = call("PostToolUse")
    assert (answer.status, answer.stdout, answer.log) == (0, "", "")


def test_human_only_advice_goes_to_the_user_alone(env: Env, call: Call) -> None:
    advice = env.post(human_only=True, confidence=0.4)
    body = call("PostToolUse").json
    assert "hookSpecificOutput" not in body
    assert body["systemMessage"] == frame_for_user(advice)
    assert "Shown to you only" in body["systemMessage"]


def test_agent_and_human_only_advice_together(env: Env, call: Call) -> None:
    for_agent = env.post()
    for_user = env.post(human_only=True, confidence=0.4, headline="A hunch about the cache key")
    body = call("PostToolUseFailure").json
    assert body["hookSpecificOutput"]["additionalContext"] == frame_for_agent(for_agent)
    assert body["systemMessage"] == frame_for_user(for_agent) + "\n\n" + frame_for_user(for_user)


def test_subagent_calls_deliver_nothing(env: Env, call: Call) -> None:
    env.post()
    payload = env.payload("PostToolUse", agent_id="a8c79c06e18fae3c8", agent_type="general-purpose")
    assert call("PostToolUse", payload).stdout == ""
    assert len(env.mailbox.pending()) == 1


def test_unenrolled_workspace_delivers_nothing(env: Env, call: Call) -> None:
    env.post()
    env.hot({"enable": {"default": True, "workspaces": {str(env.project): False}}}, key="{project}")
    assert call("PostToolUse").stdout == ""
    assert len(env.mailbox.pending()) == 1


def test_enrolment_by_global_default(env: Env, call: Call) -> None:
    env.post()
    env.hot({"enable": {"default": False, "workspaces": {}}})
    assert call("PostToolUse").stdout == ""
    env.hot({"enable": {"default": False, "workspaces": {str(env.project): True}}})
    assert call("PostToolUse").stdout


def test_mute_delivers_nothing_and_keeps_the_advice(env: Env, call: Call) -> None:
    env.post()
    env.hot({"mute": {"all": True}}, key="{project}")
    assert call("UserPromptSubmit").stdout == ""
    assert len(env.mailbox.pending()) == 1


def test_switched_off_detector_stays_undelivered(env: Env, call: Call) -> None:
    env.post(kind="repeat-failure")
    kept = env.post()
    env.hot({"detectors": {"standard-questions": {"enabled": False}}})
    body = call("PostToolUse").json
    assert "repeat-failure" in body["systemMessage"]
    assert env.mailbox.pending() == [kept.with_changes(enqueued_at=NOW - 30)]


def test_claim_time_recheck_drops_advice_the_current_step_handled(env: Env, call: Call) -> None:
    env.post(stale_if=("twine upload",))
    payload = env.payload("PostToolUse", tool_input={"command": "twine upload dist/*"})
    answer = call("PostToolUse", payload)
    assert answer.stdout == ""
    assert env.mailbox.pending() == []


def test_expired_advice_is_not_delivered(env: Env, call: Call) -> None:
    env.post()
    assert call("PostToolUse", now=NOW + 10_000).stdout == ""
    assert env.mailbox.pending() == []


def test_lock_contention_answers_nothing_at_once(env: Env, call: Call) -> None:
    import fcntl
    import os

    env.post()
    fd = os.open(env.mailbox.lock_path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        answer = call("PostToolUse")
    finally:
        os.close(fd)
    assert (answer.stdout, answer.log) == ("", "")
    assert call("PostToolUse").stdout


def test_prompt_is_recorded_for_the_worker(env: Env, call: Call) -> None:
    call("UserPromptSubmit", env.payload("UserPromptSubmit", prompt="ship it", prompt_id="p9"))
    (event,) = env.events()
    assert event == {
        "v": 1,
        "at": NOW,
        "session_id": env.session,
        "event": "prompt",
        "prompt": "ship it",
        "prompt_id": "p9",
    }


def test_muted_session_still_records_prompts(env: Env, call: Call) -> None:
    env.hot({"mute": {"all": True}})
    call("UserPromptSubmit")
    assert [event["event"] for event in env.events()] == ["prompt"]


def test_long_prompt_is_capped_visibly(env: Env, call: Call) -> None:
    call("UserPromptSubmit", env.payload("UserPromptSubmit", prompt="x" * 100_050))
    (event,) = env.events()
    assert event["prompt"] == "x" * 100_000 + "…[+50 chars]"


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "JSON list"),
        (b'{"hook_event_name": "PostToolUse"}', "no session_id"),
        (b'{"session_id": "s", "hook_event_name": "Stop"}', "for 'Stop'"),
        (b"\xff\xfe\x00garbage", "not JSON"),
    ],
)
def test_bad_payload_fails_open_with_one_log_line(
    env: Env, call: Call, monkeypatch: pytest.MonkeyPatch, raw: bytes, problem: str
) -> None:
    monkeypatch.delenv("CLAUDE_CODE_SESSION_ID")
    env.post()
    answer = call("PostToolUse", raw)
    assert (answer.status, answer.stdout) == (0, "")
    assert len(answer.log.splitlines()) == 1
    assert "sb-hook PostToolUse:" in answer.log and problem in answer.log


def test_session_id_from_the_environment_when_the_payload_has_none(env: Env, call: Call) -> None:
    env.post()
    payload = env.payload("PostToolUse")
    del payload["session_id"]
    assert call("PostToolUse", payload).stdout


def test_corrupt_mailbox_fails_open_and_is_kept_aside(env: Env, call: Call) -> None:
    env.mailbox.directory.mkdir(parents=True)
    env.mailbox.path.write_bytes(b'{"v": 1, "entries": ')
    answer = call("PostToolUse")
    assert (answer.status, answer.stdout) == (0, "")
    assert "not JSON" in answer.log
    assert [p.name.split(".")[1] for p in env.mailbox.directory.glob("*.corrupt.*")] == ["corrupt"]


@pytest.mark.parametrize(
    "content",
    [
        b"{oops",
        b'{"v": 2, "scopes": {}}',
        b'{"v": 1, "scopes": []}',
        b'{"v": 1, "scopes": {"*": {"mute": {"all": "yes"}}}}',
        b'{"v": 1, "scopes": {"*": {"enable": {"workspaces": {"/x": 1}}}}}',
        b'{"v": 1, "scopes": {"*": {"gate": {"queue_timeout_s": "600"}}}}',
        b'{"v": 1, "scopes": {"*": {"detectors": {"x": {"enabled": "no"}}}}}',
    ],
)
def test_corrupt_hot_snapshot_fails_open(env: Env, call: Call, content: bytes) -> None:
    env.post()
    env.data.mkdir(exist_ok=True)
    (env.data / "hot.json").write_bytes(content)
    answer = call("PostToolUse")
    assert (answer.status, answer.stdout) == (0, "")
    assert "HotConfigError" in answer.log
    assert len(env.mailbox.pending()) == 1


def test_unwritable_events_file_fails_open(env: Env, call: Call) -> None:
    (env.data / "events" / f"{env.session}.jsonl").mkdir(parents=True)
    answer = call("UserPromptSubmit")
    assert (answer.status, answer.stdout) == (0, "")
    assert "IsADirectoryError" in answer.log


def test_unknown_event_is_logged(env: Env, call: Call) -> None:
    answer = call("PreToolUse")
    assert (answer.status, answer.stdout) == (0, "")
    assert "not an event this plugin handles" in answer.log


def test_observer_processes_are_ignored(env: Env, call: Call, monkeypatch: pytest.MonkeyPatch) -> None:
    env.post()
    monkeypatch.setenv("SBCORE_OBSERVER", "1")
    answer = call("PostToolUse")
    assert (answer.stdout, answer.log) == ("", "")
    assert len(env.mailbox.pending()) == 1


def test_failure_log_is_private_and_rotates(env: Env, call: Call, monkeypatch: pytest.MonkeyPatch) -> None:
    from sbcore.hooks import failures

    monkeypatch.setattr(failures, "MAX_BYTES", 300)
    for _ in range(6):
        call("PostToolUse", b"nope")
    assert env.log_file.stat().st_mode & 0o777 == 0o600
    assert (env.log_file.parent / "hooks.log.1").exists()
    assert env.log_file.parent.stat().st_mode & 0o777 == 0o700
    assert env.log_file.stat().st_size < 300 + 200


def test_a_secret_in_a_prompt_is_stored_redacted(env: Env, call: Call) -> None:
    token = "ghp_" + "".join(chr(65 + (i * 7) % 26) + str(i % 10) for i in range(18))
    call(
        "UserPromptSubmit",
        env.payload("UserPromptSubmit", prompt=f"use GITHUB_TOKEN={token}, password: Xq9-h2"),
    )
    (event,) = env.events()
    assert event["prompt"] == "use GITHUB_TOKEN=[REDACTED:github-pat], password: [REDACTED:password]"


def test_a_secret_straddling_the_prompt_cap_leaves_no_prefix(env: Env, call: Call) -> None:
    token = "ghp_" + "".join(chr(97 + (i * 11) % 26) + str(i % 10) for i in range(18))
    prompt = "x" * 99_990 + " " + token + " and more"
    call("UserPromptSubmit", env.payload("UserPromptSubmit", prompt=prompt))
    (event,) = env.events()
    assert event["prompt"] == "x" * 99_990 + " [REDACTED" + f"…[+{len(prompt) - 100_000} chars]"
