// ntt64_modmul: a pipelined 64 x 64 product modulo p = 2^64 - 2^32 + 1 (the paper's ModMul unit:
//   twiddles and component-wise products).
//
// Citation: the NTT paper Sec. III (8 ModMul units, 72 DSPs = 8 x 9), reduced by eq. (3) (SPEC
//   4.4) with 2^64 = 2^32 - 1 and 2^96 = -1 (mod p). Python model: a * b % p.
// Parameters: BASE_W, BASE_LAT, LEVEL_LAT as karatsuba_mul (64 bits: two levels, 9 base
//   multipliers of BASE_W = 17 bits, one DSP each); TW tag bits (TW >= 1) beside the operands.
// Function: res_o = a_i * b_i mod p; tag_o = tag_i.
// Ranges: any a_i, b_i < 2^64 (the product < 2^128 is reduced as a 192-bit word with a = b = 0);
//   res_o in [0, p).
// Left out: stalling; the operands' own reduction (inputs need not be below p).
// Schedule: operands in cycle c give valid_o, tag_o and res_o in cycle c + LATENCY, LATENCY =
//   u_mul's latency (BASE_LAT + 2 LEVEL_LAT, 11 at the defaults) + 1 (the reduction and its
//   rank). valid_o is reset by rst_ni.
`default_nettype none

module ntt64_modmul #(
  parameter integer BASE_W    = 17,
  parameter integer BASE_LAT  = 3,
  parameter integer LEVEL_LAT = 4,
  parameter integer TW        = 1
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          valid_i,
  input  wire [TW-1:0] tag_i,
  input  wire [63:0]   a_i,
  input  wire [63:0]   b_i,
  output wire          valid_o,
  output wire [TW-1:0] tag_o,
  output wire [63:0]   res_o
);
  generate
    if (TW < 1) begin : g_illegal
      ntt64_modmul_illegal_parameters u_stop ();
    end
  endgenerate

  wire [127:0]  prod;
  wire          v1;
  wire [TW-1:0] tag1;
  karatsuba_mul #(.W(64), .BASE_W(BASE_W), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT), .SW(TW))
    u_mul (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .side_i(tag_i), .a_i(a_i),
           .b_i(b_i), .valid_o(v1), .side_o(tag1), .p_o(prod));

  wire [63:0] rs;
  ntt64_reduce u_red (.z_i({64'b0, prod}), .res_o(rs));

  delay_line #(.W(64 + TW), .N(1)) u_out (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({rs, tag1}), .q_o({res_o, tag_o})
  );
  delay_line #(.W(1), .N(1), .RST(1)) u_v2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(v1), .q_o(valid_o)
  );
endmodule
