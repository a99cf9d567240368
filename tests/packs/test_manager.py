"""The plugin manager: entry points loaded one guard each, provenance, duplicates, switches."""

from __future__ import annotations

import sys
import textwrap
import warnings
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest

from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.hookspecs import hookimpl
from sbcore.packs.manager import (
    ENV_DISABLE_AUTOLOAD,
    ENV_PACKS,
    ENV_STRICT,
    PackError,
    PackManager,
    PackWarning,
    get_plugin_manager,
)

REAL_ENTRY_POINTS = list(metadata.entry_points(group="sbcore"))
BUILTIN_NAMES = sorted(ep.name for ep in REAL_ENTRY_POINTS)


@pytest.fixture(autouse=True)
def clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (ENV_STRICT, ENV_DISABLE_AUTOLOAD, ENV_PACKS):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))


def pack(module_name: str, **hooks: Callable[..., Any]) -> ModuleType:
    module = ModuleType(module_name)
    for hook_name, func in hooks.items():
        setattr(module, hook_name, hookimpl(func))
    return module


def install(monkeypatch: pytest.MonkeyPatch, **packs: ModuleType | str) -> None:
    """Make ``entry_points(group="sbcore")`` return the real entry points plus these fake packs.

    A module value is importable under its name for the test; a string is the
    entry point's value as written (used for packs that fail to import).
    """
    fakes = []
    for name, target in packs.items():
        if isinstance(target, ModuleType):
            monkeypatch.setitem(sys.modules, target.__name__, target)
            target = target.__name__
        fakes.append(metadata.EntryPoint(name=name, value=target, group="sbcore"))
    original = metadata.entry_points

    def entry_points(**selection: Any) -> Any:
        if selection.get("group") == "sbcore":
            return [*REAL_ENTRY_POINTS, *fakes]
        return original(**selection)

    monkeypatch.setattr(metadata, "entry_points", entry_points)


def trigger_pack(module_name: str, trigger: str = "shared_trigger") -> ModuleType:
    return pack(module_name, register_triggers=lambda register: register(trigger, lambda o, p, s: None))


def catalogue_pack(module_name: str, directory: Path) -> ModuleType:
    return pack(module_name, register_catalogues=lambda register: register(directory))


def write_detector(directory: Path, detector_id: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{detector_id}.yaml").write_text(
        textwrap.dedent(
            f"""\
            schema_version: 1
            id: {detector_id}
            description: Shipped by a test pack.
            prompt: Watch closely.
            """
        )
    )


# -- the built-in pack -------------------------------------------------------------------------------


def test_the_builtin_pack_loads_through_its_entry_point() -> None:
    manager = get_plugin_manager()
    assert manager.broken == []
    builtin = next(info for info in manager.list_packs() if info.name == "builtin")
    assert builtin.builtin is True
    assert builtin.distribution == "sbcore"
    assert builtin.version == metadata.version("sbcore")
    assert builtin.hooks == ("register_catalogues", "register_triggers")
    assert builtin.registered["triggers"] == 6
    assert {
        "repeat_failure",
        "standard_questions",
        "cross_task_collision",
        "recall_offers",
        "drift",
        "stall",
    } <= manager.registry.triggers.keys()
    assert manager.registry.triggers["repeat_failure"].pack == "builtin"


def test_the_factory_builds_a_fresh_manager_each_time() -> None:
    first, second = get_plugin_manager(), get_plugin_manager()
    assert first is not second
    assert first.registry is not second.registry


# -- guarded loading ------------------------------------------------------------------------------


def test_a_pack_that_fails_to_import_is_named_and_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    install(
        monkeypatch, good=trigger_pack("h5_good_pack", "good_trigger"), broken="h5_no_such_module_anywhere"
    )
    with pytest.warns(
        PackWarning, match=r"skipping pack 'broken': importing its entry point module .* ModuleNotFoundError"
    ):
        manager = get_plugin_manager()
    assert [(b.name, b.stage) for b in manager.broken] == [("broken", "import")]
    assert "h5_no_such_module_anywhere" in manager.broken[0].error
    assert "good_trigger" in manager.registry.triggers
    assert [info.name for info in manager.list_packs()] == [*BUILTIN_NAMES, "good"]


