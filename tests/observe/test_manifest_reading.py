"""Whether a manifest's edit changed only what describes the package (``sbcore/observe/manifest_reading.py``),
in the syntaxes of several ecosystems' manifests."""

from __future__ import annotations

import json

import pytest

from sbcore.observe.manifest_reading import metadata_only
from sbcore.observe.project import Projector

LINKS_OLD = 'classifiers = [\n    "Programming Language :: Python :: 3",\n    "Programming Language :: C",\n]'
LINKS_NEW = (
    'classifiers = [\n    "Programming Language :: Python :: 3",\n'
    '    "Programming Language :: Python :: 3.13",\n'
    '    "Programming Language :: C",\n]\n\n[project.urls]\nHomepage = "https://example.org/hist"\n'
    'Issues = "https://example.org/hist/issues"\n'
    'Changelog = "https://example.org/hist/blob/main/CHANGELOG.md"\n'
    'Documentation = "https://example.org/hist/docs"\n'
)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (  # TOML keys, a list's items under the key that opened it
            'description = "A small parser"\nkeywords = ["json", "parser"]\nrepository = "https://example.org/p"\n',
            'description = "TODO"\n',
        ),
        (LINKS_NEW, LINKS_OLD),  # a list's new item below its shared key; a table of links
        (  # JSON: an object's lines belong to the key that opened it
            '  "description": "Tiny HTTP router",\n  "repository": {\n    "type": "git",\n'
            '    "url": "https://example.org/r.git"\n  },\n',
            '  "description": "router",\n',
        ),
        ('  spec.summary = "Tiny"\n  spec.homepage = "https://example.org"\n', '  spec.summary = "Small"\n'),
        (
            "synopsis:     A tiny ring buffer\ncategory:     Data\n",
            "synopsis:     ring buffer\ncategory:     Data\n",
        ),
        ('authors = ["Ada <ada@example.org>"]\n# who to ask\nlicense = "MIT"\n', 'license = "ISC"\n'),
        ('version = "0.4.1"\n', 'version = "0.4.0"\n'),  # a release's number
        (  # and Android's two, in a Gradle script
            '        versionCode = 42\n        versionName = "2.4.0"\n',
            '        versionCode = 41\n        versionName = "2.3.0"\n',
        ),
        (  # another tool's settings, kept in the manifest rather than in the tool's own file
            '[tool.zorp.lint]\nselect = ["E"]\n\n[tool.zorp.lint.per-file-ignores]\n"tests/**" = ["S101"]\n',
            '[tool.zorp.lint]\nselect = ["E"]\n',
        ),
        ("[package.metadata.docs.rs]\nall-features = true\n", ""),  # Cargo's, which cargo never reads
        (  # an XML manifest's elements: a .csproj's release numbers and description, a pom's own version
            "    <ApplicationDisplayVersion>1.5.0</ApplicationDisplayVersion>\n"
            "    <ApplicationVersion>15</ApplicationVersion>\n    <Description>A cart</Description>\n",
            "    <ApplicationDisplayVersion>1.4.0</ApplicationDisplayVersion>\n"
            "    <ApplicationVersion>14</ApplicationVersion>\n",
        ),
        ("<project>\n  <version>2.0</version>\n  <!-- next -->\n", "<project>\n  <version>1.9</version>\n"),
    ],
)
def test_metadata_only_edits(new: str, old: str) -> None:
    assert metadata_only(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ('description = "x"\nserde = "1.0"\n', 'description = "y"\n'),  # a dependency beside the words
        ('[dependencies]\nserde = "1"\n', ""),
        (
            '[dependencies.serde]\nversion = "1.1"\n',
            '[dependencies.serde]\nversion = "1.0"\n',
        ),  # what is built against
        ('[tool.setuptools]\npackages = ["ring"]\n', ""),  # the settings of the tool that builds the package
        ('[tool.poetry]\npackages = [{ include = "ring" }]\n', ""),
        ('[tool.zorp.dependencies]\nring = "1"\n', ""),  # a table of dependencies, whoever keeps it
        ('select = ["I"]\n', ""),  # a setting whose table is not shown
        ("        versionControl = true\n", ""),  # a key that only begins like a release's number
        (  # a dependency's version, in a pom: what is built against
            "<dependency>\n  <artifactId>ring</artifactId>\n  <version>2.0</version>\n</dependency>\n",
            "<dependency>\n  <artifactId>ring</artifactId>\n  <version>1.0</version>\n</dependency>\n",
        ),
        ("    <LangVersion>12</LangVersion>\n", "    <LangVersion>11</LangVersion>\n"),  # the compiler's
        ('    <PackageReference Include="Ring" Version="2.0" />\n', ""),
        ('    "Programming Language :: Python :: 3.13",\n', ""),  # a list item whose key is not shown
        ('  "scripts": {\n    "build": "tsc"\n  },\n', ""),
        ("# only a comment\n\n", ""),  # nothing that counts changed
        ("", ""),
    ],
)
def test_more_than_metadata(new: str, old: str) -> None:
    assert not metadata_only(new, old)


def _edit_records(path: str, new: str, old: str) -> list[bytes]:
    use = {"type": "tool_use", "id": "toolu_1", "name": "Edit"}
    use["input"] = {"file_path": path, "new_string": new, "old_string": old}
    record = {"type": "assistant", "timestamp": "2026-01-01T10:00:00Z", "message": {"content": [use]}}
    return [json.dumps(record).encode()]


def test_the_projection_reads_a_manifests_edit_whole() -> None:
    """The caps cut the edit's text and leave out its shared first lines, which place the new item under its
    key; the answer is read from the whole."""
    (observation,) = Projector().feed_lines(_edit_records("/repo/pyproject.toml", LINKS_NEW, LINKS_OLD))
    assert "…[" in observation.args["new_string"] and "classifiers" not in observation.args["new_string"]
    assert observation.args["metadata_only"] is True
    (source,) = Projector().feed_lines(_edit_records("/repo/src/links.py", LINKS_NEW, LINKS_OLD))
    assert "metadata_only" not in source.args  # only a manifest is read so
