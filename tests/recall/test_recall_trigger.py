"""recall_offers: typed one-line offers, an outsider, and never the same chunk twice in the session."""

from __future__ import annotations

from pathlib import Path

from recall_helpers import FAILING
from sbcore.detectors.recall import RECALL_PARAMS, recall_offers

from sbcore.conductor.recall_index import RecallSettings, recall_window, refresh_workspace
from sbcore.observe.model import Observation
from sbcore.paths import data_dir
from sbcore.state.recall import RecallWindow

PARAMS = {name: spec["default"] for name, spec in RECALL_PARAMS["properties"].items()}


def _failure(call_id: str, error: str = FAILING, command: str = "pytest -q") -> list[Observation]:
    return [
        Observation(kind="tool", tool="Bash", tool_use_id=call_id, args={"command": command}, text=command),
        Observation(kind="error", tool="Bash", tool_use_id=call_id, text=f"Exit code 1\n{error}"),
    ]


def test_a_past_fix_offer_cites_the_note_with_a_why_and_an_outsider(window: RecallWindow) -> None:
    match = recall_offers(_failure("t1"), PARAMS, {}, recall=window)
    assert match is not None
    offers = match.data["offers"]
    assert offers[0]["kind"] == "past_fix"
    assert offers[0]["handle"] == "docs/decisions/0007-pool.md#fix-for-psycopg-toomanyconnections"
    assert all(offer["why"] and "\n" not in offer["why"] and "\u2014" not in offer["why"] for offer in offers)
    assert {offer["kind"] for offer in offers} <= {"past_fix", "contradicts", "analogous", "tangent"}
    dominant = match.data["dominant_region"]
    assert dominant == "docs/decisions"
    assert any(offer["region"] != dominant for offer in offers)  # the forced outsider
    assert len({offer["handle"] for offer in offers}) == len(offers)


def test_a_decision_forbidding_what_the_agent_does_is_offered_as_contradicts(window: RecallWindow) -> None:
    match = recall_offers(
        _failure("t1", command="python -c 'import psycopg; psycopg.connect()'"), PARAMS, {}, recall=window
    )
    assert match is not None
    [contradicts] = [o for o in match.data["offers"] if o["kind"] == "contradicts"]
    assert contradicts["handle"] == "docs/decisions/0007-pool.md#decision"
    assert "Do not call psycopg.connect" in contradicts["why"]


def test_the_same_chunk_is_never_offered_twice_in_the_window(window: RecallWindow) -> None:
    state: dict[str, object] = {}
    first = recall_offers(_failure("t1"), PARAMS, state, recall=window)
    assert first is not None
    offered = {offer["handle"] for offer in first.data["offers"]}
    assert set(window.offered) == offered
    # The same error again, in a new run: its past fix was offered already, so nothing new to say.
    assert recall_offers([*_failure("t1"), *_failure("t2")], PARAMS, state, recall=window) is None
    # Another session (a new window over the same index) may hear it again.
    fresh = RecallWindow(window.reader, window.size)
    again = recall_offers(_failure("t2"), PARAMS, {}, recall=fresh)
    assert again is not None and again.data["offers"][0]["handle"] == first.data["offers"][0]["handle"]


def test_the_fifo_forgets_the_oldest(window: RecallWindow) -> None:
    small = RecallWindow(window.reader, 2)
    small.remember(["a", "b", "c"])
    assert small.offered == ("b", "c")


def test_an_error_the_notes_do_not_describe_is_silent(window: RecallWindow) -> None:
    error = "TypeError: Cannot read properties of undefined (reading 'map')"
    assert recall_offers(_failure("t1", error=error, command="npm test"), PARAMS, {}, recall=window) is None


def test_no_index_or_no_failure_is_silent(window: RecallWindow) -> None:
    assert recall_offers(_failure("t1"), PARAMS, {}, recall=None) is None
    quiet = [Observation(kind="prompt", text=FAILING)]
    assert recall_offers(quiet, PARAMS, {}, recall=window) is None


def test_one_region_only_means_no_outsider(tmp_path: Path) -> None:
    root = tmp_path / "solo"
    (root / "docs" / "adr").mkdir(parents=True)
    (root / "docs" / "adr" / "1.md").write_text(
        "# Pool\n\n## TooManyConnections\n\npsycopg TooManyConnections remaining connection slots reserved: "
        "use the shared pool.\n"
    )
    settings = RecallSettings(advisories=False)
    refresh_workspace(root, settings)
    solo = recall_window(root, settings, data=data_dir())
    match = recall_offers(_failure("t1"), PARAMS, {}, recall=solo)
    assert match is not None
    assert [offer["region"] for offer in match.data["offers"]] == ["docs/adr"]


def test_another_note_with_the_same_error_type_is_offered_as_analogous(tmp_path: Path) -> None:
    root = tmp_path / "shapes"
    (root / "docs" / "decisions").mkdir(parents=True)
    (root / "docs" / "runbooks").mkdir(parents=True)
    (root / "docs" / "decisions" / "session.md").write_text(
        "# Sessions\n\n## KeyError user_id in the session serializer\n\n"
        "KeyError: 'user_id' from the session serializer meant a stale cookie; the fix was to clear it.\n"
    )
    (root / "docs" / "runbooks" / "cache.md").write_text(
        "# Cache warmer\n\n## Missing keys\n\nA KeyError in the cache warmer means the manifest is old.\n"
    )
    settings = RecallSettings(advisories=False, sources=("docs/**/*.md",))
    refresh_workspace(root, settings)
    window = recall_window(root, settings, data=data_dir())
    error = "KeyError: 'user_id' raised by the session serializer while loading"
    match = recall_offers(_failure("t1", error=error), PARAMS, {}, recall=window)
    assert match is not None
    kinds = {offer["kind"]: offer for offer in match.data["offers"]}
    past = "docs/decisions/session.md#keyerror-user_id-in-the-session-serializer"
    assert kinds["past_fix"]["handle"] == past
    assert kinds["analogous"]["handle"] == "docs/runbooks/cache.md#missing-keys"
    assert kinds["analogous"]["why"] == "the same error type (KeyError) in other work"
    assert match.data["dominant_region"] == "docs/decisions"  # the analogous note is the outsider too
    assert "tangent" not in kinds


def test_a_note_the_agent_has_just_read_is_not_offered(window: RecallWindow) -> None:
    """Offering the note the session just read tells the agent nothing new (issue 22): read through a read
    tool or printed by a command, however the path is spelt, it is passed over."""
    for read in (  # a read tool, or a command printing it
        Observation(
            kind="tool", text="[tool] Read", tool="Read", args={"file_path": "/w/docs/decisions/0007-pool.md"}
        ),
        Observation(
            kind="tool", text="[tool] Bash", tool="Bash", args={"command": "cat docs/decisions/0007-pool.md"}
        ),
    ):
        match = recall_offers([read, *_failure("t1")], PARAMS, {}, recall=window.scratch())
        offered = [] if match is None else [offer["handle"] for offer in match.data["offers"]]
        assert not any(handle.startswith("docs/decisions/0007-pool.md") for handle in offered), offered
    unread = recall_offers(_failure("t2"), PARAMS, {}, recall=window.scratch())
    assert unread is not None  # the same failure with the note unread is offered it