def _distribution(tmp_path: Path, entry_point: str) -> metadata.Distribution:
    """An installed distribution ``acme-pack 1.0`` declaring one sbcore entry point (as pip leaves it)."""
    info = tmp_path / "acme_pack-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-pack\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[sbcore]\n{entry_point}\n")
    return metadata.PathDistribution(info)


def test_a_pack_that_fails_to_import_names_its_distribution_the_step_and_the_fix(tmp_path: Path) -> None:
    manager = PackManager()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        manager.load_entry_points(_distribution(tmp_path, "acme = acme_pack_gone.plugin").entry_points)
    (broken,) = manager.broken
    assert str(broken) == (
        "pack 'acme' (distribution acme-pack 1.0): importing its entry point module acme_pack_gone.plugin "
        "failed: ModuleNotFoundError: No module named 'acme_pack_gone'\n"
        "  fix: pip install --force-reinstall acme-pack (or fix the entry point "
        '`acme = acme_pack_gone.plugin` under [project.entry-points."sbcore"] in its pyproject.toml); '
        "then check it with `second-brain pack test acme`"
    )
    (warning,) = [w for w in caught if issubclass(w.category, PackWarning)]
    shown = warnings.formatwarning(warning.message, warning.category, warning.filename, warning.lineno)
    assert "acme-pack 1.0" in shown and "pip install --force-reinstall acme-pack" in shown
    assert "warnings.warn" not in shown and "manager.py" not in shown  # no source line of ours


def test_a_failing_hook_names_the_hook_and_says_to_run_pack_test() -> None:
    def raises(register: Callable[..., Any]) -> None:
        raise RuntimeError("catalogue directory missing")

    manager = PackManager()
    with pytest.warns(PackWarning):
        manager.add_pack("shaky", pack("h5_shaky_hook", register_catalogues=raises))
    (broken,) = manager.broken
    assert broken.step == "calling its hook register_catalogues"
    assert "RuntimeError: catalogue directory missing" in str(broken)
    assert "`second-brain pack test shaky`" in broken.hint


