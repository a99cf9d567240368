library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_pwm is
end entity;

architecture sim of tb_pwm is
  constant CLK_PERIOD : time := 10 ns;
  signal clk, rst      : std_logic := '0';
  signal duty          : unsigned(9 downto 0) := to_unsigned(256, 10);
  signal pwm_h, pwm_l  : std_logic;
begin
  clk <= not clk after CLK_PERIOD / 2;

  dut : entity work.pwm
    port map (clk => clk, rst => rst, duty => duty, pwm_h => pwm_h, pwm_l => pwm_l);

  stim : process
  begin
    rst <= '1'; wait for 50 ns; rst <= '0';
    wait until rising_edge(pwm_h);
    -- outputs must never be high together
    for i in 0 to 4095 loop
      wait until rising_edge(clk);
      assert not (pwm_h = '1' and pwm_l = '1')
        report "shoot-through: pwm_h and pwm_l both high" severity error;
    end loop;
    report "tb_pwm done" severity note;
    std.env.finish;
  end process;
end architecture;
