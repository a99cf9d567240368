-- tb_fir: drives tb/vectors/in.txt through fir_filter and compares against
-- tb/vectors/golden.txt (produced by tools/gen_coeffs.ipynb with the same taps),
-- allowing +/-1 LSB.
library ieee;
use ieee.std_logic_1164.all;
use std.textio.all;

entity tb_fir is
end entity;
