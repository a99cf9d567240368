from pathlib import Path
from vunit import VUnit

ROOT = Path(__file__).parent
vu = VUnit.from_argv()
vu.add_vhdl_builtins()
lib = vu.add_library("lib")
lib.add_source_files(ROOT / "src" / "*.vhd")
lib.add_source_files(ROOT / "tb" / "*.vhd")
tb = lib.test_bench("tb_debounce")
for ms in (1, 5):
    tb.add_config(name=f"stable_{ms}ms", generics=dict(STABLE_MS=ms))
vu.main()
