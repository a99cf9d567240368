"""The read-only project reader: what a checkout shows, within bounds a hostile repository cannot stretch."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sbcore.observe import project_facts
from sbcore.observe.project_facts import UNKNOWN, ProjectReader, read_project


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.mark.parametrize(
    ("files", "has", "scripts"),
    [
        (
            {
                "package.json": json.dumps({"scripts": {"lint": "eslint src", "test": "vitest run"}}),
                "src/cart.ts": "",
                "src/cart.test.ts": "",
            },
            "src/cart.test.ts",
            {"lint": "eslint src", "test": "vitest run"},
        ),
        (
            {
                "pyproject.toml": '[tool.poe.tasks]\ncheck = "mypy src"\ntest = { cmd = "pytest -q" }\n',
                "tests/test_cart.py": "",
            },
            "tests/test_cart.py",
            {"check": "mypy src", "test": "pytest -q"},
        ),
        ({"Cargo.toml": "[package]\nname = 'shop'\n", "tests/cart.rs": ""}, "tests/cart.rs", {}),
        ({"go.mod": "module shop\n", "cart/cart_test.go": ""}, "cart/cart_test.go", {}),
        (
            {
                "Makefile": "check: lint\n\t@go vet ./...\nlint:\n\tgolangci-lint run\n.PHONY: check\n",
                "main.go": "",
            },
            "Makefile",
            {"check": "go vet ./...", "lint": "golangci-lint run"},
        ),
        (
            {"justfile": "verify:\n    cargo test --all\n\n@fmt:\n  cargo fmt\n", "src/lib.rs": ""},
            "justfile",
            {"verify": "cargo test --all", "fmt": "cargo fmt"},
        ),
        (
            {
                "composer.json": json.dumps({"scripts": {"test": ["@phpstan", "phpunit"]}}),
                "tests/CartTest.php": "",
            },
            "tests/CartTest.php",
            {"test": "@phpstan && phpunit"},
        ),
        (
            {"mix.exs": "defmodule Shop.MixProject do end\n", "test/cart_test.exs": ""},
            "test/cart_test.exs",
            {},
        ),
    ],
    ids=["js", "python", "rust", "go", "makefile", "justfile", "php", "elixir"],
)
def test_a_checkout_shows_its_files_and_scripts(
    tmp_path: Path, files: dict[str, str], has: str, scripts: dict[str, str]
) -> None:
    facts = read_project(tree(tmp_path, files))
    assert has in facts.paths and not facts.truncated
    assert dict(facts.scripts) == scripts


def test_links_fifos_and_what_others_built_are_never_followed_or_read(tmp_path: Path) -> None:
    outside = tree(
        tmp_path / "outside", {"secret/tests/test_x.py": "", "package.json": '{"scripts": {"x": "y"}}'}
    )
    root = tree(tmp_path / "repo", {"app.py": "", "node_modules/pkg/test_a.py": ""})
    (root / "linked").symlink_to(outside / "secret", target_is_directory=True)
    (root / "package.json").symlink_to(outside / "package.json")
    os.mkfifo(root / "Makefile")  # reading it would block for ever
    facts = read_project(root)
    assert facts.paths == ("app.py",)
    assert dict(facts.scripts) == {}


def test_a_manifest_too_large_or_not_text_is_passed_over(tmp_path: Path) -> None:
    big = json.dumps({"scripts": {"test": "x" * (project_facts.MAX_FILE_BYTES + 10)}})
    facts = read_project(tree(tmp_path, {"package.json": big, "justfile": "t:\n  x\n"}))
    assert "test" not in facts.scripts and facts.scripts == {"t": "x"}


def test_a_huge_or_deep_tree_is_read_within_bounds_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(project_facts, "MAX_ENTRIES", 50)
    tree(tmp_path, {f"pkg{n:03d}/file.py": "" for n in range(200)})
    facts = read_project(tmp_path)
    assert len(facts.paths) == 50 and facts.truncated == "more than 50 entries"
    deep = tmp_path / "deep"
    tree(deep, {"/".join(["d"] * 12) + "/tests/test_deep.py": ""})
    found = read_project(deep)
    assert max(path.count("/") for path in found.paths) < project_facts.MAX_DEPTH


def test_a_root_that_is_not_a_folder_reads_as_nothing(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert read_project(tmp_path / "file").paths == ()
    assert read_project(tmp_path / "missing").truncated == "the root cannot be read"
    assert ProjectReader().facts(None) is UNKNOWN


def test_a_reading_is_kept_until_a_manifest_or_the_root_changes_or_it_ages(tmp_path: Path) -> None:
    now = [0.0]
    reader = ProjectReader(max_age_s=60, clock=lambda: now[0])
    tree(tmp_path, {"package.json": '{"scripts": {"test": "jest"}}'})
    first = reader.facts(tmp_path)
    assert reader.facts(tmp_path) is first
    package = tmp_path / "package.json"
    package.write_text('{"scripts": {"test": "vitest"}}')
    os.utime(package, (1, 1))  # a different modification time, whatever the clock's resolution
    second = reader.facts(tmp_path)
    assert second is not first and second.scripts == {"test": "vitest"}
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "deep_test.ts").write_text("")
    os.utime(tmp_path, (2, 2))
    assert "src/deep_test.ts" in reader.facts(tmp_path).paths
    (tmp_path / "src" / "other_test.ts").write_text("")  # deeper down: the root's time does not move
    assert "src/other_test.ts" not in reader.facts(tmp_path).paths
    now[0] = 61.0
    assert "src/other_test.ts" in reader.facts(tmp_path).paths
