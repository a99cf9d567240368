import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles

from apb import ApbMaster


@cocotb.test()
async def test_oneshot_irq(dut):
    cocotb.start_soon(Clock(dut.pclk, 10, units="ns").start())
    bus = ApbMaster(dut)
    await bus.reset()
    await bus.write(0x04, 20)      # LOAD
    await bus.write(0x00, 0b01)    # CTRL.EN
    await ClockCycles(dut.pclk, 25)
    assert dut.irq_o.value == 1
