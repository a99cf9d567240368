"""Whether an edit of a manifest changed only what describes the package, not how it builds or runs.

A manifest (``Cargo.toml``, ``pyproject.toml``, ``package.json``, a ``.gemspec``, a ``.cabal`` file) holds the
package's description beside its dependencies and its build. An edit that fills in the description, the
keywords, the classifiers, the links, the authors or the release's version number changes nothing a test or a
build could check, where one that touches a dependency, a feature or a script may. A table a manifest keeps
for another tool's settings (``[tool.ruff.lint]`` in ``pyproject.toml``, ``[package.metadata.docs.rs]`` in
``Cargo.toml``) counts with the description: the same settings in the tool's own file (``ruff.toml``,
``mypy.ini``) are settings, not code, and moving them into the manifest changes nothing about the package; the
tables of the tools that build the package (``[tool.setuptools]``, ``[tool.poetry]``, ``[tool.hatch]``) are
read key by key like the rest. The projection caps an edit's text, so this is read from the whole of it
(:mod:`.calls` keeps the answer as ``metadata_only``).

Each changed line is read by the key it sets, in any of the manifests' syntaxes (``key = value``, ``"key":
value``, ``key: value``, ``spec.key = value``, an XML element ``<Version>1.5.0</Version>``); a line inside a
list or an object belongs to the key that opened it, a table's lines to its header (``[project.urls]``), and
an XML element's version to a dependency, a plugin or a parent when it sits inside one. Lines present on
both sides, blank lines and comments do not count. Anything not read as metadata (a key it does not know, a
line it cannot place) makes the edit more than metadata. Standard library only (it runs in the projection).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# What describes a package in the manifests of most ecosystems: its words, its people, its links.
METADATA_KEYS = frozenset(
    {
        *("description", "summary", "synopsis", "detailed", "keywords", "categories", "classifiers", "tags"),
        *("long_description", "long-description", "long_description_content_type", "readme"),
        *("license", "licenses", "licence", "licences", "license-file", "license_file", "license-files"),
        "copyright",
        *("authors", "author", "maintainers", "maintainer", "contributors", "funding"),
        *("homepage", "repository", "documentation", "bugs", "links", "urls", "project-urls", "project_urls"),
        *("source_url", "homepage_url", "url", "bugreports", "title", "date"),  # R's DESCRIPTION's too
    }
)
# A table all of whose keys are links (``[project.urls]``: ``Homepage``, ``Issues``, ``Changelog``).
_LINK_TABLES = frozenset({"urls", "project-urls", "project_urls"})
# The package's own version, a release's number (``version``, Android's ``versionCode`` and ``versionName``,
# MSBuild's ``<ApplicationDisplayVersion>``, ``<VersionPrefix>``, ``<AssemblyVersion>``): metadata, except in
# a table of dependencies, where it pins what is built against (``[dependencies.serde]`` / ``version = "1"``).
_VERSION = re.compile(
    r"(?:application(?:display)?|file|assembly|informational)?version"
    r"(?:[_-]?(?:code|name|number|string|prefix|suffix))?"
)
# The tools whose ``[tool.<name>]`` table says how the package is built, packaged or versioned: its lines are
# read key by key. Every other tool's table holds that tool's settings.
_BUILDERS = frozenset(
    {
        *("setuptools", "setuptools_scm", "setuptools-scm", "poetry", "hatch", "pdm", "flit", "maturin"),
        *("uv", "scikit-build", "meson-python", "cibuildwheel", "pixi", "rye", "briefcase"),
    }
)

_HEADER = re.compile(r"^\s*\[\[?\s*([\w.\-\"' ]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*[\"']?@?([A-Za-z_][\w.\-]*)[\"']?\s*(?:=|:(?!:)|(?<=\w)\s+(?=[\"']))")
_QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'")
_COMMENT = re.compile(r"^\s*(?:#|//|--|<!--)")
# An XML manifest's (a ``.csproj``'s, a ``pom.xml``'s) element with its value on one line, and a line that
# only opens or only closes an element: the elements a line sits inside tell a dependency's version from the
# package's own.
_ELEMENT = re.compile(r"^\s*<([A-Za-z_][\w.\-]*)>[^<]*</\1>\s*$")
_OPENS = re.compile(r"^\s*<([A-Za-z_][\w.\-]*)(?:\s[^>]*)?(?<!/)>\s*$")
_CLOSES = re.compile(r"^\s*</([A-Za-z_][\w.\-]*)>\s*$")
# Elements whose versions pin what is built against or with (Maven's dependencies, plugins and parent).
_PINNING = ("depend", "plugin", "parent", "extension")


def metadata_only(new: str, old: str) -> bool:
    """Whether replacing ``old`` with ``new`` in a manifest changed only the package's metadata (see the
    module's docstring); False when nothing that counts changed."""
    added = {line.strip() for line in new.splitlines()} - {line.strip() for line in old.splitlines()}
    removed = {line.strip() for line in old.splitlines()} - {line.strip() for line in new.splitlines()}
    changed = False
    for text, lines in ((new, added), (old, removed)):
        for line, describes in _read(text):
            if line.strip() in lines and line.strip() and not _COMMENT.match(line):
                if not describes:
                    return False
                changed = True
    return changed


