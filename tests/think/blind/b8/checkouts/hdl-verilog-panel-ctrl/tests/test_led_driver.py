import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles


@cocotb.test()
async def test_brightness_steps(dut):
    cocotb.start_soon(Clock(dut.clk_i, 83, units="ns").start())
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 2)
    dut.rst_ni.value = 1
    for level in (0, 64, 255):
        dut.level_i.value = level
        await ClockCycles(dut.clk_i, 256)
        on = 0
        for _ in range(256):
            await ClockCycles(dut.clk_i, 1)
            on += int(dut.led_o.value)
        assert abs(on - level) <= 1
