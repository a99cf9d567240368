import os
from pathlib import Path

import pytest
from cocotb.runner import get_runner

RTL = Path(__file__).resolve().parents[1] / "rtl"


@pytest.mark.parametrize("mode", ["640x480", "800x600"])
def test_vga_timing(mode):
    runner = get_runner(os.getenv("SIM", "verilator"))
    runner.build(
        sources=[RTL / "vga_timing.sv"],
        hdl_toplevel="vga_timing",
        parameters={"MODE": f'"{mode}"'},
        build_dir=f"sim_build/{mode}",
    )
    runner.test(hdl_toplevel="vga_timing", test_module="vga_checks", build_dir=f"sim_build/{mode}")