def test_the_cli_prints_a_skipped_pack_as_its_message_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A command that does not report broken packs itself (here `config set`) still prints no Python."""
    from sbcore.cli import main

    install(monkeypatch, broken="h5_no_such_module_anywhere")
    assert main(["config", "set", "--global", "model.provider", "offline"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(
        "sbcore: skipping pack 'broken': importing its entry point module h5_no_such_module_anywhere failed"
    )
    assert "  fix: " in err
    assert "PackWarning" not in err and "warn" not in err.replace("warning", "")


def test_an_exception_inside_a_hook_drops_everything_the_pack_registered(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write_detector(tmp_path / "half", "half-detector")

    def register_triggers(register: Callable[..., None]) -> None:
        raise KeyError("lost my config")

    half = pack(
        "h5_half_pack",
        register_catalogues=lambda register: register(tmp_path / "half"),
        register_triggers=register_triggers,
    )
    install(monkeypatch, half=half)
    with pytest.warns(
        PackWarning,
        match=r"pack 'half': calling its hook register_triggers failed: KeyError: 'lost my config'",
    ):
        manager = get_plugin_manager()
    assert all(source.pack != "half" for source in manager.registry.catalogues)
    assert not manager.has_plugin("half")
    assert "half-detector" not in {d.id for d in assemble_catalogue(manager, workspace=tmp_path).detectors}


def test_a_hookimpl_with_arguments_the_spec_lacks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def register_tools(register: Callable[..., None], workspace: Path) -> None:
        """A hookimpl asking for an argument the host never passes."""

    install(monkeypatch, greedy=pack("h5_greedy_pack", register_tools=register_tools))
    with pytest.warns(PackWarning, match=r"(?s)pack 'greedy': registering it.*\{'workspace'\}"):
        manager = get_plugin_manager()
    assert [b.stage for b in manager.broken] == ["register"]


def test_a_misspelt_hookimpl_is_an_error_naming_the_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, typo=pack("h5_typo_pack", register_trigers=lambda register: None))
    with pytest.warns(
        PackWarning, match=r"pack 'typo': checking its @hookimpl.*unknown hook 'register_trigers'"
    ):
        manager = get_plugin_manager()
    assert [(b.name, b.stage) for b in manager.broken] == [("typo", "hookimpl")]
    manager.check_pending()  # the manager itself is left consistent


def test_strict_mode_makes_a_broken_pack_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, broken="h5_no_such_module_anywhere")
    with pytest.raises(PackError, match=r"pack 'broken': importing its entry point module") as raised:
        get_plugin_manager(strict=True)
    assert raised.value.pack == "broken"
    assert isinstance(raised.value.__cause__, ModuleNotFoundError)


def test_strict_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, typo=pack("h5_typo_pack_2", register_trigers=lambda register: None))
    monkeypatch.setenv(ENV_STRICT, "1")
    with pytest.raises(PackError, match="typo"):
        get_plugin_manager()
    with pytest.warns(PackWarning):
        get_plugin_manager(strict=False)  # the argument wins over the environment


# -- duplicates --------------------------------------------------------------------------------------


def test_a_trigger_registered_by_two_packs_names_both(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, beta=trigger_pack("h5_beta_pack"), alpha=trigger_pack("h5_alpha_pack"))
    with pytest.warns(
        PackWarning,
        match=r"pack 'beta': merging .* failed: trigger 'shared_trigger' is registered by both pack 'alpha'",
    ):
        manager = get_plugin_manager()
    assert manager.registry.triggers["shared_trigger"].pack == "alpha"  # name order, not install order


def test_a_builtin_trigger_name_cannot_be_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, shadow=trigger_pack("h5_shadow_pack", "repeat_failure"))
    with pytest.raises(
        PackError, match="trigger 'repeat_failure' is registered by both pack 'builtin' and pack 'shadow'"
    ):
        get_plugin_manager(strict=True)


def test_tool_provider_and_server_names_are_unique_across_packs() -> None:
    class Tool:
        description = "t"
        input_schema: ClassVar[dict[str, Any]] = {"type": "object"}

        async def call(self, args: dict[str, Any]) -> str:
            return ""

    def everything(module_name: str) -> ModuleType:
        return pack(
            module_name,
            register_tools=lambda register: register("lookup", Tool()),
            register_providers=lambda register: register("local", dict),
            register_mcp_servers=lambda register: register("index", {"url": "http://127.0.0.1:1/mcp"}),
        )

    manager = PackManager()
    assert manager.add_pack("one", everything("h5_one"))
    with pytest.warns(PackWarning) as caught:
        assert not manager.add_pack("two", everything("h5_two"))
    message = str(caught[0].message)
    for what, name in (("tool", "lookup"), ("provider", "local"), ("MCP server", "index")):
        assert f"{what} '{name}' is registered by both pack 'one' and pack 'two'" in message


def test_duplicate_detector_ids_across_packs_name_both(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write_detector(tmp_path / "a", "twin")
    write_detector(tmp_path / "b", "twin")
    install(
        monkeypatch,
        first=catalogue_pack("h5_first_pack", tmp_path / "a"),
        second=catalogue_pack("h5_second_pack", tmp_path / "b"),
    )
    catalogue = assemble_catalogue(get_plugin_manager(), workspace=tmp_path)
    [problem] = catalogue.errors
    assert "duplicate detector id 'twin'" in problem.problem
    assert "pack 'second'" in problem.problem and "pack 'first'" in problem.problem
    assert problem.source.path == str(tmp_path / "b" / "twin.yaml")
    assert catalogue.get("twin") is not None
    assert catalogue.get("twin").definition.pack == "first"  # type: ignore[union-attr]


def test_a_pack_detector_cannot_reuse_a_builtin_id(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    write_detector(tmp_path / "c", "default")
    install(monkeypatch, copycat=catalogue_pack("h5_copycat_pack", tmp_path / "c"))
    [problem] = assemble_catalogue(get_plugin_manager(), workspace=tmp_path).errors
    assert "pack 'copycat' defines it here and pack 'builtin'" in problem.problem


def test_two_distributions_declaring_one_pack_name(monkeypatch: pytest.MonkeyPatch) -> None:
    manager = PackManager()
    module = trigger_pack("h5_dupe_name", "dupe_name_trigger")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    twice = [metadata.EntryPoint(name="same", value=module.__name__, group="sbcore")] * 2
    with pytest.warns(PackWarning, match=r"pack 'same': registering it .* the pack name is declared by both"):
        manager.load_entry_points(twice)
    assert [info.name for info in manager.list_packs()] == ["same"]


# -- switches ----------------------------------------------------------------------------------------


def test_autoload_off_loads_only_the_builtin_packs(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, extra=trigger_pack("h5_extra_pack", "extra_trigger"))
    monkeypatch.setenv(ENV_DISABLE_AUTOLOAD, "1")
    manager = get_plugin_manager()
    assert [info.name for info in manager.list_packs()] == BUILTIN_NAMES
    assert "extra_trigger" not in manager.registry.triggers
    # naming a pack explicitly still loads it, as pytest's -p does with autoload off
    assert "extra" in [info.name for info in get_plugin_manager(only=["extra"]).list_packs()]
    assert "extra" in [info.name for info in get_plugin_manager(autoload=True).list_packs()]


def test_sbcore_packs_selects_third_party_packs(monkeypatch: pytest.MonkeyPatch) -> None:
    install(
        monkeypatch,
        wanted=trigger_pack("h5_wanted_pack", "wanted_trigger"),
        unwanted=trigger_pack("h5_unwanted_pack", "unwanted_trigger"),
    )
    monkeypatch.setenv(ENV_PACKS, " wanted , ")
    manager = get_plugin_manager()
    assert [info.name for info in manager.list_packs()] == [*BUILTIN_NAMES, "wanted"]
    assert "unwanted_trigger" not in manager.registry.triggers
    assert manager.registry.triggers["repeat_failure"].pack == "builtin"  # built-ins always load


def test_naming_a_pack_that_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch)
    with pytest.warns(PackWarning, match=r"pack 'missing': finding it among the installed packs failed"):
        manager = get_plugin_manager(only=["missing", "builtin"])
    assert [b.name for b in manager.broken] == ["missing"]
    with pytest.raises(PackError, match="missing"):
        get_plugin_manager(only=["missing"], strict=True)


def test_add_pack_refuses_a_taken_name() -> None:
    manager = PackManager()
    assert manager.add_pack("solo", trigger_pack("h5_solo", "solo_trigger"))
    with pytest.warns(PackWarning, match="already loaded"):
        assert not manager.add_pack("solo", trigger_pack("h5_solo_2", "solo_trigger_2"))


def test_strict_cli_names_the_broken_pack_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sbcore.cli import detectors as detectors_cli
    from sbcore.cli import main

    install(monkeypatch, broken="h5_no_such_module_anywhere")
    monkeypatch.setenv(ENV_STRICT, "1")
    detectors_cli._plugin_manager.cache_clear()
    try:
        assert main(["detectors", "list"]) == 1
    finally:
        detectors_cli._plugin_manager.cache_clear()
    err = capsys.readouterr().err
    assert "broken" in err and "Traceback" not in err


def _module_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str) -> Path:
    """A real module file the entry point imports, so its traceback has the pack's own frames."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return path


