import cocotb
from cocotb.triggers import FallingEdge


@cocotb.test()
async def hsync_period(dut):
    await FallingEdge(dut.hsync_o)
    t0 = cocotb.utils.get_sim_time("ns")
    await FallingEdge(dut.hsync_o)
    period = cocotb.utils.get_sim_time("ns") - t0
    assert period > 0
