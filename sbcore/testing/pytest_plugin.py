"""The sbcore pytest plugin: a pack's golden cases as tests, in a few lines.

Installed with sbcore (entry point ``pytest11: sbcore``), so any project whose
test environment has sbcore gets it. Two ways to use it:

**A test function per pack** (decisions snapshotted with syrupy)::

    import pytest

    @pytest.mark.sbcore_goldens("acme")
    def test_golden(golden_case, snapshot):
        golden_case.check(snapshot)

``golden_case`` is parametrized with every case under
``<rootdir>/goldens/acme/`` (the ``sbcore_goldens`` ini option moves the
directory; the marker's ``root=`` keyword overrides it for one test). Each case
must agree with its label; then its normalised decision must match its syrupy
snapshot (JSON, in the default ``__snapshots__`` directory). A case that needs
a model the runner does not have is skipped as *pending*, with the reason.

**Collect the YAML files directly** (labels and expectations, no snapshots)::

    pytest --sbcore-goldens [--sbcore-pack acme]

collects every ``goldens/<pack>/<detector>/<case>.yaml`` as a test item. This
is what ``second-brain pack test`` runs, against the installed distribution.

The plugin imports nothing heavy until a golden case is actually collected.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from sbcore.testing.golden_cases import GoldenCase
    from sbcore.testing.goldens import GoldenResult, GoldenRunner

INI_ROOT = "sbcore_goldens"
MARKER = "sbcore_goldens"
FIXTURE = "golden_case"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sbcore", "sbcore detector golden cases")
    group.addoption(
        "--sbcore-goldens",
        action="store_true",
        default=False,
        help="collect golden case files (<root>/<pack>/<detector>/<case>.yaml) as test items; "
        f"the root is the {INI_ROOT} ini value",
    )
    group.addoption(
        "--sbcore-pack",
        action="append",
        default=[],
        metavar="NAME",
        help="with --sbcore-goldens: only this pack's cases (repeatable)",
    )
    parser.addini(
        INI_ROOT,
        "directory holding golden cases as <pack>/<detector>/<case>.yaml, relative to the rootdir",
        default="goldens",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(*packs, root=None): parametrize the test's `{FIXTURE}` argument with these packs' "
        "golden cases (all packs under the goldens root when none is named)",
    )
    if config.getoption("sbcore_goldens") and config.args_source != pytest.Config.ArgsSource.ARGS:
        # `pytest --sbcore-goldens` with no paths: testpaths rarely include the goldens.
        root = goldens_root(config)
        if root.is_dir() and str(root) not in config.args:
            config.args.append(str(root))


def goldens_root(config: pytest.Config, override: str | Path | None = None) -> Path:
    """The goldens directory: ``override`` or the ini value, relative to the rootdir."""
    value = override if override is not None else config.getini(INI_ROOT)
    return config.rootpath / Path(str(value))


# --------------------------------------------------------------------------------------------
# golden_case parametrization (test functions, with snapshots)
# --------------------------------------------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if FIXTURE not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker(MARKER)
    packs: Sequence[str] | None = marker.args if marker and marker.args else None
    root = goldens_root(metafunc.config, marker.kwargs.get("root") if marker else None)
    corpus_mark = _registered(metafunc.config, "corpus")
    metafunc.parametrize(FIXTURE, golden_cases(packs, root=root, corpus_mark=corpus_mark))


def golden_cases(
    packs: Sequence[str] | None = None, *, root: Path | str = "goldens", corpus_mark: bool = False
) -> list[Any]:
    """One ``pytest.param`` per case file of ``packs`` under ``root``, for explicit parametrization.

    A file that does not load becomes a param whose test fails with the
    file's errors, so one broken case does not hide the others. Cases reading
    the shared corpus get the ``corpus`` mark when ``corpus_mark`` is set (the
    project registers that marker). No case at all is an error: an empty
    golden suite passing would prove nothing.
    """
    from sbcore.testing.golden_cases import GoldenError, case_files, case_test_id, load_case

    root = Path(root)
    files = case_files(root, packs)
    if not files:
        where = ", ".join(f"{root / pack}" for pack in packs) if packs else str(root)
        pytest.fail(f"no golden cases (<pack>/<detector>/<case>.yaml) under {where}", pytrace=False)
    params = []
    for path in files:
        case_id = case_test_id(path)
        try:
            case = load_case(path)
        except GoldenError as exc:
            params.append(pytest.param(InvalidCase(path, str(exc)), id=case_id))
            continue
        marks = [pytest.mark.corpus] if corpus_mark and case.uses_shared_corpus else []
        params.append(pytest.param(CaseUnderTest(case), id=case_id, marks=marks))
    return params


def _registered(config: pytest.Config, marker: str) -> bool:
    return any(line.split(":", 1)[0].split("(", 1)[0].strip() == marker for line in config.getini("markers"))


class CaseUnderTest:
    """A golden case as the ``golden_case`` fixture gives it: the case's fields, and ``check(snapshot)``."""

    def __init__(self, case: GoldenCase) -> None:
        self.case = case

    def __getattr__(self, name: str) -> Any:
        return getattr(self.case, name)

    def __repr__(self) -> str:
        return f"CaseUnderTest({self.case.id})"

    def check(self, snapshot: Any = None) -> GoldenResult:
        """Run the case: fail, skip (pending) or pass, then match ``snapshot`` (see :func:`check_case`)."""
        return check_case(self.case, snapshot)