def test_a_pack_whose_own_code_raises_on_import_shows_its_frame_and_no_reinstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _module_on_path(
        tmp_path,
        monkeypatch,
        "h5_raising_pack",
        "import os\n\n\ndef _settings():\n    return os.environ['ACME_REQUIRED_SETTING']\n\n\n"
        "SETTING = _settings()\n",
    )
    manager = PackManager()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        manager.load_entry_points(_distribution(tmp_path, "acme = h5_raising_pack").entry_points)
    (broken,) = manager.broken
    assert broken.frame == f"{path}:5 in _settings"
    shown = str(broken)
    assert f"  at: {path}:5 in _settings\n" in shown
    assert "force-reinstall" not in shown
    assert f"the pack's own code raised this while it was imported at {path}:5 in _settings" in shown


def test_a_pack_missing_a_dependency_says_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module_on_path(tmp_path, monkeypatch, "h5_needy_pack", "import h5_dependency_nobody_has  # noqa\n")
    manager = PackManager()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        manager.load_entry_points(_distribution(tmp_path, "acme = h5_needy_pack").entry_points)
    (broken,) = manager.broken
    assert broken.missing == "h5_dependency_nobody_has"
    assert "the pack imports h5_dependency_nobody_has, which is not installed" in broken.hint
    assert "force-reinstall" not in broken.hint


def test_a_misspelt_hookimpl_gets_a_did_you_mean(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, typo=pack("h5_typo_pack2", register_trigers=lambda register: None))
    with pytest.warns(PackWarning):
        manager = get_plugin_manager()
    (broken,) = manager.broken
    assert broken.hint.startswith("did you mean 'register_triggers'? each @hookimpl function")
