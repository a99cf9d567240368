class I2cTarget:
    """Tiny open-drain I2C target model driving sda_i from the dut's scl/sda."""
    def __init__(self, dut, addr):
        self.dut = dut
        self.addr = addr
        self.received = []
