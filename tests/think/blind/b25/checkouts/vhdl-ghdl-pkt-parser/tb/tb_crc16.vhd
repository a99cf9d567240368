library ieee;
use ieee.std_logic_1164.all;
library vunit_lib;
context vunit_lib.vunit_context;
use work.crc16_pkg.all;

entity tb_crc16 is
  generic (runner_cfg : string);
end entity;

architecture tb of tb_crc16 is
begin
  main : process
  begin
    test_runner_setup(runner, runner_cfg);
    while test_suite loop
      if run("test_check_string") then
        -- CRC-16/CCITT-FALSE of "123456789" is 0x29B1
        check_equal(crc_of_string("123456789"), x"29B1");
      end if;
    end loop;
    test_runner_cleanup(runner);
  end process;
end architecture;
