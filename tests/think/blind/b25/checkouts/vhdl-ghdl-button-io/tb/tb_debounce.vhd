library ieee;
use ieee.std_logic_1164.all;
library vunit_lib;
context vunit_lib.vunit_context;

entity tb_debounce is
  generic (runner_cfg : string; STABLE_MS : positive := 5);
end entity;

architecture tb of tb_debounce is
  signal clk, btn_raw, btn_db : std_logic := '0';
begin
  clk <= not clk after 10 ns;
  dut : entity work.debounce
    generic map (CLK_HZ => 50_000_000, STABLE_MS => STABLE_MS)
    port map (clk => clk, btn_raw => btn_raw, btn_db => btn_db);

  main : process
  begin
    test_runner_setup(runner, runner_cfg);
    while test_suite loop
      if run("test_bounce_filtered") then
        for i in 0 to 9 loop
          btn_raw <= not btn_raw; wait for 100 us;
        end loop;
        check_equal(btn_db, '0', "bounce leaked through");
      elsif run("test_press_registered") then
        btn_raw <= '1'; wait for (STABLE_MS + 1) * 1 ms;
        check_equal(btn_db, '1', "press not registered");
      end if;
    end loop;
    test_runner_cleanup(runner);
  end process;
end architecture;
