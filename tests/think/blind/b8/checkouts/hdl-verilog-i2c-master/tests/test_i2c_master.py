import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from i2c_model import I2cTarget


async def setup(dut):
    cocotb.start_soon(Clock(dut.clk_i, 10, units="ns").start())
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 4)
    dut.rst_ni.value = 1
    return I2cTarget(dut, addr=0x50)


@cocotb.test()
async def test_write_byte(dut):
    tgt = await setup(dut)
    dut.addr_i.value = 0x50
    dut.wdata_i.value = 0xA5
    dut.start_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.start_i.value = 0
    await RisingEdge(dut.done_o)
    assert tgt.received == [0xA5]
    assert dut.ack_err_o.value == 0


@cocotb.test()
async def test_wrong_address_nacks(dut):
    await setup(dut)
    dut.addr_i.value = 0x51
    dut.start_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.start_i.value = 0
    await RisingEdge(dut.done_o)
    assert dut.ack_err_o.value == 1
