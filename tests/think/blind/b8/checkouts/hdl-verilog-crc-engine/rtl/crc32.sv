module crc32 (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [7:0]  data_i,
  output logic [31:0] crc_o
);
  logic [31:0] crc_q;

  function automatic logic [31:0] next_crc(input logic [31:0] c, input logic [7:0] d);
    logic [31:0] r = c;
    for (int i = 0; i < 8; i++) begin
      r = (r[0] ^ d[i]) ? (r >> 1) ^ 32'hEDB88320 : (r >> 1);
    end
    return r;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni)      crc_q <= 32'hFFFF_FFFF;
    else if (valid_i) crc_q <= next_crc(crc_q, data_i);

  assign crc_o = ~crc_q;
endmodule
