"""One glob translation for every place paths are named (declarative triggers, checklists, recall sources)."""

from __future__ import annotations

import re

import pytest

from sbcore.pathglob import GlobError, compile_glob, glob_source


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("*.py", "/repo/src/app.py", True),
        ("*.py", "/repo/src/app.pyc", False),
        ("src/**/*.py", "/repo/src/a/b/c.py", True),
        ("src/**/*.py", "/repo/src/c.py", True),
        ("docs/**", "/repo/docs/adr/1.md", True),
        ("/src/*.py", "/repo/src/a.py", False),  # a leading / matches the whole path
        ("/repo/src/*.py", "/repo/src/a.py", True),
        ("app/[id].tsx", "/web/app/i.tsx", True),  # a class, as in .gitignore
        ("app/[!a-h]*.py", "/x/app/beta.py", False),
        ("app/[!a-h]*.py", "/x/app/main.py", True),
        ("test_?.py", "/t/test_1.py", True),
        ("test_?.py", "/t/test_12.py", False),
    ],
)
def test_boundary_globs(glob: str, path: str, matches: bool) -> None:
    assert bool(compile_glob(glob).search(path)) is matches


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("docs/adr/*.md", "docs/adr/0001.md", True),
        ("docs/adr/*.md", "vendor/docs/adr/0001.md", False),  # root-relative: from the start only
        ("**/CLAUDE.md", "CLAUDE.md", True),
        ("**/CLAUDE.md", "pkg/CLAUDE.md", True),
        ("notes/[0-9]*.md", "notes/7-fix.md", True),
    ],
)
def test_root_relative_globs(glob: str, path: str, matches: bool) -> None:
    assert bool(compile_glob(glob, root=True).match(path)) is matches


@pytest.mark.parametrize(
    ("glob", "problem"), [("src**/*.py", "whole path segment"), ("a[b.py", "never closed")]
)
def test_a_malformed_glob_is_refused_with_what_is_wrong(glob: str, problem: str) -> None:
    with pytest.raises(GlobError, match=problem):
        compile_glob(glob)


def test_globs_joined_from_their_sources_match_as_each_glob_does() -> None:
    globs = ("*.py", "src/**/*.ts", "/repo/docs/*.md", "test_?.py")
    union = re.compile("|".join(f"(?:{glob_source(glob)})" for glob in globs))
    paths = ("/r/a.py", "/r/src/x/y.ts", "/repo/docs/a.md", "/x/repo/docs/a.md", "/t/test_12.py", "/t/t_1.py")
    for path in paths:
        assert bool(union.search(path)) is any(compile_glob(glob).search(path) for glob in globs), path
    assert compile_glob("src/**/*.ts").pattern == glob_source("src/**/*.ts")
    with pytest.raises(GlobError, match="never closed"):
        glob_source("a[b.py")
