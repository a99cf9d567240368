"""The house's size limits: no module over 800 lines, no class with more than 40 methods and attributes.

A room that outgrows them is split into units named for what they do (see docs/architecture.md), not given
an exception here.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE_LINES = 800
CLASS_MEMBERS = 40


def _sources() -> list[Path]:
    return sorted([*ROOT.joinpath("sbcore").rglob("*.py"), *ROOT.joinpath("detectors").rglob("*.py")])


def _members(node: ast.ClassDef) -> int:
    """Methods, class-level attributes and the ``self.<name>`` any method assigns, each counted once."""
    names = {n.name for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    for statement in ast.walk(node):
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
            targets = [statement.target]
        for target in targets:
            if isinstance(target, ast.Name) and statement in node.body:
                names.add(target.id)
            for part in ast.walk(target):
                if (
                    isinstance(part, ast.Attribute)
                    and isinstance(part.value, ast.Name)
                    and part.value.id == "self"
                ):
                    names.add(part.attr)
    return len(names)


def _sizes() -> dict[str, int]:
    sizes: dict[str, int] = {}
    for path in _sources():
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        sizes[name] = len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                sizes[f"{name}:{node.name}"] = _members(node)
    return sizes


def test_no_module_or_class_grows_past_the_limits() -> None:
    over = []
    for name, size in _sizes().items():
        if ":" in name and size > CLASS_MEMBERS:
            over.append(f"{name}: {size} methods and attributes, more than {CLASS_MEMBERS}")
        elif ":" not in name and size > MODULE_LINES:
            over.append(f"{name}: {size} lines, more than {MODULE_LINES}")
    assert over == []


def test_the_member_count_reads_methods_class_attributes_and_self_assignments() -> None:
    tree = ast.parse(
        "class C:\n"
        "    kind = 'x'\n"
        "    size: int\n"
        "    def __init__(self):\n"
        "        self.a = 1\n"
        "        self.a += 1\n"
        "        self.b, self.c = 2, 3\n"
        "    def run(self):\n"
        "        local = 4\n"
    )
    node = tree.body[0]
    assert isinstance(node, ast.ClassDef)
    # kind, size, __init__, run, a, b, c; a local variable is not a member
    assert _members(node) == 7


def test_the_engine_and_the_pipeline_are_built_in_one_module() -> None:
    """Every driver assembles through sbcore.conductor.assembly, so all of them run the same parts."""
    builders: dict[str, set[str]] = {"PassEngine": set(), "Pipeline": set()}
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in builders:
                builders[node.func.id].add(path.relative_to(ROOT).as_posix())
    assert builders == {
        "PassEngine": {"sbcore/conductor/assembly.py"},
        "Pipeline": {"sbcore/conductor/assembly.py"},
    }


def test_drivers_take_their_catalogue_and_pacing_from_the_assembly() -> None:
    """A driver's detectors, pacer and engine settings come from ``assembly.Parts`` and ``assembly.policy``;
    the catalogue is otherwise assembled only by the commands that inspect it (and the golden kit, whose
    cases override detectors one by one)."""
    calls: dict[str, set[str]] = {"assemble_catalogue": set(), "from_config": set()}
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id == "assemble_catalogue":
                calls["assemble_catalogue"].add(path.relative_to(ROOT).as_posix())
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "from_config"
                and isinstance(func.value, ast.Name)
                and func.value.id in ("Pacer", "EngineSettings")
            ):
                calls["from_config"].add(path.relative_to(ROOT).as_posix())
    assert calls == {
        "assemble_catalogue": {
            "sbcore/conductor/assembly.py",
            "sbcore/cli/config.py",  # config show: the catalogue's layers
            "sbcore/cli/detectors.py",  # detectors list / show / check
            "sbcore/packs/layer_problems.py",  # a layer's own problems
            "sbcore/conductor/provenance.py",  # a result's fingerprint
            "sbcore/testing/goldens.py",  # one detector overridden per case
        },
        "from_config": {"sbcore/conductor/assembly.py"},
    }
