from pathlib import Path
from vunit import VUnit

ROOT = Path(__file__).parent
vu = VUnit.from_argv()
vu.add_vhdl_builtins()
lib = vu.add_library("lib")
lib.add_source_files(ROOT / "src" / "*.vhd")
lib.add_source_files(ROOT / "tb" / "*.vhd")
vu.set_compile_option("ghdl.a_flags", ["-frelaxed"])
vu.main()
