"""The read-only project reader: what a checkout shows, within bounds a hostile repository cannot stretch."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sbcore.observe import project_facts
from sbcore.observe.project_facts import UNKNOWN, ProjectReader, is_build_path, is_test_path, read_project

CHECKOUTS = Path(__file__).parent / "checkouts"


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


# -- one checkout per ecosystem family ----------------------------------------------------------------------

FAMILIES = {
    "js": (
        {"links": "lychee docs/", "deadcode": "knip --production", "fmt": "dprint fmt"},
        "src/__tests__/cart.test.ts",
        {"package.json", "tsconfig.json", "tools/deno.jsonc"},
    ),
    "python": (
        {
            "spell": "typos src",
            "toml": "taplo check",
            "prose": "vale docs",
            "all": "spell && prose",
            "shell": "shellcheck scripts/release.sh",
            "links": "lychee README.md",
            "lint:check": "typos && taplo check",
        },
        "tests/test_cart.py",
        {"pyproject.toml", "mypy.ini"},
    ),
    "rust": (
        {"spell": "cargo run -p typos-cli", "links": "cargo run --bin lychee -- docs"},
        "tests/cart.rs",
        {"Cargo.toml"},
    ),
    "go": (
        {"lint": "hadolint Dockerfile", "fmt": "treefmt", "docs": "mdbook build"},
        "cart/cart_test.go",
        {"go.mod", "Taskfile.yml"},
    ),
    "make": (
        {
            "ci": "make lint && make api",
            "lint": "shellcheck scripts/*.sh",
            "api": "make lint && hurl --test api/cart.hurl && echo done",
        },
        None,
        {"Makefile"},
    ),
    "just": ({"default": "just prose", "prose": "vale docs {{paths}}", "spell": "typos"}, None, {"justfile"}),
    "elixir": (
        {
            "setup": "mix deps.get && mix cmd npm install --prefix assets",
            "lint": "mix credo --strict && mix dialyzer",
            "assets.build": "mix tailwind default",
        },
        "test/shop_test.exs",
        {"mix.exs"},
    ),
    "php": (
        {"analyse": "phpstan analyse src", "check": "@analyse && @lint"},
        "tests/CartTest.php",
        {"composer.json", "phpstan.neon"},
    ),
    "jvm": ({}, "src/test/java/shop/CartTest.java", {"pom.xml"}),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_ecosystems_checkout_shows_its_tests_builds_and_scripts(family: str) -> None:
    scripts, test_file, builds = FAMILIES[family]
    facts = read_project(CHECKOUTS / family)
    assert not facts.truncated and facts.passed_over == ()
    assert dict(facts.scripts) == scripts
    assert set(facts.builds) == builds and facts.has_build
    if test_file is None:
        assert facts.tests == () and not facts.has_tests
    else:
        assert test_file in facts.tests and facts.has_tests
    assert all(is_test_path(path) for path in facts.tests)


def test_each_manifest_keeps_its_own_table_where_two_define_one_name(tmp_path: Path) -> None:
    facts = read_project(
        tree(
            tmp_path,
            {
                "Makefile": "docs:\n\tmdbook build\n",
                "package.json": json.dumps({"scripts": {"docs": "typedoc", "links": "lychee ."}}),
                "web/package.json": json.dumps({"scripts": {"links": "lychee web"}}),
            },
        )
    )
    assert facts.sources == {
        "Makefile": {"docs": "mdbook build"},
        "package.json": {"docs": "typedoc", "links": "lychee ."},
        "web/package.json": {"links": "lychee web"},
    }
    assert dict(facts.scripts) == {"docs": "mdbook build", "links": "lychee ."}  # the first read wins


@pytest.mark.parametrize(
    "path",
    [
        "tests",
        "spec/cart_spec.rb",
        "src/cart.spec.ts",
        "pkg/cart_test.go",
        "test_cart.py",
        "CartTest.kt",
        "Shop.Tests/CartTests.cs",
        "t/basic.t",
        "conftest.py",
        "src/__tests__",
    ],
)
def test_test_conventions_across_ecosystems(path: str) -> None:
    assert is_test_path(path)


@pytest.mark.parametrize(
    "path",
    ["src/cart.py", "contest.py", "latest.md", "src/Testimonial.php", "protest/readme.md", "Attest.txt"],
)
def test_what_is_not_a_test(path: str) -> None:
    assert not is_test_path(path)


@pytest.mark.parametrize(
    "path", ["web/tsconfig.build.json", "Shop.csproj", "shop.cabal", "CMakeLists.txt", "build.gradle.kts"]
)
def test_build_and_type_check_configurations_across_ecosystems(path: str) -> None:
    assert is_build_path(path) and not is_build_path("src/" + path + ".bak")


# -- hostile checkouts --------------------------------------------------------------------------------------


def test_a_link_out_of_the_root_is_neither_listed_into_nor_read(tmp_path: Path) -> None:
    outside = tree(
        tmp_path / "outside", {"secret/tests/test_x.py": "", "package.json": '{"scripts": {"x": "lychee"}}'}
    )
    root = tree(tmp_path / "repo", {"app.py": "", "node_modules/pkg/test_a.py": "", "src/main.py": ""})
    (root / "linked").symlink_to(outside / "secret", target_is_directory=True)
    (root / "inside").symlink_to(root / "src", target_is_directory=True)  # even inside: never followed
    (root / "package.json").symlink_to(outside / "package.json")
    facts = read_project(root)
    assert facts.paths == ("app.py", "src", "src/main.py")
    assert dict(facts.scripts) == {} and not facts.has_tests
    assert facts.passed_over == ("package.json: a link, never followed",)


def test_a_fifo_is_never_opened(tmp_path: Path) -> None:
    root = tree(tmp_path, {"justfile": "spell:\n  typos\n"})
    os.mkfifo(root / "Makefile")  # opening it to read would block for ever
    os.mkfifo(root / "notes")
    facts = read_project(root)
    assert facts.paths == ("justfile",) and facts.scripts == {"spell": "typos"}
    assert facts.passed_over == ("Makefile: not a regular file, never opened",)


def test_a_root_the_jail_refuses_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert read_project(tmp_path / "file").paths == ()
    missing = read_project(tmp_path / "missing")
    assert missing.paths == () and missing.truncated.startswith("not read: ")
    system = read_project(Path("/"))
    assert system.paths == () and "filesystem root" in system.truncated
    assert ProjectReader().facts(None) is UNKNOWN


def test_a_huge_manifest_is_passed_over_and_says_why(tmp_path: Path) -> None:
    big = json.dumps({"scripts": {"links": "x" * (project_facts.MAX_FILE_BYTES + 10)}})
    facts = read_project(tree(tmp_path, {"package.json": big, "justfile": "t:\n  typos\n"}))
    assert facts.scripts == {"t": "typos"}
    (why,) = facts.passed_over
    assert why.startswith("package.json: refused:") and f"over the {project_facts.MAX_FILE_BYTES}-byte" in why


def test_manifests_stop_at_the_bytes_read_in_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = json.dumps({"scripts": {"links": "lychee ."}})
    monkeypatch.setattr(project_facts, "MAX_TOTAL_BYTES", len(manifest) + 5)
    facts = read_project(tree(tmp_path, {"package.json": manifest, "web/package.json": manifest}))
    assert facts.sources == {"package.json": {"links": "lychee ."}}
    assert facts.truncated == f"more than {len(manifest) + 5} bytes of manifests"


def test_manifest_text_that_is_not_utf8_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_bytes(b"lint:\n\t\xff\xfe shellcheck\n")
    assert read_project(tmp_path).passed_over == ("Makefile: not UTF-8 text",)


def test_thousands_of_files_in_one_folder_are_read_within_the_entry_bound(tmp_path: Path) -> None:
    crowd = tmp_path / "crowd"
    crowd.mkdir()
    for n in range(project_facts.MAX_ENTRIES + 500):
        (crowd / f"f{n:05d}.txt").touch()
    facts = read_project(tmp_path)
    assert len(facts.paths) == project_facts.MAX_ENTRIES
    assert facts.truncated == f"more than {project_facts.MAX_ENTRIES} entries"


def test_a_deep_tree_is_listed_to_the_depth_bound(tmp_path: Path) -> None:
    tree(tmp_path, {"/".join(["d"] * 12) + "/tests/test_deep.py": ""})
    found = read_project(tmp_path)
    assert max(path.count("/") for path in found.paths) == project_facts.MAX_DEPTH - 1
    assert not found.has_tests and not found.truncated


def test_the_wall_time_bound_stops_the_reading_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(project_facts, "MAX_SECONDS", -1.0)  # already spent: nothing is listed
    facts = read_project(tree(tmp_path, {"tests/test_a.py": ""}))
    assert facts.paths == () and facts.truncated == "more than -1 s"


def test_a_manifest_that_does_not_parse_defines_nothing(tmp_path: Path) -> None:
    facts = read_project(
        tree(
            tmp_path,
            {
                "package.json": "{not json",
                "pyproject.toml": "[tool.poe.tasks\n",
                "Taskfile.yml": "tasks: [unclosed\n",
                "deno.json": "[1, 2]",
            },
        )
    )
    assert facts.scripts == {} and set(facts.builds) == {
        "package.json",
        "pyproject.toml",
        "Taskfile.yml",
        "deno.json",
    }


# -- the cache ------------------------------------------------------------------------------------------


def test_a_reading_is_kept_until_a_folder_it_listed_or_a_manifest_it_read_changes(tmp_path: Path) -> None:
    reader = ProjectReader()
    tree(tmp_path, {"package.json": '{"scripts": {"links": "lychee ."}}', "src/cart.ts": ""})
    first = reader.facts(tmp_path)
    assert reader.facts(tmp_path) is first
    (tmp_path / "src" / "cart.ts").write_text("export {}\n")  # a file's content: not what the facts hold
    assert reader.facts(tmp_path) is first
    package = tmp_path / "package.json"
    package.write_text('{"scripts": {"links": "lychee docs"}}')
    os.utime(package, ns=(1, 1))  # a different modification time, whatever the clock's resolution
    second = reader.facts(tmp_path)
    assert second is not first and second.scripts == {"links": "lychee docs"}
    assert reader.facts(tmp_path) is second
    (tmp_path / "src" / "cart.test.ts").write_text("")  # deeper down, in a folder the reading listed
    os.utime(tmp_path / "src", ns=(2, 2))
    third = reader.facts(tmp_path)
    assert third is not second and third.has_tests and "src/cart.test.ts" in third.tests


def test_a_folder_swapped_for_a_link_is_read_again_and_not_followed(tmp_path: Path) -> None:
    reader = ProjectReader()
    root = tree(tmp_path / "repo", {"tests/test_a.py": ""})
    outside = tree(tmp_path / "outside", {"test_secret.py": ""})
    assert reader.facts(root).has_tests
    (root / "tests" / "test_a.py").unlink()
    (root / "tests").rmdir()
    (root / "tests").symlink_to(outside, target_is_directory=True)
    os.utime(root, ns=(3, 3))
    facts = reader.facts(root)
    assert facts.paths == () and not facts.has_tests
