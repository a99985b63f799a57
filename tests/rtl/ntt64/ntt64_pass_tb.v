// ntt64_pass_tb: ntt64_pass on S data banks and S operand banks (sdp_ram, 64 x S each), with
//   load ports for both and a read-back port on the data banks while the pass is idle.
`default_nettype none

module ntt64_pass_tb #(
  parameter integer S         = 8,
  parameter integer STAGES    = 1,
  parameter integer BASE_LAT  = 3,
  parameter integer LEVEL_LAT = 4
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire                 start_i,
  input  wire                 row_i,
  input  wire                 inv_i,
  input  wire [1:0]           op_i,
  output wire                 busy_o,
  output wire                 done_o,
  input  wire                 ld_we_i,
  input  wire                 ld_op_i,  // 1: the operand banks
  input  wire [$clog2(S)-1:0] ld_bank_i,
  input  wire [$clog2(S)-1:0] ld_addr_i,
  input  wire [63:0]          ld_data_i,
  input  wire [$clog2(S)-1:0] rb_bank_i,
  input  wire [$clog2(S)-1:0] rb_addr_i,
  output wire [63:0]          rb_data_o
);
  localparam integer AW = $clog2(S);
  wire [S*AW-1:0] rd_addr, op_addr, wr_addr;
  wire [64*S-1:0] rd_data, op_data, wr_data;
  wire [S-1:0]    wr_en;

  ntt64_pass #(.S(S), .STAGES(STAGES), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT)) u_pass (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .row_i(row_i), .inv_i(inv_i),
    .op_i(op_i), .busy_o(busy_o), .done_o(done_o), .rd_addr_o(rd_addr), .rd_data_i(rd_data),
    .op_addr_o(op_addr), .op_data_i(op_data), .wr_en_o(wr_en), .wr_addr_o(wr_addr),
    .wr_data_o(wr_data)
  );

  genvar b;
  generate
    for (b = 0; b < S; b = b + 1) begin : g_bank
      wire ld_d = ld_we_i && !ld_op_i && ld_bank_i == b;
      wire ld_o = ld_we_i && ld_op_i && ld_bank_i == b;
      wire [AW-1:0] ra = busy_o ? rd_addr[b*AW +: AW] : rb_addr_i;
      sdp_ram #(.W(64), .DEPTH(S)) u_data (
        .clk_i(clk_i), .we_i(wr_en[b]), .waddr_i(wr_addr[b*AW +: AW]),
        .wdata_i(wr_data[64*b +: 64]), .raddr_i(ra), .rdata_o(rd_data[64*b +: 64]),
        .ld_we_i(ld_d), .ld_addr_i(ld_addr_i), .ld_data_i(ld_data_i)
      );
      sdp_ram #(.W(64), .DEPTH(S)) u_op (
        .clk_i(clk_i), .we_i(1'b0), .waddr_i({AW{1'b0}}), .wdata_i(64'd0),
        .raddr_i(op_addr[b*AW +: AW]), .rdata_o(op_data[64*b +: 64]),
        .ld_we_i(ld_o), .ld_addr_i(ld_addr_i), .ld_data_i(ld_data_i)
      );
    end
  endgenerate

  reg [AW-1:0] rb_bank_q;
  always @(posedge clk_i) rb_bank_q <= rb_bank_i;
  assign rb_data_o = rd_data[64*rb_bank_q +: 64];
endmodule

`default_nettype wire
