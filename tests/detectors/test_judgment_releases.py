"""The twenty-fifth round: a release's version number, a tool's dotfile, more languages that are compiled.

standard-questions: a manifest's version number is the release's metadata (`"version": "1.2.0"`, `version
= "0.3.0"`, a module attribute `@version "0.6.3"`), except in a table of dependencies, where it pins what is
built against; a link to the source (`source_url`) is metadata; a file whose name opens with a dot is a
tool's settings (`.credo.exs`, `.zlintrc.json`), and a project's shipped defaults for one (`*.dist`) are
too; the source of Elixir, Erlang, Haskell, OCaml, Crystal, Dart and Solidity is compiled, so it shows the
project has a build. The tools are named in no table (`zmix`, `zlint`, `zhat`).
"""

from __future__ import annotations

import pytest
from test_judgment_scanners import _asking
from test_triggers import Session, ask, open_ids

from sbcore.observe.manifest_reading import metadata_only


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ('  "version": "1.2.0",', '  "version": "1.1.0",'),
        ('[package]\nversion = "0.3.0"', '[package]\nversion = "0.2.0"'),
        ('  @version "0.6.3"', '  @version "0.6.2"'),
        ('      version: @version,\n      source_url: "https://x.example/ws",', "      version: @version,"),
    ],
)
def test_a_releases_version_and_its_links_are_metadata(new: str, old: str) -> None:
    assert metadata_only(new, old)


def test_a_dependencys_version_is_not_metadata() -> None:
    assert not metadata_only(
        '[dependencies.zserde]\nversion = "1.1"', '[dependencies.zserde]\nversion = "1.0"'
    )
    assert not metadata_only(
        '[tool.zpkg.dev-dependencies]\nversion = "2"', '[tool.zpkg.dev-dependencies]\nversion = "1"'
    )
    assert not metadata_only('  @deps [{:zjson, "1.1"}]', '  @deps [{:zjson, "1.0"}]')


@pytest.mark.parametrize(
    "path", ["/repo/.credo.exs", "/repo/.zlintrc.json", "/repo/.phpcs.xml.dist", "/repo/phpunit.xml.dist"]
)
def test_a_tools_dotfile_and_its_shipped_defaults_are_not_code(path: str) -> None:
    s = Session()
    s.run("ls test/")
    s.edit(path)
    assert ask(s, _asking("tests_run")) is None


@pytest.mark.parametrize("path", ["/repo/lib/scale.ex", "/repo/contracts/Splitter.sol", "/repo/src/Geo.hs"])
def test_a_compiled_languages_source_asks_whether_it_still_builds(path: str) -> None:
    s = Session()
    s.edit(path)
    s.run("zmix deps.get")
    assert "compiles" in open_ids(ask(s, _asking("compiles")))
    s.run("zhat compile")
    assert ask(s, _asking("compiles")) is None
