import os
from pathlib import Path

import cocotb
import crcmod
from cocotb.clock import Clock
from cocotb.runner import get_runner
from cocotb.triggers import RisingEdge

RTL = Path(__file__).resolve().parent.parent / "rtl"
crc32 = crcmod.predefined.mkCrcFun("crc-32")


@cocotb.test()
async def crc_matches_reference(dut):
    cocotb.start_soon(Clock(dut.clk_i, 10, units="ns").start())
    dut.rst_ni.value = 0
    dut.valid_i.value = 0
    await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    data = b"123456789"
    for b in data:
        dut.valid_i.value = 1
        dut.data_i.value = b
        await RisingEdge(dut.clk_i)
    dut.valid_i.value = 0
    await RisingEdge(dut.clk_i)
    assert int(dut.crc_o.value) == crc32(data)


def test_crc32_runner():
    sim = os.getenv("SIM", "icarus")
    runner = get_runner(sim)
    runner.build(sources=[RTL / "crc32.sv"], hdl_toplevel="crc32", build_args=["-g2012"] if sim == "icarus" else [])
    runner.test(hdl_toplevel="crc32", test_module="test_crc32")
