"""The line editor keeps comments, touches only the key it changes, and never writes wrong data."""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sbcore.config.edit import remove_from_text, render, set_in_text

TEAM_FILE = """\
# Team settings for the monorepo.
gate:
  rate_per_hour: 2  # we like it quiet
  cooldown_s: 600

# The build is slow here.
loop:
  fork_deadline_s: 20
  salience_triggers:
    - error
detectors:
  git-log:
    enabled: true   # history matters in this repo
"""


def _data(text: str) -> Any:
    return yaml.safe_load(text) or {}


def test_replacing_a_scalar_keeps_its_trailing_comment_and_everything_else() -> None:
    edit = set_in_text(TEAM_FILE, ("gate", "rate_per_hour"), 3)
    assert edit.comments_kept
    assert edit.text == TEAM_FILE.replace("rate_per_hour: 2  #", "rate_per_hour: 3  #")


def test_adding_a_key_to_an_existing_group_appends_it_at_the_group_indentation() -> None:
    edit = set_in_text(TEAM_FILE, ("gate", "body_cap"), 300)
    assert edit.text == TEAM_FILE.replace("  cooldown_s: 600\n", "  cooldown_s: 600\n  body_cap: 300\n")


def test_adding_a_group_appends_it_at_the_end() -> None:
    edit = set_in_text(TEAM_FILE, ("mute", "all"), True)
    assert edit.text == TEAM_FILE + "mute:\n  all: true\n"


def test_adding_a_nested_entry_inside_a_user_keyed_map() -> None:
    edit = set_in_text(TEAM_FILE, ("detectors", "prior-art", "enabled"), True)
    assert edit.text.endswith(
        "    enabled: true   # history matters in this repo\n  prior-art:\n    enabled: true\n"
    )
    assert _data(edit.text)["detectors"] == {"git-log": {"enabled": True}, "prior-art": {"enabled": True}}


def test_replacing_a_list_rewrites_only_that_entry() -> None:
    edit = set_in_text(TEAM_FILE, ("loop", "salience_triggers"), ["error", "prompt"])
    assert "# The build is slow here." in edit.text
    assert _data(edit.text)["loop"] == {"fork_deadline_s": 20, "salience_triggers": ["error", "prompt"]}
    assert edit.text.count("\n") == TEAM_FILE.count("\n") + 1


def test_removing_the_last_key_of_a_group_removes_the_group() -> None:
    edit = remove_from_text(TEAM_FILE, ("detectors", "git-log", "enabled"))
    assert "detectors" not in edit.text
    assert edit.text == TEAM_FILE[: TEAM_FILE.index("detectors:")]
    assert edit.comments_kept


def test_removing_a_group_keeps_the_comments_around_it() -> None:
    edit = remove_from_text(TEAM_FILE, ("gate",))
    assert edit.text.startswith("# Team settings for the monorepo.\n\n# The build is slow here.\nloop:")


def test_removing_everything_keeps_free_standing_comments() -> None:
    edit = remove_from_text(TEAM_FILE, ())
    assert edit.text == "# Team settings for the monorepo.\n\n# The build is slow here.\n"
    assert _data(edit.text) == {}


def test_removing_what_is_not_there_changes_nothing() -> None:
    assert remove_from_text(TEAM_FILE, ("mute", "all")).text == TEAM_FILE
    assert remove_from_text(TEAM_FILE, ("gate", "rate_per_hour", "deeper")).text == TEAM_FILE


def test_an_empty_value_is_filled_in_place() -> None:
    edit = set_in_text("gate:\n  cooldown_s:\n  body_cap: 300\n", ("gate", "cooldown_s"), 30)
    assert edit.text == "gate:\n  cooldown_s: 30\n  body_cap: 300\n"


def test_a_block_scalar_is_replaced_whole() -> None:
    text = "detectors:\n  default:\n    prompt: |\n      line one\n      line two\n# tail\n"
    edit = set_in_text(text, ("detectors", "default", "prompt"), "short")
    assert edit.text == "detectors:\n  default:\n    prompt: short\n# tail\n"


def test_strings_that_look_like_other_things_stay_strings() -> None:
    for value in ["yes", "3.5", "null", "a: b", "#hash", "", "multi\nline"]:
        edit = set_in_text("model:\n  provider: auto\n", ("model", "name"), value)
        assert _data(edit.text)["model"]["name"] == value


def test_flow_style_documents_are_rewritten_from_data_and_say_so() -> None:
    text = "# mine\ngate: {rate_per_hour: 2}\n"
    edit = set_in_text(text, ("gate", "cooldown_s"), 5)
    assert _data(edit.text) == {"gate": {"rate_per_hour": 2, "cooldown_s": 5}}
    assert "# mine" in edit.text  # the flow entry is regenerated in block style, the comment stays
    flow_root = "{gate: {rate_per_hour: 2}}  # mine\n"
    edit = set_in_text(flow_root, ("gate", "cooldown_s"), 5)
    assert _data(edit.text) == {"gate": {"rate_per_hour": 2, "cooldown_s": 5}}
    assert edit.comments_kept is False


def test_an_empty_file_gets_a_block_document() -> None:
    assert set_in_text("", ("gate", "rate_per_hour"), 2).text == "gate:\n  rate_per_hour: 2\n"
    assert set_in_text("# header only", ("mute", "all"), True).text == "# header only\nmute:\n  all: true\n"


def test_render_of_nothing_is_empty() -> None:
    assert render({}) == ""


# -- property: any sequence of edits yields exactly the intended data, and keeps the comments --------

KEYS = st.sampled_from(["gate", "loop", "detectors", "tools", "x-y", "on", "1"])
LEAF = st.one_of(
    st.integers(-5, 5),
    st.booleans(),
    st.none(),
    st.text(alphabet="ab: #'\"\n-", max_size=6),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.sampled_from(["p", "q"]), st.integers(0, 3), max_size=2),
)
PATHS = st.lists(KEYS, min_size=1, max_size=3).map(tuple)
OPS = st.lists(st.tuples(st.sampled_from(["set", "remove"]), PATHS, LEAF), min_size=1, max_size=12)


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _model_set(model: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        if not isinstance(model.get(part), dict):
            model[part] = {}
        model = model[part]
    model[path[-1]] = value


def _model_remove(model: dict[str, Any], path: tuple[str, ...]) -> None:
    chain = [model]
    for part in path[:-1]:
        nxt = chain[-1].get(part)
        if not isinstance(nxt, dict):
            return
        chain.append(nxt)
    if path[-1] not in chain[-1]:
        return
    del chain[-1][path[-1]]
    for depth in range(len(path) - 1, 0, -1):
        if chain[depth]:
            break
        del chain[depth - 1][path[depth - 1]]


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_edit_sequences_match_a_model_and_keep_the_header(
    ops: list[tuple[str, tuple[str, ...], Any]],
) -> None:
    header = "# header: keep me\n"
    text = header
    model: dict[str, Any] = {}
    for op, path, value in ops:
        if op == "set":
            edit = set_in_text(text, path, value)
            _model_set(model, path, value)
        else:
            edit = remove_from_text(text, path)
            _model_remove(model, path)
        text = edit.text
        assert _canonical(_data(text)) == _canonical(model)
        assert edit.comments_kept, text
        assert text.startswith(header)
