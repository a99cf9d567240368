module i2c_master #(
  parameter int CLK_DIV = 250
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       start_i,
  input  logic [6:0] addr_i,
  input  logic [7:0] wdata_i,
  output logic       done_o,
  output logic       ack_err_o,
  output logic       scl_o,
  input  logic       scl_i,
  output logic       sda_o,
  input  logic       sda_i
);
  typedef enum logic [2:0] {IDLE, START, BIT_LO, BIT_HI, ACK_LO, ACK_HI, STOP} state_e;
  state_e state_q, state_d;
  logic [$clog2(CLK_DIV)-1:0] div_q;
  logic tick;

  assign tick = (div_q == CLK_DIV-1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) div_q <= '0;
    else if (tick) div_q <= '0;
    else div_q <= div_q + 1'b1;
  end

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      BIT_LO: if (tick) state_d = BIT_HI;
      BIT_HI: if (tick) state_d = (bit_cnt_q == 0) ? ACK_LO : BIT_LO;
      ACK_LO: if (tick) state_d = ACK_HI;
      ACK_HI: if (tick) state_d = STOP;
      default: ;
    endcase
  end
endmodule