class InvalidCase:
    """A case file that failed to load: its test fails with the file's errors."""

    def __init__(self, path: Path, errors: str) -> None:
        self.path = path
        self.errors = errors

    def check(self, snapshot: Any = None) -> None:
        pytest.fail(f"invalid golden case {self.path}:\n{self.errors}", pytrace=False)


def check_case(case: GoldenCase, snapshot: Any = None, runner: GoldenRunner | None = None) -> GoldenResult:
    """Run ``case``: fail when it contradicts its label, skip when pending, then match the snapshot.

    The snapshot is syrupy's ``snapshot`` fixture; the decision is compared as
    JSON (one file per case). Pending and skipped cases never reach it, so
    they have no snapshot and never count as passed.
    """
    from sbcore.testing.goldens import default_runner

    result = (runner or default_runner()).run(case)
    if result.outcome == "failed":
        pytest.fail(result.report(), pytrace=False)
    if result.outcome in ("pending", "skipped"):
        pytest.skip(f"{result.outcome}: {result.reason}")
    if snapshot is not None:
        from syrupy.extensions.json import JSONSnapshotExtension

        expected = snapshot(extension_class=JSONSnapshotExtension)
        if expected != result.snapshot_value:
            pytest.fail(_snapshot_failure(case, expected), pytrace=False)
    return result


def _snapshot_failure(case: GoldenCase, expected: Any) -> str:
    """Why the decision did not match: no snapshot yet (and the command that records it), or a diff."""
    nodeid = expected.test_location.nodeid
    record = f"pytest --snapshot-update '{nodeid}'"
    last = expected.executions[expected.num_executions - 1]
    if last.recalled_data is None and last.exception is None:
        return (
            f"{case.path}: no snapshot of this case's decision is recorded yet\n"
            f"record it with: {record}\n"
            "(then review the new file under __snapshots__/ and commit it with the case)"
        )
    diff = "\n".join(expected.get_assert_diff())
    return (
        f"{case.path}: the decision differs from its snapshot\n{diff}\n"
        f"if the new decision is right, re-record it with: {record}"
    )


# --------------------------------------------------------------------------------------------
# --sbcore-goldens: case files collected as items (no snapshots)
# --------------------------------------------------------------------------------------------


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    if not config.getoption("sbcore_goldens"):
        return None
    from sbcore.testing.golden_cases import is_case_file

    if not is_case_file(file_path, goldens_root(config)):
        return None
    packs = config.getoption("sbcore_pack")
    if packs and file_path.parent.parent.name not in packs:
        return None
    collector: GoldenFile = GoldenFile.from_parent(parent, path=file_path)
    return collector


class GoldenFile(pytest.File):
    """One golden case file: one item."""

    def collect(self) -> Iterator[GoldenItem]:
        from sbcore.testing.golden_cases import case_test_id

        yield GoldenItem.from_parent(self, name=case_test_id(self.path))


class GoldenItem(pytest.Item):
    """A golden case run for its label and expectations."""

    def runtest(self) -> None:
        from sbcore.testing.golden_cases import GoldenError, load_case

        try:
            case = load_case(self.path)
        except GoldenError as exc:
            pytest.fail(f"invalid golden case {self.path}:\n{exc}", pytrace=False)
        check_case(case)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"golden case {self.name}"