def _read(text: str) -> Iterator[tuple[str, bool]]:
    """Each line of ``text`` and whether it sets the package's metadata."""
    table_is_links = table_is_dependencies = table_is_settings = False
    owner: str | None = None  # the key whose list or object the line is inside, while one is open
    depth = 0
    inside: list[str] = []  # the XML elements the line sits inside
    for line in text.splitlines():
        if line.lstrip().startswith("<"):
            yield line, _xml_describes(line, inside)
            continue
        header = _HEADER.match(line) if depth == 0 else None
        if header is not None:
            table_is_links = _last(header.group(1)) in _LINK_TABLES
            table_is_dependencies = "depend" in header.group(1).lower()
            table_is_settings = _settings_table(header.group(1)) and not table_is_dependencies
            yield line, table_is_links or table_is_settings
            continue
        key = _KEY.match(line)
        own = key.group(1) if key is not None else None
        if depth == 0:
            owner = own
        name = _last(owner) if owner is not None else None
        release = name is not None and _VERSION.fullmatch(name) is not None and not table_is_dependencies
        yield line, table_is_links or table_is_settings or name in METADATA_KEYS or release
        bare = _QUOTED.sub("", line)
        opened = depth
        depth = max(0, depth + bare.count("[") + bare.count("{") - bare.count("]") - bare.count("}"))
        if opened == 0 and depth == 0:
            owner = None


def _xml_describes(line: str, inside: list[str]) -> bool:
    """Whether an XML manifest's line sets the package's metadata (``<Description>``, ``<Version>`` outside a
    dependency, a plugin or a parent), keeping ``inside`` as the elements it opens and closes."""
    if (closes := _CLOSES.match(line)) is not None:
        if closes.group(1) in inside:
            del inside[len(inside) - 1 - inside[::-1].index(closes.group(1)) :]
        return False
    if (opens := _OPENS.match(line)) is not None:
        inside.append(opens.group(1))
        return False
    element = _ELEMENT.match(line)
    if element is None:
        return False
    name = element.group(1).lower()
    pinned = any(word in outer.lower() for outer in inside for word in _PINNING)
    return (name in METADATA_KEYS or name.removeprefix("package") in METADATA_KEYS) or (
        _VERSION.fullmatch(name) is not None and not pinned
    )


def _settings_table(name: str) -> bool:
    """Whether a table's name is one a manifest keeps for another tool's settings: ``tool.<name>`` of a tool
    that does not build the package, or Cargo's ``package.metadata`` / ``workspace.metadata``, which cargo
    itself never reads."""
    parts = [part.strip("\"' ").lower() for part in name.split(".")]
    if len(parts) > 1 and parts[0] == "tool":
        return parts[1] not in _BUILDERS
    return len(parts) > 1 and parts[0] in ("package", "workspace") and parts[1] == "metadata"


def _last(name: str) -> str:
    """The last part of a dotted key or table name, lower-cased and unquoted (``spec.Description`` ->
    ``description``)."""
    return name.strip("\"' ").rsplit(".", 1)[-1].strip("\"' ").lower()
