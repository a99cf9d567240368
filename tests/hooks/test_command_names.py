"""Every slash command the product names is one the plugin defines, in the form that runs."""

from __future__ import annotations

import json

from command_forms import REPO, command_files, named_commands, old_forms

from sbcore.deliver.framing import PLUGIN_NAME


def test_every_named_command_has_a_command_file() -> None:
    named = named_commands()
    missing = {name: where for name, where in named.items() if name not in command_files()}
    assert missing == {}


def test_the_printed_texts_name_commands() -> None:
    """The mute hint and the finish gate's off switch are found (the collector is not blind)."""
    named = named_commands()
    assert any(where.startswith("rendered text 0") for where in named.get("config", []))
    assert any(where.startswith("rendered text 1") for where in named.get("config", []))
    assert any(where.endswith("(slash_command)") for where in named["config"])


def test_every_command_file_is_named_somewhere() -> None:
    """A command nobody mentions is one nobody finds: each is in the README or the docs."""
    named = named_commands()
    documented = {
        name
        for name, where in named.items()
        if any(w.endswith(".md") and not w.startswith("plugin/") for w in where)
    }
    assert command_files() <= documented


def test_no_text_names_the_form_that_does_not_run() -> None:
    assert old_forms() == []


def test_the_namespace_is_the_plugins_name() -> None:
    """``/second-brain:NAME`` runs only while the plugin is called ``second-brain`` (plugin.json)."""
    manifest = json.loads((REPO / "plugin" / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == PLUGIN_NAME
