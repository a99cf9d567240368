import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

BIT = 104  # 12 MHz / 115200


async def send(dut, byte):
    dut.rx_i.value = 0
    await ClockCycles(dut.clk_i, BIT)
    for i in range(8):
        dut.rx_i.value = (byte >> i) & 1
        await ClockCycles(dut.clk_i, BIT)
    dut.rx_i.value = 1
    await ClockCycles(dut.clk_i, BIT)


@cocotb.test()
async def test_rx_byte(dut):
    cocotb.start_soon(Clock(dut.clk_i, 83, units="ns").start())
    dut.rx_i.value = 1
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 2)
    dut.rst_ni.value = 1
    cocotb.start_soon(send(dut, 0x5A))
    await RisingEdge(dut.valid_o)
    assert dut.data_o.value == 0x5A
